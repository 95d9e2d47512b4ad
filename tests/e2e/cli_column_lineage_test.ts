/**
 * Column lineage that renders, as a user runs it in a real subprocess against the emulator: `lineage
 * validate` and `lineage import` check a column-lineage CSV the way Purview needs it to draw it — a process
 * type with a columnMapping attribute, every column one of its end's columns, a mapping given whole in
 * Purview's shape — naming each problem as file:line:column with its fix (exit 2, nothing written), and a
 * correct file imports into a process that carries the mapping in the shape Purview draws.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../lib/emulator/mod.ts";
import { type CliSetupOptions, withCliSetup } from "../support/cli_harness.ts";
import {
  addColumnTables as addTables,
  ETL_TYPE,
  FACT_QN as FACT,
  LEGACY_TYPE,
  STAGING_QN as STAGING,
} from "../support/column_tables.ts";

const SETUP: CliSetupOptions = { seed: true, prefix: "govcat-column-lineage-" };
const HEADER = "source_entity_guid,target_entity_guid,process_name,metadata,source_column,target_column," +
  "process_type";

function writes(emulator: RunningEmulator): number {
  return emulator.faults.stats().log.filter((e) => e.method !== "GET").length;
}

/** The column-lineage file with one mistake of each kind, and its lines. */
function badFile(staging: string, fact: string): string {
  const mapping = JSON.stringify({
    columnMapping: JSON.stringify([{
      DatasetMapping: { Source: STAGING, Sink: FACT },
      ColumnMapping: [{ source: "order_id", Sink: "OrderId" }],
    }]),
  });
  return [
    HEADER,
    // line 2: a process type without columnMapping
    `${staging},${fact},load_legacy,,order_id,OrderId,${LEGACY_TYPE}`,
    // line 3: a column the source table does not have
    `${staging},${fact},load_fact,,order_total,Total,`,
    // line 4: a mapping given whole with a lower-case key
    `${staging},${fact},load_fact_json,"${mapping.replaceAll('"', '""')}",,,`,
  ].join("\n") + "\n";
}

Deno.test("lineage validate: three kinds of column lineage mistakes, each at file:line:column with its fix", async () => {
  await withCliSetup(SETUP, async ({ govcat, emulator, client, file }) => {
    const { staging, fact } = await addTables(client);
    const bad = await file("bad-columns.csv", badFile(staging, fact));
    const before = writes(emulator);

    const checked = await govcat("lineage", "validate", bad);
    assert.equal(checked.code, 2, checked.stderr);
    assert.match(checked.stderr, /has 3 problems; nothing was sent/);
    assert.match(
      checked.stderr,
      new RegExp(
        `${bad}:2:7: column process_type: process type ${LEGACY_TYPE} has no columnMapping attribute`,
      ),
    );
    assert.match(checked.stderr, /use a process type with a columnMapping attribute/);
    assert.match(
      checked.stderr,
      new RegExp(
        `${bad}:3:5: column source_column: "order_total" is not a column of the source azure_sql_table`,
      ),
    );
    assert.match(checked.stderr, /use one of its columns \(order_id, amount\)/);
    assert.match(
      checked.stderr,
      new RegExp(
        `${bad}:4:4: column metadata: columnMapping \\[0\\]\\.ColumnMapping\\[0\\] has the key "source": ` +
          'Purview reads "Source" \\(keys are case-sensitive\\) — rename it to "Source"',
      ),
    );

    const imported = await govcat("lineage", "import", bad);
    assert.equal(imported.code, 2, "the malformed mapping stops the import before anything is sent");
    assert.match(imported.stderr, /:4:4: column metadata: columnMapping/);
    assert.equal(writes(emulator), before, "validate and a refused import write nothing");
  });
});

Deno.test("lineage import: rows whose columns would not render are rejected, naming line, column and fix", async () => {
  await withCliSetup(SETUP, async ({ govcat, client, file }) => {
    const { staging, fact } = await addTables(client);
    // The well-formed part of the bad file: its mappings pass the row check, the catalog check rejects them.
    const rows = badFile(staging, fact).split("\n").slice(0, 3).join("\n") + "\n";
    const path = await file("catalog-mistakes.csv", rows);
    const imported = await govcat("lineage", "import", path);
    assert.equal(imported.code, 1, imported.stderr);
    const summary = JSON.parse(imported.stdout);
    assert.equal(summary.rejected, 2);
    assert.equal(summary.created, 0);
    const rejects = await Deno.readTextFile(summary.errorsFile);
    assert.match(rejects, /line 2, process_type: process type legacy_etl_job has no columnMapping attribute/);
    assert.match(rejects, /line 3, source_column: "+order_total"+ is not a column of the source/);
  });
});

Deno.test("lineage import: a correct column file records the mapping in the shape Purview draws", async () => {
  await withCliSetup(SETUP, async ({ govcat, emulator, client, file }) => {
    const { staging, fact } = await addTables(client);
    const whole = JSON.stringify({
      columnMapping: [{
        DatasetMapping: { Source: STAGING, Sink: FACT },
        ColumnMapping: [{ Source: "amount", Sink: "Total" }],
      }],
    });
    const good = await file(
      "good-columns.csv",
      [
        HEADER,
        `${staging},${fact},load_fact,,order_id,OrderId,${ETL_TYPE}`,
        `${staging},${fact},load_fact,"${whole.replaceAll('"', '""')}",,,`,
      ].join("\n") + "\n",
    );
    const before = writes(emulator);
    const checked = await govcat("lineage", "validate", good);
    assert.equal(checked.code, 0, checked.stderr);
    assert.equal(checked.json.columnLineageChecked, 1);
    assert.equal(checked.json.endsWithoutSchema, undefined, "both tables have their columns");
    assert.equal(writes(emulator), before, "validate sends no writes");

    const imported = await govcat("lineage", "import", good);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(imported.json.created, 2, "two rows, one process");
    assert.equal(imported.json.processes, 1);
    const lineage = await client.lineage.get(fact, { direction: "INPUT", depth: 1 });
    const process = Object.values(lineage.guidEntityMap ?? {}).find((e) => e.typeName === ETL_TYPE);
    assert.ok(process, "the process, of the row's process_type, is in the target's lineage");
    const mapping = JSON.parse(String(process.attributes?.columnMapping));
    assert.deepEqual(mapping, [{
      DatasetMapping: { Source: STAGING, Sink: FACT },
      ColumnMapping: [{ Source: "order_id", Sink: "OrderId" }, { Source: "amount", Sink: "Total" }],
    }]);
    assert.equal(imported.json.attributesNotStored, undefined, "the mapping is not sent as an attribute");
    const planned = await govcat("lineage", "import", good, "--dry-run");
    assert.equal(planned.code, 0, planned.stderr);
    assert.deepEqual([planned.json.wouldCreate, planned.json.wouldUpdate], [0, 2], "found by its own type");
    assert.equal(planned.json.preview[0].columnMappings, 2, "both pairs, the row's and the given mapping's");
    const again = await govcat("lineage", "import", good, "--restart", "--overwrite");
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.json.created, 0, "the process of that type is found again: nothing new is created");
  });
});

Deno.test("lineage validate: the column check reads in bulk, not once per row or process", async () => {
  await withCliSetup(SETUP, async ({ govcat, emulator, client, file }) => {
    const { staging, fact } = await addTables(client);
    const rows = Array.from({ length: 60 }, (_, i) => [
      `${staging},${fact},step_${i},,order_id,OrderId,${ETL_TYPE}`,
      `${staging},${fact},step_${i},,amount,Total,${ETL_TYPE}`,
    ]).flat();
    const path = await file("many.csv", [HEADER, ...rows].join("\n") + "\n");
    const gets = (match: RegExp) =>
      emulator.faults.stats().log.filter((e) => e.method === "GET" && match.test(e.path)).length;
    const [bulk, types] = [gets(/\/entity\/bulk$/), gets(/\/types\/entitydef\//)];
    const checked = await govcat("lineage", "validate", path);
    assert.equal(checked.code, 0, checked.stderr);
    assert.equal(checked.json.columnLineageChecked, 60);
    assert.equal(gets(/\/entity\/bulk$/) - bulk, 1, "both ends' columns in one bulk read");
    assert.ok(gets(/\/types\/entitydef\//) - types <= 8, "each type in the process type's chain read once");
  });
});
