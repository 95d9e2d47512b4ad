import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { API_VERSION, call, DATAMAP, tableEntity, withEmulator } from "../emulator_test_helpers.ts";

const ENTITY = `${DATAMAP}/atlas/v2/entity`;
const EMAIL = "MICROSOFT.PERSONAL.EMAIL";
const NAME = "MICROSOFT.PERSONAL.NAME";
const CARD = "MICROSOFT.FINANCIAL.CREDIT_CARD_NUMBER";
const TABLE_QN = (name: string) => `mssql://test-sql.database.windows.net/TestDb/dbo/${name}`;
const unique = (name: string, suffix = "") =>
  `${ENTITY}/uniqueAttribute/type/azure_sql_table${suffix}?attr:qualifiedName=${
    encodeURIComponent(TABLE_QN(name))
  }`;

async function create(emulator: RunningEmulator, name: string): Promise<string> {
  const reply = await call(emulator, "POST", ENTITY, { entity: tableEntity(name) });
  return reply.body.mutatedEntities.CREATE[0].guid;
}

async function names(emulator: RunningEmulator, guid: string): Promise<string[]> {
  const reply = await call(emulator, "GET", `${ENTITY}/guid/${guid}/classifications`);
  return reply.body.list.map((c: { typeName: string }) => c.typeName);
}

Deno.test("classifications by guid: list, add, read one, update, remove, with Atlas's errors", async () => {
  await withEmulator({}, async (emulator) => {
    const guid = await create(emulator, "Customers");
    const empty = await call(emulator, "GET", `${ENTITY}/guid/${guid}/classifications?${API_VERSION}`);
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, { list: [], startIndex: 0, pageSize: 0, totalCount: 0, sortType: "NONE" });

    const added = await call(emulator, "POST", `${ENTITY}/guid/${guid}/classifications`, [
      { typeName: EMAIL, entityGuid: guid },
      { typeName: NAME, attributes: { confidence: "high" } },
    ]);
    assert.equal(added.status, 204);
    assert.equal(added.body, undefined);
    const listed = await call(emulator, "GET", `${ENTITY}/guid/${guid}/classifications`);
    assert.equal(listed.body.totalCount, 2);
    assert.equal(listed.body.pageSize, 2);
    assert.deepEqual(listed.body.list[0], {
      typeName: EMAIL,
      lastModifiedTS: "1",
      entityGuid: guid,
      entityStatus: "ACTIVE",
    });
    const one = await call(emulator, "GET", `${ENTITY}/guid/${guid}/classification/${NAME}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.attributes, { confidence: "high" });
    assert.equal((await call(emulator, "GET", `${ENTITY}/guid/${guid}`)).body.entity.version, 1);

    const twice = await call(emulator, "POST", `${ENTITY}/guid/${guid}/classifications`, [{
      typeName: EMAIL,
    }]);
    assert.equal(twice.status, 400);
    assert.equal(twice.body.errorCode, "ATLAS-400-00-01A");
    assert.equal(
      twice.body.errorMessage,
      `invalid parameters: entity: ${guid}, already associated with classification: ${EMAIL}`,
    );
    const unknownType = await call(emulator, "POST", `${ENTITY}/guid/${guid}/classifications`, [
      { typeName: "NO.SUCH.CLASSIFICATION" },
    ]);
    assert.equal(unknownType.status, 404, "the type system refuses unknown classification types");
    assert.deepEqual(await names(emulator, guid), [EMAIL, NAME], "refused writes change nothing");

    const updated = await call(emulator, "PUT", `${ENTITY}/guid/${guid}/classifications`, [
      { typeName: NAME, attributes: { reviewed: "yes" } },
    ]);
    assert.equal(updated.status, 204);
    const after = await call(emulator, "GET", `${ENTITY}/guid/${guid}/classification/${NAME}`);
    assert.deepEqual(after.body.attributes, { confidence: "high", reviewed: "yes" });
    assert.equal(after.body.lastModifiedTS, "2");
    const notThere = await call(emulator, "PUT", `${ENTITY}/guid/${guid}/classifications`, [{
      typeName: CARD,
    }]);
    assert.equal(notThere.status, 400);
    assert.equal(notThere.body.errorCode, "ATLAS-400-00-06D");
    const propagated = await call(emulator, "PUT", `${ENTITY}/guid/${guid}/classifications`, [
      { typeName: NAME, entityGuid: "another-entity" },
    ]);
    assert.equal(propagated.status, 400);
    assert.equal(propagated.body.errorCode, "ATLAS-400-00-06B");

    const missing = await call(emulator, "GET", `${ENTITY}/guid/${guid}/classification/${CARD}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errorCode, "ATLAS-404-00-008");
    assert.equal(missing.body.errorMessage, `Given classification ${CARD} was invalid`);

    assert.equal(
      (await call(emulator, "DELETE", `${ENTITY}/guid/${guid}/classification/${EMAIL}`)).status,
      204,
    );
    const again = await call(emulator, "DELETE", `${ENTITY}/guid/${guid}/classification/${EMAIL}`);
    assert.equal(again.status, 404);
    assert.equal(again.body.errorCode, "ATLAS-404-00-008");
    assert.equal(
      (await call(emulator, "DELETE", `${ENTITY}/guid/${guid}/classification/${NAME}`)).status,
      204,
    );
    const none = await call(emulator, "DELETE", `${ENTITY}/guid/${guid}/classification/${NAME}`);
    assert.equal(none.status, 404);
    assert.equal(none.body.errorCode, "ATLAS-404-00-003");

    const emptyList = await call(emulator, "POST", `${ENTITY}/guid/${guid}/classifications`, []);
    assert.equal(emptyList.status, 400);
    const notArray = await call(emulator, "POST", `${ENTITY}/guid/${guid}/classifications`, {
      typeName: EMAIL,
    });
    assert.equal(notArray.status, 400);
    const noType = await call(emulator, "POST", `${ENTITY}/guid/${guid}/classifications`, [{
      attributes: {},
    }]);
    assert.equal(noType.status, 400);
    const unknownGuid = await call(emulator, "GET", `${ENTITY}/guid/nope/classifications`);
    assert.equal(unknownGuid.status, 404);
    assert.equal(unknownGuid.body.errorCode, "ATLAS-404-00-005");
  });
});

Deno.test("classifications by unique attribute: add, update, remove; search reflects them", async () => {
  await withEmulator({}, async (emulator) => {
    const guid = await create(emulator, "Orders");
    assert.equal(
      (await call(emulator, "POST", unique("Orders", "/classifications"), [{ typeName: CARD }])).status,
      204,
    );
    const search = await call(emulator, "POST", `${DATAMAP}/search/query`, {
      filter: { classification: CARD },
    });
    assert.deepEqual(search.body.value.map((v: { id: string }) => v.id), [guid]);
    const byKeyword = await call(emulator, "POST", `${DATAMAP}/search/query`, {
      keywords: "CREDIT_CARD_NUMBER",
    });
    assert.deepEqual(
      byKeyword.body.value.map((v: { id: string }) => v.id),
      [guid],
      "classification names are indexed",
    );

    const update = await call(emulator, "PUT", unique("Orders", "/classifications"), [
      { typeName: CARD, attributes: { level: 2 } },
    ]);
    assert.equal(update.status, 204);
    const one = await call(emulator, "GET", `${ENTITY}/guid/${guid}/classification/${CARD}`);
    assert.deepEqual(one.body.attributes, { level: 2 });

    const removed = await call(emulator, "DELETE", unique("Orders", `/classification/${CARD}`));
    assert.equal(removed.status, 204);
    assert.deepEqual(await names(emulator, guid), []);
    const after = await call(emulator, "POST", `${DATAMAP}/search/query`, {
      filter: { classification: CARD },
    });
    assert.equal(after.body["@search.count"], 0);

    const missing = await call(emulator, "POST", unique("Nothing", "/classifications"), [{ typeName: CARD }]);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errorCode, "ATLAS-404-00-009");
    const noAttr = await call(
      emulator,
      "POST",
      `${ENTITY}/uniqueAttribute/type/azure_sql_table/classifications`,
      [
        { typeName: CARD },
      ],
    );
    assert.equal(noAttr.status, 400);
  });
});

Deno.test("bulk classification: one classification to many entities, all or nothing", async () => {
  await withEmulator({}, async (emulator) => {
    const a = await create(emulator, "A");
    const b = await create(emulator, "B");
    const path = `${ENTITY}/bulk/classification`;
    const done = await call(emulator, "POST", path, {
      classification: { typeName: EMAIL, attributes: {}, validityPeriods: [] },
      entityGuids: [a, b],
    });
    assert.equal(done.status, 204);
    assert.deepEqual(await names(emulator, a), [EMAIL]);
    assert.deepEqual(await names(emulator, b), [EMAIL]);

    await call(emulator, "DELETE", `${ENTITY}/guid/${b}/classification/${EMAIL}`);
    const clash = await call(emulator, "POST", path, {
      classification: { typeName: EMAIL },
      entityGuids: [b, a],
    });
    assert.equal(clash.status, 400, "a already carries it");
    assert.deepEqual(await names(emulator, b), [], "so b was not changed either");

    const unknown = await call(emulator, "POST", path, {
      classification: { typeName: NAME },
      entityGuids: [b, "nope"],
    });
    assert.equal(unknown.status, 404);
    assert.deepEqual(await names(emulator, b), []);
    const noClassification = await call(emulator, "POST", path, { entityGuids: [a] });
    assert.equal(noClassification.status, 400);
    assert.equal(noClassification.body.errorMessage, "invalid parameters: no classification");
    const noGuids = await call(emulator, "POST", path, {
      classification: { typeName: NAME },
      entityGuids: [],
    });
    assert.equal(noGuids.status, 400);
  });
});

Deno.test("setClassifications: per-entity add, update and delete, with Atlas's summary lines", async () => {
  await withEmulator({}, async (emulator) => {
    const a = await create(emulator, "A");
    const b = await create(emulator, "B");
    await call(emulator, "POST", `${ENTITY}/guid/${a}/classifications`, [{ typeName: EMAIL }]);
    await call(emulator, "POST", `${ENTITY}/guid/${b}/classifications`, [{ typeName: NAME }]);

    const set = await call(emulator, "POST", `${ENTITY}/bulk/setClassifications`, {
      guidHeaderMap: {
        [a]: {
          typeName: "azure_sql_table",
          attributes: { qualifiedName: TABLE_QN("A") },
          classifications: [{ typeName: CARD }],
        },
        [b]: {
          typeName: "azure_sql_table",
          attributes: { qualifiedName: TABLE_QN("B") },
          classifications: [{ typeName: NAME, attributes: { x: 1 } }, { typeName: EMAIL }],
        },
        other: {
          typeName: "azure_sql_table",
          attributes: { qualifiedName: TABLE_QN("Missing") },
          classifications: [],
        },
      },
    });
    assert.equal(set.status, 200);
    assert.deepEqual(set.body, [
      `Delete:${a}:azure_sql_table:${TABLE_QN("A")} -> ${EMAIL}:(Done)`,
      `Add:${a}:azure_sql_table:${TABLE_QN("A")} -> ${CARD}:(Done)`,
      `Update:${b}:azure_sql_table:${TABLE_QN("B")} -> ${NAME}:(Done)`,
      `Add:${b}:azure_sql_table:${TABLE_QN("B")} -> ${EMAIL}:(Done)`,
      `Entity:azure_sql_table:${TABLE_QN("Missing")}:[Not found]:(Skipped)`,
    ]);
    assert.deepEqual(await names(emulator, a), [CARD]);
    assert.deepEqual(await names(emulator, b), [NAME, EMAIL]);

    const badName = await call(emulator, "POST", `${ENTITY}/bulk/setClassifications`, {
      guidHeaderMap: {
        [a]: {
          typeName: "azure_sql_table",
          attributes: { qualifiedName: TABLE_QN("A") },
          classifications: [{ typeName: "NOPE" }],
        },
      },
    });
    assert.equal(badName.status, 404);
    assert.deepEqual(await names(emulator, a), [CARD], "nothing written");
    const badBody = await call(emulator, "POST", `${ENTITY}/bulk/setClassifications`, { guidHeaderMap: [] });
    assert.equal(badBody.status, 400);
  });
});
