/**
 * Overhead of the HTTP core (limiter, headers, error mapping, JSON) over a bare fetch to the same local
 * server, measured in the same run so the ratio is what counts, not the machine.
 */
import { HttpClient } from "../../lib/http.ts";

const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: () => {} },
  () => new Response('{"ok":true,"value":[1,2,3]}', { headers: { "content-type": "application/json" } }),
);
const url = `http://127.0.0.1:${server.addr.port}`;
const http = new HttpClient({ baseUrls: { datamap: url }, apiVersions: { datamap: "2023-09-01" } });

Deno.bench("bare fetch (baseline)", { group: "get", baseline: true }, async () => {
  const response = await fetch(`${url}/datamap/api/atlas/v2/entity/guid/abc?api-version=2023-09-01`);
  await response.json();
});

Deno.bench("HttpClient.request", { group: "get" }, async () => {
  await http.request({ method: "GET", path: "/datamap/api/atlas/v2/entity/guid/abc" });
});

globalThis.addEventListener("unload", () => server.shutdown());
