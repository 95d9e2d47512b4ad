/**
 * The scanning operations through a real MCP client (`invoke_operation`) against the emulator, where the
 * service was recorded answering otherwise than the contract: a delete's result carries the
 * resource the service answered (Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/
 * SessionRecords/DataSourceClientTest/DataSourceOperations.json), and a run's result starts with its
 * `runId`, whatever form the start's answer took (ScanClientTest/ScanRunOperations.json).
 */
import assert from "node:assert/strict";
import { startHarness } from "../../support/mcp_harness.ts";

Deno.test("MCP: scan deletes show the deleted resource; scan.run gives the runId", async () => {
  const h = await startHarness();
  try {
    await h.catalog.scan.putDataSource("lake", { kind: "AdlsGen2", properties: {} });
    await h.catalog.scan.putScan("lake", "daily", { kind: "AdlsGen2Msi" });
    const invoke = async (operation: string, args: Record<string, unknown>) => {
      const answer = await h.client.callTool({
        name: "invoke_operation",
        arguments: { operation, arguments: args },
      });
      assert.ok(!answer.isError, JSON.stringify(answer.content));
      // deno-lint-ignore no-explicit-any
      return (answer.structuredContent as { result: any }).result;
    };
    const run = await invoke("scan.run", { dataSourceName: "lake", scanName: "daily" });
    assert.match(run.runId, /^[0-9a-f-]{36}$/);
    assert.equal(run.runId, run.id);
    const status = await invoke("scan.scan-status", {
      dataSourceName: "lake",
      scanName: "daily",
      runId: run.runId,
    });
    assert.equal(status.id, run.runId);

    const scan = await invoke("scan.delete-scan", {
      dataSourceName: "lake",
      scanName: "daily",
      confirm: true,
    });
    assert.equal(scan.deleted, "daily");
    assert.equal(scan.scan.kind, "AdlsGen2Msi");
    const source = await invoke("scan.delete-data-source", { dataSourceName: "lake", confirm: true });
    assert.equal(source.deleted, "lake");
    assert.equal(source.dataSource.kind, "AdlsGen2");
    assert.equal(source.dataSource.properties.dataSourceCollectionMovingState, 0);
  } finally {
    await h.close();
  }
});
