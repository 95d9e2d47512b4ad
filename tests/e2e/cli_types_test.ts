/**
 * The `types` commands (`readBusinessMetadataDef`, `createTypeDefs`) and the rest of the type
 * area (list, headers, get, get-any, update, delete, the shipped business metadata templates), run as a
 * subprocess against the emulator.
 */
import assert from "node:assert/strict";
import {
  assertNotFound,
  assertRefusedLocally,
  type CliSetupOptions,
  withCliSetup,
} from "../support/cli_harness.ts";

const UNKNOWN_GUID = "00000000-0000-4000-8000-00000000dead";

/** An unknown type definition points to `types list-headers`, not to search (lib/core/error_hints.ts). */
const SETUP: CliSetupOptions = { notFoundHint: /hint: Check the type name: `govcat types list-headers`/ };

const STEWARDSHIP = {
  businessMetadataDefs: [{
    name: "Stewardship",
    description: "Who looks after the data",
    attributeDefs: [{
      name: "steward",
      typeName: "string",
      isOptional: true,
      cardinality: "SINGLE",
      options: { applicableEntityTypes: '["DataSet"]', maxStrLength: "100" },
    }],
  }],
};

Deno.test("createTypeDefs then readBusinessMetadataDef by name and by guid", async () => {
  await withCliSetup(SETUP, async (setup) => {
    const payload = await setup.file("stewardship.json", STEWARDSHIP);
    const created = await setup.govcat("types", "createTypeDefs", `--payload-file=${payload}`);
    assert.equal(created.code, 0, created.stderr);
    const def = created.json.businessMetadataDefs[0];
    assert.equal(def.name, "Stewardship");
    assert.equal(def.category, "BUSINESS_METADATA");

    const byName = await setup.govcat("types", "readBusinessMetadataDef", "--name=Stewardship");
    assert.equal(byName.code, 0, byName.stderr);
    assert.equal(byName.json.guid, def.guid);
    assert.deepEqual(byName.json.attributeDefs.map((a: { name: string }) => a.name), ["steward"]);
    const byGuid = await setup.govcat("types", "read-business-metadata-def", `--guid=${def.guid}`);
    assert.equal(byGuid.code, 0, byGuid.stderr);
    assert.equal(byGuid.json.name, "Stewardship");

    const duplicate = await setup.govcat("types", "createTypeDefs", "--payloadFile", payload);
    assert.equal(duplicate.code, 1, "the service refuses a definition that exists");
    assert.match(duplicate.stderr, /status: (400|409)/);
  });
});

Deno.test("types errors: readBusinessMetadataDef needs exactly one of --guid and --name; bad payload files", async () => {
  await withCliSetup(SETUP, async (setup) => {
    await assertRefusedLocally(setup, /types readBusinessMetadataDef needs --guid or --name/, [
      "types",
      "readBusinessMetadataDef",
    ]);
    await assertRefusedLocally(setup, /give --guid or --name, not both/, [
      "types",
      "readBusinessMetadataDef",
      "--name=a",
      `--guid=${UNKNOWN_GUID}`,
    ]);
    await assertNotFound(setup, ["types", "readBusinessMetadataDef", "--name=NoSuchGroup"]);
    await assertNotFound(setup, ["types", "readBusinessMetadataDef", `--guid=${UNKNOWN_GUID}`]);

    const broken = await setup.file("broken.json", '{"businessMetadataDefs": [');
    const array = await setup.file("array.json", [STEWARDSHIP]);
    const typo = await setup.file("typo.json", { businessMetaDataDefs: STEWARDSHIP.businessMetadataDefs });
    const unnamed = await setup.file("unnamed.json", { businessMetadataDefs: [{ attributeDefs: [] }] });
    const noType = await setup.file("notype.json", {
      businessMetadataDefs: [{ name: "X", attributeDefs: [{ name: "a" }] }],
    });
    const empty = await setup.file("empty.json", { businessMetadataDefs: [] });
    for (const command of ["createTypeDefs", "updateTypeDefs"]) {
      // updateTypeDefs is destructive (it overwrites): confirmed, so what is refused is the file.
      const typesCommand = [command, ...(command === "updateTypeDefs" ? ["--confirm"] : [])];
      await assertRefusedLocally(setup, /broken\.json is not valid JSON/, [
        "types",
        ...typesCommand,
        `--payload-file=${broken}`,
      ]);
      await assertRefusedLocally(
        setup,
        /array\.json has the wrong shape: expected an AtlasTypesDef object .*found an array/,
        ["types", ...typesCommand, `--payload-file=${array}`],
      );
      await assertRefusedLocally(
        setup,
        /typo\.json has the wrong shape: .*an unknown key "businessMetaDataDefs"/,
        ["types", ...typesCommand, `--payload-file=${typo}`],
      );
      await assertRefusedLocally(
        setup,
        /unnamed\.json has the wrong shape: expected every definition to have a name/,
        ["types", ...typesCommand, `--payload-file=${unnamed}`],
      );
      await assertRefusedLocally(
        setup,
        /notype\.json has the wrong shape: expected every attribute definition to have a name and a typeName/,
        ["types", ...typesCommand, `--payload-file=${noType}`],
      );
      await assertRefusedLocally(setup, /empty\.json has the wrong shape: .*found no definitions/, [
        "types",
        ...typesCommand,
        `--payload-file=${empty}`,
      ]);
      await assertRefusedLocally(setup, /--payload-file: file not found: .*nope\.json/, [
        "types",
        ...typesCommand,
        `--payload-file=${setup.dir}/nope.json`,
      ]);
    }
    await assertRefusedLocally(setup, /missing required option --payload-file/, ["types", "createTypeDefs"]);

    const invalid = await setup.govcat(
      "types",
      "createTypeDefs",
      `--payload-file=${await setup.file("badtype.json", {
        businessMetadataDefs: [{ name: "Broken", attributeDefs: [{ name: "x", typeName: "no_such_type" }] }],
      })}`,
    );
    assert.equal(invalid.code, 1, "the service refuses an attribute of an unknown type");
    assert.match(invalid.stderr, /status: (400|404)/);
  });
});

Deno.test("types list, list-headers, get, get-any, updateTypeDefs, deleteTypeDefs and delete", async () => {
  await withCliSetup(SETUP, async (setup) => {
    const list = await setup.govcat("types", "list", "--type=ENTITY");
    assert.equal(list.code, 0, list.stderr);
    assert.ok(list.json.entityDefs.some((d: { name: string }) => d.name === "azure_sql_table"));
    assert.equal((list.json.classificationDefs ?? []).length, 0);
    await assertRefusedLocally(setup, /--type: /, ["types", "list", "--type=NOPE"]);

    const headers = await setup.govcat("types", "list-headers", "--type=CLASSIFICATION");
    assert.equal(headers.code, 0, headers.stderr);
    assert.ok(
      headers.json.length > 0 &&
        headers.json.every((h: { category: string }) => h.category === "CLASSIFICATION"),
    );

    const get = await setup.govcat("types", "get", "--category=entity", "--name=azure_sql_table");
    assert.equal(get.code, 0, get.stderr);
    assert.deepEqual(get.json.superTypes, ["DataSet"]);
    const byGuid = await setup.govcat("types", "get", "--category=entity", `--guid=${get.json.guid}`);
    assert.equal(byGuid.json.name, "azure_sql_table");
    await assertRefusedLocally(setup, /types get needs --guid or --name/, [
      "types",
      "get",
      "--category=entity",
    ]);
    await assertRefusedLocally(setup, /missing required option --category/, [
      "types",
      "get",
      "--name=DataSet",
    ]);
    await assertNotFound(setup, [
      "types",
      "get",
      "--category=classification",
      "--name=NO.SUCH.CLASSIFICATION",
    ]);

    const any = await setup.govcat("types", "get-any", "--name=DataSet");
    assert.equal(any.code, 0, any.stderr);
    assert.equal(any.json.category, "ENTITY");
    await assertNotFound(setup, ["types", "getAny", `--guid=${UNKNOWN_GUID}`]);

    const payload = await setup.file("stewardship.json", STEWARDSHIP);
    assert.equal((await setup.govcat("types", "createTypeDefs", `--payload-file=${payload}`)).code, 0);
    const changed = structuredClone(STEWARDSHIP);
    changed.businessMetadataDefs[0].attributeDefs.push({
      ...changed.businessMetadataDefs[0].attributeDefs[0],
      name: "backup",
    });
    const updated = await setup.govcat(
      "types",
      "updateTypeDefs",
      "--confirm",
      `--payload-file=${await setup.file("changed.json", changed)}`,
    );
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(updated.json.businessMetadataDefs[0].attributeDefs.length, 2);

    const deleted = await setup.govcat(
      "types",
      "deleteTypeDefs",
      "--confirm",
      `--payload-file=${await setup.file("delete.json", {
        businessMetadataDefs: [{ name: "Stewardship" }],
      })}`,
    );
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(deleted.json.deleted, ["Stewardship"]);
    await assertNotFound(setup, ["types", "readBusinessMetadataDef", "--name=Stewardship"]);

    assert.equal((await setup.govcat("types", "createTypeDefs", `--payload-file=${payload}`)).code, 0);
    const one = await setup.govcat("types", "delete", "--confirm", "--name=Stewardship");
    assert.equal(one.code, 0, one.stderr);
    await assertNotFound(setup, ["types", "delete", "--confirm", "--name=Stewardship"]);
  });
});

Deno.test("the five business metadata templates list, print and create through createTypeDefs", async () => {
  await withCliSetup(SETUP, async (setup) => {
    const before = setup.emulator.faults.stats().total;
    const listed = await setup.govcat("types", "business-metadata-templates");
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(listed.json.map((t: { name: string }) => t.name), [
      "universal",
      "governance",
      "privacy",
      "quality",
      "data-product",
    ]);
    const governance = listed.json.find((t: { name: string }) => t.name === "governance");
    assert.ok(governance.groups[0].attributes.includes("retentionPeriodDays: int"));

    for (const name of ["universal", "governance", "privacy", "quality", "data-product", "dataProduct"]) {
      const printed = await setup.govcat("types", "business-metadata-template", `--name=${name}`);
      assert.equal(printed.code, 0, printed.stderr);
      if (name === "dataProduct") continue;
      const file = await setup.file(`${name}.json`, printed.stdout);
      const created = await setup.govcat("types", "createTypeDefs", `--payload-file=${file}`);
      assert.equal(created.code, 0, `${name}: ${created.stderr}`);
      assert.equal(created.json.businessMetadataDefs.length, 1);
    }
    const privacy = await setup.govcat("types", "readBusinessMetadataDef", "--name=Privacy");
    assert.deepEqual(
      privacy.json.attributeDefs.map((a: { name: string }) => a.name).slice(0, 3),
      ["containsPII", "piiCategories", "lawfulBasis"],
    );
    assert.ok(setup.emulator.faults.stats().total > before);

    const unknown = await setup.govcat("types", "business-metadata-template", "--name=privacyy");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown business metadata template "privacyy"\. Did you mean "privacy"\?/);
  });
});
