/**
 * `entity import-business-metadata --bm-file` against the seeded emulator: the file is checked with the
 * business-metadata template (streamed, line and column precise, columns in the service's order) before
 * the upload; `--dry-run` uploads nothing; the template's sample imports cleanly once the governance and
 * privacy business metadata exist.
 */
import assert from "node:assert/strict";
import { businessMetadata } from "../../../lib/templates/csv/business_metadata_templates.ts";
import { sampleCsvLines } from "../../../lib/templates/csv/mod.ts";
import { businessMetadataTemplate } from "../../../lib/templates/business_metadata_sets.ts";
import { type ImportSetup, withImportSetup } from "../../support/import_setup.ts";

const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";

async function governanceAndPrivacy(setup: ImportSetup): Promise<void> {
  for (const name of ["governance", "privacy"]) {
    await setup.catalog.types.create(businessMetadataTemplate(name)!);
  }
}

/** The business metadata the seed gives the Customers table (fixtures/emulator/seed.json). */
const SEEDED_CUSTOMERS_BM = {
  DataStewardship: { steward: "Dana Whitfield", reviewCycle: "Quarterly", retentionDays: 2555 },
  Compliance: { gdprRelevant: true, dataResidency: "EU" },
};

async function bmOf(setup: ImportSetup, guid: string) {
  return (await setup.catalog.entity.get(guid)).entity?.businessAttributes ?? {};
}

Deno.test("import-business-metadata: the sample imports cleanly into the sample catalog; --dry-run uploads nothing", async () => {
  await withImportSetup({}, async (setup) => {
    // No definition made first: the sample uses the sample catalog's own.
    const csv = await setup.file("bm.csv", sampleCsvLines(businessMetadata).join("\n"));
    const writes = setup.writes();
    const dry = await setup.govcat("entity", "import-business-metadata", `--bm-file=${csv}`, "--dry-run");
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(dry.json, {
      file: csv,
      template: "business-metadata",
      header: `the service's template header: ${businessMetadata.columns.map((c) => c.name).join(",")}`,
      dryRun: true,
      valid: true,
      rows: businessMetadata.sample.length,
    });
    assert.equal(setup.writes(), writes, "a dry run uploads nothing");

    const run = await setup.govcat("entity", "importBusinessMetadata", `--bm-file=${csv}`);
    assert.equal(run.code, 0, run.stderr);
    // The service reports one line per entity: the sample sets values on two.
    assert.equal(run.json.successImportInfoList.length, 2);
    assert.deepEqual(run.json.failedImportInfoList ?? [], []);
    assert.deepEqual(await bmOf(setup, CUSTOMERS), {
      ...SEEDED_CUSTOMERS_BM,
      DataStewardship: {
        ...SEEDED_CUSTOMERS_BM.DataStewardship,
        steward: "Sales data team",
        retentionDays: 365,
      },
    }, "over the seed's values, the others kept");
    assert.deepEqual(await bmOf(setup, ORDERS), { Compliance: { gdprRelevant: true } });
  });
});

Deno.test("import-business-metadata: rows may leave out the optional last field; problems keep their lines", async () => {
  await withImportSetup({}, async (setup) => {
    await governanceAndPrivacy(setup);
    const header = businessMetadata.columns.map((c) => c.name).join(",");
    const qn = "mssql://contoso-sql.database.windows.net/SalesDb/dbo";
    const short = await setup.file("short.csv", [
      header,
      `azure_sql_table,${qn}/Customers,Governance.dataOwner,"Sales,\r\nand data"`,
      "",
      `azure_sql_table,${ORDERS},Privacy.containsPII,true,guid`,
    ]);
    const run = await setup.govcat("entity", "import-business-metadata", `--bm-file=${short}`);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.json.successImportInfoList.length, 2);
    assert.equal((await bmOf(setup, CUSTOMERS)).Governance?.dataOwner, "Sales,\r\nand data");

    const bad = await setup.file("short-bad.csv", [
      header,
      `azure_sql_table,${qn}/Customers,"Governance\r\ndataOwner",x`,
      "",
      `azure_sql_table,not-a-guid,Privacy.containsPII,true,guid`,
    ]);
    const refused = await setup.govcat("entity", "import-business-metadata", `--bm-file=${bad}`);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /short-bad\.csv has 2 problems/);
    assert.match(
      refused.stderr,
      /short-bad\.csv:2:3: column BusinessAttributeName: "Governance\\r\\ndataOwner" is not <group>\.<attribute>/,
    );
    assert.match(
      refused.stderr,
      /short-bad\.csv:5:2: column EntityUniqueAttributeValue: "not-a-guid" is not a GUID/,
    );
  });
});

Deno.test("import-business-metadata: a bad file is refused by file:line:column and nothing is uploaded", async () => {
  await withImportSetup({}, async (setup) => {
    const bad = await setup.file("bad.csv", [
      "EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue,EntityUniqueAttributeName",
      "azure_sql_table,mssql://x/a,Governance.dataOwner,team,",
      "azure_sql_table,,Governance.dataOwner,team,",
      "azure_sql_table,mssql://x/b,dataOwner,team,",
      "azure_sql_table,not-a-guid,Governance.dataOwner,team,guid",
      "azure_sql_table,mssql://x/a,governance.dataowner,other,qualifiedName",
      // Any unique attribute may name the entity: the service judges it per row (not a problem here).
      "azure_sql_table,mssql://x/c,Governance.dataOwner,team,name",
    ]);
    const run = await setup.govcat("entity", "import-business-metadata", `--bm-file=${bad}`);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /bad\.csv has 4 problems; nothing was sent/);
    assert.match(run.stderr, /bad\.csv:3:2: column EntityUniqueAttributeValue: a value is required/);
    assert.match(
      run.stderr,
      /bad\.csv:4:3: column BusinessAttributeName: "dataOwner" is not <group>\.<attribute>/,
    );
    assert.match(run.stderr, /bad\.csv:5:2: column EntityUniqueAttributeValue: "not-a-guid" is not a GUID/);
    assert.match(run.stderr, /bad\.csv:6:1: .*is also on line 2/);
    assert.doesNotMatch(run.stderr, /bad\.csv:7:/);

    const order = await setup.file("order.csv", [
      "EntityUniqueAttributeValue,EntityType,BusinessAttributeName,BusinessAttributeValue",
      "mssql://x/a,azure_sql_table,Governance.dataOwner,team",
    ]);
    const swapped = await setup.govcat(
      "entity",
      "import-business-metadata",
      `--bm-file=${order}`,
      "--dry-run",
    );
    assert.equal(swapped.code, 2);
    assert.match(
      swapped.stderr,
      /order\.csv:1:1: column EntityUniqueAttributeValue: EntityUniqueAttributeValue must be field 2/,
    );
    assert.match(swapped.stderr, /order\.csv:1:2: column EntityType: EntityType must be field 1/);

    const noColumns = await setup.file("wrong.csv", "name,value\na,b\n");
    const wrong = await setup.govcat("entity", "import-business-metadata", `--bm-file=${noColumns}`);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /wrong\.csv:1: the header has no EntityType column/);
    const empty = await setup.govcat(
      "entity",
      "import-business-metadata",
      `--bm-file=${await setup.file("e.csv", "")}`,
    );
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /e\.csv:1: the file is empty/);
    assert.equal(setup.requests(), 0, "nothing was sent");
  });
});
