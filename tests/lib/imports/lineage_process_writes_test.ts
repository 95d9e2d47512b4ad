/**
 * Lineage processes are written once, against the seeded emulator: an answer lost after the write is not
 * repeated by the HTTP core; the engine asks `applied` and counts the rows recovered instead of sending
 * them again.
 */
import assert from "node:assert/strict";
import { runBulkImport } from "../../../lib/csv/engine.ts";
import { lineageColumn } from "../../../lib/templates/csv/lineage_templates.ts";
import { lineageCsvImport } from "../../../lib/imports/lineage_csv_import.ts";
import { MONTHLY_REVENUE, ORDERS, withLineageSetup } from "../operations/lineage_csv_harness.ts";

const HEADER = "source_entity_guid,target_entity_guid,relationship_type,process_name,description," +
  "confidence_score,owner,metadata,source_column,target_column";

Deno.test("lineage import: an answer lost after the write is recovered, not sent again", async () => {
  await withLineageSetup(async ({ emulator, file, catalog, writes }) => {
    const path = await file(
      "lost.csv",
      `${HEADER}\n${ORDERS},${MONTHLY_REVENUE},,rollup,,,,,OrderTotal,revenue\n`,
    );
    const count = emulator.entityCount();
    // The write loses its answer after the process was written (the HTTP core does not repeat it).
    const lost = { drop: true, afterHandling: true, method: "POST", path: "/atlas/v2/entity" };
    emulator.faults.script([lost, lost, lost, lost]);
    const run = lineageCsvImport(catalog, lineageColumn, { validateEntities: true });
    const summary = await runBulkImport(run.plugin, {
      file: path,
      batchSize: 10,
      concurrency: 1,
      retryDelayMs: 5,
    });
    assert.equal(summary.recovered, 1, "found applied after the lost answers");
    assert.equal(summary.created + summary.updated + summary.failed, 0);
    assert.equal(writes(), 1, "one attempt, and no further send");
    assert.equal(emulator.entityCount(), count + 1);
  });
});
