/**
 * Scan runs and paging on a server that mounts the scanning area alone with a clock the test moves: a
 * run is Accepted, then InProgress, then Succeeded once its duration has passed (no timer involved), and
 * lists are paged with `$skipToken`/`nextLink`.
 */
import assert from "node:assert/strict";
import { EmulatorError, errorResponse } from "../../../lib/emulator/errors.ts";
import { createTypeSystem } from "../../../lib/emulator/mod.ts";
import { Router } from "../../../lib/emulator/router.ts";
import { createScanArea } from "../../../lib/emulator/scan_area.ts";
import { EntityStore } from "../../../lib/emulator/store.ts";

const V = "api-version=2023-09-01";

async function withScanServer(
  test: (api: {
    url: string;
    clock: { now: number };
    // deno-lint-ignore no-explicit-any
    send(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  }) => Promise<void>,
): Promise<void> {
  const store = EntityStore.open();
  const clock = { now: Date.UTC(2025, 0, 6, 2) };
  const area = createScanArea({ pageSize: 2, runDurationMs: 10_000 })({
    store,
    types: createTypeSystem(store.database, () => clock.now),
    now: () => clock.now,
  });
  const router = new Router().mount("", area);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    const match = router.match(request.method, url.pathname);
    try {
      if (match.kind !== "found") throw new EmulatorError(404, "NotFound", "no route");
      return await match.handler({
        request,
        url,
        params: match.params,
        requestId: "test",
        readJson: () => request.json(),
      });
    } catch (error) {
      if (!(error instanceof EmulatorError)) throw error;
      return errorResponse("azure", error, "test");
    }
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    await test({
      url,
      clock,
      async send(method, path, body) {
        const response = await fetch(url + path, {
          method,
          headers: { "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
      },
    });
  } finally {
    await server.shutdown();
    store.close();
  }
}

Deno.test("scan runs: Accepted, InProgress, then Succeeded when the run is next read", async () => {
  await withScanServer(async ({ clock, send }) => {
    await send("PUT", `/scan/datasources/lake?${V}`, { kind: "AdlsGen2" });
    await send("PUT", `/scan/datasources/lake/scans/daily?${V}`, { kind: "AdlsGen2Msi" });
    const scan = "/scan/datasources/lake/scans/daily";
    const runId = crypto.randomUUID();
    const started = await send("POST", `${scan}:run?${V}&runId=${runId}`);
    assert.equal(started.status, 202);
    assert.equal(started.body.status, "Accepted");
    assert.equal(started.body.scanLevelType, "Incremental");
    assert.equal(started.body.endTime, null);
    assert.equal(started.body.startTime, "2025-01-06T02:00:00.000Z");

    clock.now += 4_000;
    const running = await send("GET", `${scan}/runs/${runId}?${V}`);
    assert.equal(running.body.status, "InProgress");
    assert.equal(running.body.discoveryExecutionDetails.status, "Running");
    assert.equal(running.body.ingestionExecutionDetails.estimatedTimeRemainingInSeconds, 6);

    clock.now += 6_000;
    const done = await send("GET", `${scan}/runs/${runId}?${V}`);
    assert.equal(done.body.status, "Succeeded");
    assert.equal(done.body.endTime, "2025-01-06T02:00:10.000Z");
    assert.equal(done.body.ingestionExecutionDetails.status, "Succeeded");

    clock.now += 60_000;
    const later = await send("GET", `${scan}/runs?${V}`);
    assert.equal(later.body.value[0].endTime, "2025-01-06T02:00:10.000Z", "the end is stored, not moved");
  });
});

Deno.test("scan runs: a running run can be cancelled, an ended one cannot", async () => {
  await withScanServer(async ({ clock, send }) => {
    await send("PUT", `/scan/datasources/lake?${V}`, { kind: "AdlsGen2" });
    await send("PUT", `/scan/datasources/lake/scans/daily?${V}`, { kind: "AdlsGen2Msi" });
    const scan = "/scan/datasources/lake/scans/daily";
    const runId = crypto.randomUUID();
    await send("POST", `${scan}:run?${V}&runId=${runId}`);
    clock.now += 1_000;
    const cancelled = await send("POST", `${scan}/runs/${runId}:cancel?${V}`);
    assert.equal(cancelled.status, 202);
    assert.equal(cancelled.body.scanResultId, runId);
    clock.now += 60_000;
    const run = await send("GET", `${scan}/runs/${runId}?${V}`);
    assert.equal(run.body.status, "Canceled");
    const again = await send("POST", `${scan}/runs/${runId}:cancel?${V}`);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, "ScanRunAlreadyEnded");
  });
});

Deno.test("scan lists: pages of two with $skipToken nextLinks; a forged token is a 400", async () => {
  await withScanServer(async ({ url, send }) => {
    for (const name of ["src-a", "src-b", "src-c", "src-d", "src-e"]) {
      assert.equal(
        (await send("PUT", `/scan/datasources/${name}?${V}`, { kind: "AzureStorage" })).status,
        201,
      );
    }
    const names: string[] = [];
    let path: string | undefined = `/scan/datasources?${V}`;
    let pages = 0;
    while (path) {
      const page = await send("GET", path);
      assert.equal(page.body.count, 5);
      names.push(...page.body.value.map((d: { name: string }) => d.name));
      pages++;
      if (page.body.nextLink) {
        assert.ok(page.body.nextLink.startsWith(`${url}/scan/datasources?${V}&%24skipToken=`));
        path = page.body.nextLink.slice(url.length);
      } else {
        path = undefined;
      }
    }
    assert.equal(pages, 3);
    assert.deepEqual(names, ["src-a", "src-b", "src-c", "src-d", "src-e"]);
    const forged = await send("GET", `/scan/datasources?${V}&$skipToken=xyz`);
    assert.equal(forged.status, 400);
    assert.match(forged.body.error.message, /skipToken/);
  });
});
