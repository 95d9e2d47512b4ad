/**
 * analyze_lineage_impact through a real MCP client against the emulator holding a three-hop sales lineage
 * with owners (tests/support/impact_graph.ts): its listing (read-only, small), impact downstream and
 * upstream grouped by type and owner with hops, truncation, the path both ways, no path, and errors.
 */
import assert from "node:assert/strict";
import {
  buildImpactGraph,
  type ImpactGraph,
  OWNER_BI,
  OWNER_FINANCE,
  OWNER_INGEST,
  OWNER_TEAM_MAIL,
} from "../../support/impact_graph.ts";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";

const TOOL = "analyze_lineage_impact";
const UNKNOWN = "00000000-0000-4000-8000-00000000dead";
/** What the tool may add to tools/list (the whole list has a budget: TOOLS_LIST_BUDGET_BYTES). */
const LISTING_BUDGET_BYTES = 2200;

interface NodeView {
  guid: string;
  kind: string;
  type_name: string;
  name?: string;
  qualified_name?: string;
  hops: number;
  owners?: string[];
}

async function analyze(h: Harness, args: Record<string, unknown>) {
  const result = await h.client.callTool({ name: TOOL, arguments: args });
  // deno-lint-ignore no-explicit-any
  return { result, data: result.structuredContent as any, json: resultJson(result) };
}

async function withGraph(test: (h: Harness, graph: ImpactGraph) => Promise<void>) {
  const h = await startHarness();
  try {
    await test(h, await buildImpactGraph(h.catalog));
  } finally {
    await h.close();
  }
}

/** `kind name@hops` of each node, in the answer's order. */
function placed(graph: ImpactGraph, nodes: NodeView[]): string[] {
  return nodes.map((node) => `${node.kind} ${graph.nameOf(node.guid)}@${node.hops}`);
}

Deno.test("analyze_lineage_impact: listed read-only, with its arguments, within its share of tools/list", async () => {
  const h = await startHarness();
  try {
    const { tools } = await h.client.listTools();
    const tool = tools.find((t) => t.name === TOOL)!;
    assert.ok(tool, `${TOOL} is listed`);
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.equal(tool.annotations?.destructiveHint, false);
    assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}).sort(), [
      "depth",
      "direction",
      "guid",
      "limit",
      "to_guid",
    ]);
    const size = JSON.stringify(tool).length;
    assert.ok(size <= LISTING_BUDGET_BYTES, `${TOOL} adds ${size} bytes to tools/list`);
  } finally {
    await h.close();
  }
});

Deno.test("analyze_lineage_impact: downstream and upstream, hops, owners, groups by type and owner", async () => {
  await withGraph(async (h, graph) => {
    const { assets } = graph;
    const downstream = await analyze(h, { guid: assets.raw_orders });
    assert.ok(!downstream.result.isError, JSON.stringify(downstream.json));
    assert.deepEqual(placed(graph, downstream.data.nodes), [
      "dataset stg_orders@1",
      "dataset sales_by_region@2",
      "dataset sales_daily@2",
      "dataset sales_model@3",
      "process clean_orders@1",
      "process aggregate_sales@2",
      "process publish_sales@3",
    ]);
    assert.deepEqual(downstream.json, downstream.data, "the text is the structured content");
    assert.deepEqual(
      [downstream.data.asset_count, downstream.data.process_count, downstream.data.truncated],
      [4, 3, false],
    );
    const model = downstream.data.nodes[3];
    assert.deepEqual(model, {
      guid: assets.sales_model,
      kind: "dataset",
      type_name: "powerbi_dataset",
      name: "sales_model",
      qualified_name: "impact://sales/sales_model",
      hops: 3,
      owners: [OWNER_BI],
    });
    assert.deepEqual(downstream.data.by_type, {
      azure_sql_table: [assets.stg_orders, assets.sales_by_region, assets.sales_daily],
      powerbi_dataset: [assets.sales_model],
    });
    assert.deepEqual(downstream.data.by_owner, {
      [OWNER_FINANCE]: [assets.stg_orders, assets.sales_daily],
      [OWNER_TEAM_MAIL]: [assets.stg_orders],
      "(none)": [assets.sales_by_region],
      [OWNER_BI]: [assets.sales_model],
    });

    const upstream = await analyze(h, { guid: assets.sales_daily, direction: "upstream", depth: 2 });
    assert.ok(!upstream.result.isError, JSON.stringify(upstream.json));
    assert.deepEqual(placed(graph, upstream.data.nodes), [
      "dataset stg_orders@1",
      "dataset raw_orders@2",
      "process aggregate_sales@1",
      "process clean_orders@2",
    ]);
    assert.deepEqual(upstream.data.by_owner, {
      [OWNER_FINANCE]: [assets.stg_orders],
      [OWNER_TEAM_MAIL]: [assets.stg_orders],
      [OWNER_INGEST]: [assets.raw_orders],
    });
  });
});

Deno.test("analyze_lineage_impact: a small limit cuts the farthest and says so", async () => {
  await withGraph(async (h, graph) => {
    const cut = await analyze(h, { guid: graph.assets.raw_orders, limit: 1 });
    assert.ok(!cut.result.isError, JSON.stringify(cut.json));
    assert.equal(cut.data.truncated, true);
    assert.deepEqual(placed(graph, cut.data.nodes), ["dataset stg_orders@1", "process clean_orders@1"]);
    assert.deepEqual([cut.data.asset_count, cut.data.process_count], [4, 3], "counts are complete");
    assert.deepEqual(cut.data.by_type, { azure_sql_table: [graph.assets.stg_orders] });
  });
});

Deno.test("analyze_lineage_impact with to_guid: the path both ways, no path within depth, errors", async () => {
  await withGraph(async (h, graph) => {
    const { assets } = graph;
    const forward = await analyze(h, { guid: assets.raw_orders, to_guid: assets.sales_daily });
    assert.ok(!forward.result.isError, JSON.stringify(forward.json));
    assert.deepEqual([forward.data.found, forward.data.reversed], [true, false]);
    assert.deepEqual(placed(graph, forward.data.nodes), [
      "dataset raw_orders@0",
      "process clean_orders@1",
      "dataset stg_orders@1",
      "process aggregate_sales@2",
      "dataset sales_daily@2",
    ]);
    assert.equal(forward.data.asset_count, undefined, "a path answer has no impact fields");

    const backward = await analyze(h, { guid: assets.sales_report, to_guid: assets.sales_daily });
    assert.equal(backward.data.reversed, true);
    assert.deepEqual(
      backward.data.nodes.map((n: NodeView) => graph.nameOf(n.guid)),
      ["sales_daily", "publish_sales", "sales_model", "build_report", "sales_report"],
    );

    const beyond = await analyze(h, { guid: assets.crm_export, to_guid: assets.sales_model, depth: 3 });
    assert.deepEqual([beyond.data.found, beyond.data.nodes], [false, []], "4 hops away");
    const deeper = await analyze(h, { guid: assets.crm_export, to_guid: assets.sales_model, depth: 4 });
    assert.equal(deeper.data.found, true);
    assert.equal(deeper.data.nodes.length, 9);

    const unrelated = await analyze(h, { guid: assets.raw_orders, to_guid: assets.unrelated });
    assert.deepEqual([unrelated.result.isError ?? false, unrelated.data.found], [false, false]);

    const unknownEnd = await analyze(h, { guid: assets.raw_orders, to_guid: UNKNOWN });
    assert.equal(unknownEnd.result.isError, true);
    assert.equal(unknownEnd.json.status, 404);
    const unknownBase = await analyze(h, { guid: UNKNOWN });
    assert.equal(unknownBase.result.isError, true);
    assert.equal(unknownBase.json.status, 404);
    const same = await analyze(h, { guid: assets.raw_orders, to_guid: assets.raw_orders });
    assert.equal(same.result.isError, true);
    assert.match(String(same.json.message), /same entity/);
    const notGuid = await analyze(h, { guid: "orders" });
    assert.equal(notGuid.result.isError, true);
    assert.match(String(notGuid.json.message), /guid: must be a GUID/);
    const notGuidEnd = await analyze(h, { guid: "orders", to_guid: assets.sales_model });
    assert.match(
      String(notGuidEnd.json.message),
      /analyze_lineage_impact: guid: must be a GUID/,
      "its own name",
    );
    const tooDeep = await h.client.callTool({
      name: TOOL,
      arguments: { guid: assets.raw_orders, depth: 11 },
    });
    assert.equal(tooDeep.isError, true);
  });
});
