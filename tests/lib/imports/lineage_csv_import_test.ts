/**
 * The lineage BulkImport against the seeded emulator: units grouped across a file, and `existing` and
 * `applied` (a process present with other column pairs is not applied). Writing once:
 * lineage_process_writes_test.ts.
 */
import assert from "node:assert/strict";
import { checkedRows } from "../../../lib/csv/check.ts";
import { lineageColumn } from "../../../lib/templates/csv/lineage_templates.ts";
import type { ImportUnit } from "../../../lib/csv/types.ts";
import { lineageCsvImport } from "../../../lib/imports/lineage_csv_import.ts";
import type { LineageProcessItem } from "../../../lib/imports/lineage_csv_rows.ts";
import {
  CUSTOMER_360,
  CUSTOMERS,
  MONTHLY_REVENUE,
  ORDERS,
  UNKNOWN,
  withLineageSetup,
} from "../operations/lineage_csv_harness.ts";

const HEADER = "source_entity_guid,target_entity_guid,relationship_type,process_name,description," +
  "confidence_score,owner,metadata,source_column,target_column";

async function unitsOf(path: string): Promise<ImportUnit<LineageProcessItem>[]> {
  const plugin = lineageCsvImport(undefined as never, lineageColumn, { validateEntities: true }).plugin;
  const units: ImportUnit<LineageProcessItem>[] = [];
  for await (const unit of plugin.units!(checkedRows(path, lineageColumn))) units.push(unit);
  return units;
}

Deno.test("lineage units: one per source, target and process name, every line of the group", async () => {
  await withLineageSetup(async ({ file }) => {
    const path = await file(
      "groups.csv",
      `${HEADER}\n` +
        `${ORDERS},${MONTHLY_REVENUE},,rollup,First,0.5,,,OrderTotal,revenue\n` +
        `${CUSTOMERS},${CUSTOMER_360},,profile,,,,,,\n` +
        `${ORDERS.toUpperCase()},${MONTHLY_REVENUE},,rollup,Second,,owner,"{""a"":1}",OrderId,order_count\n` +
        `${ORDERS},${MONTHLY_REVENUE},,other,,,,,,\n`,
    );
    const units = await unitsOf(path);
    assert.deepEqual(units.map((unit) => unit.lines), [[2, 4], [3], [5]]);
    assert.deepEqual(units[0].item, {
      sourceGuid: ORDERS,
      targetGuid: MONTHLY_REVENUE,
      processName: "rollup",
      description: "First",
      confidenceScore: 0.5,
      owner: "owner",
      metadata: { a: 1 },
      columnMappings: [{ source: "OrderTotal", target: "revenue", line: 2 }, {
        source: "OrderId",
        target: "order_count",
        line: 4,
      }],
    });
  });
});

Deno.test("lineage import: existing and applied tell a recorded process from a changed one", async () => {
  await withLineageSetup(async ({ file, catalog }) => {
    const path = await file(
      "one.csv",
      `${HEADER}\n${ORDERS},${MONTHLY_REVENUE},,rollup,,,,,OrderTotal,revenue\n` +
        `${UNKNOWN},${MONTHLY_REVENUE},,ghost,,,,,,\n`,
    );
    const run = lineageCsvImport(catalog, lineageColumn, { validateEntities: true });
    const units = await unitsOf(path);
    const signal = new AbortController().signal;
    assert.deepEqual(await run.plugin.existing!(units, signal), [false, false]);
    assert.deepEqual(await run.plugin.send([units[0]], signal), [{ status: "created" }]);
    assert.deepEqual(await run.plugin.existing!(units, signal), [true, false]);
    assert.deepEqual(await run.plugin.applied!(units, signal), [true, false]);

    const changed = await file(
      "changed.csv",
      `${HEADER}\n${ORDERS},${MONTHLY_REVENUE},,rollup,,,,,OrderId,ids\n`,
    );
    const [other] = await unitsOf(changed);
    assert.deepEqual(await run.plugin.existing!([other], signal), [true], "the same process");
    assert.deepEqual(await run.plugin.applied!([other], signal), [false], "with other column pairs");
    assert.deepEqual(await run.plugin.send([other], signal), [{ status: "updated" }]);
    assert.deepEqual(await run.plugin.applied!([other], signal), [true]);
  });
});
