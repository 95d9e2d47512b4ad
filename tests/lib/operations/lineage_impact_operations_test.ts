/**
 * lineage impact and lineage path through the command line, in process, against the emulator holding a
 * three-hop sales lineage with owners (tests/support/impact_graph.ts): grouping by type and owner, hops,
 * downstream and upstream, the depth bound, truncation, the path both ways, no path, and refusals.
 */
import assert from "node:assert/strict";
import { NO_OWNER } from "../../../lib/operations/lineage_impact_operations.ts";
import {
  buildImpactGraph,
  type ImpactGraph,
  OWNER_BI,
  OWNER_FINANCE,
  OWNER_TEAM_MAIL,
} from "../../support/impact_graph.ts";
import { type CliSetup, withCli } from "./cli_in_process.ts";

const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

async function withGraph(test: (setup: CliSetup, graph: ImpactGraph) => Promise<void>) {
  await withCli({}, async (setup) => test(setup, await buildImpactGraph(setup.catalog)));
}

/** `name@hops` of each listed node, as the answer orders them. */
function placed(graph: ImpactGraph, nodes: Array<{ guid: string; hops: number }>): string[] {
  return nodes.map((node) => `${graph.nameOf(node.guid)}@${node.hops}`);
}

Deno.test("lineage impact: downstream to depth 3, nearest first, processes apart, grouped by type and owner", async () => {
  await withGraph(async ({ govcat }, graph) => {
    const run = await govcat("lineage", "impact", `--guid=${graph.assets.raw_orders}`);
    assert.equal(run.code, 0, run.stderr);
    const report = run.json;
    assert.equal(report.direction, "OUTPUT");
    assert.equal(report.depth, 3);
    assert.deepEqual(placed(graph, report.assets), [
      "stg_orders@1",
      "sales_by_region@2",
      "sales_daily@2",
      "sales_model@3",
    ]);
    assert.deepEqual(placed(graph, report.processes), [
      "clean_orders@1",
      "aggregate_sales@2",
      "publish_sales@3",
    ]);
    assert.equal(report.assetCount, 4);
    assert.equal(report.processCount, 3);
    assert.equal(report.truncated, false);
    const stg = report.assets[0];
    assert.equal(stg.typeName, "azure_sql_table");
    assert.equal(stg.qualifiedName, "impact://sales/stg_orders");
    assert.deepEqual(stg.owners, [OWNER_FINANCE, OWNER_TEAM_MAIL], "the contact and the owner attribute");
    const { assets } = graph;
    assert.deepEqual(report.byType, {
      azure_sql_table: [assets.stg_orders, assets.sales_by_region, assets.sales_daily],
      powerbi_dataset: [assets.sales_model],
    });
    assert.deepEqual(report.byOwner, {
      [OWNER_FINANCE]: [assets.stg_orders, assets.sales_daily],
      [OWNER_TEAM_MAIL]: [assets.stg_orders],
      [NO_OWNER]: [assets.sales_by_region],
      [OWNER_BI]: [assets.sales_model],
    });
  });
});

Deno.test("lineage impact: upstream, from a process, one hop, and a cut with --limit", async () => {
  await withGraph(async ({ govcat }, graph) => {
    const upstream = await govcat(
      "lineage",
      "impact",
      `--guid=${graph.assets.sales_model}`,
      "--direction=INPUT",
      "--depth=4",
    );
    assert.equal(upstream.code, 0, upstream.stderr);
    assert.deepEqual(placed(graph, upstream.json.assets), [
      "sales_daily@1",
      "stg_orders@2",
      "raw_orders@3",
      "crm_export@4",
    ]);
    assert.deepEqual(placed(graph, upstream.json.processes), [
      "publish_sales@1",
      "aggregate_sales@2",
      "clean_orders@3",
      "ingest@4",
    ]);

    const fromProcess = await govcat(
      "lineage",
      "impact",
      `--guid=${graph.processes.aggregate_sales}`,
      "--depth=1",
    );
    assert.equal(fromProcess.code, 0, fromProcess.stderr);
    assert.deepEqual(placed(graph, fromProcess.json.assets), ["sales_by_region@1", "sales_daily@1"]);
    assert.deepEqual(fromProcess.json.processes, [], "the next process is the second hop");

    const cut = await govcat("lineage", "impact", `--guid=${graph.assets.raw_orders}`, "--limit=2");
    assert.equal(cut.code, 0, cut.stderr);
    assert.equal(cut.json.truncated, true);
    assert.deepEqual(
      placed(graph, cut.json.assets),
      ["stg_orders@1", "sales_by_region@2"],
      "the nearest kept",
    );
    assert.equal(cut.json.assets.length, 2);
    assert.equal(cut.json.processes.length, 2);
    assert.equal(cut.json.assetCount, 4, "counted before the cut");
    assert.equal(cut.json.processCount, 3);
    assert.deepEqual(Object.values(cut.json.byType).flat().length, 2, "groups hold the listed assets");
  });
});

Deno.test("lineage path: both ways, the depth bound, no path, and refusals", async () => {
  await withGraph(async ({ govcat }, graph) => {
    const { assets } = graph;
    const forward = await govcat(
      "lineage",
      "path",
      `--guid=${assets.raw_orders}`,
      `--to-guid=${assets.sales_model}`,
    );
    assert.equal(forward.code, 0, forward.stderr);
    assert.equal(forward.json.found, true);
    assert.equal(forward.json.reversed, false);
    assert.deepEqual(
      forward.json.path.map((n: { guid: string; kind: string }) => `${graph.nameOf(n.guid)}:${n.kind}`),
      [
        "raw_orders:dataset",
        "clean_orders:process",
        "stg_orders:dataset",
        "aggregate_sales:process",
        "sales_daily:dataset",
        "publish_sales:process",
        "sales_model:dataset",
      ],
    );
    assert.equal(forward.json.path.at(-1).hops, 3);

    const backward = await govcat(
      "lineage",
      "path",
      `--guid=${assets.sales_model}`,
      `--to-guid=${assets.stg_orders}`,
    );
    assert.equal(backward.code, 0, backward.stderr);
    assert.equal(backward.json.reversed, true, "data flows from stg_orders to sales_model");
    assert.deepEqual(
      backward.json.path.map((n: { guid: string }) => graph.nameOf(n.guid)),
      ["stg_orders", "aggregate_sales", "sales_daily", "publish_sales", "sales_model"],
    );

    const tooFar = await govcat(
      "lineage",
      "path",
      `--guid=${assets.raw_orders}`,
      `--to-guid=${assets.sales_report}`,
    );
    assert.equal(tooFar.code, 0, tooFar.stderr);
    assert.deepEqual([tooFar.json.found, tooFar.json.path], [false, []], "4 hops away, depth 3");
    const deeper = await govcat(
      "lineage",
      "path",
      `--guid=${assets.raw_orders}`,
      `--to-guid=${assets.sales_report}`,
      "--depth=4",
    );
    assert.equal(deeper.json.found, true);

    const none = await govcat(
      "lineage",
      "path",
      `--guid=${assets.raw_orders}`,
      `--to-guid=${assets.unrelated}`,
    );
    assert.equal(none.json.found, false);
    const sideways = await govcat(
      "lineage",
      "path",
      `--guid=${assets.sales_daily}`,
      `--to-guid=${assets.sales_by_region}`,
    );
    assert.equal(sideways.json.found, false, "siblings share a source but no data flows between them");

    const missing = await govcat(
      "lineage",
      "path",
      `--guid=${assets.raw_orders}`,
      `--to-guid=${UNKNOWN}`,
    );
    assert.equal(missing.code, 1, "an unknown end is the catalog's 404, not 'no path'");
    assert.match(missing.stderr, new RegExp(UNKNOWN));
    const same = await govcat(
      "lineage",
      "path",
      `--guid=${assets.raw_orders}`,
      `--to-guid=${assets.raw_orders}`,
    );
    assert.equal(same.code, 2);
    assert.match(same.stderr, /name the same entity/);
    const tooDeep = await govcat("lineage", "impact", `--guid=${assets.raw_orders}`, "--depth=11");
    assert.equal(tooDeep.code, 2);
    assert.match(tooDeep.stderr, /depth/);
  });
});
