import assert from "node:assert/strict";
import { call, DATAMAP, withEmulator } from "../emulator_test_helpers.ts";

const TYPES = `${DATAMAP}/atlas/v2/types`;
const ENTITY = `${DATAMAP}/atlas/v2/entity`;

const PIPELINE_TABLE = {
  name: "contoso_pipeline_table",
  superTypes: ["DataSet"],
  attributeDefs: [{ name: "rowCount", typeName: "long", isOptional: true, cardinality: "SINGLE" }],
};

async function withTempFile(test: (path: string) => Promise<void>): Promise<void> {
  const path = await Deno.makeTempFile({ prefix: "govcat-types-", suffix: ".db" });
  try {
    await test(path);
  } finally {
    await Deno.remove(path).catch(() => {});
  }
}

Deno.test("typedef round trip: create, read, update, delete", async () => {
  await withEmulator({}, async (emulator) => {
    const created = await call(emulator, "POST", `${TYPES}/typedefs`, { entityDefs: [PIPELINE_TABLE] });
    assert.equal(created.status, 200);
    assert.deepEqual(created.body.enumDefs, []);
    const [def] = created.body.entityDefs;
    assert.equal(def.category, "ENTITY");
    assert.match(def.guid, /^[0-9a-f-]{36}$/);
    assert.equal(def.version, 1);
    assert.equal(def.lastModifiedTS, "1");
    assert.equal(def.description, "contoso_pipeline_table", "description defaults to the name");
    assert.equal(def.typeVersion, "1.0");
    assert.equal(def.createTime, def.updateTime);
    assert.deepEqual(def.subTypes, []);
    assert.deepEqual(def.attributeDefs[0], {
      name: "rowCount",
      typeName: "long",
      isOptional: true,
      cardinality: "SINGLE",
      valuesMinCount: 0,
      valuesMaxCount: 1,
      isUnique: false,
      isIndexable: false,
      includeInNotification: false,
    });

    const read = await call(emulator, "GET", `${TYPES}/entitydef/guid/${def.guid}`);
    assert.deepEqual(read.body, def);
    const dataSet = await call(emulator, "GET", `${TYPES}/entitydef/name/DataSet`);
    assert.ok(dataSet.body.subTypes.includes("contoso_pipeline_table"));

    const entity = {
      typeName: "contoso_pipeline_table",
      attributes: { qualifiedName: "p://t", name: "t", rowCount: 5 },
    };
    assert.equal((await call(emulator, "POST", ENTITY, { entity })).status, 200);

    const updated = await call(emulator, "PUT", `${TYPES}/typedefs`, {
      entityDefs: [{
        ...PIPELINE_TABLE,
        description: "Tables of the Contoso pipeline",
        attributeDefs: [...PIPELINE_TABLE.attributeDefs, {
          name: "stage",
          typeName: "string",
          isOptional: true,
        }],
      }],
    });
    assert.equal(updated.status, 200);
    const [after] = updated.body.entityDefs;
    assert.equal(after.guid, def.guid);
    assert.equal(after.createTime, def.createTime);
    assert.equal(after.version, 2);
    assert.equal(after.lastModifiedTS, "2");
    assert.equal(after.description, "Tables of the Contoso pipeline");
    assert.deepEqual(after.attributeDefs.map((a: { name: string }) => a.name), ["rowCount", "stage"]);

    const inUse = await call(emulator, "DELETE", `${TYPES}/typedef/name/contoso_pipeline_table`);
    assert.equal(inUse.status, 409, "an entity type with instances cannot be deleted");
    assert.equal(inUse.body.errorCode, "ATLAS-409-00-002");
    assert.equal(inUse.body.errorMessage, "Given type contoso_pipeline_table has references");
    const entities = await call(
      emulator,
      "DELETE",
      `${ENTITY}/uniqueAttribute/type/contoso_pipeline_table?attr:qualifiedName=p://t`,
    );
    assert.equal(entities.status, 200);

    const deleted = await call(emulator, "DELETE", `${TYPES}/typedef/name/contoso_pipeline_table`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.body, undefined);
    assert.equal((await call(emulator, "GET", `${TYPES}/entitydef/guid/${def.guid}`)).status, 404);
    const again = await call(emulator, "DELETE", `${TYPES}/typedef/name/contoso_pipeline_table`);
    assert.equal(again.status, 404);
    assert.equal(again.body.errorCode, "ATLAS-404-00-001");
  });
});

Deno.test("create refuses duplicates and definitions that refer to unknown or unsuitable types", async () => {
  await withEmulator({}, async (emulator) => {
    const create = (body: unknown) => call(emulator, "POST", `${TYPES}/typedefs`, body);
    const duplicate = await create({ entityDefs: [{ name: "DataSet" }] });
    assert.equal(duplicate.status, 409);
    assert.equal(duplicate.body.errorCode, "ATLAS-409-00-001");
    assert.equal(duplicate.body.errorMessage, "Given type DataSet already exists");
    const twice = await create({ enumDefs: [{ name: "e", elementDefs: [] }], structDefs: [{ name: "e" }] });
    assert.equal(twice.status, 409);

    const cases: Array<[body: unknown, status: number, code: string]> = [
      [{ entityDefs: [{ name: "t", superTypes: ["NoSuchType"] }] }, 404, "ATLAS-404-00-001"],
      [
        { entityDefs: [{ name: "t", attributeDefs: [{ name: "a", typeName: "array<nope>" }] }] },
        404,
        "ATLAS-404-00-001",
      ],
      [{ entityDefs: [{ name: "t", superTypes: ["MICROSOFT.PERSONAL.EMAIL"] }] }, 400, "ATLAS-400-00-003"],
      [
        { entityDefs: [{ name: "a", superTypes: ["b"] }, { name: "b", superTypes: ["a"] }] },
        400,
        "ATLAS-400-00-002",
      ],
      [
        { entityDefs: [{ name: "t", attributeDefs: [{ name: "", typeName: "string" }] }] },
        400,
        "ATLAS-400-00-01A",
      ],
      [{ entityDefs: [{ superTypes: ["DataSet"] }] }, 400, "ATLAS-400-00-01A"],
      [{ entityDefs: "DataSet" }, 400, "ATLAS-400-00-01A"],
      [
        { relationshipDefs: [{ name: "r", endDef1: { type: "DataSet", name: "x" } }] },
        400,
        "ATLAS-400-00-02C",
      ],
      [
        {
          relationshipDefs: [{
            name: "r",
            endDef1: { type: "DataSet", name: "x" },
            endDef2: { type: "nope", name: "y" },
          }],
        },
        404,
        "ATLAS-404-00-001",
      ],
      [
        {
          relationshipDefs: [{
            name: "r",
            endDef1: { type: "DataSet", name: "x" },
            endDef2: { type: "hive_order", name: "y" },
          }],
        },
        400,
        "ATLAS-400-00-035",
      ],
      [
        {
          relationshipDefs: [{
            name: "r",
            relationshipCategory: "COMPOSITION",
            endDef1: { type: "DataSet", name: "x" },
            endDef2: { type: "Process", name: "y" },
          }],
        },
        400,
        "ATLAS-400-00-031",
      ],
      [
        {
          relationshipDefs: [{
            name: "r",
            endDef1: { type: "DataSet", name: "x", isContainer: true },
            endDef2: { type: "Process", name: "y" },
          }],
        },
        400,
        "ATLAS-400-00-030",
      ],
      [
        {
          relationshipDefs: [{
            name: "r",
            endDef1: { type: "DataSet", name: "x" },
            endDef2: { type: "Process", name: "y" },
            attributeDefs: [{ name: "a", typeName: "DataSet" }],
          }],
        },
        400,
        "ATLAS-400-00-02F",
      ],
      [{ classificationDefs: [{ name: "C", entityTypes: ["hive_order"] }] }, 400, "ATLAS-400-00-052"],
      [
        {
          businessMetadataDefs: [{
            name: "B",
            attributeDefs: [{ name: "a", typeName: "DataSet", isOptional: true }],
          }],
        },
        400,
        "ATLAS-400-00-094",
      ],
    ];
    for (const [body, status, code] of cases) {
      const reply = await create(body);
      assert.equal(reply.status, status, JSON.stringify(body));
      assert.equal(reply.body.errorCode, code, JSON.stringify(body));
    }
    const headers = await call(emulator, "GET", `${TYPES}/typedefs/headers`);
    for (const name of ["t", "a", "b", "r", "C", "B"]) {
      assert.ok(!headers.body.some((h: { name: string }) => h.name === name), `${name} was not created`);
    }

    const related = await create({
      entityDefs: [{ name: "contoso_job", superTypes: ["Process"] }],
      relationshipDefs: [{
        name: "contoso_job_targets",
        endDef1: { type: "contoso_job", name: "targets", cardinality: "SET" },
        endDef2: { type: "DataSet", name: "loadedBy", cardinality: "SET" },
      }],
    });
    assert.equal(related.status, 200, "definitions may refer to others of the same request");
    assert.equal(related.body.relationshipDefs[0].relationshipCategory, "ASSOCIATION");
    assert.equal(related.body.relationshipDefs[0].relationshipLabel, "r:contoso_job_targets");
  });
});

Deno.test("update: built-ins may gain optional attributes; no new mandatory, no removals, unknown is 404", async () => {
  await withEmulator({}, async (emulator) => {
    const update = (body: unknown) => call(emulator, "PUT", `${TYPES}/typedefs`, body);
    const column = (await call(emulator, "GET", `${TYPES}/entitydef/name/azure_sql_column`)).body;
    const extended = await update({
      entityDefs: [{
        ...column,
        attributeDefs: [...column.attributeDefs, { name: "collation", typeName: "string", isOptional: true }],
      }],
    });
    assert.equal(extended.status, 200);
    assert.equal(extended.body.entityDefs[0].version, 2);
    assert.equal(extended.body.entityDefs[0].guid, column.guid);
    const sent = {
      typeName: "azure_sql_column",
      attributes: { qualifiedName: "q#c", name: "c", collation: "Latin1" },
    };
    assert.equal((await call(emulator, "POST", ENTITY, { entity: sent })).status, 200);

    const current = extended.body.entityDefs[0];
    const mandatory = await update({
      entityDefs: [{
        ...current,
        attributeDefs: [...current.attributeDefs, { name: "x", typeName: "string" }],
      }],
    });
    assert.equal(mandatory.status, 400);
    assert.equal(mandatory.body.errorCode, "ATLAS-400-00-00C");
    const removed = await update({ entityDefs: [{ ...current, attributeDefs: [] }] });
    assert.equal(removed.status, 400);
    assert.equal(removed.body.errorCode, "ATLAS-400-00-00D");
    const noSuper = await update({ entityDefs: [{ ...current, superTypes: [] }] });
    assert.equal(noSuper.status, 400);
    assert.equal(noSuper.body.errorCode, "ATLAS-400-00-00E");
    const unknown = await update({ enumDefs: [{ name: "no_such_enum", elementDefs: [] }] });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errorCode, "ATLAS-404-00-001");
    const wrongList = await update({ enumDefs: [{ name: "DataSet" }] });
    assert.equal(wrongList.status, 404, "a name is updated in its own category only");
  });
});

Deno.test("delete is refused while a type is in use, and bulk delete removes all or nothing", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const deleteByName = (name: string) =>
      call(emulator, "DELETE", `${TYPES}/typedef/name/${encodeURIComponent(name)}`);
    const refused: Array<[name: string, code: string]> = [
      ["azure_sql_table", "ATLAS-409-00-002"], // seeded instances
      ["MICROSOFT.PERSONAL.EMAIL", "ATLAS-409-00-002"], // carried by seeded entities
      ["DataSet", "ATLAS-409-00-002"], // seeded instances and subtypes
      ["azure_sql_view", "ATLAS-409-00-005"], // an end of azure_sql_view_columns
      ["glossary_term_status_value", "ATLAS-409-00-002"], // AtlasGlossaryTerm.status
    ];
    for (const [name, code] of refused) {
      const reply = await deleteByName(name);
      assert.equal(reply.status, 409, name);
      assert.equal(reply.body.errorCode, code, name);
    }

    await call(emulator, "POST", `${TYPES}/typedefs`, {
      businessMetadataDefs: [{
        name: "Retention",
        attributeDefs: [{ name: "days", typeName: "int", isOptional: true }],
      }],
    });
    const monthlyRevenue =
      (await call(emulator, "GET", `${ENTITY}/guid/ca7a1000-0000-4000-8000-000000000060`)).body.entity;
    const assign = (days: number | null) =>
      call(emulator, "POST", `${ENTITY}?businessAttributeUpdateBehavior=replace`, {
        entity: { ...monthlyRevenue, businessAttributes: { Retention: { days } } },
      });
    assert.equal((await assign(30)).status, 200);
    const assigned = await deleteByName("Retention");
    assert.equal(assigned.status, 409, "a business metadata group assigned to an entity cannot be deleted");
    assert.equal(assigned.body.errorMessage, "Given type Retention has references");
    await assign(null);
    assert.equal(
      (await deleteByName("Retention")).status,
      204,
      "a group whose values were all removed can go",
    );

    await call(emulator, "POST", `${TYPES}/typedefs`, {
      enumDefs: [{ name: "contoso_tier", elementDefs: [{ value: "gold", ordinal: 0 }] }],
      entityDefs: [{
        name: "contoso_asset",
        superTypes: ["DataSet"],
        attributeDefs: [{ name: "tier", typeName: "contoso_tier", isOptional: true }],
      }],
    });
    const enumOnly = await call(emulator, "DELETE", `${TYPES}/typedefs`, {
      enumDefs: [{ name: "contoso_tier" }],
    });
    assert.equal(enumOnly.status, 409, "the enum is an attribute type of contoso_asset");
    const partial = await call(emulator, "DELETE", `${TYPES}/typedefs`, {
      enumDefs: [{ name: "contoso_tier" }],
      entityDefs: [{ name: "contoso_asset" }, { name: "no_such_type" }],
    });
    assert.equal(partial.status, 404);
    assert.equal(
      (await call(emulator, "GET", `${TYPES}/enumdef/name/contoso_tier`)).status,
      200,
      "nothing deleted",
    );
    const both = await call(emulator, "DELETE", `${TYPES}/typedefs`, {
      enumDefs: [{ name: "contoso_tier" }],
      entityDefs: [{ name: "contoso_asset" }],
    });
    assert.equal(both.status, 204);
    assert.equal((await call(emulator, "GET", `${TYPES}/typedef/name/contoso_asset`)).status, 404);
  });
});

Deno.test("created, updated and deleted definitions survive a restart", async () => {
  await withTempFile(async (dataFile) => {
    let createdGuid = "";
    await withEmulator({ dataFile }, async (emulator) => {
      const created = await call(emulator, "POST", `${TYPES}/typedefs`, { entityDefs: [PIPELINE_TABLE] });
      createdGuid = created.body.entityDefs[0].guid;
      const server = (await call(emulator, "GET", `${TYPES}/entitydef/name/azure_sql_server`)).body;
      const extended = {
        ...server,
        attributeDefs: [...server.attributeDefs, { name: "region", typeName: "string", isOptional: true }],
      };
      assert.equal(
        (await call(emulator, "PUT", `${TYPES}/typedefs`, { entityDefs: [extended] })).status,
        200,
      );
      assert.equal((await call(emulator, "DELETE", `${TYPES}/typedef/name/hive_order`)).status, 204);
    });
    await withEmulator({ dataFile }, async (emulator) => {
      const created = await call(emulator, "GET", `${TYPES}/entitydef/name/contoso_pipeline_table`);
      assert.equal(created.status, 200);
      assert.equal(created.body.guid, createdGuid);
      const server = await call(emulator, "GET", `${TYPES}/entitydef/name/azure_sql_server`);
      assert.equal(server.body.version, 2);
      assert.ok(server.body.attributeDefs.some((a: { name: string }) => a.name === "region"));
      assert.equal((await call(emulator, "GET", `${TYPES}/structdef/name/hive_order`)).status, 404);
      const recreated = await call(emulator, "POST", `${TYPES}/typedefs`, {
        structDefs: [{ name: "hive_order", attributeDefs: [{ name: "order", typeName: "int" }] }],
      });
      assert.equal(recreated.status, 200, "a deleted built-in can be created again");
    });
  });
});
