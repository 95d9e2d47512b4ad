/**
 * `glossary assign_terms` on the bulk engine, against the emulator: assignments grouped per term, ones
 * already there skipped, a missing term or entity rejecting only its rows into the reject file with the
 * service's answer, dry runs, a bad file refused with file:line:column, re-runs, a dropped answer
 * recovered, and the template's sample.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { runBulkImport } from "../../../lib/csv/engine.ts";
import { glossaryAssignments } from "../../../lib/templates/csv/glossary_templates.ts";
import { sampleCsvLines } from "../../../lib/templates/csv/mod.ts";
import { glossaryAssignmentImport } from "../../../lib/imports/glossary_assign_import.ts";
import { exists } from "../../support/file_exists.ts";
import { type ImportSetup, readCsvRecords, withImportSetup } from "../../support/import_setup.ts";

const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const PRODUCTS = "ca7a1000-0000-4000-8000-000000000030";
const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

/** A glossary with the terms Revenue and Cost; returns their GUIDs. */
async function terms(setup: ImportSetup) {
  const glossary = await setup.catalog.glossary.create({ name: "Finance" });
  const make = async (name: string) =>
    (await setup.catalog.glossary.createTerm({ name, anchor: { glossaryGuid: glossary.guid } })).guid!;
  return { revenue: await make("Revenue"), cost: await make("Cost") };
}

async function assignedTo(setup: ImportSetup, term: string): Promise<string[]> {
  return (await setup.catalog.glossary.getTermAssignedEntities(term)).map((e) => String(e.guid)).sort();
}

Deno.test("assign_terms: grouped per term; existing skipped; a missing term or entity rejects only its rows", async () => {
  await withImportSetup({}, async (setup) => {
    const { revenue, cost } = await terms(setup);
    await setup.catalog.glossary.assignTermToEntities(revenue, [{ guid: ORDERS }]);
    const csv = await setup.file("assign.csv", [
      "term_guid,entity_guid",
      `${revenue},${CUSTOMERS}`,
      `${cost},${ORDERS}`,
      `${revenue},${UNKNOWN}`,
      `${UNKNOWN},${CUSTOMERS}`,
      `${revenue},${ORDERS}`,
      `${revenue.toUpperCase()},${PRODUCTS}`,
    ]);
    const run = await setup.govcat("glossary", "assign_terms", `--csv-file=${csv}`, "--batch-size=10");
    assert.equal(run.code, 1, "a rejected row makes the command fail after printing the summary");
    const summary = run.json;
    assert.equal(summary.rows, 6);
    assert.deepEqual([summary.created, summary.skipped, summary.rejected, summary.updated], [3, 1, 2, 0]);
    assert.equal(summary.created + summary.skipped + summary.rejected + summary.updated, summary.rows);
    assert.deepEqual(await assignedTo(setup, revenue), [CUSTOMERS, ORDERS, PRODUCTS]);
    assert.deepEqual(await assignedTo(setup, cost), [ORDERS]);

    const rejects = await readCsvRecords(summary.errorsFile);
    assert.deepEqual(rejects.map((r) => r.source_line), ["4", "5"]);
    assert.equal(rejects[0].entity_guid, UNKNOWN);
    assert.match(rejects[0].import_error, /^404 ATLAS-404-00-005: /, "the service's answer for the entity");
    assert.match(rejects[1].import_error, /^404 /, "the service's answer for the term");
    assert.equal(await exists(`${csv}.govcat-checkpoint`), false);

    // Again: nothing new to assign, the same two rows refused.
    const writes = setup.writes();
    const again = await setup.govcat("glossary", "assign_terms", `--csv-file=${csv}`, "--overwrite");
    assert.deepEqual([again.json.created, again.json.skipped, again.json.rejected], [0, 4, 2]);
    assert.equal(setup.writes(), writes + 1, "only the call that proves the unknown entity wrong");

    // The reject file, fixed, imports on its own (its added columns are ignored).
    const fixed = (await Deno.readTextFile(summary.errorsFile)).replace(UNKNOWN, PRODUCTS)
      .replace(`${UNKNOWN},${CUSTOMERS}`, `${cost},${CUSTOMERS}`);
    const retry = await setup.govcat(
      "glossary",
      "assign_terms",
      `--csv-file=${await setup.file("fixed.csv", fixed)}`,
    );
    assert.equal(retry.code, 0, retry.stderr);
    assert.deepEqual([retry.json.created, retry.json.skipped], [1, 1]);
    assert.deepEqual(await assignedTo(setup, cost), [CUSTOMERS, ORDERS]);
  });
});

Deno.test("assign_terms --dry-run plans create, skip and reject and sends nothing", async () => {
  await withImportSetup({}, async (setup) => {
    const { revenue } = await terms(setup);
    await setup.catalog.glossary.assignTermToEntities(revenue, [{ guid: ORDERS }]);
    const csv = await setup.file("assign.csv", [
      "term_guid,entity_guid",
      `${revenue},${CUSTOMERS}`,
      `${revenue},${ORDERS}`,
      `${revenue},${UNKNOWN}`,
      `${UNKNOWN},${CUSTOMERS}`,
    ]);
    const writes = setup.writes();
    const dry = await setup.govcat("glossary", "assign_terms", `--csv-file=${csv}`, "--dry-run");
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(setup.writes(), writes, "a dry run only reads");
    assert.deepEqual([dry.json.wouldCreate, dry.json.wouldSkip, dry.json.wouldReject], [1, 1, 2]);
    assert.deepEqual(dry.json.preview.map((p: { action: string }) => p.action), [
      "create",
      "skip",
      "reject",
      "reject",
    ]);
    assert.equal(dry.json.preview[0].entity_guid, CUSTOMERS);
    assert.deepEqual(await assignedTo(setup, revenue), [ORDERS]);
  });
});

Deno.test("assign_terms: a bad file lists every problem by file:line:column and sends nothing", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const bad = await setup.file("bad.csv", [
      "term_guid,entity_guid",
      `${UNKNOWN},not-a-guid`,
      `${UNKNOWN},${CUSTOMERS}`,
      `${UNKNOWN},${CUSTOMERS.toUpperCase()}`,
      `,${CUSTOMERS}`,
    ]);
    const run = await setup.govcat("glossary", "assign_terms", `--csv-file=${bad}`);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /bad\.csv has 3 problems; nothing was sent/);
    assert.match(run.stderr, /bad\.csv:2:2: column entity_guid: "not-a-guid" is not a GUID/);
    assert.match(run.stderr, /bad\.csv:4:1: column term_guid: .* is also on line 3/);
    assert.match(run.stderr, /bad\.csv:5:1: column term_guid: a value is required/);
    const columns = await setup.file("columns.csv", `term,entity\n${UNKNOWN},${CUSTOMERS}\n`);
    const wrong = await setup.govcat("glossary", "assign-terms", `--csv-file=${columns}`);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /columns\.csv:1: the header has no term_guid column/);
    const empty = await setup.file("empty.csv", "term_guid,entity_guid\n");
    const none = await setup.govcat("glossary", "assign_terms", `--csv-file=${empty}`);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /empty\.csv has a header but no rows/);
    assert.equal(setup.requests(), 0);
  });
});

Deno.test("assign_terms: an answer lost after the assignment is recovered, not sent again", async () => {
  await withImportSetup({}, async (setup) => {
    const { revenue, cost } = await terms(setup);
    const lines = ["term_guid,entity_guid"];
    for (const entity of [CUSTOMERS, ORDERS, PRODUCTS]) {
      lines.push(`${revenue},${entity}`, `${cost},${entity}`);
    }
    const csv = await setup.file("assign.csv", lines);
    // Applied, then answered 503: the engine must ask what is there rather than count on a resend.
    setup.emulator.faults.script([{
      method: "POST",
      path: "/assignedEntities",
      status: 503,
      afterHandling: true,
    }]);
    const catalog = CatalogClient.fromConfig(loadConfig({ ...setup.env, CATALOG_MAX_RETRIES: "0" }), {
      retryBaseMs: 5,
    });
    const summary = await runBulkImport(glossaryAssignmentImport(catalog), {
      file: csv,
      batchSize: 3,
      concurrency: 1,
      retryDelayMs: 5,
    });
    assert.equal(summary.rows, 6);
    assert.deepEqual(
      [summary.created, summary.recovered, summary.rejected],
      [4, 2, 0],
      JSON.stringify(summary),
    );
    assert.deepEqual(await assignedTo(setup, revenue), [CUSTOMERS, ORDERS, PRODUCTS]);
    assert.deepEqual(await assignedTo(setup, cost), [CUSTOMERS, ORDERS, PRODUCTS]);
  });
});

Deno.test("assign_terms: the glossary-assignments sample imports cleanly once it names a real term", async () => {
  await withImportSetup({}, async (setup) => {
    const { revenue } = await terms(setup);
    const sampleTerm = glossaryAssignments.sample[0][0];
    const csv = await setup.file(
      "sample.csv",
      sampleCsvLines(glossaryAssignments).join("\n").replaceAll(sampleTerm, revenue),
    );
    const run = await setup.govcat("glossary", "assign_terms", `--csv-file=${csv}`);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual([run.json.created, run.json.rejected], [glossaryAssignments.sample.length, 0]);
  });
});
