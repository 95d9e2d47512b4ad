/**
 * The entity commands (labels, business metadata and its CSV import) and the rest of the
 * entity area (headers, bulk reads, partial updates, deletes, moves, classifications), run the way a user
 * runs them: govcat as a subprocess over real HTTP against the emulator. Refusals of the service exit 1
 * with its status and a hint; bad payload files exit 2 naming the file, and the emulator's request log
 * proves nothing was sent.
 */
import assert from "node:assert/strict";
import { assertNotFound, assertRefusedLocally, type CliSetup, withCliSetup } from "../support/cli_harness.ts";

const UNKNOWN_GUID = "00000000-0000-4000-8000-00000000dead";
const SERVER = "mssql://e2e-meta.database.windows.net/SalesDb/dbo";

/** Creates an azure_sql_table and returns its guid. */
async function table(setup: CliSetup, name: string): Promise<string> {
  const result = await setup.client.entity.createOrUpdate({
    typeName: "azure_sql_table",
    attributes: { qualifiedName: `${SERVER}/${name}`, name },
  });
  return result.mutatedEntities!.CREATE![0].guid!;
}

const labelsOf = async (setup: CliSetup, guid: string) =>
  ((await setup.client.entity.get(guid)).entity.labels ?? []).toSorted();

Deno.test("labels: addLabels, setLabels and deleteLabels, by guid and by unique attribute", async () => {
  await withCliSetup({}, async (setup) => {
    const guid = await table(setup, "Labelled");
    const qualifiedName = `${SERVER}/Labelled`;

    const added = await setup.govcat(
      "entity",
      "addLabels",
      `--guid=${guid}`,
      `--payloadFile=${await setup.file("add.json", ["finance", "gold"])}`,
    );
    assert.equal(added.code, 0, added.stderr);
    assert.deepEqual(added.json, { guid, added: ["finance", "gold"] });
    assert.deepEqual(await labelsOf(setup, guid), ["finance", "gold"]);

    const set = await setup.govcat(
      "entity",
      "setLabels",
      "--confirm",
      "--guid",
      guid,
      "--payload-file",
      await setup.file("set.json", ["silver", "gold"]),
    );
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(await labelsOf(setup, guid), ["gold", "silver"]);

    const removed = await setup.govcat(
      "entity",
      "deleteLabels",
      "--confirm",
      `--guid=${guid}`,
      `--payloadFile=${await setup.file("remove.json", ["gold"])}`,
    );
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(removed.json.removed, ["gold"]);
    assert.deepEqual(await labelsOf(setup, guid), ["silver"]);

    const all = await setup.govcat("entity", "deleteLabels", "--confirm", `--guid=${guid}`);
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(all.json.removed, ["silver"], "without a payload every label is removed");
    assert.deepEqual(await labelsOf(setup, guid), []);

    const unique = [`--typeName=azure_sql_table`, `--qualifiedName=${qualifiedName}`];
    const byName = await setup.govcat(
      "entity",
      "addLabelsByUniqueAttribute",
      ...unique,
      `--payloadFile=${await setup.file("u-add.json", ["a", "b"])}`,
    );
    assert.equal(byName.code, 0, byName.stderr);
    assert.deepEqual(await labelsOf(setup, guid), ["a", "b"]);
    const setByName = await setup.govcat(
      "entity",
      "setLabelsByUniqueAttribute",
      "--confirm",
      "--type-name=azure_sql_table",
      `--qualified-name=${qualifiedName}`,
      `--payloadFile=${await setup.file("u-set.json", ["c", "a"])}`,
    );
    assert.equal(setByName.code, 0, setByName.stderr);
    assert.deepEqual(await labelsOf(setup, guid), ["a", "c"]);
    const removeByName = await setup.govcat(
      "entity",
      "deleteLabelsByUniqueAttribute",
      "--confirm",
      ...unique,
      `--payloadFile=${await setup.file("u-remove.json", ["a"])}`,
    );
    assert.equal(removeByName.code, 0, removeByName.stderr);
    assert.deepEqual(await labelsOf(setup, guid), ["c"]);
    const removeAllByName = await setup.govcat(
      "entity",
      "deleteLabelsByUniqueAttribute",
      "--confirm",
      ...unique,
    );
    assert.equal(removeAllByName.code, 0, removeAllByName.stderr);
    assert.deepEqual(removeAllByName.json.removed, ["c"]);
    assert.deepEqual(await labelsOf(setup, guid), []);
  });
});

Deno.test("label errors: unknown entity is a 404 with a hint; bad payload files are refused before sending", async () => {
  await withCliSetup({}, async (setup) => {
    const guid = await table(setup, "LabelErrors");
    const labels = await setup.file("labels.json", ["x"]);
    await assertNotFound(setup, ["entity", "addLabels", `--guid=${UNKNOWN_GUID}`, `--payloadFile=${labels}`]);
    await assertNotFound(setup, [
      "entity",
      "setLabels",
      "--confirm",
      `--guid=${UNKNOWN_GUID}`,
      `--payloadFile=${labels}`,
    ]);
    await assertNotFound(setup, [
      "entity",
      "deleteLabels",
      "--confirm",
      `--guid=${UNKNOWN_GUID}`,
      `--payloadFile=${labels}`,
    ]);
    await assertNotFound(setup, ["entity", "deleteLabels", "--confirm", `--guid=${UNKNOWN_GUID}`]);
    const missing = ["--typeName=azure_sql_table", `--qualifiedName=${SERVER}/Missing`];
    await assertNotFound(setup, [
      "entity",
      "addLabelsByUniqueAttribute",
      ...missing,
      `--payloadFile=${labels}`,
    ]);
    await assertNotFound(setup, [
      "entity",
      "setLabelsByUniqueAttribute",
      "--confirm",
      ...missing,
      `--payloadFile=${labels}`,
    ]);
    await assertNotFound(setup, ["entity", "deleteLabelsByUniqueAttribute", "--confirm", ...missing]);

    const broken = await setup.file("broken.json", '["a",');
    const object = await setup.file("object.json", { labels: ["a"] });
    const numbers = await setup.file("numbers.json", ["a", 2]);
    const unique = ["--typeName=azure_sql_table", `--qualifiedName=${SERVER}/LabelErrors`];
    for (const command of ["addLabels", "setLabels", "deleteLabels"]) {
      // setLabels and deleteLabels are destructive: confirmed, so what is refused is the file.
      const guidOptions = [`--guid=${guid}`, ...(command === "addLabels" ? [] : ["--confirm"])];
      await assertRefusedLocally(setup, /broken\.json is not valid JSON/, [
        "entity",
        command,
        ...guidOptions,
        `--payloadFile=${broken}`,
      ]);
      await assertRefusedLocally(
        setup,
        /object\.json has the wrong shape: expected a JSON array of label strings.*found an object/,
        ["entity", command, ...guidOptions, `--payloadFile=${object}`],
      );
      await assertRefusedLocally(setup, /numbers\.json has the wrong shape: .*a number \(2\) at index 1/, [
        "entity",
        command,
        ...guidOptions,
        `--payloadFile=${numbers}`,
      ]);
      await assertRefusedLocally(setup, /--payloadFile: file not found: .*nope\.json/, [
        "entity",
        command,
        ...guidOptions,
        `--payloadFile=${setup.dir}/nope.json`,
      ]);
    }
    for (
      const command of [
        "addLabelsByUniqueAttribute",
        "setLabelsByUniqueAttribute",
        "deleteLabelsByUniqueAttribute",
      ]
    ) {
      await assertRefusedLocally(setup, /object\.json has the wrong shape/, [
        "entity",
        command,
        ...unique,
        ...(command.startsWith("add") ? [] : ["--confirm"]),
        `--payloadFile=${object}`,
      ]);
    }
    await assertRefusedLocally(setup, /missing required option --payload-file/, [
      "entity",
      "addLabels",
      `--guid=${guid}`,
    ]);
    await assertRefusedLocally(setup, /missing required option --qualified-name/, [
      "entity",
      "setLabelsByUniqueAttribute",
      "--confirm",
      "--typeName=azure_sql_table",
      `--payloadFile=${object}`,
    ]);

    const invalid = await setup.govcat(
      "entity",
      "addLabels",
      `--guid=${guid}`,
      `--payloadFile=${await setup.file("space.json", ["has space"])}`,
    );
    assert.equal(invalid.code, 1, "the service refuses a label it does not accept");
    assert.match(invalid.stderr, /status: 400/);
  });
});

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

Deno.test("business metadata: groups, attributes, add-business-metadata, deletes with and without payload", async () => {
  await withCliSetup({}, async (setup) => {
    await createGovernanceGroup(setup);
    const guid = await table(setup, "Ledger");

    const added = await setup.govcat(
      "entity",
      "addOrUpdateBusinessMetadata",
      "--confirm",
      `--guid=${guid}`,
      `--payloadFile=${await setup.file("bm.json", {
        E2EGovernance: { dataOwner: "finance", retentionDays: 30 },
      })}`,
    );
    assert.equal(added.code, 0, added.stderr);
    assert.deepEqual(await bmOf(setup, guid), { E2EGovernance: { dataOwner: "finance", retentionDays: 30 } });

    const overwritten = await setup.govcat(
      "entity",
      "addOrUpdateBusinessMetadata",
      "--confirm",
      `--guid=${guid}`,
      `--payloadFile=${await setup.file("bm2.json", { E2EGovernance: { dataSteward: "lena" } })}`,
      "--isOverwrite",
    );
    assert.equal(overwritten.code, 0, overwritten.stderr);
    assert.equal(overwritten.json.overwritten, true);
    assert.deepEqual(await bmOf(setup, guid), { E2EGovernance: { dataSteward: "lena" } });

    const attribute = await setup.govcat(
      "entity",
      "addOrUpdateBusinessAttribute",
      `--guid=${guid}`,
      "--bmName=E2EGovernance",
      `--payloadFile=${await setup.file("attrs.json", { dataOwner: "treasury" })}`,
    );
    assert.equal(attribute.code, 0, attribute.stderr);
    assert.deepEqual(await bmOf(setup, guid), {
      E2EGovernance: { dataSteward: "lena", dataOwner: "treasury" },
    });

    const number = await setup.govcat(
      "entity",
      "add-business-metadata",
      `--guid=${guid}`,
      "--bm-name=E2EGovernance",
      "--attr-name=retentionDays",
      "--attr-value=90",
    );
    assert.equal(number.code, 0, number.stderr);
    assert.deepEqual(number.json.attributes, { retentionDays: 90 }, "valid JSON is sent as JSON");
    const text = await setup.govcat(
      "entity",
      "addBusinessMetadata",
      `--guid=${guid}`,
      "--bm-name=E2EGovernance",
      "--attr-name=dataOwner",
      "--attr-value=sales team",
    );
    assert.equal(text.code, 0, text.stderr);
    assert.deepEqual(await bmOf(setup, guid), {
      E2EGovernance: { dataSteward: "lena", dataOwner: "sales team", retentionDays: 90 },
    });

    const oneAttribute = await setup.govcat(
      "entity",
      "deleteBusinessAttribute",
      "--confirm",
      `--guid=${guid}`,
      "--bmName=E2EGovernance",
      `--payloadFile=${await setup.file("drop.json", ["dataSteward"])}`,
    );
    assert.equal(oneAttribute.code, 0, oneAttribute.stderr);
    assert.deepEqual(oneAttribute.json.removed, ["dataSteward"]);
    assert.deepEqual(await bmOf(setup, guid), {
      E2EGovernance: { dataOwner: "sales team", retentionDays: 90 },
    });

    const wholeGroup = await setup.govcat(
      "entity",
      "deleteBusinessAttribute",
      "--confirm",
      `--guid=${guid}`,
      "--bmName=E2EGovernance",
    );
    assert.equal(wholeGroup.code, 0, wholeGroup.stderr);
    assert.deepEqual(wholeGroup.json.removed.toSorted(), ["dataOwner", "retentionDays"]);
    assert.deepEqual((await bmOf(setup, guid)).E2EGovernance ?? {}, {});

    await setup.client.entity.addOrUpdateBusinessMetadata(guid, {
      E2EGovernance: { dataOwner: "a", dataSteward: "b" },
    });
    const someGroups = await setup.govcat(
      "entity",
      "deleteBusinessMetadata",
      "--confirm",
      `--guid=${guid}`,
      `--payloadFile=${await setup.file("drop-bm.json", { E2EGovernance: { dataOwner: "" } })}`,
    );
    assert.equal(someGroups.code, 0, someGroups.stderr);
    assert.deepEqual(await bmOf(setup, guid), { E2EGovernance: { dataSteward: "b" } });
    const everything = await setup.govcat("entity", "deleteBusinessMetadata", "--confirm", `--guid=${guid}`);
    assert.equal(everything.code, 0, everything.stderr);
    assert.deepEqual(everything.json.removed, { E2EGovernance: { dataSteward: "b" } });
    assert.deepEqual((await bmOf(setup, guid)).E2EGovernance ?? {}, {});
  });
});

Deno.test("business metadata CSV: getBusinessMetadataTemplate, import-business-metadata and importBusinessMetadata", async () => {
  await withCliSetup({}, async (setup) => {
    await createGovernanceGroup(setup);
    const guid = await table(setup, "Imported");

    const template = await setup.govcat("entity", "getBusinessMetadataTemplate");
    assert.equal(template.code, 0, template.stderr);
    assert.deepEqual(template.json.columns.slice(0, 4), [
      "EntityType",
      "EntityUniqueAttributeValue",
      "BusinessAttributeName",
      "BusinessAttributeValue",
    ]);

    const header = template.json.csv.split(/\r?\n/)[0];
    const csv = await setup.file(
      "bm.csv",
      `${header}\nazure_sql_table,${SERVER}/Imported,E2EGovernance.dataOwner,treasury\n`,
    );
    const imported = await setup.govcat("entity", "import-business-metadata", `--bm-file=${csv}`);
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual([imported.json.rows, imported.json.imported, imported.json.failed], [1, 1, 0]);
    assert.equal(imported.json.successImportInfoList.length, 1);
    assert.deepEqual((await bmOf(setup, guid)).E2EGovernance, { dataOwner: "treasury" });

    const again = await setup.file(
      "bm2.csv",
      `${header}\nazure_sql_table,${SERVER}/Imported,E2EGovernance.dataSteward,lena\n` +
        `azure_sql_table,${SERVER}/Nowhere,E2EGovernance.dataSteward,x\n`,
    );
    const camel = await setup.govcat("entity", "importBusinessMetadata", "--bmFile", again);
    // A failed row makes the import exit 1 with its summary, as every import does.
    assert.equal(camel.code, 1, camel.stderr);
    const summary = JSON.parse(camel.stdout);
    assert.deepEqual([summary.rows, summary.imported, summary.failed], [2, 1, 1]);
    assert.equal(summary.successImportInfoList.length, 1);
    assert.equal(summary.failedImportInfoList.length, 1, "the unknown entity's row failed");
    assert.deepEqual((await bmOf(setup, guid)).E2EGovernance, { dataOwner: "treasury", dataSteward: "lena" });

    // --dry-run checks the file and uploads nothing.
    const writes = setup.requests("POST");
    const dry = await setup.govcat("entity", "import-business-metadata", `--bm-file=${csv}`, "--dry-run");
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual([dry.json.dryRun, dry.json.valid, dry.json.rows], [true, true, 1]);
    assert.equal(setup.requests("POST"), writes);

    const noColumns = await setup.file("wrong.csv", "name,value\na,b\n");
    await assertRefusedLocally(setup, /wrong\.csv:1: the header has no EntityType column/, [
      "entity",
      "import-business-metadata",
      `--bm-file=${noColumns}`,
    ]);
    const badRow = await setup.file(
      "bad-row.csv",
      `${header}\nazure_sql_table,${SERVER}/Imported,dataOwner,x\n`,
    );
    await assertRefusedLocally(
      setup,
      /bad-row\.csv:2:3: column BusinessAttributeName: "dataOwner" is not <group>\.<attribute>/,
      ["entity", "import-business-metadata", `--bm-file=${badRow}`],
    );
    const empty = await setup.file("empty.csv", "");
    await assertRefusedLocally(setup, /empty\.csv:1: the file is empty/, [
      "entity",
      "importBusinessMetadata",
      `--bm-file=${empty}`,
    ]);
    await assertRefusedLocally(setup, /missing\.csv: no such file/, [
      "entity",
      "import-business-metadata",
      `--bm-file=${setup.dir}/missing.csv`,
    ]);
  });
});

Deno.test("business metadata errors: unknown entity is a 404 with a hint; bad payload files are refused before sending", async () => {
  await withCliSetup({}, async (setup) => {
    await createGovernanceGroup(setup);
    const guid = await table(setup, "BmErrors");
    const bm = await setup.file("bm.json", { E2EGovernance: { dataOwner: "x" } });
    const attrs = await setup.file("attrs.json", { dataOwner: "x" });
    await assertNotFound(setup, [
      "entity",
      "addOrUpdateBusinessMetadata",
      "--confirm",
      `--guid=${UNKNOWN_GUID}`,
      `--payloadFile=${bm}`,
    ]);
    await assertNotFound(setup, ["entity", "deleteBusinessMetadata", "--confirm", `--guid=${UNKNOWN_GUID}`]);
    await assertNotFound(setup, [
      "entity",
      "deleteBusinessMetadata",
      "--confirm",
      `--guid=${UNKNOWN_GUID}`,
      `--payloadFile=${bm}`,
    ]);
    await assertNotFound(setup, [
      "entity",
      "addOrUpdateBusinessAttribute",
      `--guid=${UNKNOWN_GUID}`,
      "--bmName=E2EGovernance",
      `--payloadFile=${attrs}`,
    ]);
    await assertNotFound(setup, [
      "entity",
      "deleteBusinessAttribute",
      "--confirm",
      `--guid=${UNKNOWN_GUID}`,
      "--bmName=E2EGovernance",
    ]);
    await assertNotFound(setup, [
      "entity",
      "add-business-metadata",
      `--guid=${UNKNOWN_GUID}`,
      "--bm-name=E2EGovernance",
      "--attr-name=dataOwner",
      "--attr-value=x",
    ]);

    const notObjects = await setup.file("flat.json", { E2EGovernance: "x" });
    const list = await setup.file("list.json", [{ E2EGovernance: {} }]);
    const broken = await setup.file("broken.json", '{"E2EGovernance": ');
    await assertRefusedLocally(
      setup,
      /flat\.json has the wrong shape: expected business metadata as .*found a string \("x"\) for group "E2EGovernance"/,
      ["entity", "addOrUpdateBusinessMetadata", "--confirm", `--guid=${guid}`, `--payloadFile=${notObjects}`],
    );
    await assertRefusedLocally(setup, /list\.json has the wrong shape: .*found an array/, [
      "entity",
      "addOrUpdateBusinessMetadata",
      "--confirm",
      `--guid=${guid}`,
      `--payloadFile=${list}`,
    ]);
    await assertRefusedLocally(setup, /broken\.json is not valid JSON/, [
      "entity",
      "deleteBusinessMetadata",
      "--confirm",
      `--guid=${guid}`,
      `--payloadFile=${broken}`,
    ]);
    await assertRefusedLocally(setup, /list\.json has the wrong shape: expected attributes of one group/, [
      "entity",
      "addOrUpdateBusinessAttribute",
      `--guid=${guid}`,
      "--bmName=E2EGovernance",
      `--payloadFile=${list}`,
    ]);
    await assertRefusedLocally(setup, /--payloadFile: file not found: .*nope\.json/, [
      "entity",
      "addOrUpdateBusinessAttribute",
      `--guid=${guid}`,
      "--bmName=E2EGovernance",
      `--payloadFile=${setup.dir}/nope.json`,
    ]);
    await assertRefusedLocally(setup, /broken\.json is not valid JSON/, [
      "entity",
      "deleteBusinessAttribute",
      "--confirm",
      `--guid=${guid}`,
      "--bmName=E2EGovernance",
      `--payloadFile=${broken}`,
    ]);
    await assertRefusedLocally(setup, /missing required option --bm-name/, [
      "entity",
      "addOrUpdateBusinessAttribute",
      `--guid=${guid}`,
      `--payloadFile=${attrs}`,
    ]);

    const unknownGroup = await setup.govcat(
      "entity",
      "addOrUpdateBusinessMetadata",
      "--confirm",
      `--guid=${guid}`,
      `--payloadFile=${await setup.file("nogroup.json", { NoSuchGroup: { a: 1 } })}`,
    );
    assert.equal(unknownGroup.code, 1, "the service refuses a group that is not defined");
    assert.match(unknownGroup.stderr, /status: (400|404)/);
  });
});

Deno.test("entity reads and writes: get-header, get-many, list-by-unique-attributes, updates, moves, deletes", async () => {
  await withCliSetup({}, async (setup) => {
    const [a, b, c] = [await table(setup, "A"), await table(setup, "B"), await table(setup, "C")];

    const header = await setup.govcat("entity", "get-header", `--guid=${a}`);
    assert.equal(header.code, 0, header.stderr);
    assert.equal(header.json.guid, a);
    assert.equal(header.json.typeName, "azure_sql_table");
    await assertNotFound(setup, ["entity", "getHeader", `--guid=${UNKNOWN_GUID}`]);

    const many = await setup.govcat("entity", "get-many", `--guid=${a}`, `--guid=${b}`);
    assert.equal(many.code, 0, many.stderr);
    assert.deepEqual(many.json.entities.map((e: { guid: string }) => e.guid).sort(), [a, b].sort());
    const byNames = await setup.govcat(
      "entity",
      "listByUniqueAttributes",
      "--type-name=azure_sql_table",
      `--qualified-name=${SERVER}/B`,
      `--qualified-name=${SERVER}/C`,
    );
    assert.equal(byNames.code, 0, byNames.stderr);
    assert.deepEqual(byNames.json.entities.map((e: { guid: string }) => e.guid).sort(), [b, c].sort());

    const attribute = await setup.govcat(
      "entity",
      "update-attribute",
      "--confirm",
      `--guid=${a}`,
      "--attr-name=description",
      "--attr-value=Accounts",
    );
    assert.equal(attribute.code, 0, attribute.stderr);
    assert.equal((await setup.client.entity.get(a)).entity.attributes?.description, "Accounts");
    await assertNotFound(setup, [
      "entity",
      "updateAttribute",
      "--confirm",
      `--guid=${UNKNOWN_GUID}`,
      "--attr-name=description",
      "--attr-value=x",
    ]);

    const byUnique = await setup.govcat(
      "entity",
      "update-by-unique-attribute",
      "--confirm",
      "--type-name=azure_sql_table",
      `--qualified-name=${SERVER}/B`,
      '--attributes={"description":"Bills","owner":"finance"}',
    );
    assert.equal(byUnique.code, 0, byUnique.stderr);
    const bAttributes = (await setup.client.entity.get(b)).entity.attributes;
    assert.equal(bAttributes?.description, "Bills");
    assert.equal(bAttributes?.owner, "finance");
    const fromFile = await setup.govcat(
      "entity",
      "updateByUniqueAttribute",
      "--confirm",
      "--typeName=azure_sql_table",
      `--qualifiedName=${SERVER}/B`,
      `--payloadFile=${await setup.file("update.json", { attributes: { description: "All bills" } })}`,
    );
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal((await setup.client.entity.get(b)).entity.attributes?.description, "All bills");
    await assertRefusedLocally(setup, /needs --payloadFile or --attributes/, [
      "entity",
      "update-by-unique-attribute",
      "--confirm",
      "--type-name=azure_sql_table",
      `--qualified-name=${SERVER}/B`,
    ]);
    await assertRefusedLocally(setup, /labels\.json holds no entity/, [
      "entity",
      "update-by-unique-attribute",
      "--confirm",
      "--type-name=azure_sql_table",
      `--qualified-name=${SERVER}/B`,
      `--payloadFile=${await setup.file("labels.json", ["a"])}`,
    ]);

    const moved = await setup.govcat(
      "entity",
      "move-to-collection",
      "--collection-id=finance",
      `--guid=${a}`,
      `--guid=${b}`,
    );
    assert.equal(moved.code, 0, moved.stderr);
    assert.equal((await setup.client.entity.get(b)).entity.collectionId, "finance");

    const byName = await setup.govcat(
      "entity",
      "delete-by-unique-attribute",
      "--confirm",
      "--typeName=azure_sql_table",
      `--qualifiedName=${SERVER}/A`,
    );
    assert.equal(byName.code, 0, byName.stderr);
    assert.equal(byName.json.mutatedEntities.DELETE[0].guid, a);
    const bulk = await setup.govcat("entity", "deleteMany", "--confirm", `--guid=${b}`, `--guid=${c}`);
    assert.equal(bulk.code, 0, bulk.stderr);
    assert.equal(bulk.json.mutatedEntities.DELETE.length, 2);
    assert.equal((await setup.client.entity.get(c)).entity.status, "DELETED");
    await assertNotFound(setup, [
      "entity",
      "delete-by-unique-attribute",
      "--confirm",
      "--typeName=azure_sql_table",
      `--qualifiedName=${SERVER}/Missing`,
    ]);
  });
});

Deno.test("classifications: list, get, add, update, remove by guid and by unique attribute, and in bulk", async () => {
  await withCliSetup({}, async (setup) => {
    const [a, b] = [await table(setup, "Customers"), await table(setup, "Orders")];
    const email = "MICROSOFT.PERSONAL.EMAIL";
    const name = "MICROSOFT.PERSONAL.NAME";
    const namesOf = async (guid: string) =>
      ((await setup.client.entity.getClassifications(guid)).list ?? []).map((c) => c.typeName).toSorted();

    const added = await setup.govcat(
      "entity",
      "add-classifications",
      `--guid=${a}`,
      `--classification=${email}`,
      `--classification=${name}`,
    );
    assert.equal(added.code, 0, added.stderr);
    assert.deepEqual(await namesOf(a), [email, name].toSorted());

    const listed = await setup.govcat("entity", "list-classifications", `--guid=${a}`);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.json.totalCount, 2);
    const one = await setup.govcat("entity", "getClassification", `--guid=${a}`, `--classification=${email}`);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(one.json.typeName, email);

    const updated = await setup.govcat(
      "entity",
      "updateClassifications",
      `--guid=${a}`,
      `--payloadFile=${await setup.file("update.json", [{ typeName: email }])}`,
    );
    assert.equal(updated.code, 0, updated.stderr);
    const removed = await setup.govcat(
      "entity",
      "remove-classification",
      "--confirm",
      `--guid=${a}`,
      `--classification=${email}`,
    );
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(await namesOf(a), [name]);

    const unique = ["--type-name=azure_sql_table", `--qualified-name=${SERVER}/Orders`];
    const addByName = await setup.govcat(
      "entity",
      "addClassificationsByUniqueAttribute",
      ...unique,
      `--payloadFile=${await setup.file("add.json", [email])}`,
    );
    assert.equal(addByName.code, 0, addByName.stderr);
    assert.deepEqual(await namesOf(b), [email]);
    const updateByName = await setup.govcat(
      "entity",
      "update-classifications-by-unique-attribute",
      ...unique,
      `--classification=${email}`,
    );
    assert.equal(updateByName.code, 0, updateByName.stderr);
    const removeByName = await setup.govcat(
      "entity",
      "remove-classification-by-unique-attribute",
      "--confirm",
      ...unique,
      `--classification=${email}`,
    );
    assert.equal(removeByName.code, 0, removeByName.stderr);
    assert.deepEqual(await namesOf(b), []);

    const toMany = await setup.govcat(
      "entity",
      "add-classification-to-entities",
      `--classification=${email}`,
      `--guid=${a}`,
      `--guid=${b}`,
    );
    assert.equal(toMany.code, 0, toMany.stderr);
    assert.deepEqual(await namesOf(b), [email]);

    const set = await setup.govcat(
      "entity",
      "setClassifications",
      "--confirm",
      `--payloadFile=${await setup.file("set.json", {
        guidHeaderMap: {
          [b]: {
            typeName: "azure_sql_table",
            attributes: { qualifiedName: `${SERVER}/Orders` },
            classifications: [name],
          },
        },
      })}`,
    );
    assert.equal(set.code, 0, set.stderr);
    assert.ok(Array.isArray(set.json.results));
    assert.ok((await namesOf(b)).includes(name));

    await assertNotFound(setup, ["entity", "list-classifications", `--guid=${UNKNOWN_GUID}`]);
    await assertNotFound(setup, [
      "entity",
      "add-classifications",
      `--guid=${UNKNOWN_GUID}`,
      `--classification=${email}`,
    ]);
    await assertRefusedLocally(setup, /needs --classification=<name> or --payloadFile/, [
      "entity",
      "add-classifications",
      `--guid=${a}`,
    ]);
    await assertRefusedLocally(setup, /not both/, [
      "entity",
      "add-classifications",
      `--guid=${a}`,
      `--classification=${email}`,
      `--payloadFile=${setup.dir}/add.json`,
    ]);
    await assertRefusedLocally(
      setup,
      /bad\.json has the wrong shape: expected classifications .*found a number \(3\) at index 0 without a typeName/,
      [
        "entity",
        "updateClassifications",
        `--guid=${a}`,
        `--payloadFile=${await setup.file("bad.json", [3])}`,
      ],
    );
    await assertRefusedLocally(setup, /set-bad\.json has the wrong shape/, [
      "entity",
      "set-classifications",
      "--confirm",
      `--payloadFile=${await setup.file("set-bad.json", { [a]: { typeName: "x" } })}`,
    ]);
  });
});
