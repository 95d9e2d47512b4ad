/**
 * `client.scan` against the emulator: data sources, scans, runs (start, status, cancel and its retry) and
 * history, triggers (with enable and disable) and classification rules (listed over several pages), 404s as
 * NotFoundError and 409s as ConflictError, and nextLink paging that stays on the configured endpoint.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import type { ScanApi } from "../../../lib/catalog/scan_api.ts";
import type { RunningEmulator } from "../../../lib/emulator/mod.ts";
import { CatalogError, ConflictError, NotFoundError } from "../../../lib/core/errors.ts";
import { withEmulator } from "../emulator/emulator_test_helpers.ts";
import { withScanServer } from "../emulator/scan/test_server.ts";
import { startLocalServer } from "../../support/local_server.ts";
import { answeredRecurrence } from "../../support/scan_answers.ts";

function clientFor(endpoint: string): CatalogClient {
  return CatalogClient.fromConfig(
    loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: endpoint }),
    { retryBaseMs: 5 },
  );
}

/** Runs `test` on the scanning calls of an empty emulator with the data source `sql` and its scan `full`. */
async function withSqlScan(test: (scan: ScanApi, emulator: RunningEmulator) => Promise<void>): Promise<void> {
  await withEmulator({ seed: false }, async (emulator) => {
    const scan = clientFor(emulator.url).scan;
    await scan.putDataSource("sql", { kind: "AzureSqlDatabase" });
    await scan.putScan("sql", "full", { kind: "AzureSqlDatabaseMsi" });
    await test(scan, emulator);
  });
}

async function collectAll<T>(items: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const item of items) list.push(item);
  return list;
}

Deno.test("ScanApi: data sources and scans, created then replaced, listed and deleted", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const scan = clientFor(emulator.url).scan;
    const first = await scan.putDataSource("sales-lake", {
      kind: "AdlsGen2",
      properties: {
        endpoint: "https://saleslake.dfs.core.windows.net/",
        collection: { referenceName: "sales" },
      },
    });
    assert.equal(first.created, true);
    assert.equal(first.value.properties?.collection?.referenceName, "sales");
    const second = await scan.putDataSource("sales-lake", { kind: "AdlsGen2" });
    assert.equal(second.created, false);
    assert.equal((await scan.getDataSource("sales-lake")).kind, "AdlsGen2");
    assert.deepEqual((await collectAll(scan.listDataSources())).map((d) => d.name), ["sales-lake"]);

    const put = await scan.putScan("sales-lake", "daily", { kind: "AdlsGen2Msi" });
    assert.equal(put.created, true);
    assert.equal((await scan.getScan("sales-lake", "daily")).dataSourceName, "sales-lake");
    assert.deepEqual((await collectAll(scan.listScans("sales-lake"))).map((s) => s.name), ["daily"]);

    const trigger = await scan.putTrigger("sales-lake", "daily", {
      properties: { scanLevel: "Incremental", recurrence: { frequency: "Day", interval: 1 } },
    });
    assert.equal(trigger.created, true);
    const rule = await scan.putClassificationRule("emp-id", {
      kind: "Custom",
      properties: { classificationName: "EMP", dataPatterns: [{ kind: "Regex", pattern: "^E\\d{6}$" }] },
    });
    assert.equal(rule.value.properties?.version, 1);

    await scan.deleteScan("sales-lake", "daily");
    await assert.rejects(scan.getScan("sales-lake", "daily"), NotFoundError);
    await scan.deleteDataSource("sales-lake");
    await assert.rejects(scan.getDataSource("sales-lake"), NotFoundError);
    await assert.rejects(scan.deleteDataSource("sales-lake"), NotFoundError);
    await assert.rejects(collectAll(scan.listScans("sales-lake")), NotFoundError);
  });
});

Deno.test("ScanApi: runScan sends POST :run with runId and scanLevel; history lists the run", async () => {
  await withSqlScan(async (scan, emulator) => {
    const runId = crypto.randomUUID();
    const run = await scan.runScan("sql", "full", { runId, scanLevel: "Full" });
    assert.equal(run.id, runId);
    assert.equal(run.status, "Accepted");
    assert.equal(run.scanLevelType, "Full");
    const log = emulator.faults.stats().log.filter((entry) => entry.method === "POST");
    assert.equal(log.length, 1);
    assert.match(log[0].path, /^\/scan\/datasources\/sql\/scans\/full:run$/);

    const generated = await scan.runScan("sql", "full");
    assert.match(String(generated.id), /^[0-9a-f-]{36}$/);
    const history = await collectAll(scan.listScanRuns("sql", "full"));
    assert.deepEqual(history.map((r) => r.id), [generated.id, runId]);
    assert.equal((await scan.getScanRun("sql", "full", runId)).id, runId);
    await assert.rejects(scan.runScan("sql", "missing"), NotFoundError);
  });
});

Deno.test("ScanApi: lists follow nextLink on the endpoint and refuse one on another host", async () => {
  let foreign = false;
  const server = startLocalServer((request) => {
    const query = new URLSearchParams(request.search);
    if (!query.get("$skipToken")) {
      return Response.json({
        value: [{ name: "a", kind: "AzureStorage" }],
        count: 2,
        nextLink: foreign
          ? "https://elsewhere.example/scan/datasources?$skipToken=t2"
          : `${server.url}/scan/datasources?api-version=2023-09-01&$skipToken=t2`,
      });
    }
    assert.equal(query.get("api-version"), "2023-09-01", "sent once, by the client");
    assert.equal(query.getAll("api-version").length, 1);
    return Response.json({ value: [{ name: "b", kind: "AzureStorage" }], count: 2 });
  });
  try {
    const scan = clientFor(server.url).scan;
    assert.deepEqual((await collectAll(scan.listDataSources())).map((d) => d.name), ["a", "b"]);
    foreign = true;
    await assert.rejects(collectAll(scan.listDataSources()), (error: unknown) => {
      assert.ok(error instanceof CatalogError);
      assert.match(error.message, /not on the configured endpoint/);
      return true;
    });
  } finally {
    await server.close();
  }
});

Deno.test("ScanApi: getScanRun reads a run, cancelScan sends POST …/runs/{runId}:cancel", async () => {
  await withSqlScan(async (scan, emulator) => {
    const runId = crypto.randomUUID();
    await scan.runScan("sql", "full", { runId });
    const running = await scan.getScanRun("sql", "full", runId);
    assert.equal(running.id, runId);
    assert.ok(["Accepted", "InProgress"].includes(String(running.status)), String(running.status));
    assert.equal(running.dataSourceType, "AzureSqlDatabase");

    const cancel = await scan.cancelScan("sql", "full", runId);
    assert.equal(cancel.scanResultId, runId);
    assert.equal(cancel.status, "Accepted");
    const posts = emulator.faults.stats().log.filter((entry) => entry.method === "POST");
    assert.equal(posts.at(-1)?.path, `/scan/datasources/sql/scans/full/runs/${runId}:cancel`);
    const cancelled = await scan.getScanRun("sql", "full", runId);
    assert.equal(cancelled.status, "Canceled");
    assert.equal(cancelled.ingestionExecutionDetails?.status, "Canceled");

    await assert.rejects(scan.cancelScan("sql", "full", runId), (error: unknown) => {
      assert.ok(error instanceof ConflictError);
      assert.equal(error.status, 409);
      assert.match(error.message, /already ended \(Canceled\)/);
      return true;
    });
    await assert.rejects(scan.getScanRun("sql", "full", crypto.randomUUID()), NotFoundError);
    await assert.rejects(scan.cancelScan("sql", "full", crypto.randomUUID()), NotFoundError);
    await assert.rejects(scan.getScanRun("sql", "nightly", runId), NotFoundError);
  });
});

Deno.test("ScanApi: cancelScan is retried after a 503, as a repeat changes nothing more", async () => {
  await withSqlScan(async (scan, emulator) => {
    const runId = crypto.randomUUID();
    await scan.runScan("sql", "full", { runId });
    emulator.faults.script([{ status: 503, method: "POST", path: ":cancel" }]);
    const cancel = await scan.cancelScan("sql", "full", runId);
    assert.equal(cancel.status, "Accepted");
    const cancels = emulator.faults.stats().log.filter((entry) => entry.path.endsWith(":cancel"));
    assert.deepEqual(cancels.map((entry) => entry.status), [503, 202]);
    assert.equal((await scan.getScanRun("sql", "full", runId)).status, "Canceled");
  });
});

Deno.test("ScanApi: a trigger is put, read, disabled, enabled and deleted", async () => {
  await withEmulator({ seed: false }, async (emulator) => {
    const scan = clientFor(emulator.url).scan;
    await scan.putDataSource("lake", { kind: "AdlsGen2" });
    await scan.putScan("lake", "daily", { kind: "AdlsGen2Msi" });
    await assert.rejects(scan.getTrigger("lake", "daily"), NotFoundError);
    const recurrence = {
      frequency: "Day",
      interval: 1,
      startTime: "2025-01-06T02:00:00Z",
      schedule: { hours: [2], minutes: [30] },
    };
    const put = await scan.putTrigger("lake", "daily", { properties: { scanLevel: "Full", recurrence } });
    assert.equal(put.created, true);
    assert.equal(put.value.id, "datasources/lake/scans/daily/triggers/default");
    const replaced = await scan.putTrigger("lake", "daily", {
      properties: { scanLevel: "Incremental", recurrence },
    });
    assert.equal(replaced.created, false);
    const got = await scan.getTrigger("lake", "daily");
    assert.equal(got.properties?.scanLevel, "Incremental");
    assert.deepEqual(got.properties?.recurrence, answeredRecurrence(recurrence));

    const disabled = await scan.disableTrigger("lake", "daily");
    assert.equal(disabled.properties?.state, "Disabled");
    assert.deepEqual(disabled.properties?.recurrence, answeredRecurrence(recurrence));
    assert.equal((await scan.enableTrigger("lake", "daily")).properties?.state, "Enabled");
    const actions = emulator.faults.stats().log.filter((entry) => entry.method === "POST").map((e) => e.path);
    assert.deepEqual(actions, [
      "/scan/datasources/lake/scans/daily/triggers/default:disable",
      "/scan/datasources/lake/scans/daily/triggers/default:enable",
    ]);

    await scan.deleteTrigger("lake", "daily");
    await assert.rejects(scan.getTrigger("lake", "daily"), NotFoundError);
    await assert.rejects(scan.deleteTrigger("lake", "daily"), NotFoundError);
    await assert.rejects(scan.enableTrigger("lake", "daily"), NotFoundError);
    await assert.rejects(scan.disableTrigger("lake", "weekly"), NotFoundError);
  });
});

Deno.test("ScanApi: classification rules are put, read, listed over every page and deleted", async () => {
  await withScanServer(async ({ url }) => {
    const scan = clientFor(url).scan;
    const rule = (classificationName: string) => ({
      kind: "Custom",
      properties: { classificationName, dataPatterns: [{ kind: "Regex", pattern: "^E\\d{6}$" }] },
    });
    for (const name of ["emp-id", "cost-center", "iban"]) {
      assert.equal((await scan.putClassificationRule(name, rule(name.toUpperCase()))).created, true);
    }
    const again = await scan.putClassificationRule("emp-id", rule("EMPLOYEE"));
    assert.equal(again.created, false);
    assert.equal(again.value.properties?.version, 2);

    const got = await scan.getClassificationRule("emp-id");
    assert.equal(got.kind, "Custom");
    assert.equal(got.properties?.classificationName, "EMPLOYEE");
    const all = await collectAll(scan.listClassificationRules());
    assert.deepEqual(all.map((r) => r.name).sort(), ["cost-center", "emp-id", "iban"], "two pages of two");

    await scan.deleteClassificationRule("iban");
    await assert.rejects(scan.getClassificationRule("iban"), NotFoundError);
    await assert.rejects(scan.deleteClassificationRule("iban"), NotFoundError);
    assert.equal((await collectAll(scan.listClassificationRules())).length, 2);
  });
});
