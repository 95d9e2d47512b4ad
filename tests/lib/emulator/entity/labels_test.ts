import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { call, CATALOG, DATAMAP, tableEntity, withEmulator } from "../emulator_test_helpers.ts";

const ENTITY = `${DATAMAP}/atlas/v2/entity`;
const TABLE_QN = (name: string) => `mssql://test-sql.database.windows.net/TestDb/dbo/${name}`;

async function create(emulator: RunningEmulator, name: string): Promise<string> {
  const reply = await call(emulator, "POST", ENTITY, { entity: tableEntity(name) });
  return reply.body.mutatedEntities.CREATE[0].guid;
}

async function read(
  emulator: RunningEmulator,
  guid: string,
): Promise<{ labels?: string[]; version: number }> {
  return (await call(emulator, "GET", `${ENTITY}/guid/${guid}`)).body.entity;
}

Deno.test("labels by guid: PUT appends, POST replaces, DELETE removes, each 204", async () => {
  await withEmulator({}, async (emulator) => {
    const guid = await create(emulator, "Customers");
    const path = `${ENTITY}/guid/${guid}/labels`;
    const added = await call(emulator, "PUT", path, ["finance", "gold"]);
    assert.equal(added.status, 204);
    assert.equal(added.body, undefined);
    assert.equal((await call(emulator, "PUT", path, ["gold", "tier-1"])).status, 204);
    let entity = await read(emulator, guid);
    assert.deepEqual(entity.labels, ["finance", "gold", "tier-1"], "no duplicates");
    assert.equal(entity.version, 2);

    assert.equal((await call(emulator, "POST", path, ["only_this"])).status, 204);
    assert.deepEqual((await read(emulator, guid)).labels, ["only_this"]);
    assert.equal((await call(emulator, "PUT", path, ["a", "b", "c"])).status, 204);
    assert.equal((await call(emulator, "DELETE", path, ["a", "not-there"])).status, 204);
    assert.deepEqual((await read(emulator, guid)).labels, ["only_this", "b", "c"]);

    // No body: PUT and DELETE change nothing, POST removes every label (the contract's optional body).
    assert.equal((await call(emulator, "PUT", path)).status, 204);
    entity = await read(emulator, guid);
    assert.deepEqual(entity.labels, ["only_this", "b", "c"]);
    assert.equal((await read(emulator, guid)).version, entity.version, "a change of nothing is no update");
    assert.equal(
      (await call(emulator, "POST", `${CATALOG}/atlas/v2/entity/guid/${guid}/labels`)).status,
      204,
    );
    assert.deepEqual((await read(emulator, guid)).labels, []);
  });
});

Deno.test("labels by unique attribute, and search sees them", async () => {
  await withEmulator({}, async (emulator) => {
    const guid = await create(emulator, "Orders");
    const path = `${ENTITY}/uniqueAttribute/type/azure_sql_table/labels?attr:qualifiedName=${
      encodeURIComponent(TABLE_QN("Orders"))
    }`;
    assert.equal((await call(emulator, "PUT", path, ["Certified", "Quarterly"])).status, 204);
    const filtered = await call(emulator, "POST", `${DATAMAP}/search/query`, {
      filter: { label: "Certified" },
    });
    assert.deepEqual(filtered.body.value.map((v: { id: string }) => v.id), [guid]);
    assert.deepEqual(filtered.body.value[0].label, ["Certified", "Quarterly"]);
    const byKeyword = await call(emulator, "POST", `${DATAMAP}/search/query`, { keywords: "quarterly" });
    assert.deepEqual(byKeyword.body.value.map((v: { id: string }) => v.id), [guid], "labels are indexed");

    assert.equal((await call(emulator, "POST", path, ["Draft"])).status, 204);
    assert.equal((await call(emulator, "DELETE", path, ["Draft"])).status, 204);
    assert.deepEqual((await read(emulator, guid)).labels, []);
    const gone = await call(emulator, "POST", `${DATAMAP}/search/query`, { filter: { label: "Certified" } });
    assert.equal(gone.body["@search.count"], 0);

    const missing = await call(
      emulator,
      "PUT",
      `${ENTITY}/uniqueAttribute/type/azure_sql_table/labels?attr:qualifiedName=nope`,
      ["x"],
    );
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errorCode, "ATLAS-404-00-009");
  });
});

Deno.test("label errors: Atlas's character and length rules, bad bodies, unknown entities", async () => {
  await withEmulator({}, async (emulator) => {
    const guid = await create(emulator, "Invoices");
    const path = `${ENTITY}/guid/${guid}/labels`;
    const spaced = await call(emulator, "PUT", path, ["has space"]);
    assert.equal(spaced.status, 400);
    assert.equal(spaced.body.errorCode, "ATLAS-400-00-090");
    assert.equal(
      spaced.body.errorMessage,
      "Invalid label: has space, label should contain alphanumeric characters, '_' or '-'",
    );
    const long = await call(emulator, "POST", path, ["x".repeat(51)]);
    assert.equal(long.status, 400);
    assert.equal(long.body.errorCode, "ATLAS-400-00-08F");
    const notArray = await call(emulator, "PUT", path, { labels: ["a"] });
    assert.equal(notArray.status, 400);
    assert.equal(notArray.body.errorCode, "ATLAS-400-00-029");
    const notStrings = await call(emulator, "PUT", path, [1, 2]);
    assert.equal(notStrings.status, 400);
    const badJson = await call(emulator, "PUT", path, undefined, { rawBody: "[oops" });
    assert.equal(badJson.status, 400);
    assert.equal((await read(emulator, guid)).labels, undefined, "nothing was written");

    const unknown = await call(emulator, "PUT", `${ENTITY}/guid/nope/labels`, ["a"]);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errorCode, "ATLAS-404-00-005");
  });
});
