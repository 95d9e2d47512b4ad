/**
 * lineage impact and lineage path as a user runs them, in a real subprocess against the emulator holding a
 * three-hop sales lineage with owners (tests/support/impact_graph.ts): grouping by type and owner with hop
 * distances, upstream with a cut, the path and no path, and refusals before anything is sent — each with
 * the number of requests it costs.
 */
import assert from "node:assert/strict";
import { assertNotFound, assertRefusedLocally, withCliSetup } from "../support/cli_harness.ts";
import { buildImpactGraph, OWNER_BI, OWNER_FINANCE, OWNER_TEAM_MAIL } from "../support/impact_graph.ts";

const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

Deno.test("govcat lineage impact: downstream grouped by type and owner, upstream cut by --limit", async () => {
  await withCliSetup({ prefix: "govcat-impact-" }, async (setup) => {
    const graph = await buildImpactGraph(setup.client);
    const { assets } = graph;
    const before = setup.requests();
    const downstream = await setup.govcat("lineage", "impact", `--guid=${assets.raw_orders}`);
    assert.equal(downstream.code, 0, downstream.stderr);
    assert.equal(setup.requests() - before, 2, "one lineage call and one bulk read for the owners");
    const report = downstream.json;
    assert.deepEqual(
      report.assets.map((a: { guid: string; hops: number }) => `${graph.nameOf(a.guid)}@${a.hops}`),
      ["stg_orders@1", "sales_by_region@2", "sales_daily@2", "sales_model@3"],
    );
    assert.deepEqual(Object.keys(report.byType).sort(), ["azure_sql_table", "powerbi_dataset"]);
    assert.deepEqual(report.byOwner[OWNER_FINANCE], [assets.stg_orders, assets.sales_daily]);
    assert.deepEqual(report.byOwner[OWNER_TEAM_MAIL], [assets.stg_orders]);
    assert.deepEqual(report.byOwner[OWNER_BI], [assets.sales_model]);
    assert.deepEqual(report.byOwner["(none)"], [assets.sales_by_region]);
    assert.deepEqual(report.processes.map((p: { guid: string }) => graph.nameOf(p.guid)), [
      "clean_orders",
      "aggregate_sales",
      "publish_sales",
    ]);

    const upstream = await setup.govcat(
      "lineage",
      "impact",
      `--guid=${assets.sales_report}`,
      "--direction=INPUT",
      "--depth=10",
      "--limit=3",
    );
    assert.equal(upstream.code, 0, upstream.stderr);
    assert.equal(upstream.json.truncated, true);
    assert.equal(upstream.json.assetCount, 5, "sales_model, sales_daily, stg_orders, raw_orders, crm_export");
    assert.deepEqual(
      upstream.json.assets.map((a: { guid: string; hops: number }) => `${graph.nameOf(a.guid)}@${a.hops}`),
      ["sales_model@1", "sales_daily@2", "stg_orders@3"],
    );
  });
});

Deno.test("govcat lineage path: the chain, either way, none within the depth; refusals", async () => {
  await withCliSetup({ prefix: "govcat-impact-" }, async (setup) => {
    const graph = await buildImpactGraph(setup.client);
    const { assets } = graph;
    const path = await setup.govcat(
      "lineage",
      "path",
      `--guid=${assets.sales_model}`,
      `--to-guid=${assets.raw_orders}`,
      "--depth=5",
    );
    assert.equal(path.code, 0, path.stderr);
    assert.equal(path.json.found, true);
    assert.equal(path.json.reversed, true);
    assert.deepEqual(path.json.path.map((n: { guid: string }) => graph.nameOf(n.guid)), [
      "raw_orders",
      "clean_orders",
      "stg_orders",
      "aggregate_sales",
      "sales_daily",
      "publish_sales",
      "sales_model",
    ]);
    const none = await setup.govcat(
      "lineage",
      "path",
      `--guid=${assets.crm_export}`,
      `--to-guid=${assets.sales_report}`,
    );
    assert.equal(none.code, 0, none.stderr);
    assert.deepEqual([none.json.found, none.json.path], [false, []]);

    await assertNotFound(setup, ["lineage", "impact", `--guid=${UNKNOWN}`]);
    await assertRefusedLocally(setup, /--depth|depth/, [
      "lineage",
      "impact",
      `--guid=${assets.raw_orders}`,
      "--depth=0",
    ]);
    await assertRefusedLocally(setup, /--limit|limit/, [
      "lineage",
      "impact",
      `--guid=${assets.raw_orders}`,
      "--limit=1001",
    ]);
    await assertRefusedLocally(setup, /same entity/, [
      "lineage",
      "path",
      `--guid=${assets.raw_orders}`,
      `--to-guid=${assets.raw_orders}`,
    ]);
    await assertRefusedLocally(setup, /--to-guid/, ["lineage", "path", `--guid=${assets.raw_orders}`]);
  });
});
