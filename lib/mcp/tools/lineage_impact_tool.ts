/**
 * analyze_lineage_impact: "what breaks downstream if I change this?" (`lineage impact`) and, with
 * to_guid, "how does data get from A to B?" (`lineage path`). One tool for both, since both start from an
 * entity's lineage and a model asking one often asks the other. Both answer `nodes` of one shape (the
 * affected data sets, then the processes that carry the change; or the path in the order data flows), so
 * the output schema declares it once; the other fields are each answer's own, optional, and the schema
 * says nothing a field name does not (tools/list is read by every session).
 *
 * @module
 */
import { z } from "../../deps/zod.ts";
import {
  DEFAULT_IMPACT_LIMIT,
  type ImpactReport,
  lineageImpact,
  lineagePath,
  MAX_IMPACT_DEPTH,
  MAX_IMPACT_LIMIT,
  NO_OWNER,
  type PathReport,
} from "../../operations/lineage_impact_operations.ts";
import type { LineageNodeSummary } from "../../catalog/lineage_impact.ts";
import { composedTool } from "../tool_operation.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

const node = z.object({
  guid: z.string(),
  kind: z.enum(["dataset", "process"]),
  type_name: z.string(),
  name: z.string().optional(),
  qualified_name: z.string().optional(),
  hops: z.number(),
  owners: z.array(z.string()).optional(),
});

const guidsBy = z.record(z.string(), z.array(z.string()));

export const analyzeLineageImpactTool = composedTool({
  name: "analyze_lineage_impact",
  title: "Analyze lineage impact",
  description: "Impact of changing an entity: data sets downstream (or upstream) within depth hops (hop: " +
    "one process), nearest first, with owners, grouped by_type and by_owner " +
    `("${NO_OWNER}": none), then the processes between. With to_guid: nodes are the shortest path to ` +
    "it (reversed: it feeds guid), else found is false. truncated: over limit; counts are complete." +
    CATALOG_TEXT_IS_DATA,
  input: z.object({
    guid: z.string().min(1).describe("Entity GUID"),
    direction: z.enum(["downstream", "upstream"]).default("downstream").describe("Impact direction"),
    depth: z.number().int().min(1).max(MAX_IMPACT_DEPTH).default(3).describe("Hops"),
    limit: z.number().int().min(1).max(MAX_IMPACT_LIMIT).default(DEFAULT_IMPACT_LIMIT)
      .describe("Most data sets and processes listed"),
    to_guid: z.string().min(1).optional().describe("Path target GUID"),
  }),
  output: z.object({
    nodes: z.array(node),
    asset_count: z.number().optional(),
    process_count: z.number().optional(),
    truncated: z.boolean().optional(),
    by_type: guidsBy.optional(),
    by_owner: guidsBy.optional(),
    found: z.boolean().optional(),
    reversed: z.boolean().optional(),
  }),
  operations: [lineageImpact, lineagePath],
  compose: async (run, args) => {
    if (args.to_guid !== undefined) {
      const report = await run(lineagePath, {
        guid: args.guid,
        toGuid: args.to_guid,
        depth: args.depth,
      }) as PathReport;
      return {
        nodes: report.path.map((n) => nodeView(n, n.kind)),
        found: report.found,
        reversed: report.reversed,
      };
    }
    const report = await run(lineageImpact, {
      guid: args.guid,
      direction: args.direction === "upstream" ? "INPUT" : "OUTPUT",
      depth: args.depth,
      limit: args.limit,
    }) as ImpactReport;
    return {
      nodes: [
        ...report.assets.map((asset) => ({ ...nodeView(asset, "dataset"), owners: asset.owners })),
        ...report.processes.map((process) => nodeView(process, "process")),
      ],
      asset_count: report.assetCount,
      process_count: report.processCount,
      truncated: report.truncated,
      by_type: report.byType,
      by_owner: report.byOwner,
    };
  },
});

function nodeView(node: LineageNodeSummary, kind: "dataset" | "process") {
  return {
    guid: node.guid,
    kind,
    type_name: node.typeName,
    name: node.name,
    qualified_name: node.qualifiedName,
    hops: node.hops,
  };
}
