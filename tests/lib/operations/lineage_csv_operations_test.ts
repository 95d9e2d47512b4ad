/**
 * `lineage import` and `lineage validate` on the bulk engine, in process against the seeded emulator:
 * table and column level (one process per group, created once), rows naming unusable entities rejected
 * into the reject file while the others are recorded, entity validation on and off, dry runs and bad files
 * sending nothing, `--create-missing-entities` refusing files that name missing GUIDs, and validate's
 * line-precise problems.
 */
import assert from "node:assert/strict";
import { importLineageCsv, validateLineageCsv } from "../../../lib/operations/lineage_csv_operations.ts";
import {
  CUSTOMER_360,
  CUSTOMERS,
  INVOICES,
  MONTHLY_REVENUE,
  ORDERS,
  rejection,
  SQL_SERVER,
  TABLE_HEADER,
  UNKNOWN,
  withLineageSetup,
} from "./lineage_csv_harness.ts";

Deno.test("lineage import: table level, one process per row group, re-import creates nothing", async () => {
  await withLineageSetup(async ({ emulator, file, run, catalog }) => {
    const table = await file(
      "table.csv",
      `${TABLE_HEADER}\n` +
        `${ORDERS},${MONTHLY_REVENUE},direct,revenue_rollup,Monthly revenue,0.95,finance,"{""pipeline"":""adf""}"\n` +
        `${CUSTOMERS},${CUSTOMER_360},direct,profile_build,,,,\n` +
        // The same group as line 2, further down: still one process.
        `${ORDERS},${MONTHLY_REVENUE},,revenue_rollup,,,,\n`,
    );
    const count = emulator.entityCount();
    const first = await run(importLineageCsv, { file: table });
    assert.equal(first.template, "lineage-table");
    assert.equal(first.rows, 3);
    assert.equal(first.processes, 2);
    assert.equal(first.created, 3, "rows of created processes");
    assert.equal(first.failed, 0);
    assert.deepEqual(first.attributesNotStored, ["confidenceScore", "pipeline", "relationshipType"]);
    assert.equal(emulator.entityCount(), count + 2);

    const again = await run(importLineageCsv, { file: table });
    assert.equal(again.created, 0);
    assert.equal(again.updated, 3);
    assert.equal(emulator.entityCount(), count + 2, "re-import creates nothing new");

    const lineage = await catalog.lineage.get(MONTHLY_REVENUE, { direction: "INPUT", depth: 1 });
    const processes = Object.values(lineage.guidEntityMap ?? {}).filter((e) => e.typeName === "Process");
    assert.equal(processes.length, 1);
    assert.equal(processes[0].attributes?.name, "revenue_rollup");
    assert.equal(processes[0].attributes?.description, "Monthly revenue");
  });
});

Deno.test("lineage import: column rows become one process's column mapping; skip-existing sends nothing", async () => {
  await withLineageSetup(async ({ emulator, file, run, catalog, writes }) => {
    const columns = await file(
      "columns.csv",
      "source_entity_guid,target_entity_guid,process_name,source_column,target_column\r\n" +
        `${ORDERS},${MONTHLY_REVENUE},revenue_rollup,OrderTotal,revenue\r\n` +
        `${INVOICES},${MONTHLY_REVENUE},invoice_rollup,,\r\n` +
        `${ORDERS},${MONTHLY_REVENUE},revenue_rollup,OrderId,order_count\r\n`,
    );
    const count = emulator.entityCount();
    const summary = await run(importLineageCsv, { file: columns, batchSize: 1 });
    assert.equal(summary.template, "lineage-column");
    assert.equal(summary.processes, 2);
    assert.equal(summary.created, 3);
    assert.equal(summary.batches, 2, "one unit per process, one unit per batch");
    assert.equal(emulator.entityCount(), count + 2);
    const lineage = await catalog.lineage.get(MONTHLY_REVENUE, { direction: "INPUT", depth: 1 });
    const rollup = Object.values(lineage.guidEntityMap ?? {}).find((e) =>
      e.attributes?.name === "revenue_rollup"
    );
    assert.ok(rollup?.guid);
    const stored = await catalog.entity.get(rollup.guid!);
    assert.deepEqual(JSON.parse(String(stored.entity.attributes?.columnMapping))[0].ColumnMapping, [
      { Source: "OrderTotal", Sink: "revenue" },
      { Source: "OrderId", Sink: "order_count" },
    ]);

    emulator.faults.reset();
    const skipped = await run(importLineageCsv, { file: columns, skipExisting: true });
    assert.equal(skipped.skipped, 3);
    assert.equal(skipped.created + skipped.updated, 0);
    assert.equal(writes(), 0, "existing processes are not written again");
  });
});

Deno.test("lineage import: rows naming unusable entities are rejected into the reject file, others recorded", async () => {
  await withLineageSetup(async ({ emulator, dir, file, run, writes }) => {
    const mixed = await file(
      "mixed.csv",
      "source_entity_guid,target_entity_guid,process_name\n" +
        `${ORDERS},${MONTHLY_REVENUE},good\n` +
        `${UNKNOWN},${ORDERS},missing_source\n` +
        `${SQL_SERVER},${CUSTOMER_360},not_a_data_set\n`,
    );
    const count = emulator.entityCount();
    const summary = await run(importLineageCsv, { file: mixed });
    assert.equal(summary.created, 1);
    assert.equal(summary.rejected, 2);
    assert.equal(summary.failed, 2, "the CLI exits 1");
    assert.equal(summary.errorsFile, `${dir}/mixed.rejected.csv`);
    assert.equal(emulator.entityCount(), count + 1);
    assert.equal(writes(), 1, "only the good process was written");
    const rejected = (await Deno.readTextFile(summary.errorsFile)).trim().split("\r\n");
    assert.equal(rejected[0], "source_entity_guid,target_entity_guid,process_name,source_line,import_error");
    assert.equal(rejected.length, 3);
    assert.ok(rejected[1].startsWith(`${UNKNOWN},${ORDERS},missing_source,3,`), rejected[1]);
    assert.match(rejected[1], new RegExp(`source_entity_guid ${UNKNOWN} not found \\(404\\)`));
    assert.ok(rejected[2].startsWith(`${SQL_SERVER},${CUSTOMER_360},not_a_data_set,4,`), rejected[2]);
    assert.match(rejected[2], /is a azure_sql_server, not a data set/);

    // Without validation the ends are still read (a missing one is still rejected without a write), but
    // the type is not checked: that row is sent, and the catalog's refusal rejects it.
    emulator.faults.reset();
    const unchecked = await run(importLineageCsv, { file: mixed, validateEntities: false, overwrite: true });
    assert.equal(unchecked.updated, 1);
    assert.equal(unchecked.rejected, 2);
    assert.equal(writes(), 2, "the good process and the non-data-set one were sent");
    const reasons = (await Deno.readTextFile(unchecked.errorsFile)).trim().split("\r\n");
    assert.match(reasons[1], /not found \(404\)/);
    assert.match(reasons[2], /,4,400 ATLAS-400-00-028: .*invalid value for type DataSet/);
  });
});

Deno.test("lineage import --dry-run: plans from the catalog and changes nothing", async () => {
  await withLineageSetup(async ({ emulator, file, run, writes }) => {
    const plan = await file(
      "plan.csv",
      "source_entity_guid,target_entity_guid,process_name\n" +
        `${ORDERS},${MONTHLY_REVENUE},known\n` +
        `${CUSTOMERS},${CUSTOMER_360},new\n` +
        `${UNKNOWN},${ORDERS},missing\n`,
    );
    const known = await file(
      "known.csv",
      `source_entity_guid,target_entity_guid,process_name\n${ORDERS},${MONTHLY_REVENUE},known\n`,
    );
    await run(importLineageCsv, { file: known });
    emulator.faults.reset();
    const count = emulator.entityCount();
    const dry = await run(importLineageCsv, { file: plan, dryRun: true });
    assert.equal(dry.dryRun, true);
    assert.equal(dry.wouldCreate, 1);
    assert.equal(dry.wouldUpdate, 1);
    assert.equal(dry.wouldReject, 1);
    assert.deepEqual(dry.preview.map((p: { action: string }) => p.action), ["update", "create", "reject"]);
    assert.match(dry.preview[2].reason, /not found/);
    assert.equal(writes(), 0, "a dry run writes nothing");
    assert.equal(emulator.entityCount(), count);
    await assert.rejects(Deno.stat(plan.replace(".csv", ".rejected.csv")), Deno.errors.NotFound);
  });
});

Deno.test("lineage import: a malformed file lists line-precise problems and sends nothing", async () => {
  await withLineageSetup(async ({ emulator, file, run }) => {
    const bad = await file(
      "bad.csv",
      "source_entity_guid,target_entity_guid,process_name,confidence_score,metadata,source_column,target_column\n" +
        `${ORDERS},${MONTHLY_REVENUE},p,0.5,,,\n` +
        `not-a-guid,${MONTHLY_REVENUE},p,0.5,,,\n` +
        `${ORDERS},${MONTHLY_REVENUE},p,1.5,{not json},a,\n` +
        `${ORDERS},${MONTHLY_REVENUE},p,,,a,\n` +
        `${ORDERS},${ORDERS},p,,,,\n` +
        `${ORDERS},${MONTHLY_REVENUE},p,,"[1]",,\n` +
        `${ORDERS},${MONTHLY_REVENUE}\n`,
    );
    emulator.faults.reset();
    const error = await rejection(() => run(importLineageCsv, { file: bad }));
    assert.equal(error.exitCode, 2);
    for (
      const expected of [
        `${bad}:3:1: column source_entity_guid: "not-a-guid" is not a GUID`,
        `${bad}:4:4: column confidence_score: "1.5" is not a number from 0 to 1`,
        `${bad}:4:5: column metadata: "{not json}" is not valid JSON`,
        `${bad}:5:7: column target_column: is required when source_column is given`,
        `${bad}:6:2: column target_entity_guid: is the same entity as source_entity_guid`,
        `${bad}:7:5: column metadata: must be a JSON object`,
        `${bad}:8: the row has 2 fields but the header has 7`,
      ]
    ) assert.ok(error.message.includes(expected), `${expected}\n---\n${error.message}`);
    assert.match(error.message, /has 7 problems; nothing was sent/);
    assert.equal(emulator.faults.stats().total, 0, "not one request, the good row's included");

    // A header matching no template is checked against the closest one: each header problem is listed.
    const header = await file("header.csv", `source_guid,target_entity_guid\n${ORDERS},${MONTHLY_REVENUE}\n`);
    const wrongHeader = await rejection(() => run(validateLineageCsv, { file: header }));
    assert.equal(wrongHeader.exitCode, 2);
    assert.ok(
      wrongHeader.message.includes(
        `${header}:1:1: column source_guid: not a column of template lineage-basic.`,
      ),
      wrongHeader.message,
    );
    assert.match(
      wrongHeader.message,
      /header\.csv:1: the header has no source_entity_guid column, which is required/,
    );
    assert.equal(emulator.faults.stats().total, 0);
  });
});

Deno.test("lineage import --create-missing-entities: refuses files naming missing GUIDs, as a whole", async () => {
  await withLineageSetup(async ({ file, run, writes }) => {
    const missing = await file(
      "missing.csv",
      `source_entity_guid,target_entity_guid\n${ORDERS},${CUSTOMER_360}\n${CUSTOMERS},${UNKNOWN}\n`,
    );
    const error = await rejection(() =>
      run(importLineageCsv, { file: missing, createMissingEntities: true })
    );
    assert.equal(error.exitCode, 2);
    assert.ok(
      error.message.includes(
        `${missing}:3:2: column target_entity_guid: ${UNKNOWN} not found (404); ` +
          "--create-missing-entities cannot create it",
      ),
      error.message,
    );
    assert.match(error.hint ?? "", /Create the entities first/);
    assert.equal(writes(), 0, "nothing written, the good row included");

    const present = await file(
      "present.csv",
      `source_entity_guid,target_entity_guid\n${ORDERS},${CUSTOMER_360}\n`,
    );
    const summary = await run(importLineageCsv, { file: present, createMissingEntities: true });
    assert.equal(summary.created, 1, "with every entity present the option changes nothing");
  });
});

Deno.test("lineage validate: valid files pass; unusable entities are listed by line; --offline reads nothing", async () => {
  await withLineageSetup(async ({ emulator, file, run, writes }) => {
    const good = await file(
      "good.csv",
      "\uFEFFsource_entity_guid,target_entity_guid,process_name,confidence_score,metadata\r\n" +
        `${ORDERS},${MONTHLY_REVENUE},rollup,0.9,"{""pipeline"":""nightly""}"\r\n` +
        `${CUSTOMERS},${CUSTOMER_360},profile,,\r\n`,
    );
    assert.deepEqual(await run(validateLineageCsv, { file: good }), {
      file: good,
      valid: true,
      template: "lineage-table",
      rows: 2,
      columnLevel: false,
      processes: 2,
      entitiesChecked: 4,
    });

    const unusable = await file(
      "unusable.csv",
      "process_name,source_entity_guid,target_entity_guid\n" +
        `a,${UNKNOWN},${ORDERS}\n` +
        `b,${ORDERS},${MONTHLY_REVENUE}\n` +
        `c,${SQL_SERVER},${UNKNOWN}\n`,
    );
    const error = await rejection(() => run(validateLineageCsv, { file: unusable }));
    assert.equal(error.exitCode, 2);
    for (
      const expected of [
        `${unusable}:2:2: column source_entity_guid: ${UNKNOWN} not found (404)`,
        `${unusable}:4:2: column source_entity_guid: ${SQL_SERVER} is a azure_sql_server, not a data set`,
        `${unusable}:4:3: column target_entity_guid: ${UNKNOWN} not found (404)`,
      ]
    ) assert.ok(error.message.includes(expected), `${expected}\n---\n${error.message}`);
    assert.match(error.message, /3 problems/);

    emulator.faults.reset();
    const offline = await run(validateLineageCsv, { file: unusable, offline: true });
    assert.equal(offline.valid, true);
    assert.equal(offline.entitiesChecked, 0);
    assert.equal(emulator.faults.stats().total, 0, "--offline contacts nothing");
    assert.equal(writes(), 0);

    const missingFile = await rejection(() => run(validateLineageCsv, { file: `${good}.missing` }));
    assert.equal(missingFile.exitCode, 2);
    assert.match(missingFile.message, /no such file/);
  });
});
