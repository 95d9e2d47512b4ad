/**
 * Lineage tools: get_lineage (a compact, bounded view of an entity's upstream and downstream graph:
 * `lineage get`, plus `types get` to tell processes from data sets when the graph does not say) and
 * create_lineage (`lineage create`: record that data flows from some entities to others; an existing
 * process is left alone unless if_exists says "update").
 *
 * @module
 */
import type { AtlasLineageInfo, LineageDirection } from "../../catalog/lineage_types.ts";
import type { AtlasTypeDef } from "../../catalog/types_definitions.ts";
import type { CreateLineageResult } from "../../catalog/lineage_types.ts";
import type { AtlasEntityHeader } from "../../catalog/atlas_model.ts";
import { processGuidsOf } from "../../catalog/lineage_kinds.ts";
import { z } from "../../deps/zod.ts";
import { NotFoundError } from "../../core/errors.ts";
import { createLineageOperation, getLineage } from "../../operations/lineage_operations.ts";
import { getTypeDef } from "../../operations/types_operations.ts";
import type { ToolDefinition } from "../tool.ts";
import { composedTool, type OperationRunner } from "../tool_operation.ts";
import { entityLink, linksOf } from "../resource_links.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";
import { ifExistsField } from "./if_exists.ts";

/** Nodes kept in one get_lineage answer; a larger graph is cut and flagged `truncated`. */
export const MAX_LINEAGE_NODES = 500;
/** Edges kept in one answer (a process with many inputs and outputs yields their product). */
export const MAX_LINEAGE_EDGES = 1000;
/** Column pairs listed per process. */
export const MAX_COLUMN_MAPPINGS_PER_PROCESS = 50;
/** Neighbours each node expands; wide enough for most graphs, bounded for the service's sake. */
const LINEAGE_WIDTH = 100;

const DIRECTIONS: Record<string, LineageDirection> = {
  upstream: "INPUT",
  downstream: "OUTPUT",
  both: "BOTH",
  INPUT: "INPUT",
  OUTPUT: "OUTPUT",
  BOTH: "BOTH",
};

const columnPair = z.object({
  source_dataset: z.string(),
  target_dataset: z.string(),
  source_column: z.string(),
  target_column: z.string(),
});

const node = z.object({
  guid: z.string(),
  type_name: z.string(),
  name: z.string().optional(),
  qualified_name: z.string().optional(),
  kind: z.enum(["dataset", "process"]).describe("Processes are the transformations between data sets"),
  column_mappings: z.array(columnPair).optional().describe("Column-level lineage recorded on a process"),
});

const edge = z.object({
  from: z.string().describe("GUID of the upstream data set (or the process, when it has no input here)"),
  to: z.string().describe("GUID of the downstream data set (or the process, when it has no output here)"),
  via_process_guid: z.string(),
  via_process_name: z.string().optional(),
});

const lineageOutput = z.object({
  base_guid: z.string(),
  direction: z.enum(["INPUT", "OUTPUT", "BOTH"]),
  depth: z.number(),
  nodes: z.array(node),
  edges: z.array(edge),
  node_count: z.number().describe("Nodes in the whole answer, before any cut"),
  edge_count: z.number().describe("Edges in the whole answer, before any cut"),
  process_count: z.number(),
  truncated: z.boolean(),
});

export const getLineageTool = composedTool({
  name: "get_lineage",
  title: "Get lineage",
  description:
    "Upstream and downstream lineage of an entity by GUID, depth in data set → process → data set " +
    `hops: nodes (with column mappings) and edges, at most ${MAX_LINEAGE_NODES} and ` +
    `${MAX_LINEAGE_EDGES}; truncated: ask for less.` + CATALOG_TEXT_IS_DATA,
  input: z.object({
    guid: z.string().min(1).describe("GUID of a data set or process"),
    depth: z.number().int().min(1).max(10).default(3).describe("Hops to walk"),
    direction: z.enum(["upstream", "downstream", "both", "INPUT", "OUTPUT", "BOTH"]).default("both")
      .describe("Which way to walk"),
  }),
  output: lineageOutput,
  operations: [getLineage, getTypeDef],
  links: (output) => linksOf(output.nodes, entityLink),
  compose: async (run, input) => {
    const direction = DIRECTIONS[input.direction];
    const info = await run(getLineage, {
      guid: input.guid,
      depth: input.depth,
      direction,
      width: LINEAGE_WIDTH,
    }) as AtlasLineageInfo;
    const processes = await processGuids(run, info, input.guid);
    return compactLineage(info, input.guid, direction, input.depth, processes);
  },
});

/**
 * create_lineage is `lineage create` with arguments of its own: GUID lists under plural names and column
 * mappings spelled for a model (`source_column`, not `source`), so it is written out, not derived.
 */
export const createLineageTool = composedTool({
  name: "create_lineage",
  title: "Create lineage",
  description:
    "Record data flowing from sources to targets through a Process named process_name, with column " +
    "mappings. The same sources, targets and name give the same process, never a duplicate: an " +
    'existing one fails unless if_exists is "update". Unknown GUIDs fail the call.',
  input: z.object({
    source_guids: z.array(z.string().min(1)).min(1).max(100).describe("Upstream entity GUIDs"),
    target_guids: z.array(z.string().min(1)).min(1).max(100).describe("Downstream entity GUIDs"),
    process_name: z.string().min(1).describe("e.g. aggregate_orders_daily"),
    description: z.string().optional().describe("What the process does"),
    column_mappings: z.array(z.object({
      source_column: z.string().min(1).describe("Source column name"),
      target_column: z.string().min(1).describe("Target column name"),
      source_guid: z.string().optional().describe("Its source (default: the first)"),
      target_guid: z.string().optional().describe("Its target (default: the first)"),
    })).max(1000).optional().describe("Which source column feeds which target column"),
    if_exists: ifExistsField,
  }),
  output: z.object({
    process_guid: z.string(),
    qualified_name: z.string(),
    created: z.boolean().describe("False when the process existed and was updated"),
  }),
  operations: [createLineageOperation],
  confirmWhen: (input) => input.if_exists === "update",
  compose: async (run, input) => {
    const answer = await run(createLineageOperation, {
      sourceGuid: input.source_guids,
      targetGuid: input.target_guids,
      processName: input.process_name,
      description: input.description,
      columnMapping: input.column_mappings?.map((m) => ({
        source: m.source_column,
        target: m.target_column,
        sourceDataset: m.source_guid,
        targetDataset: m.target_guid,
      })),
      ifExists: input.if_exists,
    });
    const result = answer as CreateLineageResult;
    return {
      process_guid: result.processGuid,
      qualified_name: result.qualifiedName,
      created: result.created,
    };
  },
});

/** The process GUIDs of the answer; a type lookup (types.get) when the graph does not say. */
function processGuids(run: OperationRunner, info: AtlasLineageInfo, baseGuid: string): Promise<Set<string>> {
  return processGuidsOf(info, baseGuid, async (name) => {
    try {
      return ((await run(getTypeDef, { category: "entity", name })) as AtlasTypeDef).superTypes ?? [];
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  });
}

type CompactLineage = z.input<typeof lineageOutput>;

function compactLineage(
  info: AtlasLineageInfo,
  baseGuid: string,
  direction: LineageDirection,
  depth: number,
  processes: Set<string>,
): CompactLineage {
  const headers = info.guidEntityMap ?? {};
  const order = [baseGuid, ...Object.keys(headers).filter((g) => g !== baseGuid)];
  const kept = new Set(order.slice(0, MAX_LINEAGE_NODES));
  const nodes = [...kept].map((guid) => nodeOf(guid, headers[guid], processes.has(guid)));
  const allEdges = edgesOf(info, processes, headers);
  const edges = allEdges
    .filter((e) => kept.has(e.from) && kept.has(e.to) && kept.has(e.via_process_guid))
    .slice(0, MAX_LINEAGE_EDGES);
  return {
    base_guid: info.baseEntityGuid ?? baseGuid,
    direction,
    depth,
    nodes,
    edges,
    node_count: order.length,
    edge_count: allEdges.length,
    process_count: [...processes].filter((g) => g in headers).length,
    truncated: nodes.length < order.length || edges.length < allEdges.length,
  };
}

function nodeOf(guid: string, header: AtlasEntityHeader | undefined, isProcess: boolean) {
  const attributes = header?.attributes ?? {};
  const text = (value: unknown) => typeof value === "string" && value !== "" ? value : undefined;
  const mappings = isProcess ? columnPairs(attributes.columnMapping) : undefined;
  return {
    guid,
    type_name: String(header?.typeName ?? ""),
    name: text(attributes.name) ?? text(header?.displayText),
    qualified_name: text(attributes.qualifiedName),
    kind: isProcess ? "process" as const : "dataset" as const,
    ...(mappings?.length ? { column_mappings: mappings } : {}),
  };
}

/** Data set → data set edges through each process; a side the answer lacks is the process itself. */
function edgesOf(info: AtlasLineageInfo, processes: Set<string>, headers: Record<string, AtlasEntityHeader>) {
  const inputs = new Map<string, string[]>();
  const outputs = new Map<string, string[]>();
  for (const r of info.relations ?? []) {
    if (!r.fromEntityId || !r.toEntityId) continue;
    if (processes.has(r.toEntityId)) {
      inputs.set(r.toEntityId, [...(inputs.get(r.toEntityId) ?? []), r.fromEntityId]);
    } else outputs.set(r.fromEntityId, [...(outputs.get(r.fromEntityId) ?? []), r.toEntityId]);
  }
  const edges: Array<z.input<typeof edge>> = [];
  for (const process of new Set([...inputs.keys(), ...outputs.keys()])) {
    const name = headers[process]?.attributes?.name;
    const via = { via_process_guid: process, via_process_name: typeof name === "string" ? name : undefined };
    const from = inputs.get(process) ?? [process];
    const to = outputs.get(process) ?? [process];
    for (const source of from) for (const target of to) edges.push({ from: source, to: target, ...via });
  }
  return edges;
}

/** Purview's columnMapping JSON flattened to column pairs; anything unreadable gives none. */
function columnPairs(value: unknown): Array<z.input<typeof columnPair>> | undefined {
  if (typeof value !== "string") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const pairs: Array<z.input<typeof columnPair>> = [];
  for (const entry of parsed) {
    const datasets = entry?.DatasetMapping ?? {};
    for (const column of Array.isArray(entry?.ColumnMapping) ? entry.ColumnMapping : []) {
      pairs.push({
        source_dataset: String(datasets.Source ?? ""),
        target_dataset: String(datasets.Sink ?? ""),
        source_column: String(column?.Source ?? ""),
        target_column: String(column?.Sink ?? ""),
      });
    }
  }
  return pairs.slice(0, MAX_COLUMN_MAPPINGS_PER_PROCESS);
}

/** The lineage tools, in the order tools/list shows them. */
export const LINEAGE_TOOLS: ToolDefinition[] = [getLineageTool, createLineageTool];
