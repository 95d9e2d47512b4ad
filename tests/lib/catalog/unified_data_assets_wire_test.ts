/**
 * What the data asset and data column calls of `UnifiedCatalogClient` put on the wire, against a scripted
 * server on 127.0.0.1: every one of the 2026-03-20-preview operations with its path, method, required
 * query flags and body; the assets api-version on each (CATALOG_UNIFIED_ASSETS_API_VERSION, the next pages
 * of a POST query included) while the other calls keep CATALOG_UNIFIED_API_VERSION; the ingest answer read
 * in any of its possible forms; inputs refused before anything is sent.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config/config.ts";
import { UsageError } from "../../../lib/core/errors.ts";
import { UnifiedCatalogClient } from "../../../lib/catalog/unified_api.ts";
import { UNIFIED_CATALOG_2026_OPERATIONS } from "../../../lib/catalog/unified_operations.ts";
import { json, type RecordedRequest, startLocalServer } from "../../support/local_server.ts";

const P = "/datagovernance/catalog";
const ASSET = "ca7a1000-0000-4000-8000-000000000010";
const COLUMN = "ca7a1000-0000-4000-8000-000000000011";
const PRODUCT = "11111111-2222-4333-8444-555555555555";

function answer(request: RecordedRequest, url: string): Response {
  if (request.method === "DELETE") return new Response(null, { status: 204 });
  if (request.path.endsWith("/ingest")) {
    return json(200, { id: "c1", source: { assetId: ASSET, columnId: COLUMN } });
  }
  if (request.path.endsWith("/count")) return json(200, { count: 1 });
  if (request.path.endsWith("/relationships")) {
    return json(
      200,
      request.method === "POST" ? JSON.parse(request.body) : { value: [{ entityId: PRODUCT }] },
    );
  }
  if (request.path.endsWith("/query") && request.method === "POST") {
    return json(200, {
      value: [{ id: "a1" }],
      nextLink: `${url}${request.path}?skipToken=abc&api-version=x`,
    });
  }
  if (request.path.endsWith("/query")) return json(200, { value: [{ id: "a2" }] });
  if (/\/(dataAssets|terms)$/.test(request.path) && request.method === "GET") return json(200, { value: [] });
  return json(200, { id: "a1", name: "Customers", source: { assetId: ASSET } });
}

async function withClient(
  env: Record<string, string>,
  test: (client: UnifiedCatalogClient, requests: RecordedRequest[]) => Promise<void>,
): Promise<void> {
  let url = "";
  const server = startLocalServer((request) => answer(request, url));
  url = server.url;
  try {
    const config = loadConfig({
      CATALOG_ACCOUNT_NAME: "emulator",
      CATALOG_ENDPOINT: server.url,
      CATALOG_UNIFIED_ENDPOINT: server.url,
      ...env,
    });
    await test(UnifiedCatalogClient.fromConfig(config, { retryBaseMs: 1 }), server.requests);
  } finally {
    await server.close();
  }
}

const shape = (r: RecordedRequest) => `${r.method} ${r.path.slice(P.length + 1)}`;
const query = (r: RecordedRequest) => new URLSearchParams(r.search);

Deno.test("data assets and columns: every 2026 operation on the wire, with the assets api-version", async () => {
  await withClient({}, async (client, requests) => {
    const assets = client.dataAssets;
    const columns = client.dataColumns;
    const all = async <T>(items: AsyncGenerator<T>) => {
      for await (const _ of items) { /* drained */ }
    };
    await all(assets.list());
    await assets.create({ source: { assetId: ASSET }, openInUrl: "https://x" });
    await all(assets.query({ nameKeyword: "cust" }));
    await assets.get("a1", { includeLineage: true });
    await assets.update("a1", { source: { assetId: ASSET } });
    await assets.delete("a1");
    await assets.listRelationships("a1", { entityType: "dataproduct" });
    await assets.createRelationship("a1", { entityId: PRODUCT }, { entityType: "DATAPRODUCT" });
    await assets.deleteRelationship("a1", { entityId: PRODUCT, entityType: "DATAPRODUCT" });
    await columns.get("c1", { includeColumnDetails: true });
    await columns.ingest([{ dataMapAssetId: ASSET, dataMapColumnId: COLUMN }]);
    await all(columns.query({ includingOrphans: true }));
    await columns.listRelationships("c1", { entityType: "TERM" });
    await columns.createRelationship("c1", { entityId: PRODUCT, relationshipType: "parent" }, {
      entityType: "TERM",
    });
    await columns.deleteRelationship("c1", { entityId: PRODUCT, entityType: "TERM" });

    // Each operation once, in the notes' order; a POST query's next page is a GET of nextLink.
    const sent = requests.map(shape);
    const expected = UNIFIED_CATALOG_2026_OPERATIONS.filter((op) => op.group !== "count")
      .map((op) =>
        `${op.method} ${op.path.replace(/\{dataAssetId\}/, "a1").replace(/\{(id|dataColumnId)\}/, "c1")}`
      );
    const withNextPages = [...expected];
    withNextPages.splice(expected.indexOf("POST dataAssets/query") + 1, 0, "GET dataAssets/query");
    withNextPages.splice(withNextPages.indexOf("POST dataColumns/query") + 1, 0, "GET dataColumns/query");
    assert.deepEqual(sent, withNextPages);
    for (const request of requests) {
      assert.equal(query(request).get("api-version"), "2026-03-20-preview", shape(request));
    }
    assert.equal(query(requests[0]).get("includeExtendedProperties"), "false", "the required flag is sent");
    const get = requests.find((r) => shape(r) === "GET dataAssets/a1")!;
    assert.equal(query(get).get("includeLineage"), "true");
    assert.equal(query(get).get("includeExtendedProperties"), "false");
    assert.deepEqual(JSON.parse(requests[1].body), { source: { assetId: ASSET }, openInUrl: "https://x" });
    const relate = requests.find((r) => shape(r) === "POST dataAssets/a1/relationships")!;
    assert.equal(query(relate).get("entityType"), "DATAPRODUCT");
    assert.deepEqual(JSON.parse(relate.body), { entityId: PRODUCT, relationshipType: "Related" });
    const unrelate = requests.find((r) => shape(r) === "DELETE dataAssets/a1/relationships")!;
    assert.equal(query(unrelate).get("entityId"), PRODUCT);
    const listed = requests.find((r) => shape(r) === "GET dataAssets/a1/relationships")!;
    assert.equal(query(listed).get("entityType"), "DATAPRODUCT", "categories go in the API's spelling");
    const columnLink = requests.find((r) => shape(r) === "POST dataColumns/c1/relationships")!;
    assert.equal(JSON.parse(columnLink.body).relationshipType, "Parent");
    const ingest = requests.find((r) => shape(r) === "POST dataColumns/ingest")!;
    assert.deepEqual(JSON.parse(ingest.body), {
      requests: [{ dataMapAssetId: ASSET, dataMapColumnId: COLUMN }],
    });
  });
});

Deno.test("data assets: their api-version is configurable; the other unified calls keep theirs", async () => {
  await withClient({ CATALOG_UNIFIED_ASSETS_API_VERSION: "2027-01-01-preview" }, async (client, requests) => {
    await client.dataAssets.get("a1");
    await client.terms.count({ nameKeyword: "Revenue" });
    await client.objectives.count({ definition: "Grow" } as never);
    assert.deepEqual(requests.map((r) => query(r).get("api-version")), [
      "2027-01-01-preview",
      "2025-09-15-preview",
      "2025-09-15-preview",
    ]);
    assert.deepEqual(JSON.parse(requests[2].body), { definition: "Grow" });
  });
  assert.throws(
    () => loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_UNIFIED_ASSETS_API_VERSION: "latest" }),
    /CATALOG_UNIFIED_ASSETS_API_VERSION/,
  );
});

Deno.test("data columns: an ingest answer is read as one column, an array or a page", async () => {
  const forms = [
    { id: "c1" },
    [{ id: "c1" }, { id: "c2" }],
    { value: [{ id: "c1" }, { id: "c2" }] },
  ];
  for (const form of forms) {
    const server = startLocalServer(() => json(200, form));
    try {
      const client = UnifiedCatalogClient.fromConfig(
        loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: server.url }),
      );
      const made = await client.dataColumns.ingest([{ dataMapAssetId: ASSET, dataMapColumnId: COLUMN }]);
      assert.deepEqual(made.map((c) => c.id), Array.isArray(form) || "value" in form ? ["c1", "c2"] : ["c1"]);
    } finally {
      await server.close();
    }
  }
});

Deno.test("data assets: bad inputs are refused before anything is sent", async () => {
  await withClient({}, async (client, requests) => {
    await assert.rejects(client.dataAssets.create({ source: { assetId: "ann@contoso.com" } }), UsageError);
    await assert.rejects(client.dataAssets.create({} as never), /source/);
    await assert.rejects(client.dataAssets.listRelationships("a1", {} as never), /entityType/);
    await assert.rejects(
      client.dataAssets.createRelationship("a1", { entityId: PRODUCT, relationshipType: "Parent" }, {
        entityType: "DATAPRODUCT",
      }),
      /Related, Synonym/,
    );
    await assert.rejects(client.dataColumns.ingest([]), UsageError);
    const query = client.dataColumns.query({});
    await assert.rejects(query.next(), /includingOrphans/);
    assert.equal(requests.length, 0);
  });
});

Deno.test("data assets: an answer that does not fit names the assets api-version variable", async () => {
  const server = startLocalServer(() => json(200, { name: "no id" }));
  try {
    const client = UnifiedCatalogClient.fromConfig(
      loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: server.url }),
    );
    await assert.rejects(client.dataAssets.get("a1"), (error: { message: string; hint?: string }) => {
      assert.match(error.message, /unexpected data asset/);
      assert.match(String(error.hint), /CATALOG_UNIFIED_ASSETS_API_VERSION/);
      return true;
    });
  } finally {
    await server.close();
  }
});
