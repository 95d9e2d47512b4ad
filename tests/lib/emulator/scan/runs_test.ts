/**
 * Scan runs and paging on a server that mounts the scanning area alone with a clock the test moves: a
 * run is Accepted, then InProgress, then Succeeded once its duration has passed (no timer involved), with
 * its phases in the contract's words; a running run is cancelled (202, the cancel request Accepted, an
 * Operation-Location naming the run) and reads Canceled after; lists are paged with `$skipToken`/`nextLink`.
 */
import assert from "node:assert/strict";
import { SCAN_V as V, withScanServer } from "./test_server.ts";

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
    assert.equal(running.body.ingestionExecutionDetails.status, "InProgress");
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
  await withScanServer(async ({ url, clock, send }) => {
    await send("PUT", `/scan/datasources/lake?${V}`, { kind: "AdlsGen2" });
    await send("PUT", `/scan/datasources/lake/scans/daily?${V}`, { kind: "AdlsGen2Msi" });
    const scan = "/scan/datasources/lake/scans/daily";
    const runId = crypto.randomUUID();
    await send("POST", `${scan}:run?${V}&runId=${runId}`);
    clock.now += 1_000;
    const cancelled = await send("POST", `${scan}/runs/${runId}:cancel?${V}`);
    assert.equal(cancelled.status, 202);
    assert.deepEqual(cancelled.body, {
      scanResultId: runId,
      startTime: "2025-01-06T02:00:01.000Z",
      endTime: null,
      status: "Accepted",
      error: null,
    }, "the state of the cancel request, as the contract's example shows it");
    assert.equal(cancelled.headers.get("operation-location"), `${url}${scan}/runs/${runId}?${V}`);

    clock.now += 60_000;
    const run = await send("GET", `${scan}/runs/${runId}?${V}`);
    assert.equal(run.body.status, "Canceled");
    assert.equal(run.body.endTime, "2025-01-06T02:00:01.000Z", "it ended when it was cancelled");
    assert.equal(run.body.discoveryExecutionDetails.status, "Cancelled", "the discovery enum's spelling");
    assert.equal(run.body.ingestionExecutionDetails.status, "Canceled", "the ingestion enum's spelling");
    const again = await send("POST", `${scan}/runs/${runId}:cancel?${V}`);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, "ScanRunAlreadyEnded");
    assert.match(again.body.error.message, /already ended \(Canceled\)/);

    const finished = crypto.randomUUID();
    await send("POST", `${scan}:run?${V}&runId=${finished}`);
    clock.now += 60_000;
    const late = await send("POST", `${scan}/runs/${finished}:cancel?${V}`);
    assert.equal(late.status, 409);
    assert.match(late.body.error.message, /already ended \(Succeeded\)/);
  });
});

Deno.test("scan runs: status and cancel of unknown runs are 404s, of malformed run ids 400s", async () => {
  await withScanServer(async ({ send }) => {
    await send("PUT", `/scan/datasources/lake?${V}`, { kind: "AdlsGen2" });
    await send("PUT", `/scan/datasources/lake/scans/daily?${V}`, { kind: "AdlsGen2Msi" });
    const scan = "/scan/datasources/lake/scans/daily";
    const unknown = crypto.randomUUID();
    for (
      const [method, path] of [["GET", `${scan}/runs/${unknown}`], ["POST", `${scan}/runs/${unknown}:cancel`]]
    ) {
      const reply = await send(method, `${path}?${V}`);
      assert.equal(reply.status, 404, `${method} ${path}`);
      assert.equal(reply.body.error.code, "ScanRunNotFound");
    }
    for (
      const [method, path] of [["GET", `${scan}/runs/not-a-guid`], ["POST", `${scan}/runs/not-a-guid:cancel`]]
    ) {
      const reply = await send(method, `${path}?${V}`);
      assert.equal(reply.status, 400, `${method} ${path}`);
      assert.match(reply.body.error.message, /runId 'not-a-guid' is not a GUID/);
    }
    const noScan = await send("GET", `/scan/datasources/lake/scans/nightly/runs/${unknown}?${V}`);
    assert.equal(noScan.body.error.code, "ScanNotFound", "the scan is looked up before the run");
    const noSource = await send("POST", `/scan/datasources/pond/scans/daily/runs/${unknown}:cancel?${V}`);
    assert.equal(noSource.body.error.code, "DataSourceNotFound");
    assert.equal((await send("POST", `${scan}/runs/${unknown}:pause?${V}`)).status, 404);
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
