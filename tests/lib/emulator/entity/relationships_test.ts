/**
 * Relationships made through `/atlas/v2/relationship` show on the entities at both ends, over real HTTP:
 * under `relationshipAttributes`, keyed by the end's attribute name, as the contract's AtlasRelatedObjectId
 * (Entity_Get), in every entity read (guid, bulk, unique attribute, bulk unique attribute), with
 * `ignoreRelationships` and `minExtInfo`; updates, deletes and deleted ends follow.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { EntityRelationships } from "../../../../lib/emulator/entity/relationships.ts";
import { RelationshipStore } from "../../../../lib/emulator/relationship/store.ts";
import { EntityStore } from "../../../../lib/emulator/store.ts";
import { call, CATALOG, DATAMAP, ok, tableEntity, withEmulator } from "../emulator_test_helpers.ts";

const ENTITY = `${DATAMAP}/atlas/v2/entity`;
const RELATIONSHIP = `${DATAMAP}/atlas/v2/relationship`;

/** A relationship type whose end1 (a DataSet) holds a SET and whose end2 (a Process) holds one object. */
const FEEDS = {
  name: "test_feeds",
  relationshipCategory: "ASSOCIATION",
  endDef1: { type: "DataSet", name: "feeds", cardinality: "SET" },
  endDef2: { type: "Process", name: "fedBy", cardinality: "SINGLE" },
  attributeDefs: [{ name: "note", typeName: "string", isOptional: true, cardinality: "SINGLE" }],
};

/** Creates the entities (all new) and returns their guids in order. */
async function createEntities(emulator: RunningEmulator, entities: unknown[]): Promise<string[]> {
  const reply = await ok(emulator, "POST", `${ENTITY}/bulk`, {
    entities: entities.map((entity, i) => ({ ...(entity as object), guid: `-${i + 1}` })),
  });
  return entities.map((_, i) => reply.body.guidAssignments[`-${i + 1}`]);
}

const dataSet = (name: string) => ({
  typeName: "DataSet",
  attributes: { qualifiedName: `dataset://test/${name}`, name },
});
const process = (name: string) => ({
  typeName: "Process",
  attributes: { qualifiedName: `process://test/${name}`, name },
});

/** Defines FEEDS and creates the ends it relates, the DataSet `raw` and the Process `load`: their guids. */
async function createFeedsEnds(emulator: RunningEmulator): Promise<string[]> {
  await ok(emulator, "POST", `${DATAMAP}/atlas/v2/types/typedefs`, { relationshipDefs: [FEEDS] });
  return await createEntities(emulator, [dataSet("raw"), process("load")]);
}

const COLUMN_PREFIX = "mssql://test-sql.database.windows.net/TestDb/dbo/Orders#";

const column = (name: string, extra: Record<string, unknown> = {}) => ({
  typeName: "azure_sql_column",
  attributes: { qualifiedName: `${COLUMN_PREFIX}${name}`, name },
  ...extra,
});

/** Relates the table and the column through the relationship API. */
function relateColumn(emulator: RunningEmulator, table: string, column: string) {
  return ok(emulator, "POST", RELATIONSHIP, {
    typeName: "azure_sql_table_columns",
    end1: { guid: table },
    end2: { guid: column },
  });
}

async function entity(emulator: RunningEmulator, guid: string, query = "") {
  return (await ok(emulator, "GET", `${ENTITY}/guid/${guid}${query}`)).body;
}

Deno.test("a relationship shows on both ends, keyed by each end's attribute, in every entity read", async () => {
  await withEmulator({}, async (emulator) => {
    const [raw, load] = await createFeedsEnds(emulator);
    const created = await ok(emulator, "POST", RELATIONSHIP, {
      typeName: "test_feeds",
      end1: { guid: raw },
      end2: { typeName: "Process", uniqueAttributes: { qualifiedName: "process://test/load" } },
      attributes: { note: "nightly" },
    });
    const relationshipGuid = created.body.guid;

    const fromRaw = await entity(emulator, raw);
    assert.deepEqual(fromRaw.entity.relationshipAttributes, {
      feeds: [{
        guid: load,
        typeName: "Process",
        entityStatus: "ACTIVE",
        displayText: "load",
        relationshipType: "test_feeds",
        relationshipGuid,
        relationshipStatus: "ACTIVE",
        relationshipAttributes: { typeName: "test_feeds", attributes: { note: "nightly" } },
      }],
    }, "a SET end holds an array of AtlasRelatedObjectId");
    assert.equal(fromRaw.referredEntities[load].guid, load, "the other end is a referred entity");
    assert.equal(fromRaw.entity.version, 0, "a relationship does not change the entity itself");

    const fromLoad = await entity(emulator, load);
    assert.equal(fromLoad.entity.relationshipAttributes.fedBy.guid, raw, "a SINGLE end holds one object");
    assert.equal(fromLoad.entity.relationshipAttributes.fedBy.typeName, "DataSet");
    assert.equal(fromLoad.entity.relationshipAttributes.fedBy.displayText, "raw");
    assert.equal(fromLoad.entity.relationshipAttributes.fedBy.relationshipGuid, relationshipGuid);

    const minimal = await entity(emulator, raw, "?minExtInfo=true");
    assert.deepEqual(Object.keys(minimal.referredEntities[load]).sort(), [
      "attributes",
      "displayText",
      "guid",
      "status",
      "typeName",
    ]);
    const ignored = await entity(emulator, raw, "?ignoreRelationships=true");
    assert.equal(ignored.entity.relationshipAttributes, undefined);
    assert.deepEqual(ignored.referredEntities, {});

    const bulk = await ok(emulator, "GET", `${CATALOG}/atlas/v2/entity/bulk?guid=${raw}&guid=${load}`);
    assert.equal(bulk.body.entities[0].relationshipAttributes.feeds[0].guid, load);
    assert.equal(bulk.body.entities[1].relationshipAttributes.fedBy.guid, raw);
    const unique = await ok(
      emulator,
      "GET",
      `${ENTITY}/uniqueAttribute/type/DataSet?attr:qualifiedName=${encodeURIComponent("dataset://test/raw")}`,
    );
    assert.equal(unique.body.entity.relationshipAttributes.feeds[0].relationshipGuid, relationshipGuid);
    const uniqueBulk = await ok(
      emulator,
      "GET",
      `${ENTITY}/bulk/uniqueAttribute/type/Process?attr_1:qualifiedName=${
        encodeURIComponent("process://test/load")
      }&ignoreRelationships=false`,
    );
    assert.equal(uniqueBulk.body.entities[0].relationshipAttributes.fedBy.guid, raw);

    await ok(emulator, "PUT", RELATIONSHIP, { guid: relationshipGuid, attributes: { note: "hourly" } });
    const updated = await entity(emulator, load);
    assert.deepEqual(updated.entity.relationshipAttributes.fedBy.relationshipAttributes, {
      typeName: "test_feeds",
      attributes: { note: "hourly" },
    });

    await ok(emulator, "DELETE", `${RELATIONSHIP}/guid/${relationshipGuid}`);
    assert.equal((await entity(emulator, raw)).entity.relationshipAttributes, undefined, "gone from end1");
    assert.equal((await entity(emulator, load)).entity.relationshipAttributes, undefined, "gone from end2");
  });
});

Deno.test("built-in relationship types: SET ends collect every relationship; no attributes, no struct attributes", async () => {
  await withEmulator({}, async (emulator) => {
    const [load, raw, clean] = await createEntities(emulator, [
      process("load"),
      dataSet("raw"),
      dataSet("clean"),
    ]);
    for (const input of [raw, clean]) {
      await ok(emulator, "POST", RELATIONSHIP, {
        typeName: "dataset_process_inputs",
        end1: { guid: load, typeName: "Process" },
        end2: { guid: input, typeName: "DataSet" },
      });
    }
    const inputs = (await entity(emulator, load)).entity.relationshipAttributes.inputs;
    assert.deepEqual(inputs.map((i: { guid: string }) => i.guid), [raw, clean], "oldest first");
    assert.deepEqual(inputs[0].relationshipAttributes, { typeName: "dataset_process_inputs" });
    const consumers = (await entity(emulator, raw)).entity.relationshipAttributes.inputToProcesses;
    assert.deepEqual(consumers.map((c: { guid: string }) => c.guid), [load]);
  });
});

Deno.test("a deleted end: the relationship reads DELETED on both ends and by guid", async () => {
  await withEmulator({}, async (emulator) => {
    const [raw, load] = await createFeedsEnds(emulator);
    const created = await ok(emulator, "POST", RELATIONSHIP, {
      typeName: "test_feeds",
      end1: { guid: raw },
      end2: { guid: load },
    });
    await ok(emulator, "DELETE", `${ENTITY}/guid/${load}`);

    const [feed] = (await entity(emulator, raw)).entity.relationshipAttributes.feeds;
    assert.equal(feed.entityStatus, "DELETED");
    assert.equal(feed.relationshipStatus, "DELETED");
    const fedBy = (await entity(emulator, load)).entity.relationshipAttributes.fedBy;
    assert.equal(fedBy.entityStatus, "ACTIVE", "the other end is still active");
    assert.equal(fedBy.relationshipStatus, "DELETED");
    const byGuid = await ok(emulator, "GET", `${RELATIONSHIP}/guid/${created.body.guid}`);
    assert.equal(byGuid.body.relationship.status, "DELETED");
  });
});

Deno.test("relationship attributes the caller stored stay, merged with the relationships", async () => {
  await withEmulator({}, async (emulator) => {
    // A reference to no stored entity makes no relationship: it stays as the caller sent it.
    const missing = {
      typeName: "azure_sql_column",
      uniqueAttributes: { qualifiedName: `${COLUMN_PREFIX}Missing` },
    };
    const [table] = await createEntities(emulator, [
      tableEntity("Orders", { relationshipAttributes: { columns: [missing] } }),
    ]);
    const [total] = await createEntities(emulator, [column("Total")]);
    const totalRelationship = (await relateColumn(emulator, table, total)).body.guid;
    let columns = (await entity(emulator, table)).entity.relationshipAttributes.columns;
    assert.deepEqual(columns[0], missing, "the stored reference as the caller sent it");
    assert.equal(columns[1].guid, total);
    assert.equal(columns[1].relationshipGuid, totalRelationship);
    assert.equal((await entity(emulator, total)).entity.relationshipAttributes.table.guid, table);

    // A full update replacing the stored references does not lose the relationships.
    await ok(emulator, "POST", ENTITY, { entity: tableEntity("Orders", { relationshipAttributes: {} }) });
    columns = (await entity(emulator, table)).entity.relationshipAttributes.columns;
    assert.deepEqual(columns.map((c: { guid: string }) => c.guid), [total]);
  });
});

Deno.test("a relationship type the type system does not know is keyed by its name, as an array", () => {
  const store = EntityStore.open();
  try {
    const types = {
      validateEntity: () => undefined,
      validateClassification: () => undefined,
      validateBusinessMetadata: () => undefined,
      isA: (a: string, b: string) => a === b,
    };
    const base = { status: "ACTIVE" as const, createTime: 1, updateTime: 1, createdBy: "t", updatedBy: "t" };
    for (const [guid, name] of [["a", "alpha"], ["b", "beta"]]) {
      store.put({
        ...base,
        guid,
        typeName: "DataSet",
        attributes: { qualifiedName: `ds://${name}`, name },
        version: 0,
        lastModifiedTS: "1",
      });
    }
    new RelationshipStore(store.database).put({
      ...base,
      guid: "r1",
      typeName: "custom_link",
      end1: { guid: "a", typeName: "DataSet" },
      end2: { guid: "b", typeName: "DataSet" },
      attributes: {},
      label: "r:custom_link",
      version: 0,
    });
    const related = new EntityRelationships(store, types);
    const view = related.view(store.get("a")!);
    assert.deepEqual(
      (view.relationshipAttributes as Record<string, Array<{ guid: string }>>).custom_link.map((o) => o.guid),
      ["b"],
    );
    assert.equal(
      related.view(store.get("a")!, { ignoreRelationships: true }).relationshipAttributes,
      undefined,
    );
  } finally {
    store.close();
  }
});

const TABLE_NAME = "mssql://test-sql.database.windows.net/TestDb/dbo/Orders";
const guidsOf = (list: Array<{ guid: string }>) => list.map((item) => item.guid);

Deno.test("an entity written with relationshipAttributes makes one relationship both ends show", async () => {
  await withEmulator({}, async (emulator) => {
    const tableByName = { typeName: "azure_sql_table", uniqueAttributes: { qualifiedName: TABLE_NAME } };
    const [table, id, total, other] = await createEntities(emulator, [
      tableEntity("Orders", {
        relationshipAttributes: { columns: [{ guid: "-2", typeName: "azure_sql_column" }] },
      }),
      column("Id", { relationshipAttributes: { table: tableByName } }),
      column("Total", { relationshipAttributes: { table: tableByName } }),
      column("Other"),
    ]);
    // Not a relationship attribute of azure_sql_table: stays as written, relates nothing.
    const unrelated = { guid: other, typeName: "azure_sql_column" };
    await ok(emulator, "POST", ENTITY, {
      entity: tableEntity("Orders", {
        relationshipAttributes: { columns: [{ guid: id }], notALink: unrelated },
      }),
    });

    const fromTable = (await entity(emulator, table)).entity.relationshipAttributes;
    assert.deepEqual(guidsOf(fromTable.columns), [id, total], "one item per column, the table's first");
    assert.ok(
      fromTable.columns.every((c: { relationshipStatus: string }) => c.relationshipStatus === "ACTIVE"),
    );
    assert.deepEqual(fromTable.notALink, unrelated);
    assert.equal((await entity(emulator, other)).entity.relationshipAttributes, undefined);

    const fromId = (await entity(emulator, id)).entity.relationshipAttributes.table;
    assert.equal(fromId.guid, table);
    assert.equal(
      fromId.relationshipGuid,
      fromTable.columns[0].relationshipGuid,
      "both writes name one instance",
    );
    const byGuid = await ok(emulator, "GET", `${RELATIONSHIP}/guid/${fromId.relationshipGuid}`);
    assert.equal(byGuid.body.relationship.typeName, "azure_sql_table_columns");
    assert.equal(byGuid.body.relationship.end1.guid, table, "the table is end1, whichever end was written");
    assert.equal(byGuid.body.relationship.end2.guid, id);
    assert.equal(byGuid.body.relationship.status, "ACTIVE");
    const again = await call(emulator, "POST", RELATIONSHIP, {
      typeName: "azure_sql_table_columns",
      end1: { guid: table },
      end2: { guid: total },
    });
    assert.equal(again.status, 409, "the relationship API sees the instance the write made");
  });
});

Deno.test("a rewrite that drops a reference deletes the relationship it made; others stay", async () => {
  await withEmulator({}, async (emulator) => {
    const [c1, c2, c3, t2] = await createEntities(emulator, [
      column("One"),
      column("Two"),
      column("Three"),
      tableEntity("Other"),
    ]);
    const ref = (guid: string) => ({ guid, typeName: "azure_sql_column" });
    const [table] = await createEntities(emulator, [
      tableEntity("Orders", { relationshipAttributes: { columns: [ref(c1), ref(c2)] } }),
    ]);
    const byApi = (await relateColumn(emulator, table, c3)).body.guid;
    const first = (await entity(emulator, c1)).entity.relationshipAttributes.table.relationshipGuid;

    await ok(emulator, "POST", ENTITY, {
      entity: tableEntity("Orders", { relationshipAttributes: { columns: [ref(c2)] } }),
    });
    assert.equal((await call(emulator, "GET", `${RELATIONSHIP}/guid/${first}`)).status, 404);
    assert.equal(
      (await entity(emulator, c1)).entity.relationshipAttributes,
      undefined,
      "gone from the column",
    );
    const columns = () =>
      entity(emulator, table).then((e) => guidsOf(e.entity.relationshipAttributes.columns));
    assert.deepEqual(await columns(), [c2, c3], "the relationship made through the API stays");
    assert.equal(
      (await ok(emulator, "GET", `${RELATIONSHIP}/guid/${byApi}`)).body.relationship.status,
      "ACTIVE",
    );

    // An update that leaves the attribute out changes no relationship.
    await ok(emulator, "POST", ENTITY, {
      entity: tableEntity("Orders"),
    });
    assert.deepEqual(await columns(), [c2, c3]);

    // A partial update merges relationship attributes and relates what it adds.
    await ok(
      emulator,
      "PUT",
      `${ENTITY}/uniqueAttribute/type/azure_sql_table?attr:qualifiedName=${encodeURIComponent(TABLE_NAME)}`,
      { entity: { relationshipAttributes: { columns: [ref(c2), ref(c1)] } } },
    );
    assert.deepEqual(await columns(), [c2, c1, c3]);
    const back = (await entity(emulator, c1)).entity.relationshipAttributes.table;
    assert.equal(back.guid, table);
    assert.notEqual(back.relationshipGuid, first, "a new instance");

    // A column moved to another table by its own SINGLE attribute.
    await ok(emulator, "POST", ENTITY, {
      entity: column("One", { relationshipAttributes: { table: { guid: table } } }),
    });
    await ok(emulator, "POST", ENTITY, {
      entity: column("One", { relationshipAttributes: { table: { guid: t2 } } }),
    });
    assert.equal((await entity(emulator, c1)).entity.relationshipAttributes.table.guid, t2);
    assert.equal((await call(emulator, "GET", `${RELATIONSHIP}/guid/${back.relationshipGuid}`)).status, 404);
    const onT2 = (await entity(emulator, t2)).entity.relationshipAttributes.columns;
    assert.deepEqual(guidsOf(onT2), [c1]);
  });
});

Deno.test("process inputs written as relationship attributes are one lineage edge, the instance", async () => {
  await withEmulator({}, async (emulator) => {
    const [raw] = await createEntities(emulator, [dataSet("raw")]);
    const inputs = [{ guid: raw, typeName: "DataSet" }];
    const [load] = await createEntities(emulator, [
      {
        ...process("load"),
        attributes: { ...process("load").attributes, inputs },
        relationshipAttributes: { inputs },
      },
    ]);
    const [input] = (await entity(emulator, load)).entity.relationshipAttributes.inputs;
    assert.equal(input.guid, raw);
    assert.equal(input.relationshipType, "dataset_process_inputs");
    const lineage = await ok(emulator, "GET", `${DATAMAP}/atlas/v2/lineage/${raw}?direction=OUTPUT&depth=3`);
    assert.deepEqual(lineage.body.relations, [
      { fromEntityId: raw, toEntityId: load, relationshipId: input.relationshipGuid },
    ]);
  });
});
