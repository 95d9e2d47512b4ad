/**
 * Lineage answers (`AtlasLineageInfo`) computed from a lineage graph (`LineageGraph`), walking the graph the way
 * Atlas does: from a data set, one hop is data set → process → data set, so `depth=1` gives the processes
 * next to the base and the data sets on their far side; from a process, the first hop reaches its own
 * inputs or outputs. `width` caps how many neighbours each node expands; `widthCounts` still reports every
 * node's full number of neighbours, so a caller can tell what was left out and page it in with the
 * next-page answer.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { LineageGraph } from "./graph.ts";
 * import { lineageInfo } from "./answer.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * store.put({ guid: "g1", typeName: "DataSet", attributes: { qualifiedName: "ds://a", name: "a" },
 *   status: "ACTIVE", createTime: 0, updateTime: 0, createdBy: "x", updatedBy: "x", version: 0,
 *   lastModifiedTS: "1" });
 * const deps = { store, types, now: Date.now };
 * const info = lineageInfo(LineageGraph.open(deps), store.get("g1")!, types.isA,
 *   { direction: "BOTH", depth: 3, width: 10, includeParent: false });
 * console.log(info.widthCounts); // { INPUT: { g1: 0 }, OUTPUT: { g1: 0 } }
 * store.close();
 * ```
 *
 * @module
 */
import { type AtlasEntity, isObject, type JsonObject } from "../entity/model.ts";
import { entityHeader } from "../entity/views.ts";
import { derivedRelationshipId, type LineageEdge, type LineageEdges, PROCESS_TYPE } from "./graph.ts";

/** The `direction` query parameter. */
export type LineageDirection = "INPUT" | "OUTPUT" | "BOTH";

/** `LineageRelation` of the contract. */
export interface LineageRelation {
  fromEntityId: string;
  toEntityId: string;
  relationshipId: string;
}

/** `ParentRelation` of the contract. */
export interface ParentRelation {
  childEntityId: string;
  parentEntityId: string;
  relationshipId: string;
}

/** `AtlasLineageInfo` of the contract. */
export interface AtlasLineageInfo {
  baseEntityGuid: string;
  lineageDirection: LineageDirection;
  lineageDepth: number;
  lineageWidth: number;
  childrenCount: number;
  guidEntityMap: Record<string, JsonObject>;
  widthCounts: Partial<Record<"INPUT" | "OUTPUT", Record<string, number>>>;
  relations: LineageRelation[];
  parentRelations: ParentRelation[];
}

/** What a lineage request asks for. */
export interface LineageQuery {
  direction: LineageDirection;
  depth: number;
  width: number;
  /** Adds each node's container (a column's table, a path's folder, a step's pipeline) as a parent relation. */
  includeParent: boolean;
}

/** What a next-page request asks for; `limit` undefined means no paging. */
export interface NextPageQuery {
  direction: LineageDirection;
  offset: number;
  limit?: number;
}

type IsA = (typeName: string, superType: string) => boolean;

/**
 * Relationship attributes that point from an entity to its container, for `includeParent`: the
 * built-in relationship definitions' container ends (process step → pipeline, path → folder, column →
 * table or view, column → schema).
 */
const PARENT_ATTRIBUTES = ["parent", "table", "view", "composeSchema"];

/** Collects the nodes and relations of one answer, each once, in the order they were reached. */
class LineageCollector {
  readonly nodes = new Set<string>();
  readonly relations = new Map<string, LineageRelation>();

  add(edge: LineageEdge): void {
    const [from, to] = edge.kind === "input"
      ? [edge.datasetGuid, edge.processGuid]
      : [edge.processGuid, edge.datasetGuid];
    this.nodes.add(from).add(to);
    const key = `${from}>${to}`;
    if (!this.relations.has(key)) {
      this.relations.set(key, { fromEntityId: from, toEntityId: to, relationshipId: edge.relationshipId });
    }
  }
}

/** The lineage of `base` (which may be deleted: it is answered, alone). */
export function lineageInfo(
  graph: LineageEdges,
  base: AtlasEntity,
  isA: IsA,
  query: LineageQuery,
): AtlasLineageInfo {
  const collector = new LineageCollector();
  const isProcess = isA(base.typeName, PROCESS_TYPE);
  for (const isInput of directionsOf(query.direction)) {
    if (query.depth <= 0) continue;
    if (isProcess) {
      const edges = isInput ? graph.inputsOf(base.guid) : graph.outputsOf(base.guid);
      for (const edge of edges.slice(0, query.width)) {
        collector.add(edge);
        walkFromDataset(graph, collector, edge.datasetGuid, isInput, query.depth - 1, query.width, new Set());
      }
    } else {
      walkFromDataset(graph, collector, base.guid, isInput, query.depth, query.width, new Set());
    }
  }
  return answer(graph, base, isA, collector, {
    direction: query.direction,
    lineageDepth: query.depth,
    // No limit (a negative width in the request) is reported as -1, as JSON has no infinity.
    lineageWidth: Number.isFinite(query.width) ? query.width : -1,
    childrenCount: -1,
    includeParent: query.includeParent,
  });
}

/**
 * One page of the base entity's immediate neighbours: the processes next to a data set (each with the data
 * sets on its far side), or the data sets next to a process. Inputs come before outputs for BOTH;
 * `childrenCount` is how many neighbours there are in all, `lineageWidth` how many this page holds.
 */
export function nextPageInfo(
  graph: LineageEdges,
  base: AtlasEntity,
  isA: IsA,
  query: NextPageQuery,
): AtlasLineageInfo {
  const isProcess = isA(base.typeName, PROCESS_TYPE);
  const children: Array<{ edge: LineageEdge; isInput: boolean }> = [];
  for (const isInput of directionsOf(query.direction)) {
    const edges = isProcess
      ? (isInput ? graph.inputsOf(base.guid) : graph.outputsOf(base.guid))
      : (isInput ? graph.producersOf(base.guid) : graph.consumersOf(base.guid));
    children.push(...edges.map((edge) => ({ edge, isInput })));
  }
  const end = query.limit === undefined ? children.length : query.offset + query.limit;
  const page = children.slice(query.offset, end);
  const collector = new LineageCollector();
  for (const { edge, isInput } of page) {
    collector.add(edge);
    if (isProcess) continue;
    const farSide = isInput ? graph.inputsOf(edge.processGuid) : graph.outputsOf(edge.processGuid);
    for (const far of farSide) collector.add(far);
  }
  return answer(graph, base, isA, collector, {
    direction: query.direction,
    lineageDepth: 1,
    lineageWidth: page.length,
    childrenCount: children.length,
    includeParent: false,
  });
}

function directionsOf(direction: LineageDirection): boolean[] {
  return direction === "BOTH" ? [true, false] : [direction === "INPUT"];
}

// Atlas's traversal: a visited set per walk stops cycles; depth counts data set → process → data set hops.
function walkFromDataset(
  graph: LineageEdges,
  collector: LineageCollector,
  datasetGuid: string,
  isInput: boolean,
  depth: number,
  width: number,
  visited: Set<string>,
): void {
  if (depth <= 0) return;
  visited.add(datasetGuid);
  const processEdges = isInput ? graph.producersOf(datasetGuid) : graph.consumersOf(datasetGuid);
  for (const processEdge of processEdges.slice(0, width)) {
    collector.add(processEdge);
    const farSide = isInput
      ? graph.inputsOf(processEdge.processGuid)
      : graph.outputsOf(processEdge.processGuid);
    for (const far of farSide.slice(0, width)) {
      collector.add(far);
      if (!visited.has(far.datasetGuid)) {
        walkFromDataset(graph, collector, far.datasetGuid, isInput, depth - 1, width, visited);
      }
    }
  }
}

function answer(
  graph: LineageEdges,
  base: AtlasEntity,
  isA: IsA,
  collector: LineageCollector,
  shape: {
    direction: LineageDirection;
    lineageDepth: number;
    lineageWidth: number;
    childrenCount: number;
    includeParent: boolean;
  },
): AtlasLineageInfo {
  const guidEntityMap: Record<string, JsonObject> = { [base.guid]: lineageHeader(base) };
  for (const guid of collector.nodes) {
    const entity = graph.entity(guid);
    if (entity) guidEntityMap[guid] = lineageHeader(entity);
  }
  const counted = Object.keys(guidEntityMap);
  const widthCounts: AtlasLineageInfo["widthCounts"] = {};
  for (const isInput of directionsOf(shape.direction)) {
    const counts: Record<string, number> = {};
    for (const guid of counted) {
      const entity = guid === base.guid ? base : graph.entity(guid)!;
      const process = isA(entity.typeName, PROCESS_TYPE);
      counts[guid] = (process
        ? (isInput ? graph.inputsOf(guid) : graph.outputsOf(guid))
        : (isInput ? graph.producersOf(guid) : graph.consumersOf(guid))).length;
    }
    widthCounts[isInput ? "INPUT" : "OUTPUT"] = counts;
  }
  const parentRelations = shape.includeParent ? parentRelationsOf(graph, guidEntityMap, base) : [];
  return {
    baseEntityGuid: base.guid,
    lineageDirection: shape.direction,
    lineageDepth: shape.lineageDepth,
    lineageWidth: shape.lineageWidth,
    childrenCount: shape.childrenCount,
    guidEntityMap,
    widthCounts,
    relations: [...collector.relations.values()],
    parentRelations,
  };
}

/** Adds each node's ACTIVE container to the map and returns the parent relations. */
function parentRelationsOf(
  graph: LineageEdges,
  guidEntityMap: Record<string, JsonObject>,
  base: AtlasEntity,
): ParentRelation[] {
  const relations: ParentRelation[] = [];
  for (const guid of Object.keys(guidEntityMap)) {
    const entity = guid === base.guid ? base : graph.entity(guid);
    const links = isObject(entity?.relationshipAttributes) ? entity.relationshipAttributes : {};
    for (const name of PARENT_ATTRIBUTES) {
      const link = links[name];
      const parent = isObject(link) && typeof link.guid === "string" ? graph.entity(link.guid) : undefined;
      if (!parent) continue;
      guidEntityMap[parent.guid] ??= lineageHeader(parent);
      relations.push({
        childEntityId: guid,
        parentEntityId: parent.guid,
        relationshipId: derivedRelationshipId(name, parent.guid, guid),
      });
      break;
    }
  }
  return relations;
}

/**
 * The header lineage answers carry, as in the contract's Lineage_GetByUniqueAttribute example: the
 * entity's own (non-reference) attributes, so a process shows its `columnMapping`, but no object ids.
 */
export function lineageHeader(entity: AtlasEntity): JsonObject {
  const { classifications: _classifications, ...header } = entityHeader(entity);
  const attributes: JsonObject = {};
  for (const [name, value] of Object.entries(entity.attributes)) {
    // The lineage edges are the relations; `inputs`/`outputs` would repeat them (even when empty).
    if (!holdsReference(value) && name !== "inputs" && name !== "outputs") attributes[name] = value;
  }
  return { ...header, attributes };
}

function holdsReference(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsReference);
  return isObject(value) && typeof value.typeName === "string" &&
    (typeof value.guid === "string" || isObject(value.uniqueAttributes));
}
