import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import {
  API_VERSION,
  call,
  CATALOG,
  DATAMAP,
  type JsonReply,
  tableEntity,
  withEmulator,
} from "../emulator_test_helpers.ts";

const ENTITY = `${DATAMAP}/atlas/v2/entity`;
const TABLE_QN = (name: string) => `mssql://test-sql.database.windows.net/TestDb/dbo/${name}`;
const byName = (name: string) =>
  `${ENTITY}/uniqueAttribute/type/azure_sql_table?attr:qualifiedName=${encodeURIComponent(TABLE_QN(name))}`;

async function create(
  emulator: RunningEmulator,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const reply = await call(emulator, "POST", ENTITY, { entity: tableEntity(name, extra) });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.mutatedEntities.CREATE[0].guid;
}

function search(emulator: RunningEmulator, body: unknown): Promise<JsonReply> {
  return call(emulator, "POST", `${DATAMAP}/search/query?${API_VERSION}`, body);
}

Deno.test("entity header: the AtlasEntityHeader of the contract, 404 for an unknown guid", async () => {
  await withEmulator({}, async (emulator) => {
    const guid = await create(emulator, "Customers", {
      labels: ["PII"],
      classifications: [{ typeName: "MICROSOFT.PERSONAL.EMAIL" }],
    });
    const header = await call(emulator, "GET", `${ENTITY}/guid/${guid}/header?${API_VERSION}`);
    assert.equal(header.status, 200);
    assert.deepEqual(header.body, {
      typeName: "azure_sql_table",
      guid,
      status: "ACTIVE",
      lastModifiedTS: "1",
      displayText: "Customers",
      attributes: {
        qualifiedName: TABLE_QN("Customers"),
        name: "Customers",
        description: "Test table Customers",
      },
      classificationNames: ["MICROSOFT.PERSONAL.EMAIL"],
      classifications: [{ typeName: "MICROSOFT.PERSONAL.EMAIL", entityGuid: guid, entityStatus: "ACTIVE" }],
      labels: ["PII"],
      meaningNames: [],
      meanings: [],
      isIncomplete: false,
    });

    const missing = await call(emulator, "GET", `${CATALOG}/atlas/v2/entity/guid/nope/header`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errorCode, "ATLAS-404-00-005");
  });
});

Deno.test("partial update of one attribute by guid answers PARTIAL_UPDATE and bumps the version", async () => {
  await withEmulator({}, async (emulator) => {
    const guid = await create(emulator, "Orders");
    const updated = await call(
      emulator,
      "PUT",
      `${ENTITY}/guid/${guid}?name=description&${API_VERSION}`,
      "New text",
    );
    assert.equal(updated.status, 200);
    const header = {
      guid,
      lastModifiedTS: "2",
      attributes: { qualifiedName: TABLE_QN("Orders") },
      typeName: "azure_sql_table",
    };
    assert.deepEqual(updated.body, {
      mutatedEntities: { PARTIAL_UPDATE: [header] },
      guidAssignments: {},
      partialUpdatedEntities: [header],
    });
    const read = await call(emulator, "GET", `${ENTITY}/guid/${guid}`);
    assert.equal(read.body.entity.attributes.description, "New text");
    assert.equal(read.body.entity.attributes.name, "Orders", "other attributes are kept");
    assert.equal(read.body.entity.version, 1);
    assert.equal(read.body.entity.updatedBy, "emulator");

    const noName = await call(emulator, "PUT", `${ENTITY}/guid/${guid}`, "x");
    assert.equal(noName.status, 400);
    assert.equal(noName.body.errorCode, "ATLAS-400-00-01A");
    const nullValue = await call(emulator, "PUT", `${ENTITY}/guid/${guid}?name=description`, null);
    assert.equal(nullValue.status, 400);
    assert.match(nullValue.body.errorMessage, /null updates are not possible/);
    const array = await call(emulator, "PUT", `${ENTITY}/guid/${guid}?name=description`, ["a"]);
    assert.equal(array.status, 400);
    assert.equal(array.body.errorCode, "ATLAS-400-00-027");
    const badJson = await call(emulator, "PUT", `${ENTITY}/guid/${guid}?name=description`, undefined, {
      rawBody: "{nope",
    });
    assert.equal(badJson.status, 400);
    assert.equal(badJson.body.errorCode, "ATLAS-400-00-029");
    const unknown = await call(emulator, "PUT", `${ENTITY}/guid/nope?name=description`, "x");
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errorCode, "ATLAS-404-00-005");
    const unknownAttribute = await call(emulator, "PUT", `${ENTITY}/guid/${guid}?name=noSuchAttribute`, "x");
    assert.equal(unknownAttribute.status, 400, "the type system refuses attributes the type does not define");

    const after = await call(emulator, "GET", `${ENTITY}/guid/${guid}`);
    assert.equal(after.body.entity.version, 1, "refused updates change nothing");
  });
});

Deno.test("partial update by unique attribute merges attributes and can rename", async () => {
  await withEmulator({}, async (emulator) => {
    const guid = await create(emulator, "Invoices");
    const merged = await call(emulator, "PUT", byName("Invoices"), {
      entity: {
        typeName: "azure_sql_table",
        guid: "ignored-service-field",
        version: 42,
        attributes: { description: "Merged" },
      },
      referredEntities: {},
    });
    assert.equal(merged.status, 200);
    assert.equal(merged.body.mutatedEntities.PARTIAL_UPDATE[0].guid, guid);
    assert.equal(merged.body.partialUpdatedEntities[0].lastModifiedTS, "2");
    const read = await call(emulator, "GET", `${ENTITY}/guid/${guid}`);
    assert.equal(read.body.entity.attributes.description, "Merged");
    assert.equal(read.body.entity.attributes.name, "Invoices");
    assert.equal(read.body.entity.version, 1);

    const renamed = await call(emulator, "PUT", byName("Invoices"), {
      entity: { attributes: { qualifiedName: TABLE_QN("Bills"), name: "Bills" } },
    });
    assert.equal(renamed.status, 200);
    assert.equal((await call(emulator, "GET", byName("Bills"))).body.entity.guid, guid);
    assert.equal((await call(emulator, "GET", byName("Invoices"))).status, 404);

    const wrongType = await call(emulator, "PUT", byName("Bills"), {
      entity: { typeName: "DataSet", attributes: {} },
    });
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body.errorCode, "ATLAS-400-00-010");
    const noEntity = await call(emulator, "PUT", byName("Bills"), { referredEntities: {} });
    assert.equal(noEntity.status, 400);
    assert.equal(noEntity.body.errorCode, "ATLAS-400-00-01A");
    const missing = await call(emulator, "PUT", byName("Nothing"), { entity: { attributes: {} } });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errorCode, "ATLAS-404-00-009");
    const noAttribute = await call(emulator, "PUT", `${ENTITY}/uniqueAttribute/type/azure_sql_table`, {
      entity: { attributes: {} },
    });
    assert.equal(noAttribute.status, 400);

    // Renaming onto a name another ACTIVE entity holds is a conflict.
    await create(emulator, "Taken");
    const clash = await call(emulator, "PUT", byName("Bills"), {
      entity: { attributes: { qualifiedName: TABLE_QN("Taken") } },
    });
    assert.equal(clash.status, 409);
    assert.equal(clash.body.errorCode, "ATLAS-409-00-003");
  });
});

Deno.test("bulk read by unique attributes returns the matches in order and skips the rest", async () => {
  await withEmulator({}, async (emulator) => {
    const a = await create(emulator, "A");
    const b = await create(emulator, "B");
    const q = (name: string) => encodeURIComponent(TABLE_QN(name));
    const path = `${ENTITY}/bulk/uniqueAttribute/type/azure_sql_table`;
    const listed = await call(
      emulator,
      "GET",
      `${path}?attr_1:qualifiedName=${q("B")}&attr_2:qualifiedName=${q("nope")}&attr_3:qualifiedName=${
        q("A")
      }&minExtInfo=true`,
    );
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.entities.map((e: { guid: string }) => e.guid), [b, a]);
    assert.deepEqual(listed.body.referredEntities, {});

    const none = await call(emulator, "GET", path);
    assert.equal(none.status, 400);
    assert.equal(none.body.errorCode, "ATLAS-400-00-01A");
    const unknownType = await call(
      emulator,
      "GET",
      `${ENTITY}/bulk/uniqueAttribute/type/no_such_type?attr_0:qualifiedName=x`,
    );
    assert.equal(unknownType.status, 404);
  });
});

/**
 * The literal `attr_N:qualifiedName` the contracts' examples write and Microsoft's SDKs send names one
 * entity, as Atlas reads any index between `attr_` and the colon (apache/atlas
 * webapp/src/main/java/org/apache/atlas/web/rest/EntityREST.java, getAttributesList); with numbered ones
 * it is one more; a repeated parameter counts with its first value.
 */
Deno.test("bulk read by unique attributes takes the literal attr_N: beside attr_0:, attr_1:", async () => {
  await withEmulator({}, async (emulator) => {
    const a = await create(emulator, "A");
    const b = await create(emulator, "B");
    const c = await create(emulator, "C");
    const q = (name: string) => encodeURIComponent(TABLE_QN(name));
    const path = `${CATALOG}/atlas/v2/entity/bulk/uniqueAttribute/type/azure_sql_table`;
    const one = await call(
      emulator,
      "GET",
      `${path}?attr_N:qualifiedName=${q("A")}&api-version=2022-03-01-preview`,
    );
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.deepEqual(one.body.entities.map((e: { guid: string }) => e.guid), [a]);

    const mixed = await call(
      emulator,
      "GET",
      `${path}?attr_0:qualifiedName=${q("B")}&attr_N:qualifiedName=${q("A")}&attr_1:qualifiedName=${q("C")}`,
    );
    assert.deepEqual(mixed.body.entities.map((e: { guid: string }) => e.guid), [b, a, c]);

    const repeated = await call(
      emulator,
      "GET",
      `${path}?attr_N:qualifiedName=${q("C")}&attr_N:qualifiedName=${q("A")}`,
    );
    assert.deepEqual(repeated.body.entities.map((e: { guid: string }) => e.guid), [c], "the first value");

    const noAttribute = await call(emulator, "GET", `${path}?attr_N=${q("A")}`);
    assert.equal(noAttribute.status, 400, "attr_N without an attribute name names nothing");
    const otherAttribute = await call(emulator, "GET", `${path}?attr_N:name=A`);
    assert.equal(otherAttribute.status, 400);
    assert.match(otherAttribute.body.errorMessage, /attr_N:qualifiedName is required/);
  });
});

Deno.test("moveTo sets the collection of every entity and answers UPDATE headers", async () => {
  await withEmulator({}, async (emulator) => {
    const a = await create(emulator, "A");
    const b = await create(emulator, "B");
    const moved = await call(
      emulator,
      "POST",
      `${DATAMAP}/entity/moveTo?collectionId=finance&${API_VERSION}`,
      {
        entityGuids: [a, b],
      },
    );
    assert.equal(moved.status, 200);
    assert.deepEqual(moved.body.mutatedEntities.UPDATE.map((h: { guid: string }) => h.guid), [a, b]);
    assert.equal(moved.body.mutatedEntities.UPDATE[0].lastModifiedTS, "2");
    assert.deepEqual(Object.values(moved.body.guidAssignments), [a, b]);
    const read = await call(emulator, "GET", `${ENTITY}/guid/${a}`);
    assert.equal(read.body.entity.collectionId, "finance");
    assert.equal(read.body.entity.version, 1);
    const found = await search(emulator, { filter: { collectionId: "finance" } });
    assert.equal(found.body["@search.count"], 2);

    const viaCatalog = await call(emulator, "POST", `${CATALOG}/entity/moveTo?collectionId=sales`, {
      entityGuids: [a],
    });
    assert.equal(viaCatalog.status, 200);
    const noCollection = await call(emulator, "POST", `${DATAMAP}/entity/moveTo`, { entityGuids: [a] });
    assert.equal(noCollection.status, 400);
    const empty = await call(emulator, "POST", `${DATAMAP}/entity/moveTo?collectionId=x`, {
      entityGuids: [],
    });
    assert.equal(empty.status, 400);
    const unknown = await call(emulator, "POST", `${DATAMAP}/entity/moveTo?collectionId=x`, {
      entityGuids: [b, "nope"],
    });
    assert.equal(unknown.status, 404);
    assert.equal(
      (await call(emulator, "GET", `${ENTITY}/guid/${b}`)).body.entity.collectionId,
      "finance",
      "all or none",
    );
    const atlasPath = await call(emulator, "POST", `${ENTITY}/moveTo?collectionId=x`, { entityGuids: [a] });
    assert.equal(atlasPath.status, 404, "the contract serves moveTo outside /atlas/v2");
  });
});

Deno.test("soft delete: readable by guid, gone from unique lookups and search, name reusable", async () => {
  await withEmulator({}, async (emulator) => {
    const guid = await create(emulator, "Shipments");
    const before = await search(emulator, { keywords: "Shipments" });
    assert.deepEqual(before.body.value.map((v: { id: string }) => v.id), [guid]);

    const deleted = await call(emulator, "DELETE", byName("Shipments"));
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.mutatedEntities.DELETE[0].guid, guid);

    const read = await call(emulator, "GET", `${ENTITY}/guid/${guid}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.entity.status, "DELETED");
    assert.equal((await call(emulator, "GET", `${ENTITY}/guid/${guid}/header`)).body.status, "DELETED");
    const lookup = await call(emulator, "GET", byName("Shipments"));
    assert.equal(lookup.status, 404);
    assert.equal(lookup.body.errorCode, "ATLAS-404-00-009");
    assert.equal((await search(emulator, { keywords: "Shipments" })).body["@search.count"], 0);
    assert.equal((await search(emulator, { filter: { id: guid } })).body["@search.count"], 0);
    assert.equal(emulator.entityCount(), 0);

    const again = await call(emulator, "POST", ENTITY, { entity: tableEntity("Shipments") });
    assert.equal(again.status, 200);
    const newGuid = again.body.mutatedEntities.CREATE[0].guid;
    assert.notEqual(newGuid, guid, "a new entity, not the deleted one revived");
    assert.equal((await call(emulator, "GET", byName("Shipments"))).body.entity.guid, newGuid);
    assert.equal((await call(emulator, "GET", `${ENTITY}/guid/${guid}`)).body.entity.status, "DELETED");
    assert.deepEqual(
      (await search(emulator, { keywords: "Shipments" })).body.value.map((v: { id: string }) => v.id),
      [
        newGuid,
      ],
    );
    assert.equal(emulator.entityCount(), 1);
  });
});

Deno.test("referred entities follow relationship attributes; deleted ones show their status", async () => {
  await withEmulator({}, async (emulator) => {
    const column = {
      typeName: "azure_sql_column",
      attributes: { qualifiedName: `${TABLE_QN("Customers")}#Email`, name: "Email", data_type: "nvarchar" },
    };
    const created = await call(emulator, "POST", ENTITY, {
      entity: tableEntity("Customers", {
        guid: "-1",
        relationshipAttributes: { columns: [{ guid: "-2", typeName: "azure_sql_column" }] },
      }),
      referredEntities: { "-2": column },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const tableGuid = created.body.guidAssignments["-1"];
    const columnGuid = created.body.guidAssignments["-2"];
    await call(emulator, "DELETE", `${ENTITY}/guid/${columnGuid}`);
    const full = await call(emulator, "GET", byName("Customers"));
    assert.equal(full.body.entity.guid, tableGuid);
    assert.equal(full.body.referredEntities[columnGuid].status, "DELETED");
    const minimal = await call(emulator, "GET", `${byName("Customers")}&minExtInfo=true`);
    assert.deepEqual(Object.keys(minimal.body.referredEntities[columnGuid]).sort(), [
      "attributes",
      "displayText",
      "guid",
      "status",
      "typeName",
    ]);
  });
});
