import assert from "node:assert/strict";
import { API_VERSION, call, CATALOG, DATAMAP, tableEntity, withEmulator } from "../emulator_test_helpers.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

Deno.test("entity round trip: create, read by guid and unique attribute, update, soft delete", async () => {
  await withEmulator({}, async (emulator) => {
    const created = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity?${API_VERSION}`, {
      entity: tableEntity("Customers", {
        guid: "-1",
        labels: ["PII"],
        classifications: [{ typeName: "MICROSOFT.PERSONAL.EMAIL" }],
        contacts: { Owner: [{ id: "11111111-2222-3333-4444-555555555555", info: "owner" }] },
      }),
    });
    assert.equal(created.status, 200);
    const [header] = created.body.mutatedEntities.CREATE;
    assert.match(header.guid, UUID);
    assert.deepEqual(created.body.guidAssignments, { "-1": header.guid });
    assert.deepEqual(header, {
      typeName: "azure_sql_table",
      attributes: { qualifiedName: "mssql://test-sql.database.windows.net/TestDb/dbo/Customers" },
      lastModifiedTS: "1",
      guid: header.guid,
      status: "ACTIVE",
    });
    assert.equal(created.body.mutatedEntities.UPDATE, undefined);

    const byGuid = await call(
      emulator,
      "GET",
      `${DATAMAP}/atlas/v2/entity/guid/${header.guid}?minExtInfo=true`,
    );
    assert.equal(byGuid.status, 200);
    assert.deepEqual(byGuid.body.referredEntities, {});
    const entity = byGuid.body.entity;
    assert.equal(entity.guid, header.guid);
    assert.equal(entity.status, "ACTIVE");
    assert.equal(entity.createdBy, "emulator");
    assert.equal(entity.updatedBy, "emulator");
    assert.equal(typeof entity.createTime, "number");
    assert.equal(entity.createTime, entity.updateTime);
    assert.equal(entity.version, 0);
    assert.equal(entity.lastModifiedTS, "1");
    assert.deepEqual(entity.labels, ["PII"]);
    assert.equal(entity.classifications[0].typeName, "MICROSOFT.PERSONAL.EMAIL");
    assert.equal(entity.classifications[0].entityGuid, header.guid);
    assert.equal(entity.contacts.Owner[0].info, "owner");
    assert.equal(entity.collectionId, "emulator");

    const qualifiedName = encodeURIComponent(entity.attributes.qualifiedName);
    const byName = await call(
      emulator,
      "GET",
      `${CATALOG}/atlas/v2/entity/uniqueAttribute/type/azure_sql_table?attr:qualifiedName=${qualifiedName}`,
    );
    assert.equal(byName.status, 200);
    assert.deepEqual(byName.body.entity, entity);

    const updated = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, {
      entity: tableEntity("Customers", { attributes: { ...entity.attributes, description: "Changed" } }),
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.mutatedEntities.CREATE, undefined);
    assert.equal(updated.body.mutatedEntities.UPDATE[0].guid, header.guid);
    assert.equal(updated.body.mutatedEntities.UPDATE[0].lastModifiedTS, "2");
    const afterUpdate = await call(emulator, "GET", `${DATAMAP}/atlas/v2/entity/guid/${header.guid}`);
    assert.equal(afterUpdate.body.entity.attributes.description, "Changed");
    assert.equal(afterUpdate.body.entity.createTime, entity.createTime);
    assert.equal(afterUpdate.body.entity.version, 1, "every update increments the version");
    assert.equal(afterUpdate.body.entity.lastModifiedTS, "2");
    assert.ok(afterUpdate.body.entity.updateTime >= entity.updateTime);
    assert.deepEqual(afterUpdate.body.entity.labels, ["PII"], "fields the update left out are kept");

    const deleted = await call(emulator, "DELETE", `${DATAMAP}/atlas/v2/entity/guid/${header.guid}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.mutatedEntities.DELETE[0].guid, header.guid);
    assert.equal(deleted.body.mutatedEntities.DELETE[0].typeName, "azure_sql_table");
    assert.equal(
      deleted.body.mutatedEntities.DELETE[0].status,
      "ACTIVE",
      "the header shows the state before",
    );

    // Soft delete: still readable by guid, with status DELETED and the change counted.
    const gone = await call(emulator, "GET", `${DATAMAP}/atlas/v2/entity/guid/${header.guid}`);
    assert.equal(gone.status, 200);
    assert.equal(gone.body.entity.status, "DELETED");
    assert.equal(gone.body.entity.version, 2);
    assert.equal(gone.body.entity.lastModifiedTS, "3");
    assert.equal(gone.body.entity.classifications[0].entityStatus, "DELETED");
    assert.equal(emulator.entityCount(), 0, "deleted entities are not counted");

    const deleteAgain = await call(emulator, "DELETE", `${DATAMAP}/atlas/v2/entity/guid/${header.guid}`);
    assert.equal(deleteAgain.status, 200, "Atlas skips an entity that is deleted already");
    assert.deepEqual(deleteAgain.body, { mutatedEntities: {} });

    const unknown = await call(emulator, "GET", `${DATAMAP}/atlas/v2/entity/guid/no-such-guid`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errorCode, "ATLAS-404-00-005");
    assert.equal(unknown.body.errorMessage, "Given instance guid no-such-guid is invalid/not found");
    assert.equal(unknown.body.requestId, unknown.headers.get("x-ms-request-id"));
    assert.match(unknown.body.requestId, UUID);
    const deleteUnknown = await call(emulator, "DELETE", `${DATAMAP}/atlas/v2/entity/guid/no-such-guid`);
    assert.equal(deleteUnknown.status, 404);
    assert.equal(deleteUnknown.body.errorCode, "ATLAS-404-00-005");
  });
});

Deno.test("bulk create, bulk get and bulk delete in one transaction", async () => {
  await withEmulator({}, async (emulator) => {
    const first = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, {
      entity: tableEntity("Orders"),
    });
    const existingGuid = first.body.mutatedEntities.CREATE[0].guid;
    assert.equal(
      Object.keys(first.body.guidAssignments).length,
      1,
      "a placeholder is assigned when none is sent",
    );

    const bulk = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity/bulk?${API_VERSION}`, {
      entities: [
        { ...tableEntity("Products"), guid: "-10" },
        { ...tableEntity("Orders"), guid: "-11" },
        { ...tableEntity("Invoices"), guid: "-12" },
      ],
    });
    assert.equal(bulk.status, 200);
    assert.equal(bulk.body.mutatedEntities.CREATE.length, 2);
    assert.equal(bulk.body.mutatedEntities.UPDATE.length, 1);
    assert.equal(bulk.body.mutatedEntities.UPDATE[0].guid, existingGuid);
    assert.equal(bulk.body.guidAssignments["-11"], existingGuid);
    const products = bulk.body.guidAssignments["-10"];
    const invoices = bulk.body.guidAssignments["-12"];

    const listed = await call(
      emulator,
      "GET",
      `${DATAMAP}/atlas/v2/entity/bulk?guid=${products}&guid=${invoices}&${API_VERSION}`,
    );
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.entities.map((e: { guid: string }) => e.guid), [products, invoices]);
    assert.deepEqual(listed.body.referredEntities, {});

    const missing = await call(emulator, "GET", `${DATAMAP}/atlas/v2/entity/bulk?guid=${products}&guid=nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errorCode, "ATLAS-404-00-005");

    const deleted = await call(
      emulator,
      "DELETE",
      `${DATAMAP}/atlas/v2/entity/bulk?guid=${products}&guid=${invoices}`,
    );
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.mutatedEntities.DELETE.length, 2);
    const after = await call(emulator, "GET", `${DATAMAP}/atlas/v2/entity/bulk?guid=${products}`);
    assert.equal(after.status, 200);
    assert.equal(after.body.entities[0].status, "DELETED");
    assert.equal(emulator.entityCount(), 1);
    const again = await call(
      emulator,
      "DELETE",
      `${DATAMAP}/atlas/v2/entity/bulk?guid=${products}&guid=nope`,
    );
    assert.deepEqual(again.body, { mutatedEntities: {} }, "deleted and unknown guids are skipped");

    // A bad entity anywhere in a bulk request writes nothing.
    const rejected = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity/bulk`, {
      entities: [tableEntity("Shipments"), { typeName: "azure_sql_table", attributes: {} }],
    });
    assert.equal(rejected.status, 400);
    assert.equal(emulator.entityCount(), 1);
  });
});

Deno.test("referred entities are created and placeholder references resolved", async () => {
  await withEmulator({}, async (emulator) => {
    const table = tableEntity("Customers", {
      guid: "-1",
      relationshipAttributes: { columns: [{ guid: "-2", typeName: "azure_sql_column" }] },
    });
    const column = {
      typeName: "azure_sql_column",
      attributes: {
        qualifiedName: "mssql://test-sql.database.windows.net/TestDb/dbo/Customers#Email",
        name: "Email",
      },
      relationshipAttributes: { table: { guid: "-1", typeName: "azure_sql_table" } },
    };
    const created = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, {
      entity: table,
      referredEntities: { "-2": column },
    });
    assert.equal(created.status, 200);
    assert.equal(created.body.mutatedEntities.CREATE.length, 2);
    const tableGuid = created.body.guidAssignments["-1"];
    const columnGuid = created.body.guidAssignments["-2"];

    const read = await call(emulator, "GET", `${DATAMAP}/atlas/v2/entity/guid/${tableGuid}`);
    assert.equal(read.body.entity.relationshipAttributes.columns[0].guid, columnGuid);
    assert.equal(read.body.referredEntities[columnGuid].relationshipAttributes.table.guid, tableGuid);

    const minimal = await call(
      emulator,
      "GET",
      `${DATAMAP}/atlas/v2/entity/guid/${tableGuid}?minExtInfo=true`,
    );
    assert.deepEqual(Object.keys(minimal.body.referredEntities[columnGuid]).sort(), [
      "attributes",
      "displayText",
      "guid",
      "status",
      "typeName",
    ]);
    const noRelations = await call(
      emulator,
      "GET",
      `${DATAMAP}/atlas/v2/entity/guid/${tableGuid}?ignoreRelationships=true`,
    );
    assert.equal(noRelations.body.entity.relationshipAttributes, undefined);
    assert.deepEqual(noRelations.body.referredEntities, {});
  });
});

Deno.test("unique-attribute reads and deletes", async () => {
  await withEmulator({}, async (emulator) => {
    await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, { entity: tableEntity("Invoices") });
    const qualifiedName = "mssql://test-sql.database.windows.net/TestDb/dbo/Invoices";
    const path = `${DATAMAP}/atlas/v2/entity/uniqueAttribute/type/azure_sql_table`;

    const wrongType = await call(
      emulator,
      "GET",
      `${DATAMAP}/atlas/v2/entity/uniqueAttribute/type/DataSet?attr:qualifiedName=${
        encodeURIComponent(qualifiedName)
      }`,
    );
    assert.equal(wrongType.status, 404);
    assert.equal(wrongType.body.errorCode, "ATLAS-404-00-009");
    assert.equal(
      wrongType.body.errorMessage,
      `Instance DataSet with unique attribute {qualifiedName=${qualifiedName}} does not exist`,
    );

    const noAttribute = await call(emulator, "GET", path);
    assert.equal(noAttribute.status, 400);
    assert.equal(noAttribute.body.errorCode, "ATLAS-400-00-01A");

    const deleted = await call(
      emulator,
      "DELETE",
      `${path}?attr:qualifiedName=${encodeURIComponent(qualifiedName)}`,
    );
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.mutatedEntities.DELETE[0].attributes.qualifiedName, qualifiedName);
    const again = await call(
      emulator,
      "DELETE",
      `${path}?attr:qualifiedName=${encodeURIComponent(qualifiedName)}`,
    );
    assert.equal(again.status, 404);
    assert.equal(again.body.errorCode, "ATLAS-404-00-009");
  });
});

Deno.test("invalid requests get 400, 404 and 405 with Atlas error bodies", async () => {
  await withEmulator({}, async (emulator) => {
    const noType = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, {
      entity: { attributes: { qualifiedName: "x://y" } },
    });
    assert.equal(noType.status, 400);
    assert.equal(noType.body.errorCode, "ATLAS-400-00-01A");
    assert.match(noType.body.errorMessage, /typeName/);
    assert.equal(noType.body.requestId, noType.headers.get("x-ms-request-id"));

    const noName = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, {
      entity: { typeName: "DataSet", attributes: { name: "x" } },
    });
    assert.equal(noName.status, 400);
    assert.equal(noName.body.errorCode, "ATLAS-400-00-02B");
    assert.equal(noName.body.errorMessage, "Mandatory field DataSet.qualifiedName has empty/null value");

    const badJson = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, undefined, {
      rawBody: "{not json",
    });
    assert.equal(badJson.status, 400);
    assert.equal(badJson.body.errorCode, "ATLAS-400-00-029");
    assert.match(badJson.body.errorMessage, /not valid JSON/);

    const emptyBulk = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity/bulk`, { entities: [] });
    assert.equal(emptyBulk.status, 400);

    const unknownRoute = await call(emulator, "GET", `${DATAMAP}/atlas/v2/nothing-here`);
    assert.equal(unknownRoute.status, 404);
    assert.equal(unknownRoute.body.errorCode, "NotFound");
    assert.ok(unknownRoute.body.requestId);

    const wrongMethod = await call(emulator, "PATCH", `${DATAMAP}/atlas/v2/entity/bulk`);
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.body.errorCode, "MethodNotAllowed");
    assert.match(wrongMethod.headers.get("allow") ?? "", /POST/);

    assert.equal(emulator.entityCount(), 0);
  });
});
