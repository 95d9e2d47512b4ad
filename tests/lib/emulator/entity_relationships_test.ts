/**
 * Relationships made through `/atlas/v2/relationship` show on the entities at both ends, over real HTTP:
 * under `relationshipAttributes`, keyed by the end's attribute name, as the contract's AtlasRelatedObjectId
 * (Entity_Get), in every entity read (guid, bulk, unique attribute, bulk unique attribute), with
 * `ignoreRelationships` and `minExtInfo`; updates, deletes and deleted ends follow.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../lib/emulator/mod.ts";
import { EntityRelationships } from "../../../lib/emulator/entity_relationships.ts";
import { RelationshipStore } from "../../../lib/emulator/relationship_store.ts";
import { EntityStore } from "../../../lib/emulator/store.ts";
import { CATALOG, DATAMAP, ok, tableEntity, withEmulator } from "./emulator_test_helpers.ts";

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
    const column = (name: string, extra: Record<string, unknown> = {}) => ({
      typeName: "azure_sql_column",
      attributes: { qualifiedName: `mssql://test-sql.database.windows.net/TestDb/dbo/Orders#${name}`, name },
      ...extra,
    });
    const created = await ok(emulator, "POST", ENTITY, {
      entity: tableEntity("Orders", {
        guid: "-1",
        relationshipAttributes: { columns: [{ guid: "-2", typeName: "azure_sql_column" }] },
      }),
      referredEntities: { "-2": column("Id") },
    });
    const table = created.body.guidAssignments["-1"];
    const id = created.body.guidAssignments["-2"];
    const [total] = await createEntities(emulator, [column("Total")]);

    const relate = (guid: string) =>
      ok(emulator, "POST", RELATIONSHIP, {
        typeName: "azure_sql_table_columns",
        end1: { guid: table },
        end2: { guid },
      });
    const totalRelationship = (await relate(total)).body.guid;
    let columns = (await entity(emulator, table)).entity.relationshipAttributes.columns;
    assert.deepEqual(columns.map((c: { guid: string }) => c.guid), [id, total]);
    assert.equal(columns[0].relationshipGuid, undefined, "the stored reference as the caller sent it");
    assert.equal(columns[1].relationshipGuid, totalRelationship);
    assert.equal((await entity(emulator, total)).entity.relationshipAttributes.table.guid, table);

    await relate(id);
    columns = (await entity(emulator, table)).entity.relationshipAttributes.columns;
    assert.deepEqual(columns.map((c: { guid: string }) => c.guid), [id, total], "one item per entity");
    assert.ok(columns.every((c: { relationshipGuid?: string }) => c.relationshipGuid));

    // A full update replacing the stored references does not lose the relationships (oldest first).
    await ok(emulator, "POST", ENTITY, { entity: tableEntity("Orders", { relationshipAttributes: {} }) });
    columns = (await entity(emulator, table)).entity.relationshipAttributes.columns;
    assert.deepEqual(columns.map((c: { guid: string }) => c.guid), [total, id]);
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
