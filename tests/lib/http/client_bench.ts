/**
 * Overhead of the HTTP core (limiter, headers, error mapping, JSON) over a bare fetch to the same local
 * server, measured in the same run so the ratio is what counts, not the machine.
 */
import { HttpClient } from "../../../lib/http/client.ts";
import { median, percentile, reportFigure } from "../../support/bench_figures.ts";

const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: () => {} },
  () => new Response('{"ok":true,"value":[1,2,3]}', { headers: { "content-type": "application/json" } }),
);
const url = `http://127.0.0.1:${server.addr.port}`;
const http = new HttpClient({ baseUrls: { datamap: url }, apiVersions: { datamap: "2023-09-01" } });

// Each bench also keeps its own round trips, for the p50 figure the report takes.
const bare: number[] = [];
const client: number[] = [];

Deno.bench("bare fetch (baseline)", { group: "get", baseline: true }, async () => {
  const started = performance.now();
  const response = await fetch(`${url}/datamap/api/atlas/v2/entity/guid/abc?api-version=2023-09-01`);
  await response.json();
  bare.push(performance.now() - started);
});

Deno.bench("HttpClient.request", { group: "get" }, async () => {
  const started = performance.now();
  await http.request({ method: "GET", path: "/datamap/api/atlas/v2/entity/guid/abc" });
  client.push(performance.now() - started);
});

globalThis.addEventListener("unload", () => {
  server.shutdown();
  if (bare.length === 0 || client.length === 0) return;
  reportFigure({
    id: "http.get",
    section: "http",
    name: "HttpClient.request GET, p50",
    value: median(client),
    unit: "ms",
    baseline: { name: "bare fetch of the same URL, p50", value: median(bare) },
    ratioLabel: "× the bare fetch",
    note: `p99 ${percentile(client, 0.99).toFixed(3)} ms against ${percentile(bare, 0.99).toFixed(3)} ms ` +
      `over ${client.length.toLocaleString("en-US")} calls`,
  });
});
