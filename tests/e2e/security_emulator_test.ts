/**
 * The emulator against a web page in the user's browser: cross-origin and cross-site
 * requests, foreign Host headers (DNS rebinding) and admin writes without a JSON content type are refused,
 * and the catalog (a `--data` file) is unchanged; govcat's own client, which sends no Origin, still works.
 */
import assert from "node:assert/strict";
import { HttpClient } from "../../lib/http/client.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";

const RESET = "/_emulator/reset?data=true";
const ENTITY = "/datamap/api/atlas/v2/entity?api-version=2023-09-01";
const entityBody = JSON.stringify({
  entity: { typeName: "DataSet", attributes: { qualifiedName: "ds://planted/by/a/page", name: "planted" } },
});

async function withEmulator(test: (emulator: RunningEmulator) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "govcat-emulator-security-" });
  const emulator = await startEmulator({ seed: true, dataFile: `${dir}/catalog.db` });
  try {
    await test(emulator);
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** A request as written on the wire, Host included (fetch does not let a caller choose it). */
async function raw(port: number, head: string[], body = ""): Promise<{ status: number; text: string }> {
  const connection = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const bytes = new TextEncoder().encode(body);
    const request = [...head, `content-length: ${bytes.byteLength}`, "connection: close", "", ""].join(
      "\r\n",
    );
    await connection.write(new TextEncoder().encode(request));
    if (bytes.byteLength) await connection.write(bytes);
    const answer = await new Response(connection.readable).text();
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]), text: answer };
  } finally {
    try {
      connection.close();
    } catch {
      // Closed by reading to the end.
    }
  }
}

Deno.test("a web page cannot wipe or write the emulator's catalog: the data is unchanged", async () => {
  await withEmulator(async (emulator) => {
    const before = emulator.entityCount();
    assert.ok(before > 0, "seeded");
    const attempts: Array<[string, RequestInit, number]> = [
      ["reset from another origin", { method: "POST", headers: { origin: "http://evil.example" } }, 403],
      ["reset as a form from another origin", {
        method: "POST",
        headers: { origin: "http://evil.example", "content-type": "application/x-www-form-urlencoded" },
        body: "data=true",
      }, 403],
      ["reset from a sandboxed page (Origin: null)", { method: "POST", headers: { origin: "null" } }, 403],
      ["reset from another loopback port", {
        method: "POST",
        headers: { origin: "http://127.0.0.1:1", "content-type": "application/json" },
      }, 403],
      ["reset, cross-site without Origin", {
        method: "POST",
        headers: { "sec-fetch-site": "cross-site", "content-type": "application/json" },
      }, 403],
      ["reset with a text/plain body and no Origin", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "{}",
      }, 415],
      ["reset without a content type", { method: "POST" }, 415],
    ];
    for (const [name, init, status] of attempts) {
      const response = await fetch(emulator.url + RESET, init);
      const text = await response.text();
      assert.equal(response.status, status, `${name}: ${response.status} ${text}`);
    }
    for (const site of ["cross-site", "same-site"]) {
      const response = await fetch(emulator.url + ENTITY, {
        method: "POST",
        headers: { "sec-fetch-site": site, "content-type": "text/plain;charset=UTF-8" },
        body: entityBody,
      });
      assert.equal(response.status, 403, await response.text());
    }
    const planted = await fetch(emulator.url + ENTITY, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "text/plain;charset=UTF-8" },
      body: entityBody,
    });
    assert.equal(planted.status, 403);
    assert.match((await planted.json()).errorMessage, /Origin "https:\/\/evil\.example" is not allowed/);

    // DNS rebinding: a foreign name that resolves to 127.0.0.1.
    for (
      const host of [
        `evil.example:${emulator.port}`,
        `127.0.0.1:${emulator.port} evil`,
        "evil.example@127.0.0.1",
      ]
    ) {
      const rebound = await raw(emulator.port, [
        `POST ${RESET} HTTP/1.1`,
        `host: ${host}`,
        "content-type: application/json",
      ]);
      assert.ok(rebound.status === 403 || rebound.status === 400, `Host ${host}: ${rebound.text}`);
    }
    assert.equal(emulator.entityCount(), before, "nothing was wiped or written");
  });
});

Deno.test("govcat's own client and same-origin requests keep working", async () => {
  await withEmulator(async (emulator) => {
    const http = new HttpClient({ baseUrls: { datamap: emulator.url } });
    const search = await http.request<{ "@search.count": number }>({
      method: "POST",
      path: "/datamap/api/search/query",
      apiVersion: "2023-09-01",
      body: { keywords: "*", limit: 1 },
      idempotent: true,
    });
    assert.ok(search["@search.count"] > 0);
    const health = await fetch(`${emulator.url}/_emulator/health`);
    assert.deepEqual(await health.json(), { status: "ok" });
    // Its own origin (a page served from the emulator's address, or a user typing the URL) is allowed.
    const own = await fetch(`${emulator.url}/_emulator/faults`, {
      method: "PUT",
      headers: { origin: emulator.url, "sec-fetch-site": "same-origin", "content-type": "application/json" },
      body: JSON.stringify({ latencyMs: 0 }),
    });
    assert.equal(own.status, 200, await own.text());
    const localhost = await raw(emulator.port, [
      "GET /_emulator/health HTTP/1.1",
      `host: localhost:${emulator.port}`,
    ]);
    assert.equal(localhost.status, 200, localhost.text);
    const wiped = await fetch(emulator.url + RESET, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    assert.equal(wiped.status, 200, await wiped.text());
    assert.equal(emulator.entityCount(), 0);
  });
});
