/**
 * Lineage commands as a user runs them, in a real subprocess against the emulator: get (by GUID, by type
 * and qualified name, next page), create (options, payload file, an existing process refused unless --if-exists=update, missing ends), and CSV
 * validate and import (table and column level, BOM and CRLF, file:line:column problems with exit 2 and
 * nothing sent, re-import creating nothing new, rows naming missing entities or refused by the catalog
 * rejected into the reject file with exit 1 while the others are recorded).
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../lib/emulator/mod.ts";
import { type CliSetupOptions, withCliSetup } from "../support/cli_harness.ts";

const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const INVOICES = "ca7a1000-0000-4000-8000-000000000040";
const MONTHLY_REVENUE = "ca7a1000-0000-4000-8000-000000000060";
const CUSTOMER_360 = "ca7a1000-0000-4000-8000-000000000061";
const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

const SETUP: CliSetupOptions = { seed: true, prefix: "govcat-lineage-" };

function writes(emulator: RunningEmulator): number {
  return emulator.faults.stats().log.filter((e) => e.method !== "GET").length;
}

Deno.test("lineage create, get (by GUID and by name) and next-page", async () => {
  await withCliSetup(SETUP, async ({ govcat, emulator, file }) => {
    const created = await govcat(
      "lineage",
      "create",
      `--source-guid=${ORDERS}`,
      `--source-guid=${CUSTOMERS}`,
      `--target-guid=${MONTHLY_REVENUE}`,
      "--process-name=revenue_rollup",
      "--description=Monthly revenue",
      '--column-mapping=[{"source":"OrderTotal","target":"revenue"}]',
    );
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.json.created, true);
    const processGuid = created.json.processGuid;

    const spec = await file(
      "spec.json",
      JSON.stringify({
        sources: [CUSTOMERS, { guid: ORDERS }],
        targets: [{ guid: MONTHLY_REVENUE }],
        processName: "revenue_rollup",
        columnMappings: [{ source: "OrderTotal", target: "revenue" }],
      }),
    );
    const refused = await govcat("lineage", "create", `--payload-file=${spec}`);
    assert.equal(refused.code, 2, "the process exists: nothing is changed without --if-exists=update");
    assert.match(refused.stderr, new RegExp(`exists already \\(guid ${processGuid}\\); nothing was changed`));
    const again = await govcat(
      "lineage",
      "create",
      `--payload-file=${spec}`,
      "--if-exists=update",
      "--confirm",
    );
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.json.created, false, "the same lineage from a payload file is the same process");
    assert.equal(again.json.processGuid, processGuid);

    const upstream = await govcat(
      "lineage",
      "get",
      `--guid=${MONTHLY_REVENUE}`,
      "--direction=INPUT",
      "--depth=1",
    );
    assert.equal(upstream.code, 0, upstream.stderr);
    assert.equal(upstream.json.lineageDirection, "INPUT");
    assert.equal(upstream.json.relations.length, 3);
    const mapping = JSON.parse(upstream.json.guidEntityMap[processGuid].attributes.columnMapping);
    assert.deepEqual(mapping[0].ColumnMapping, [{ Source: "OrderTotal", Sink: "revenue" }]);

    const byName = await govcat(
      "lineage",
      "get",
      "--type-name=DataSet",
      "--qualified-name=custom://finance/monthly-revenue",
      "--direction=INPUT",
    );
    assert.equal(byName.code, 0, byName.stderr);
    assert.equal(byName.json.baseEntityGuid, MONTHLY_REVENUE);
    assert.equal(byName.json.relations.length, 3);

    const page = await govcat("lineage", "next-page", `--guid=${ORDERS}`, "--direction=OUTPUT", "--limit=1");
    assert.equal(page.code, 0, page.stderr);
    assert.equal(page.json.childrenCount, 2, "the test's process and the seed's copy of Orders to the lake");

    const both = await govcat("lineage", "get", `--guid=${ORDERS}`, `--type-name=DataSet`);
    assert.equal(both.code, 2, "both forms at once is bad usage");

    const before = writes(emulator);
    const missing = await govcat(
      "lineage",
      "create",
      `--source-guid=${UNKNOWN}`,
      `--target-guid=${CUSTOMER_360}`,
    );
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, new RegExp(`source ${UNKNOWN} not found`));
    assert.match(missing.stderr, /status: 404/);
    assert.equal(writes(emulator), before, "nothing written");
    const noTargets = await govcat("lineage", "create", `--source-guid=${ORDERS}`);
    assert.equal(noTargets.code, 2);
    assert.match(noTargets.stderr, /--target-guid/);
  });
});

Deno.test("lineage validate <file>: good file passes, problems are file:line:column with exit 2", async () => {
  await withCliSetup(SETUP, async ({ govcat, emulator, file }) => {
    const good = await file(
      "good.csv",
      "\uFEFFsource_entity_guid,target_entity_guid,process_name,confidence_score,metadata\r\n" +
        `${ORDERS},${MONTHLY_REVENUE},rollup,0.9,"{""pipeline"":""nightly""}"\r\n` +
        `${CUSTOMERS},${CUSTOMER_360},profile,,\r\n`,
    );
    const valid = await govcat("lineage", "validate", good);
    assert.equal(valid.code, 0, valid.stderr);
    assert.deepEqual(valid.json, {
      file: good,
      valid: true,
      template: "lineage-table",
      rows: 2,
      columnLevel: false,
      processes: 2,
      entitiesChecked: 4,
    });
    assert.equal(writes(emulator), 0);

    emulator.faults.reset();
    const bad = await file(
      "bad.csv",
      "source_entity_guid,target_entity_guid,process_name,confidence_score,metadata,source_column,target_column\n" +
        `not-a-guid,${MONTHLY_REVENUE},p,0.5,,,\n` +
        `${ORDERS},${MONTHLY_REVENUE},p,1.5,{not json},a,\n` +
        `${ORDERS},${ORDERS},p,,,,\n` +
        `${ORDERS},${MONTHLY_REVENUE}\n` +
        `${ORDERS},${MONTHLY_REVENUE},p,,,a,\n`,
    );
    const refused = await govcat("lineage", "validate", bad);
    assert.equal(refused.code, 2);
    for (
      const expected of [
        `${bad}:2:1: column source_entity_guid: "not-a-guid" is not a GUID`,
        `${bad}:3:4: column confidence_score: "1.5" is not a number from 0 to 1`,
        `${bad}:3:5: column metadata: "{not json}" is not valid JSON`,
        `${bad}:4:2: column target_entity_guid: is the same entity as source_entity_guid`,
        `${bad}:5: the row has 2 fields but the header has 7`,
        `${bad}:6:7: column target_column: is required when source_column is given`,
      ]
    ) assert.ok(refused.stderr.includes(expected), `${expected}\n---\n${refused.stderr}`);
    assert.match(refused.stderr, /6 problems/);
    assert.equal(emulator.faults.stats().total, 0, "a malformed file sends nothing");

    const header = await file("header.csv", "source_guid,target_entity_guid\nx,y\n");
    const wrongHeader = await govcat("lineage", "validate", header);
    assert.equal(wrongHeader.code, 2);
    assert.match(
      wrongHeader.stderr,
      /header\.csv:1:1: column source_guid: not a column of template lineage-basic/,
    );
    assert.match(wrongHeader.stderr, /the header has no source_entity_guid column, which is required/);

    const unknown = await file(
      "unknown.csv",
      `source_entity_guid,target_entity_guid\n${UNKNOWN},${ORDERS}\n`,
    );
    const missing = await govcat("lineage", "validate", unknown);
    assert.equal(missing.code, 2);
    assert.ok(
      missing.stderr.includes(`${unknown}:2:1: column source_entity_guid: ${UNKNOWN} not found (404)`),
      missing.stderr,
    );
    assert.equal(writes(emulator), 0, "validate only reads");

    const absent = await govcat("lineage", "validate", `${header}.missing`);
    assert.equal(absent.code, 2);
    assert.match(absent.stderr, /no such file/);
  });
});

Deno.test("lineage import <file>: table and column level, idempotent, rejects bad rows, refuses bad files", async () => {
  await withCliSetup(SETUP, async ({ govcat, emulator, file, client }) => {
    const table = await file(
      "table.csv",
      "source_entity_guid,target_entity_guid,relationship_type,process_name,description,confidence_score,owner,metadata\n" +
        `${ORDERS},${MONTHLY_REVENUE},direct,revenue_rollup,Monthly revenue,0.95,finance,"{""pipeline"":""adf""}"\n` +
        `${CUSTOMERS},${CUSTOMER_360},direct,profile_build,,,,\n`,
    );
    const count = emulator.entityCount();
    const imported = await govcat("lineage", "import", table);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(imported.json.created, 2);
    assert.equal(imported.json.updated, 0);
    assert.equal(imported.json.failed, 0);
    assert.equal(imported.json.processes, 2);
    assert.deepEqual(imported.json.attributesNotStored, ["confidenceScore", "pipeline", "relationshipType"]);
    assert.equal(emulator.entityCount(), count + 2);

    const reimported = await govcat("lineage", "import", table);
    assert.equal(reimported.code, 0, reimported.stderr);
    assert.equal(reimported.json.created, 0);
    assert.equal(reimported.json.updated, 2);
    assert.equal(emulator.entityCount(), count + 2, "re-import creates nothing new");

    const columns = await file(
      "columns.csv",
      "source_entity_guid,target_entity_guid,process_name,source_column,target_column\r\n" +
        `${ORDERS},${MONTHLY_REVENUE},revenue_rollup,OrderTotal,revenue\r\n` +
        `${ORDERS},${MONTHLY_REVENUE},revenue_rollup,OrderId,order_count\r\n` +
        `${INVOICES},${MONTHLY_REVENUE},invoice_rollup,,\r\n`,
    );
    const withColumns = await govcat("lineage", "import", columns);
    assert.equal(withColumns.code, 0, withColumns.stderr);
    assert.equal(withColumns.json.processes, 2);
    assert.equal(withColumns.json.created, 1, "invoice_rollup is new (one row)");
    assert.equal(withColumns.json.updated, 2, "revenue_rollup gains its column mapping (two rows)");
    assert.equal(emulator.entityCount(), count + 3);
    const lineage = await govcat(
      "lineage",
      "get",
      `--guid=${MONTHLY_REVENUE}`,
      "--direction=INPUT",
      "--depth=1",
    );
    const rollup = Object.values(lineage.json.guidEntityMap).find((e) =>
      (e as { attributes?: { name?: string } }).attributes?.name === "revenue_rollup"
    ) as { guid: string };
    const stored = await client.entity.get(rollup.guid);
    const mapping = JSON.parse(String(stored.entity.attributes?.columnMapping));
    assert.deepEqual(mapping[0].ColumnMapping, [
      { Source: "OrderTotal", Sink: "revenue" },
      { Source: "OrderId", Sink: "order_count" },
    ]);

    // A refused write rejects its process's rows only: the summary counts them, exit code 1.
    emulator.faults.script([{ status: 400, method: "POST", path: "/atlas/v2/entity" }]);
    const partial = await govcat("lineage", "import", table);
    assert.equal(partial.code, 1);
    const summary = JSON.parse(partial.stdout);
    assert.equal(summary.failed, 1);
    assert.equal(summary.updated, 1);
    assert.match(await Deno.readTextFile(summary.errorsFile), /,2,400 /);

    emulator.faults.reset();
    const bad = await file(
      "bad.csv",
      `source_entity_guid,target_entity_guid\n${ORDERS},${MONTHLY_REVENUE}\nnope,${ORDERS}\n`,
    );
    const refused = await govcat("lineage", "import", bad);
    assert.equal(refused.code, 2);
    assert.ok(refused.stderr.includes(`${bad}:3:1:`), refused.stderr);
    assert.match(refused.stderr, /nothing was sent/);
    assert.equal(emulator.faults.stats().total, 0, "nothing sent, the good row included");

    // A row naming a missing entity is rejected into the reject file; the good row is recorded.
    const missing = await file(
      "missing.csv",
      `source_entity_guid,target_entity_guid\n${ORDERS},${CUSTOMER_360}\n${UNKNOWN},${ORDERS}\n`,
    );
    const notFound = await govcat("lineage", "import", missing);
    assert.equal(notFound.code, 1, notFound.stderr);
    const rejected = JSON.parse(notFound.stdout);
    assert.equal(rejected.created, 1);
    assert.equal(rejected.rejected, 1);
    assert.match(
      await Deno.readTextFile(rejected.errorsFile),
      new RegExp(`${UNKNOWN},${ORDERS},3,source_entity_guid ${UNKNOWN} not found`),
    );
    assert.equal(writes(emulator), 1, "only the good row's process was written");
  });
});
