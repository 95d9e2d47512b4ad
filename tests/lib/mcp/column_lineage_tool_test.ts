/**
 * create_lineage through a real MCP client against the emulator runs the column lineage check before it
 * writes: a column that is not on its end's table is refused as an isError result naming the mapping and
 * the fix, with nothing written; mappings between real columns are recorded in the shape Purview draws.
 */
import assert from "node:assert/strict";
import { resultJson, startHarness } from "../../support/mcp_harness.ts";
import { addColumnTables, FACT_QN, STAGING_QN } from "../../support/column_tables.ts";

Deno.test("create_lineage: a column not on its table is refused before anything is written", async () => {
  const h = await startHarness();
  try {
    const { staging, fact } = await addColumnTables(h.catalog);
    const writes = () => h.emulator.faults.stats().log.filter((e) => e.method !== "GET").length;
    const before = writes();
    const refused = await h.client.callTool({
      name: "create_lineage",
      arguments: {
        source_guids: [staging],
        target_guids: [fact],
        process_name: "load_fact",
        column_mappings: [
          { source_column: "order_id", target_column: "OrderId" },
          { source_column: "amount", target_column: "total" },
        ],
      },
    });
    assert.equal(refused.isError, true);
    const text = JSON.stringify(resultJson(refused));
    assert.match(text, /would not render in Purview; nothing was written/);
    assert.match(text, /columnMapping\[1\] \(target_column\): \\"total\\" is not a column of the target/);
    assert.match(text, /write it \\"Total\\" \(column names are matched exactly\)/);
    assert.equal(writes(), before, "nothing was written");

    const created = await h.client.callTool({
      name: "create_lineage",
      arguments: {
        source_guids: [staging],
        target_guids: [fact],
        process_name: "load_fact",
        column_mappings: [
          { source_column: "order_id", target_column: "OrderId" },
          { source_column: "amount", target_column: "Total" },
        ],
      },
    });
    assert.ok(!created.isError, JSON.stringify(resultJson(created)));
    const guid = (created.structuredContent as { process_guid: string }).process_guid;
    const { entity } = await h.catalog.entity.get(guid);
    assert.deepEqual(JSON.parse(String(entity.attributes?.columnMapping)), [{
      DatasetMapping: { Source: STAGING_QN, Sink: FACT_QN },
      ColumnMapping: [{ Source: "order_id", Sink: "OrderId" }, { Source: "amount", Sink: "Total" }],
    }]);
  } finally {
    await h.close();
  }
});
