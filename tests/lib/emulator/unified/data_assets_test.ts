/**
 * The unified catalog's 2026-03-20-preview data assets and data columns in the emulator over real HTTP: a
 * data asset made from a seeded Data Map table, linked to a data product and listed from the product;
 * columns ingested for the asset and read back in its schema and by query; the duplicate-name counts;
 * the validation that keeps the store whole; the per-operation rate limits.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { call, type JsonReply, withEmulator } from "../emulator_test_helpers.ts";
import { createUnifiedCatalogArea } from "../../../../lib/emulator/unified/area.ts";
import { DEFAULT_LIMITS } from "../../../../lib/emulator/unified/throttle.ts";
import { serveArea } from "../../../support/local_server.ts";

const UC = "/datagovernance/catalog";
const V = "api-version=2026-03-20-preview";
/** Seeded Data Map entities (fixtures/emulator/seed.json). */
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const CUSTOMER_ID = "ca7a1000-0000-4000-8000-000000000011";
const FULL_NAME = "ca7a1000-0000-4000-8000-000000000012";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const ORDER_ID = "ca7a1000-0000-4000-8000-000000000021";
const LAKE_FILE = "ca7a1000-0000-4000-8000-000000000052";

function uc(emulator: RunningEmulator, method: string, path: string, body?: unknown): Promise<JsonReply> {
  const sep = path.includes("?") ? "&" : "?";
  return call(emulator, method, `${UC}${path}${sep}${V}`, body);
}

async function created(reply: Promise<JsonReply>, status = 201): Promise<JsonReply> {
  const answer = await reply;
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  return answer;
}

async function dataProduct(emulator: RunningEmulator, name: string): Promise<string> {
  const domain = await created(uc(emulator, "POST", "/businessdomains", { name: `${name} domain` }));
  const product = await created(uc(emulator, "POST", "/dataProducts", { name, domain: domain.body.id }));
  return product.body.id;
}

Deno.test("data assets: made from a Data Map table, linked to a data product, listed from the product", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const asset =
      (await created(uc(emulator, "POST", "/dataAssets", { source: { assetId: CUSTOMERS } }))).body;
    assert.equal(asset.name, "Customers");
    assert.equal(asset.type, "AzureSqlTable");
    assert.equal(asset.source.assetType, "azure_sql_table");
    assert.equal(asset.source.fqn, "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Customers");
    assert.deepEqual(asset.typeProperties, {
      format: "Table",
      serverEndpoint: "contoso-sql.database.windows.net",
      databaseName: "SalesDb",
      schemaName: "dbo",
      tableName: "Customers",
    });
    assert.equal(asset.systemData.provisioningState, "Succeeded");

    const product = await dataProduct(emulator, "Customer 360");
    const link = await created(
      uc(emulator, "POST", `/dataAssets/${asset.id}/relationships?entityType=DATAPRODUCT`, {
        entityId: product,
        relationshipType: "related",
        description: "feeds it",
      }),
      200,
    );
    assert.equal(link.body.relationshipType, "Related");
    assert.equal(link.body.entityId, product);

    const fromProduct = await uc(
      emulator,
      "GET",
      `/dataProducts/${product}/relationships?entityType=DATAASSET`,
    );
    assert.deepEqual(fromProduct.body.value.map((r: { entityId: string }) => r.entityId), [asset.id]);
    const counted = await uc(emulator, "GET", `/dataProducts/${product}`);
    assert.equal(counted.body.additionalProperties.assetCount, 1);
    const fromAsset = await uc(
      emulator,
      "GET",
      `/dataAssets/${asset.id}/relationships?entityType=DATAPRODUCT`,
    );
    assert.deepEqual(fromAsset.body.value.map((r: { entityId: string }) => r.entityId), [product]);

    const unknownProduct = await uc(
      emulator,
      "POST",
      `/dataAssets/${asset.id}/relationships?entityType=DATAPRODUCT`,
      {
        entityId: crypto.randomUUID(),
      },
    );
    assert.equal(unknownProduct.status, 400);
    assert.equal(unknownProduct.body.error.target, "entityId");
    const noType = await uc(emulator, "POST", `/dataAssets/${asset.id}/relationships`, { entityId: product });
    assert.equal(noType.status, 400);
    assert.equal(noType.body.error.target, "entityType");

    const orphan = await created(uc(emulator, "POST", "/dataAssets", { source: { assetId: ORDERS } }));
    const everyAsset = await uc(emulator, "POST", "/dataAssets/query", {});
    assert.deepEqual(everyAsset.body.value.map((a: { id: string }) => a.id), [asset.id, orphan.body.id]);
    const orphansLeftOut = await uc(emulator, "POST", "/dataAssets/query", { includingOrphans: false });
    assert.deepEqual(orphansLeftOut.body.value.map((a: { id: string }) => a.id), [asset.id]);

    const noEntityId = await uc(
      emulator,
      "DELETE",
      `/dataAssets/${asset.id}/relationships?entityType=DATAPRODUCT`,
    );
    assert.equal(noEntityId.status, 400);
    await created(
      uc(
        emulator,
        "DELETE",
        `/dataAssets/${asset.id}/relationships?entityType=DATAPRODUCT&entityId=${product}`,
      ),
      204,
    );
    assert.equal(
      (await uc(emulator, "GET", `/dataProducts/${product}`)).body.additionalProperties.assetCount,
      0,
    );
  });
});

Deno.test("data assets: read flags, full replacement, one per Data Map asset, delete", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const unknown = await uc(emulator, "POST", "/dataAssets", { source: { assetId: crypto.randomUUID() } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.target, "source.assetId");
    const noSource = await uc(emulator, "POST", "/dataAssets", { openInUrl: "https://x" });
    assert.equal(noSource.body.error.target, "source.assetId");
    const email = await uc(emulator, "POST", "/dataAssets", {
      source: { assetId: ORDERS },
      contacts: { owner: [{ id: "ann@contoso.com" }] },
    });
    assert.equal(email.status, 400);

    const asset = (await created(uc(emulator, "POST", "/dataAssets", {
      source: { assetId: ORDERS },
      openInUrl: "https://portal/orders",
    }))).body;
    const twice = await uc(emulator, "POST", "/dataAssets", { source: { assetId: ORDERS } });
    assert.equal(twice.status, 409);

    const noFlags = await uc(emulator, "GET", `/dataAssets/${asset.id}`);
    assert.equal(noFlags.status, 400);
    assert.equal(noFlags.body.error.target, "includeExtendedProperties");
    const read = await uc(
      emulator,
      "GET",
      `/dataAssets/${asset.id}?includeExtendedProperties=true&includeLineage=true`,
    );
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.lineage, {});
    assert.equal(read.body.openInUrl, "https://portal/orders");

    const replaced = await created(
      uc(emulator, "PUT", `/dataAssets/${asset.id}`, { source: { assetId: ORDERS } }),
      200,
    );
    assert.equal(replaced.body.openInUrl, undefined, "a PUT replaces: the URL not given is gone");
    assert.equal(replaced.body.id, asset.id);

    const lake =
      (await created(uc(emulator, "POST", "/dataAssets", { source: { assetId: LAKE_FILE } }))).body;
    assert.equal(lake.type, "ADLSGen2Path");
    assert.equal(lake.typeProperties.fileName, "orders.parquet");
    const list = await uc(
      emulator,
      "GET",
      "/dataAssets?includeExtendedProperties=false&orderBy=name desc&top=1",
    );
    assert.deepEqual(list.body.value.map((a: { name: string }) => a.name), ["orders.parquet"]);
    assert.ok(list.body.nextLink, "a second page is announced");
    const listNoFlag = await uc(emulator, "GET", "/dataAssets");
    assert.equal(listNoFlag.status, 400);

    await created(uc(emulator, "DELETE", `/dataAssets/${asset.id}`), 204);
    const gone = await uc(
      emulator,
      "GET",
      `/dataAssets/${asset.id}?includeExtendedProperties=true&includeLineage=false`,
    );
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error.code, "EntityNotFound");
  });
});

Deno.test("data columns: ingested for an asset, in its schema, queried and paged by GET nextLink", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const asset =
      (await created(uc(emulator, "POST", "/dataAssets", { source: { assetId: CUSTOMERS } }))).body;
    const wrongTable = await uc(emulator, "POST", "/dataColumns/ingest", {
      requests: [{ dataMapAssetId: CUSTOMERS, dataMapColumnId: FULL_NAME }, {
        dataMapAssetId: CUSTOMERS,
        dataMapColumnId: ORDER_ID,
      }],
    });
    assert.equal(wrongTable.status, 400);
    assert.equal(wrongTable.body.error.target, "requests[1].dataMapColumnId");
    const none = await uc(emulator, "POST", "/dataColumns/query", { includingOrphans: true });
    assert.deepEqual(none.body.value, [], "a refused batch stores nothing");

    const one = await created(
      uc(emulator, "POST", "/dataColumns/ingest", {
        requests: [{ dataMapAssetId: CUSTOMERS, dataMapColumnId: CUSTOMER_ID }],
      }),
      200,
    );
    assert.deepEqual(one.body.source, { type: "DataMap", assetId: CUSTOMERS, columnId: CUSTOMER_ID });
    const batch = await created(
      uc(emulator, "POST", "/dataColumns/ingest", {
        requests: [
          { dataMapAssetId: CUSTOMERS, dataMapColumnId: CUSTOMER_ID },
          { dataMapAssetId: CUSTOMERS, dataMapColumnId: FULL_NAME },
          { dataMapAssetId: ORDERS, dataMapColumnId: ORDER_ID },
        ],
      }),
      200,
    );
    assert.equal(batch.body.value.length, 3);
    assert.equal(batch.body.value[0].id, one.body.id, "ingesting a column again answers the same column");

    const schema = await uc(
      emulator,
      "GET",
      `/dataAssets/${asset.id}?includeExtendedProperties=true&includeLineage=false`,
    );
    assert.deepEqual(schema.body.schema.map((c: { name: string }) => c.name), ["CustomerId", "FullName"]);

    const column = await uc(
      emulator,
      "GET",
      `/dataColumns/${one.body.id}?includeColumnDetails=true&includeAssetDetails=true`,
    );
    assert.equal(column.body.columnDetails.name, "CustomerId");
    assert.deepEqual(column.body.assetDetails, {
      assetId: asset.id,
      name: "Customers",
      fqn: asset.source.fqn,
    });

    const noOrphans = await uc(emulator, "POST", "/dataColumns/query", { includingOrphans: false });
    assert.equal(noOrphans.body.value.length, 2, "the Orders column has no data asset");
    const ofAsset = await uc(emulator, "POST", "/dataColumns/query", {
      includingOrphans: true,
      filter: { and: [{ sourceAssetId: { eq: CUSTOMERS } }, { sourceColumnId: { ne: CUSTOMER_ID } }] },
    });
    assert.deepEqual(ofAsset.body.value.map((c: { source: { columnId: string } }) => c.source.columnId), [
      FULL_NAME,
    ]);
    const first = await uc(emulator, "POST", "/dataColumns/query", { includingOrphans: true, top: 2 });
    assert.equal(first.body.value.length, 2);
    const next = await fetch(first.body.nextLink);
    const second = await next.json();
    assert.equal(second.value.length, 1, "the nextLink of a POST query is answered by a GET");

    const required = await uc(emulator, "POST", "/dataColumns/query", {});
    assert.equal(required.body.error.target, "includingOrphans");
    const badFilter = await uc(emulator, "POST", "/dataColumns/query", {
      includingOrphans: true,
      filter: { name: { eq: "x" } },
    });
    assert.equal(badFilter.body.error.target, "filter.name");

    const cde = await created(uc(emulator, "POST", "/businessdomains", { name: "D" }));
    const element = await created(
      uc(emulator, "POST", "/criticalDataElements", { name: "Id", domain: cde.body.id }),
    );
    await created(
      uc(emulator, "POST", `/dataColumns/${one.body.id}/relationships?entityType=CRITICALDATAELEMENT`, {
        entityId: element.body.id,
        relationshipType: "parent",
      }),
      200,
    );
    const related = await uc(
      emulator,
      "GET",
      `/dataColumns/${one.body.id}/relationships?entityType=CRITICALDATAELEMENT`,
    );
    assert.deepEqual(related.body.value.map((r: { relationshipType: string }) => r.relationshipType), [
      "Parent",
    ]);
  });
});

Deno.test("counts: duplicate names computed from the stored names, in any case", async () => {
  await withEmulator({}, async (emulator) => {
    const domain = (await created(uc(emulator, "POST", "/businessdomains", { name: "Sales" }))).body.id;
    await created(uc(emulator, "POST", "/terms", { name: "Revenue", domain, status: "Draft" }));
    await created(uc(emulator, "POST", "/terms", { name: "Revenue share", domain, status: "Draft" }));
    await created(uc(emulator, "POST", "/objectives", { definition: "Grow revenue", domain }));
    const terms = await uc(emulator, "POST", "/terms/query/count", { nameKeyword: "revenue" });
    assert.deepEqual(terms.body, { count: 1 });
    const objectives = await uc(emulator, "POST", "/objectives/query/count", { definition: "GROW REVENUE" });
    assert.deepEqual(objectives.body, { count: 1 });
    const products = await uc(emulator, "POST", "/dataProducts/query/count", { nameKeyword: "Revenue" });
    assert.deepEqual(products.body, { count: 0 });
  });
});

Deno.test("data assets: each operation keeps the SDK's own rate limit", async () => {
  assert.equal(DEFAULT_LIMITS.operations["dataAssets.list"], 150);
  assert.equal(DEFAULT_LIMITS.operations["dataAssets.delete"], 80);
  assert.equal(DEFAULT_LIMITS.operations["dataColumns.query"], 100);
  const server = serveArea(
    createUnifiedCatalogArea({ limits: { operations: { "dataAssets.list": 1 } } }),
    { prefix: UC },
  );
  const list = async () => {
    const response = await fetch(`${server.url}${UC}/dataAssets?includeExtendedProperties=false&${V}`);
    await response.body?.cancel();
    return response;
  };
  try {
    assert.equal((await list()).status, 200);
    const limited = await list();
    assert.equal(limited.status, 429);
    assert.ok(limited.headers.get("retry-after"));
  } finally {
    await server.close();
  }
});
