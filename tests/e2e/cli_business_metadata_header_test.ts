/**
 * `entity import-business-metadata` with the header forms the service takes, run as a user runs it (govcat
 * as a subprocess against the emulator over real HTTP): Apache Atlas's names as Microsoft's SDK test file
 * has them, read and said; the template's names said too; a misplaced column still refused.
 */
import assert from "node:assert/strict";
import { assertRefusedLocally, type CliSetup, withCliSetup } from "../support/cli_harness.ts";

const SERVER = "mssql://e2e-bm-header.database.windows.net/SalesDb/dbo";

/** Creates an azure_sql_table and returns its guid. */
async function table(setup: CliSetup, name: string): Promise<string> {
  const result = await setup.client.entity.createOrUpdate({
    typeName: "azure_sql_table",
    attributes: { qualifiedName: `${SERVER}/${name}`, name },
  });
  return result.mutatedEntities!.CREATE![0].guid!;
}

/** The business metadata group the imports write, applicable to every data set. */
async function createGovernanceGroup(setup: CliSetup) {
  const options = { applicableEntityTypes: '["DataSet"]' };
  await setup.client.types.create({
    businessMetadataDefs: [{
      name: "E2EGovernance",
      attributeDefs: [
        { name: "dataOwner", typeName: "string", options: { ...options, maxStrLength: "100" } },
        { name: "dataSteward", typeName: "string", options: { ...options, maxStrLength: "100" } },
        { name: "retentionDays", typeName: "int", options },
      ].map((def) => ({ ...def, isOptional: true, cardinality: "SINGLE" as const })),
    }],
  });
}

const bmOf = async (setup: CliSetup, guid: string) =>
  (await setup.client.entity.get(guid)).entity.businessAttributes ?? {};

/**
 * The file Microsoft's SDK test uploads, byte for byte (Azure/azure-sdk-for-js
 * sdk/purview/purview-datamap-rest/recordings/node/purview_datamap_entity_test/recording_import_entity_business_metadata_.json):
 * Apache Atlas's header names and `name` as the unique attribute. The service parsed it and failed its one
 * row on the type, which that account did not have.
 */
const SDK_TEST_CSV =
  "TypeName,UniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue,UniqueAttributeName[optional]\n" +
  'hive_database,hive_db_1,bmWithAllTypes.attr8,"Awesome Attribute 1",name';

Deno.test("business metadata CSV: Apache Atlas's header (Microsoft's SDK test file) is read, and said so", async () => {
  await withCliSetup({ env: { CATALOG_LOG: "info" } }, async (setup) => {
    await createGovernanceGroup(setup);
    const guid = await table(setup, "AtlasForm");

    const sdkFile = await setup.file("template_2.csv", SDK_TEST_CSV);
    const sdk = await setup.govcat("entity", "import-business-metadata", `--bm-file=${sdkFile}`);
    // Its one row failed: the import says so in its summary and its exit code.
    assert.equal(sdk.code, 1, sdk.stderr);
    assert.deepEqual(JSON.parse(sdk.stdout), {
      file: sdkFile,
      rows: 1,
      imported: 0,
      failed: 1,
      failedImportInfoList: [{
        parentObjectName: "",
        childObjectName: "",
        importStatus: "FAILED",
        remarks: "Line #2: invalid entity-type 'hive_database'",
      }],
    });
    assert.match(sdk.stderr, /template_2\.csv: read Apache Atlas's header .*TypeName,UniqueAttributeValue,/);

    const atlasForm = await setup.file(
      "atlas.csv",
      "TypeName,UniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue,UniqueAttributeName[optional]\n" +
        `azure_sql_table,${SERVER}/AtlasForm,E2EGovernance.dataOwner,treasury\n` +
        `azure_sql_table,${guid},E2EGovernance.dataSteward,lena,guid\n`,
    );
    const dry = await setup.govcat(
      "entity",
      "import-business-metadata",
      `--bm-file=${atlasForm}`,
      "--dry-run",
    );
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.json.header, /^Apache Atlas's header/);
    const imported = await setup.govcat("entity", "import-business-metadata", `--bm-file=${atlasForm}`);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(imported.json.successImportInfoList.length, 1);
    assert.deepEqual((await bmOf(setup, guid)).E2EGovernance, { dataOwner: "treasury", dataSteward: "lena" });

    const template = await setup.file(
      "template.csv",
      "EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue\n" +
        `azure_sql_table,${SERVER}/AtlasForm,E2EGovernance.retentionDays,30\n`,
    );
    const ownForm = await setup.govcat(
      "entity",
      "import-business-metadata",
      `--bm-file=${template}`,
      "--dry-run",
    );
    assert.match(ownForm.json.header, /^the service's template header/);

    // Data still protected: a misplaced column, whatever the names, is refused before anything is sent.
    const swapped = await setup.file(
      "swapped.csv",
      "UniqueAttributeValue,TypeName,BusinessAttributeName,BusinessAttributeValue\n" +
        `${SERVER}/AtlasForm,azure_sql_table,E2EGovernance.dataOwner,x\n`,
    );
    await assertRefusedLocally(setup, /swapped\.csv:1:2: column TypeName: EntityType must be field 1/, [
      "entity",
      "import-business-metadata",
      `--bm-file=${swapped}`,
    ]);
  });
});
