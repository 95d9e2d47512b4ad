/**
 * `--delimiter` wins over detection in every import, including the reads an import makes before the bulk
 * engine (choosing the template, checking the file first, the import's own passes over its rows and
 * header). Each file here misleads detection: its header names are padded with tabs, as a copy out of a
 * spreadsheet leaves them, so the header line holds more tabs than separators and is detected as
 * tab-separated. Given the right `--delimiter`, each file imports (or is refused for what it really holds,
 * with its line and column) against the emulator.
 */
import assert from "node:assert/strict";
import { DelimiterSniffer } from "../../../lib/csv/delimiter.ts";
import { businessMetadataTemplate } from "../../../lib/templates/business_metadata_sets.ts";
import { type ImportRun, type ImportSetup, withImportSetup } from "../../support/import_setup.ts";

/** A header line whose names are padded with tabs: detection reads it as tab-separated. */
function paddedHeader(names: string[], separator: string): string {
  const line = names.map((name) => `${name}\t\t`).join(separator);
  assert.equal(new DelimiterSniffer().scan(`${line}\n`), "\t", "the header must mislead detection");
  return line;
}

/** Writes `rows` under the padded header of `names`, every line separated by `separator`. */
function misleadingFile(
  setup: ImportSetup,
  name: string,
  separator: string,
  names: string[],
  rows: string[][],
): Promise<string> {
  return setup.file(name, [paddedHeader(names, separator), ...rows.map((row) => row.join(separator))]);
}

function assertOk(run: ImportRun): void {
  assert.equal(run.code, 0, run.stdout + run.stderr);
}

Deno.test("entity bulk-import: --delimiter chooses the template from a header detection misreads", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const csv = await misleadingFile(
      setup,
      "entities.csv",
      "|",
      ["typeName", "qualifiedName", "description"],
      [
        ["DataSet", "ds://pipe/orders", "Orders, one row per order; with totals"],
        ["DataSet", "ds://pipe/customers", "Customers"],
      ],
    );
    const detected = await setup.govcat("entity", "bulk-import", `--csv-file=${csv}`);
    assert.equal(detected.code, 2, "detection reads the header as tab-separated");
    assert.equal(setup.writes(), 0);

    const run = await setup.govcat("entity", "bulk-import", `--csv-file=${csv}`, "--delimiter=pipe");
    assertOk(run);
    assert.equal(run.json.template, "entity-bulk-import");
    assert.deepEqual([run.json.rows, run.json.created], [2, 2]);
    const orders = await setup.catalog.entity.getByUniqueAttribute("DataSet", "ds://pipe/orders");
    assert.equal(orders.entity?.attributes?.description, "Orders, one row per order; with totals");
  });
});

Deno.test("uc term import-csv: --delimiter chooses the template, checks the file and reads its synonyms", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const domain = (await setup.unified.domains.create({ name: "Finance", type: "FunctionalUnit" })).id;
    // Pipes between fields leave the semicolons to the multi-value cells.
    const csv = await misleadingFile(setup, "terms.csv", "|", ["name", "description", "status", "synonyms"], [
      ["Revenue", "Money in, before costs", "PUBLISHED", "Turnover;Sales"],
      ["Turnover", "", "DRAFT", ""],
      ["Sales", "", "DRAFT", ""],
    ]);
    const args = ["uc", "term", "import-csv", `--csv-file=${csv}`, `--domain-id=${domain}`];
    const run = await setup.govcat(...args, "--delimiter=pipe");
    assertOk(run);
    assert.equal(run.json.template, "uc-term-all-fields");
    assert.deepEqual([run.json.rows, run.json.created], [3, 3]);
    const terms = new Map<string, string>();
    for await (const term of setup.unified.terms.list({ domainId: domain })) terms.set(term.id, term.name!);
    const revenue = [...terms].find(([, name]) => name === "Revenue")![0];
    const links = await setup.unified.terms.listRelationships(revenue, { relationshipType: "Synonym" });
    assert.deepEqual(links.map((link) => terms.get(link.entityId)).sort(), ["Sales", "Turnover"]);
  });
});

Deno.test("uc term import-csv --template: --delimiter places a synonym's problem at its column", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const domain = (await setup.unified.domains.create({ name: "Finance", type: "FunctionalUnit" })).id;
    const csv = await misleadingFile(setup, "terms.csv", "|", ["name", "status", "synonyms"], [
      ["Revenue", "PUBLISHED", "Nowhere"],
    ]);
    const run = await setup.govcat(
      "uc",
      "term",
      "import-csv",
      `--csv-file=${csv}`,
      `--domain-id=${domain}`,
      "--template=uc-term-multi-value",
      "--delimiter=pipe",
    );
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /terms\.csv:2:3: column synonyms: "Nowhere" is neither a row of the file nor a term of governance domain/,
    );
    assert.equal(setup.writes(), 1, "only the domain was written, by the test");
  });
});

const EXPORT_HEADER = [
  "collection_name",
  "friendly_name",
  "parent_collection",
  "path",
  "description",
  "provisioning_state",
  "created_at",
  "created_by",
  "last_modified_at",
  "last_modified_by",
];

Deno.test("collections import: --delimiter reads an export's header, so the file imports as an export", async () => {
  await withImportSetup({}, async (setup) => {
    const csv = await misleadingFile(setup, "collections.csv", ";", EXPORT_HEADER, [
      [
        "emea-de",
        "Germany",
        "emea",
        "emulator/sales/emea/emea-de",
        "Sales, Germany",
        "Succeeded",
        "",
        "",
        "",
        "",
      ],
      [
        "emea",
        "EMEA",
        "sales",
        "emulator/sales/emea",
        "Europe, Middle East, Africa",
        "Succeeded",
        "",
        "",
        "",
        "",
      ],
    ]);
    const run = await setup.govcat("collections", "import", `--csv-file=${csv}`, "--delimiter=semicolon");
    assertOk(run);
    assert.equal(run.json.template, "collections-export");
    assert.deepEqual([run.json.rows, run.json.created], [2, 2]);
    assert.deepEqual((await setup.catalog.collections.path("emea-de")).parentNameChain, [
      "emulator",
      "sales",
      "emea",
    ]);
    assert.equal((await setup.catalog.collections.get("emea")).description, "Europe, Middle East, Africa");
  });
});

Deno.test("collections import: --delimiter reads the rows and header of the cycle check, placing the cycle", async () => {
  await withImportSetup({}, async (setup) => {
    const header = ["collection_name", "friendly_name", "description", "parent_collection"];
    const csv = await misleadingFile(setup, "collections.csv", ";", header, [
      ["north", "North", "North, and more", "south"],
      ["south", "South", "", "north"],
    ]);
    const run = await setup.govcat("collections", "import", `--csv-file=${csv}`, "--delimiter=semicolon");
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(
      run.stderr,
      /collections\.csv:2:4: column parent_collection: collections form a cycle: north -> south -> north/,
    );
    assert.equal(setup.writes(), 0);
  });
});

/** Data sets of the emulator's seed. */
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const MONTHLY_REVENUE = "ca7a1000-0000-4000-8000-000000000060";
/** A GUID no entity has. */
const UNKNOWN = "00000000-0000-4000-8000-00000000dead";
const LINEAGE_COLUMN_HEADER = [
  "source_entity_guid",
  "target_entity_guid",
  "process_name",
  "source_column",
  "target_column",
];

Deno.test("lineage import: --delimiter chooses the template from a header detection misreads", async () => {
  await withImportSetup({}, async (setup) => {
    const csv = await misleadingFile(setup, "lineage.csv", "|", LINEAGE_COLUMN_HEADER, [
      [ORDERS, MONTHLY_REVENUE, "monthly, by region", "amount", "revenue"],
      [ORDERS, MONTHLY_REVENUE, "monthly, by region", "region", "region"],
    ]);
    const run = await setup.govcat("lineage", "import", csv, "--delimiter=pipe");
    assertOk(run);
    assert.equal(run.json.template, "lineage-column");
    assert.deepEqual([run.json.rows, run.json.processes, run.json.rejected], [2, 1, 0]);
  });
});

Deno.test("lineage import --create-missing-entities: --delimiter checks the file and places a missing entity", async () => {
  await withImportSetup({}, async (setup) => {
    const csv = await misleadingFile(setup, "lineage.csv", "|", LINEAGE_COLUMN_HEADER, [
      [ORDERS, MONTHLY_REVENUE, "monthly, by region", "amount", "revenue"],
      [ORDERS, UNKNOWN, "monthly, by region", "region", "region"],
    ]);
    const run = await setup.govcat(
      "lineage",
      "import",
      csv,
      "--template=lineage-column",
      "--create-missing-entities",
      "--delimiter=pipe",
    );
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stderr, new RegExp(`lineage\\.csv:3:2: column target_entity_guid: ${UNKNOWN} `));
    assert.equal(setup.writes(), 0);
  });
});

async function termNames(setup: ImportSetup, glossaryGuid: string): Promise<string[]> {
  return (await setup.catalog.glossary.listTerms(glossaryGuid)).map((term) => term.name!).sort();
}

Deno.test("glossary import-terms --mode=batches: any separator, and --delimiter checks the file", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const guid = (await setup.catalog.glossary.create({ name: "Finance" })).guid!;
    // The terms are sent as JSON, not as the file: a semicolon file is read as it is.
    const detected = await setup.file("detected.csv", ["name;description", "Revenue;Money in, before costs"]);
    const args = ["glossary", "import-terms", `--glossary-guid=${guid}`, "--mode=batches"];
    const plain = await setup.govcat(...args, `--csv-file=${detected}`);
    assertOk(plain);
    assert.deepEqual([plain.json.rows, plain.json.created], [1, 1]);

    const csv = await misleadingFile(setup, "terms.csv", ";", ["name", "description", "status"], [
      ["Margin", "Revenue minus costs, per period", "Approved"],
    ]);
    const run = await setup.govcat(...args, `--csv-file=${csv}`, "--delimiter=semicolon");
    assertOk(run);
    assert.deepEqual([run.json.rows, run.json.created], [1, 1]);
    assert.deepEqual(await termNames(setup, guid), ["Margin", "Revenue"]);
    const margin = (await setup.catalog.glossary.listTerms(guid)).find((term) => term.name === "Margin");
    assert.equal(margin?.longDescription, "Revenue minus costs, per period");
  });
});

Deno.test("glossary import-terms (the service's import): --delimiter=comma checks a comma file detection misreads", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const guid = (await setup.catalog.glossary.create({ name: "Finance" })).guid!;
    const csv = await misleadingFile(setup, "terms.csv", ",", ["name", "description", "status"], [
      ["Revenue", '"Money in; before costs"', "Approved"],
      ["Margin", "Revenue minus costs", "Draft"],
    ]);
    const args = ["glossary", "import-terms", `--csv-file=${csv}`, `--glossary-guid=${guid}`, "--poll-ms=50"];
    const run = await setup.govcat(...args, "--delimiter=comma");
    assertOk(run);
    assert.equal(run.json.status, "Succeeded");
    assert.deepEqual(await termNames(setup, guid), ["Margin", "Revenue"]);

    // Read as --delimiter says, even when that is wrong: refused, uploading nothing.
    const writes = setup.writes();
    const refused = await setup.govcat(...args, "--delimiter=semicolon");
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /terms\.csv:2:1: .* read with semicolons \(;\) between fields, as --delimiter says/,
    );
    assert.equal(setup.writes(), writes);
  });
});

const BM_HEADER = [
  "EntityType",
  "EntityUniqueAttributeValue",
  "BusinessAttributeName",
  "BusinessAttributeValue",
  "EntityUniqueAttributeName[optional]",
];
const SEED_CUSTOMERS_TABLE = "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Customers";

async function governance(setup: ImportSetup): Promise<void> {
  await setup.catalog.types.create(businessMetadataTemplate("governance")!);
}

Deno.test("import-business-metadata: a semicolon file whose rows need padding is refused, as the service reads commas only", async () => {
  await withImportSetup({}, async (setup) => {
    await governance(setup);
    // The last field is left out: checked through a padded copy, which must keep the semicolons.
    const csv = await setup.file("bm.csv", [
      BM_HEADER.join(";"),
      `azure_sql_table;${SEED_CUSTOMERS_TABLE};Governance.dataOwner;Sales, and data`,
    ]);
    const writes = setup.writes();
    for (const given of [[], ["--delimiter=semicolon"]]) {
      const run = await setup.govcat("entity", "import-business-metadata", `--bm-file=${csv}`, ...given);
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(
        run.stderr,
        /bm\.csv:1: the file has semicolons \(;\) between fields, (detected from the header|as --delimiter says), but it goes to the service's own import as it is .*, which reads commas only/,
      );
    }
    assert.equal(setup.writes(), writes, "nothing uploaded");
  });
});

Deno.test("import-business-metadata: --delimiter=comma checks a file detection misreads, padding its short rows", async () => {
  await withImportSetup({}, async (setup) => {
    await governance(setup);
    const csv = await misleadingFile(setup, "bm.csv", ",", BM_HEADER, [
      ["azure_sql_table", SEED_CUSTOMERS_TABLE, "Governance.dataOwner", '"Sales; and data"'],
    ]);
    const run = await setup.govcat(
      "entity",
      "import-business-metadata",
      `--bm-file=${csv}`,
      "--delimiter=comma",
    );
    assertOk(run);
    assert.equal(run.json.successImportInfoList.length, 1);
    const customers = await setup.catalog.entity.getByUniqueAttribute(
      "azure_sql_table",
      SEED_CUSTOMERS_TABLE,
    );
    assert.equal(customers.entity?.businessAttributes?.Governance?.dataOwner, "Sales; and data");
  });
});

Deno.test("import-business-metadata: --delimiter reads the header whose column order is checked", async () => {
  await withImportSetup({}, async (setup) => {
    const [type, value, ...rest] = BM_HEADER;
    const csv = await misleadingFile(setup, "bm.csv", ",", [value, type, ...rest], [
      [SEED_CUSTOMERS_TABLE, "azure_sql_table", "Governance.dataOwner", "Sales", ""],
    ]);
    const run = await setup.govcat(
      "entity",
      "import-business-metadata",
      `--bm-file=${csv}`,
      "--delimiter=comma",
    );
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(
      run.stderr,
      /bm\.csv:1:2: column EntityType: EntityType must be field 1: the service reads the columns/,
    );
  });
});

Deno.test("import-business-metadata: the padded copy of a file is read with the file's own separator", async () => {
  await withImportSetup({}, async (setup) => {
    // Detected from the header: commas, as the semicolons are quoted. The copy must not read otherwise.
    const [, ...rest] = BM_HEADER;
    const csv = await setup.file("bm.csv", [
      ['"Entity;Type;;;;"', ...rest].join(","),
      `azure_sql_table,${SEED_CUSTOMERS_TABLE},Governance.dataOwner,Sales`,
    ]);
    const run = await setup.govcat("entity", "import-business-metadata", `--bm-file=${csv}`);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(
      run.stderr,
      /bm\.csv:1:1: column Entity;Type;;;;: not a column of template business-metadata/,
    );
    assert.doesNotMatch(run.stderr, /semicolons/);
  });
});
