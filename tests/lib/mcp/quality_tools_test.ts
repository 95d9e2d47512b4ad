/**
 * get_data_quality through the MCP SDK client against the emulator: before a run it shows the rules and no
 * score; after runs (started through the catalog client, as `govcat quality run` does) it shows the asset's
 * and the data product's scores and each rule's result and reason; bad ids are an isError result naming
 * the argument, sent nowhere.
 */
import assert from "node:assert/strict";
import { startHarness } from "../../support/mcp_harness.ts";

const DOMAIN = "d0000000-0000-4000-8000-000000000001";
const PRODUCT = "d0000000-0000-4000-8000-000000000002";
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const customers = { businessDomainId: DOMAIN, dataProductId: PRODUCT, dataAssetId: CUSTOMERS };
const orders = { ...customers, dataAssetId: ORDERS };

function rule(n: number, column: string) {
  return {
    id: `e000000${n}-0000-4000-8000-000000000000`,
    name: `${column} complete`,
    type: "Completeness",
    status: "Active",
    typeProperties: { column: { type: "string", value: column } },
  };
}

Deno.test("get_data_quality: rules before a run, then scores and each rule's result", async () => {
  const h = await startHarness();
  try {
    await h.catalog.quality.createRule(customers, rule(1, "Email"));
    await h.catalog.quality.createRule(customers, rule(2, "Phone"));
    await h.catalog.quality.createRule(orders, rule(3, "OrderTotal"));
    const args = { domain_id: DOMAIN, data_product_id: PRODUCT, asset_id: CUSTOMERS };

    const before = await h.client.callTool({ name: "get_data_quality", arguments: args });
    assert.equal(before.isError, undefined, JSON.stringify(before.content));
    const empty = before.structuredContent as { score: number | null; assets: { rules: unknown[] }[] };
    assert.equal(empty.score, null);
    assert.equal(empty.assets[0].rules.length, 2);

    await h.catalog.quality.startRun(customers);
    await h.catalog.quality.startRun(orders);
    const after = await h.client.callTool({ name: "get_data_quality", arguments: args });
    // deno-lint-ignore no-explicit-any
    const asset = after.structuredContent as any;
    assert.equal(asset.score, 50);
    assert.equal(asset.assets[0].latest_run.status, "Succeeded");
    const results = Object.fromEntries(
      asset.assets[0].rules.map((r: { name: string; result: string }) => [r.name, r.result]),
    );
    assert.deepEqual(results, { "Email complete": "Passed", "Phone complete": "Failed" });
    assert.match(asset.assets[0].rules[1].reason, /no column or attribute named Phone/);

    const product = await h.client.callTool({
      name: "get_data_quality",
      arguments: { domain_id: DOMAIN, data_product_id: PRODUCT },
    });
    // deno-lint-ignore no-explicit-any
    const whole = product.structuredContent as any;
    assert.equal(whole.score, 75, "the mean of 50 and 100");
    assert.deepEqual(whole.assets.map((a: { data_asset_id: string }) => a.data_asset_id), [
      CUSTOMERS,
      ORDERS,
    ]);
  } finally {
    await h.close();
  }
});

Deno.test("get_data_quality: read-only hints, and a bad id is an error naming it", async () => {
  const h = await startHarness();
  try {
    const { tools } = await h.client.listTools();
    const tool = tools.find((t) => t.name === "get_data_quality");
    assert.ok(tool?.outputSchema, "an output schema");
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.equal(tool.annotations?.destructiveHint, false);
    const before = h.emulator.faults.stats().total;
    const bad = await h.client.callTool({
      name: "get_data_quality",
      arguments: { domain_id: "sales", data_product_id: PRODUCT },
    });
    assert.equal(bad.isError, true);
    assert.match(JSON.stringify(bad.content), /domain_id/);
    assert.equal(h.emulator.faults.stats().total, before, "nothing was sent");
  } finally {
    await h.close();
  }
});
