/**
 * A write that is not idempotent is sent once even when the connection it would reuse dies mid-exchange.
 * Deno's fetch sends a request again, once, when a connection taken from its pool closes before the
 * answer (it assumes the server never read it), so the HTTP core sends such writes on connections of
 * their own. Two ways this shows: a live server that drops the connection after reading the request (it
 * must see the request once), and the catalog killed after applying a write and restarted at once (the
 * write must be reported as of unknown outcome, not resent: the entity stays at version 0).
 *
 * @module
 */
import assert from "node:assert/strict";
import http from "node:http";
import { httpClientFromConfig } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { EntityStore } from "../../lib/emulator/store.ts";
import { NetworkError } from "../../lib/core/errors.ts";
import { type EmulatorProcess, startEmulatorProcess } from "../support/emulator_process.ts";

const NOT_REPEATED = /not repeated because it may already have been applied/;

function clientFor(url: string, retryBaseMs?: number) {
  const config = loadConfig({
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: url,
    CATALOG_RATE_LIMIT: "0",
    CATALOG_MAX_RETRIES: "3",
  });
  return httpClientFromConfig(config, { retryBaseMs });
}

Deno.test("a POST is sent once when the server drops the connection after reading it, even on a reused one", async () => {
  const received: string[] = [];
  // Answers GETs normally (so a kept-alive connection is in the pool), and drops the connection of every
  // POST once it has read it: as a service that fails after applying a write.
  const server = http.createServer((request, response) => {
    received.push(request.method ?? "");
    request.resume();
    request.on("end", () => {
      if (request.method === "POST") request.socket.destroy();
      else response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  try {
    const client = clientFor(`http://127.0.0.1:${port}`, 5);
    assert.deepEqual(await client.request({ method: "GET", path: "/x" }), { ok: true });
    // Time for that connection to go back to fetch's pool, so the POST would be offered it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const error = await client.request({ method: "POST", path: "/create", body: {}, idempotent: false })
      .then(() => undefined, (e) => e);
    assert.ok(error instanceof NetworkError, `a NetworkError: ${error}`);
    assert.match(error.message, NOT_REPEATED);
    assert.deepEqual(received, ["GET", "POST"], "the server saw the POST once");

    // A write marked idempotent may be resent: the HTTP core retries it (and fetch may too).
    received.length = 0;
    await client.request({ method: "POST", path: "/upsert", body: {}, idempotent: true }).catch(() => {});
    assert.ok(received.length >= 2, `an idempotent POST was retried (${received.length} sent)`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

Deno.test("a write applied just before the catalog was killed is not resent to the restarted catalog", async () => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-resilience-reuse-" });
  const dataFile = `${dir}/catalog.db`;
  const qualifiedName = "ds://resilience/killed";
  // The answer waits 600 ms after the write is applied: the kill lands in between.
  const args = ["--latency-ms=600"];
  let emulator: EmulatorProcess | undefined = await startEmulatorProcess({ port: 0, dataFile, args });
  try {
    // govcat's own backoff (0.4 s and up), so a resend would reach the restarted catalog.
    const client = clientFor(emulator.url);
    await client.request({ method: "GET", path: "/_emulator/health" });
    // Time for that connection to go back to fetch's pool, so the write would be offered it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const write = client.request({
      method: "POST",
      path: "/datamap/api/atlas/v2/entity",
      body: { entity: { typeName: "DataSet", attributes: { qualifiedName, name: "killed" } } },
      idempotent: false,
      signal: AbortSignal.timeout(20_000),
    }).then(() => undefined, (e) => e);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const port = emulator.port;
    await emulator.kill("SIGKILL");
    emulator = await startEmulatorProcess({ port, dataFile, args });

    const error = await write;
    assert.ok(error instanceof NetworkError, `the write failed with a NetworkError: ${error}`);
    assert.match(error.message, NOT_REPEATED);
    assert.match(error.hint ?? "", /check the result first/);
    const stats = await (await fetch(`${emulator.url}/_emulator/stats`)).json();
    assert.equal(stats.total, 0, "the restarted catalog was not sent the write again");
    await emulator.kill("SIGTERM");
    emulator = undefined;
    const store = EntityStore.open(dataFile);
    try {
      const entity = store.findByQualifiedName("DataSet", qualifiedName);
      assert.ok(entity, "the write was applied before the kill and survived it");
      assert.equal(entity.version, 0, "written once");
    } finally {
      store.close();
    }
  } finally {
    await emulator?.kill("SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});
