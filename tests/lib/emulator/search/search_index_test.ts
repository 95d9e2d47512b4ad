/**
 * The search index follows every write: through the HTTP routes (create, update, labels, classifications,
 * business metadata, delete, reset) and straight through the store (bulk loads that rebuild, repeated
 * updates that compact, rolled-back transactions that leave no trace).
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import type { AtlasEntity } from "../../../../lib/emulator/entity/model.ts";
import { searchEntities } from "../../../../lib/emulator/search/engine.ts";
import { SearchIndex } from "../../../../lib/emulator/search/search_index.ts";
import { EntityStore } from "../../../../lib/emulator/store.ts";
import { API_VERSION, call, DATAMAP, ok, tableEntity, withEmulator } from "../emulator_test_helpers.ts";

const ENTITY = `${DATAMAP}/atlas/v2/entity`;

async function ids(emulator: RunningEmulator, body: Record<string, unknown>): Promise<string[]> {
  const reply = await call(emulator, "POST", `${DATAMAP}/search/query?${API_VERSION}`, {
    limit: 100,
    ...body,
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.value.map((item: { id: string }) => item.id);
}

Deno.test("every kind of entity write is searchable at once, and deleted entities never match", async () => {
  await withEmulator({}, async (emulator) => {
    const created = await ok(emulator, "POST", ENTITY, { entity: tableEntity("ShipmentLedger") });
    const guid: string = created.body.mutatedEntities.CREATE[0].guid;
    assert.deepEqual(await ids(emulator, { keywords: "shipment" }), [guid], "camelCase part of the name");
    assert.deepEqual(await ids(emulator, { keywords: "ShipmentLedger" }), [guid], "the whole name");

    await ok(emulator, "POST", ENTITY, {
      entity: tableEntity("ShipmentLedger", {
        attributes: {
          qualifiedName: "mssql://test-sql.database.windows.net/TestDb/dbo/ShipmentLedger",
          name: "ShipmentLedger",
          description: "Freight costs per carrier",
        },
      }),
    });
    assert.deepEqual(await ids(emulator, { keywords: "freight carrier" }), [guid], "updated description");
    assert.deepEqual(await ids(emulator, { keywords: "table" }), [], "the old description is gone");

    await ok(emulator, "PUT", `${ENTITY}/guid/${guid}/labels`, ["Quarterly"]);
    assert.deepEqual(await ids(emulator, { keywords: "quarterly" }), [guid], "labels");
    assert.deepEqual(await ids(emulator, { filter: { label: "Quarterly" } }), [guid]);

    await ok(emulator, "POST", `${ENTITY}/guid/${guid}/classifications`, [
      { typeName: "MICROSOFT.FINANCIAL.CREDIT_CARD_NUMBER" },
    ]);
    assert.deepEqual(await ids(emulator, { keywords: "credit_card_number" }), [guid], "classifications");
    await ok(
      emulator,
      "DELETE",
      `${ENTITY}/guid/${guid}/classification/MICROSOFT.FINANCIAL.CREDIT_CARD_NUMBER`,
    );
    assert.deepEqual(await ids(emulator, { keywords: "credit" }), [], "removed classification");

    await ok(emulator, "POST", `${DATAMAP}/atlas/v2/types/typedefs`, {
      businessMetadataDefs: [{
        category: "BUSINESS_METADATA",
        name: "Logistics",
        attributeDefs: [{
          name: "carrierName",
          typeName: "string",
          isOptional: true,
          cardinality: "SINGLE",
          options: { applicableEntityTypes: '["DataSet"]', maxStrLength: "50" },
        }],
      }],
    });
    await ok(emulator, "POST", `${ENTITY}/guid/${guid}/businessmetadata`, {
      Logistics: { carrierName: "Northwind Hauliers" },
    });
    assert.deepEqual(await ids(emulator, { keywords: "hauliers" }), [guid], "business metadata values");

    await ok(emulator, "DELETE", `${ENTITY}/guid/${guid}`);
    assert.deepEqual(await ids(emulator, { keywords: "shipment" }), [], "deleted: not by keyword");
    assert.deepEqual(await ids(emulator, { filter: { id: guid } }), [], "deleted: not by id");
    // Only the glossary "Glossary" every new account has is left.
    const left = await call(emulator, "POST", `${DATAMAP}/search/query?${API_VERSION}`, { keywords: "*" });
    assert.deepEqual(
      left.body.value.map((item: { name: string }) => item.name),
      ["Glossary"],
      "deleted: not by *",
    );

    const again = await ok(emulator, "POST", ENTITY, { entity: tableEntity("ShipmentLedger") });
    const second: string = again.body.mutatedEntities.CREATE[0].guid;
    assert.notEqual(second, guid);
    assert.deepEqual(await ids(emulator, { keywords: "shipment" }), [second], "the new entity only");

    await ok(emulator, "POST", "/_emulator/reset?data=true");
    const afterReset = await call(emulator, "POST", `${DATAMAP}/search/query?${API_VERSION}`, {
      keywords: "*",
    });
    const names = afterReset.body.value.map((item: { name: string }) => item.name);
    assert.deepEqual(names, ["Glossary"], "a reset empties the index but for a new account's glossary");
  });
});

function entity(guid: string, name: string, extra: Partial<AtlasEntity> = {}): AtlasEntity {
  return {
    guid,
    typeName: "DataSet",
    attributes: { qualifiedName: `custom://bench/${name}`, name },
    status: "ACTIVE",
    createTime: 1,
    updateTime: 1,
    createdBy: "test",
    updatedBy: "test",
    version: 1,
    lastModifiedTS: "1",
    ...extra,
  };
}

function withStore(test: (store: EntityStore, index: SearchIndex) => void): void {
  const store = EntityStore.open();
  try {
    test(store, SearchIndex.of(store));
  } finally {
    store.close();
  }
}

const count = (index: SearchIndex, keywords: string, filter?: unknown) =>
  searchEntities(index, { keywords, filter, limit: 1 }, Date.now())["@search.count"];

Deno.test("a bulk load through the store is indexed by one rebuild; a changed entity keeps one document", () => {
  withStore((store, index) => {
    assert.equal(count(index, "*"), 0);
    store.transaction(() => {
      for (let i = 0; i < 5000; i++) store.put(entity(`g${i}`, `Asset${i} ${i % 2 === 0 ? "even" : "odd"}`));
    });
    assert.equal(count(index, "*"), 5000);
    assert.equal(count(index, "even"), 2500);
    assert.equal(count(index, "asset4999"), 1);

    for (let version = 0; version < 3000; version++) {
      store.put(entity("g0", `Renamed${version} even`));
      index.refresh();
    }
    assert.equal(count(index, "renamed2999"), 1);
    assert.equal(count(index, "renamed2998"), 0, "an old name of the entity is gone");
    assert.equal(count(index, "even"), 2500, "the entity is counted once");
    const rows = store.database.prepare("SELECT count(*) AS n FROM search_documents").get() as { n: number };
    assert.equal(Number(rows.n), index.size, "one document per live entity");
    assert.equal(index.size, 5000);
  });
});

Deno.test("a rolled-back write never reaches the index; assigned terms are searchable and faceted", () => {
  withStore((store, index) => {
    store.put(entity("kept", "Revenue"));
    assert.equal(count(index, "revenue"), 1);
    assert.throws(() =>
      store.transaction(() => {
        store.put(entity("lost", "Revenue Forecast"));
        throw new Error("abort");
      })
    );
    assert.equal(count(index, "forecast"), 0);
    assert.equal(count(index, "revenue"), 1);

    store.put(entity("kept", "Revenue", {
      meanings: [{ termGuid: "t1", displayText: "Net Sales@Finance Glossary" }],
    }));
    assert.equal(count(index, "net sales"), 1, "term names are indexed");
    assert.equal(count(index, "*", { term: "Net Sales", glossary: "Finance Glossary" }), 1);
    assert.equal(count(index, "*", { termGuid: "t1" }), 1);
    const faceted = searchEntities(index, { facets: [{ facet: "term" }] }, Date.now());
    assert.deepEqual(faceted["@search.facets"]?.term, [{ count: 1, value: "Net Sales" }]);

    store.put({ ...entity("kept", "Revenue"), status: "DELETED" });
    assert.equal(count(index, "*"), 0, "a soft delete through the store removes it");
  });
});

Deno.test("glossary records stored as entities answer the glossary filters and facets", () => {
  withStore((store, index) => {
    store.put({
      ...entity("term-1", "Churn Rate"),
      typeName: "AtlasGlossaryTerm",
      attributes: { qualifiedName: "Churn Rate@Glossary", name: "Churn Rate", status: "Approved" },
    });
    store.put(entity("asset-1", "Churn Model"));
    const terms = searchEntities(index, {
      keywords: "churn",
      filter: { and: [{ objectType: "Glossary terms" }, { glossaryType: "AtlasGlossaryTerm" }] },
      facets: [{ facet: "termStatus" }, { facet: "glossaryType" }],
    }, Date.now());
    assert.deepEqual(terms.value.map((item) => item.id), ["term-1"]);
    assert.equal(terms.value[0].glossary, "Glossary");
    assert.deepEqual(terms["@search.facets"]?.termStatus, [{ count: 1, value: "Approved" }]);
    assert.equal(count(index, "churn", { termStatus: "Approved" }), 1);
  });
});
