/**
 * `client.scan` against the emulator: data sources, scans, runs and history, triggers and classification
 * rules, 404s as NotFoundError, and nextLink paging that stays on the configured endpoint.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config.ts";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { CatalogError, NotFoundError } from "../../../lib/errors.ts";

function clientFor(endpoint: string): CatalogClient {
  return CatalogClient.fromConfig(
    loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: endpoint }),
    { retryBaseMs: 5 },
  );
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const item of items) list.push(item);
  return list;
}

Deno.test("ScanApi: data sources and scans, created then replaced, listed and deleted", async () => {
  const emulator = await startEmulator({ seed: true });
  try {
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
    assert.deepEqual((await all(scan.listDataSources())).map((d) => d.name), ["sales-lake"]);

    const put = await scan.putScan("sales-lake", "daily", { kind: "AdlsGen2Msi" });
    assert.equal(put.created, true);
    assert.equal((await scan.getScan("sales-lake", "daily")).dataSourceName, "sales-lake");
    assert.deepEqual((await all(scan.listScans("sales-lake"))).map((s) => s.name), ["daily"]);

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
    await assert.rejects(all(scan.listScans("sales-lake")), NotFoundError);
  } finally {
    await emulator.close();
  }
});

Deno.test("ScanApi: runScan sends POST :run with runId and scanLevel; history lists the run", async () => {
  const emulator = await startEmulator({ seed: false });
  try {
    const scan = clientFor(emulator.url).scan;
    await scan.putDataSource("sql", { kind: "AzureSqlDatabase" });
    await scan.putScan("sql", "full", { kind: "AzureSqlDatabaseMsi" });
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
    const history = await all(scan.listScanRuns("sql", "full"));
    assert.deepEqual(history.map((r) => r.id), [generated.id, runId]);
    assert.equal((await scan.getScanRun("sql", "full", runId)).id, runId);
    await assert.rejects(scan.runScan("sql", "missing"), NotFoundError);
  } finally {
    await emulator.close();
  }
});

Deno.test("ScanApi: lists follow nextLink on the endpoint and refuse one on another host", async () => {
  let foreign = false;
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request): Response => {
      const url = new URL(request.url);
      const token = url.searchParams.get("$skipToken");
      const base: string = `http://127.0.0.1:${server.addr.port}`;
      if (!token) {
        return Response.json({
          value: [{ name: "a", kind: "AzureStorage" }],
          count: 2,
          nextLink: foreign
            ? "https://elsewhere.example/scan/datasources?$skipToken=t2"
            : `${base}/scan/datasources?api-version=2023-09-01&$skipToken=t2`,
        });
      }
      assert.equal(url.searchParams.get("api-version"), "2023-09-01", "sent once, by the client");
      assert.equal(url.searchParams.getAll("api-version").length, 1);
      return Response.json({ value: [{ name: "b", kind: "AzureStorage" }], count: 2 });
    },
  );
  try {
    const scan = clientFor(`http://127.0.0.1:${server.addr.port}`).scan;
    assert.deepEqual((await all(scan.listDataSources())).map((d) => d.name), ["a", "b"]);
    foreign = true;
    await assert.rejects(all(scan.listDataSources()), (error: unknown) => {
      assert.ok(error instanceof CatalogError);
      assert.match(error.message, /not on the configured endpoint/);
      return true;
    });
  } finally {
    await server.shutdown();
  }
});
