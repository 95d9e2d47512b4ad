/**
 * The unified catalog data asset tools through the MCP SDK client over streamable HTTP, against a seeded
 * emulator: uc_list_data_assets (all, by keyword, those of one data product) and uc_get_data_asset (schema
 * and data products), their read-only hints, and their errors.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config/config.ts";
import { UnifiedCatalogClient } from "../../../lib/catalog/unified_api.ts";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";

const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const CUSTOMER_ID = "ca7a1000-0000-4000-8000-000000000011";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";

async function ok(h: Harness, name: string, args: Record<string, unknown>) {
  const result = await h.client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name} failed: ${JSON.stringify(resultJson(result))}`);
  // deno-lint-ignore no-explicit-any
  return result.structuredContent as any;
}

Deno.test("uc data asset tools: list, by keyword and by data product; get with schema and data products", async () => {
  const h = await startHarness();
  try {
    const unified = UnifiedCatalogClient.fromConfig(
      loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: h.emulator.url }),
    );
    const customers = await unified.dataAssets.create({ source: { assetId: CUSTOMERS } });
    const orders = await unified.dataAssets.create({ source: { assetId: ORDERS } });
    await unified.dataColumns.ingest([{ dataMapAssetId: CUSTOMERS, dataMapColumnId: CUSTOMER_ID }]);
    const domain = await unified.domains.create({ name: "Sales", type: "FunctionalUnit" });
    const product = await unified.dataProducts.create({ name: "Customer 360", domain: domain.id } as never);
    await unified.dataAssets.createRelationship(customers.id, { entityId: product.id }, {
      entityType: "DATAPRODUCT",
    });

    const all = await ok(h, "uc_list_data_assets", {});
    assert.deepEqual(all.data_assets.map((a: { name: string }) => a.name), ["Customers", "Orders"]);
    assert.equal(all.data_assets[0].source_asset_id, CUSTOMERS);
    assert.equal(all.data_assets[0].type, "AzureSqlTable");
    const one = await ok(h, "uc_list_data_assets", { limit: 1 });
    assert.equal(one.truncated, true);
    const byKeyword = await ok(h, "uc_list_data_assets", { keyword: "ord" });
    assert.deepEqual(byKeyword.data_assets.map((a: { id: string }) => a.id), [orders.id]);
    const ofProduct = await ok(h, "uc_list_data_assets", { data_product_id: product.id });
    assert.deepEqual(ofProduct.data_assets.map((a: { id: string }) => a.id), [customers.id]);

    const got = await ok(h, "uc_get_data_asset", { data_asset_id: customers.id, include_lineage: true });
    assert.equal(got.name, "Customers");
    assert.deepEqual(got.columns, [{ name: "CustomerId", type: "int" }]);
    assert.deepEqual(got.data_product_ids, [product.id]);
    assert.deepEqual(got.data_asset.lineage, {});

    const missing = await h.client.callTool({
      name: "uc_get_data_asset",
      arguments: { data_asset_id: "deadbeef-0000-4000-8000-000000000000" },
    });
    assert.equal(missing.isError, true);
    assert.match(JSON.stringify(resultJson(missing)), /404/);

    const listed = (await h.client.listTools()).tools.filter((t) => t.name.includes("data_asset"));
    assert.deepEqual(listed.map((t) => t.name), ["uc_list_data_assets", "uc_get_data_asset"]);
    for (const tool of listed) {
      assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
      assert.equal(tool.annotations?.destructiveHint, false, tool.name);
      assert.ok(tool.outputSchema, tool.name);
    }
  } finally {
    await h.close();
  }
});
