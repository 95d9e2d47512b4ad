/**
 * Lineage shapes of the 2023-09-01 data-map contract (`AtlasLineageInfo` and its relations), the options
 * of the lineage calls, and what the lineage builder takes and returns.
 *
 * @module
 */
import type { AtlasEntityHeader } from "./atlas_model.ts";

/** Which way lineage is walked: INPUT is upstream (where data comes from), OUTPUT downstream. */
export type LineageDirection = "INPUT" | "OUTPUT" | "BOTH";

/** The lineage directions, in the contract's order. */
export const LINEAGE_DIRECTIONS: readonly LineageDirection[] = ["INPUT", "OUTPUT", "BOTH"];

/** An edge of the lineage graph: a data set into a process, or a process into a data set. */
export interface LineageRelation {
  /** GUID of the entity the edge leaves. */
  fromEntityId?: string;
  /** GUID of the entity the edge enters. */
  toEntityId?: string;
  /** GUID of the relationship that records the edge. */
  relationshipId?: string;
}

/** A node's container (a column's table, a step's pipeline), answered with `includeParent`. */
export interface ParentRelation {
  /** GUID of the contained node. */
  childEntityId?: string;
  /** GUID of its container. */
  parentEntityId?: string;
  /** GUID of the relationship that records the containment. */
  relationshipId?: string;
}

/** The lineage of one entity (`AtlasLineageInfo`). */
export interface AtlasLineageInfo {
  /** GUID of the entity the lineage was asked for. */
  baseEntityGuid?: string;
  /** Header of every entity in the answer, the base included, by GUID. */
  guidEntityMap?: Record<string, AtlasEntityHeader>;
  /** Per direction, each node's full number of neighbours (more than the answer holds when width cut it). */
  widthCounts?: Record<string, Record<string, unknown>>;
  /** Depth the answer was walked to. */
  lineageDepth?: number;
  /** Width each node was expanded to. */
  lineageWidth?: number;
  /** Neighbours in all (next page); -1 when not counted. */
  childrenCount?: number;
  /** Direction the answer was walked in. */
  lineageDirection?: LineageDirection;
  /** Containment of the nodes, with `includeParent`. */
  parentRelations?: ParentRelation[];
  /** Edges of the lineage graph. */
  relations?: LineageRelation[];
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** Options of {@link LineageApi.get} and {@link LineageApi.getByUniqueAttribute}. */
export interface LineageOptions {
  /** Hops to walk; one hop is data set → process → data set. The service defaults to 3. */
  depth?: number;
  /** INPUT, OUTPUT or BOTH (the default). */
  direction?: LineageDirection;
  /** Neighbours each node expands at most. */
  width?: number;
  /** Also answer each node's container as a parent relation. */
  includeParent?: boolean;
  /** Resource-set (derived) lineage, where the service has it. */
  getDerivedLineage?: boolean;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** Options of {@link LineageApi.nextPage}. */
export interface LineageNextPageOptions {
  /** Which neighbours to page through: `INPUT` (upstream) or `OUTPUT` (downstream). */
  direction: LineageDirection;
  /** Neighbours to skip. */
  offset?: number;
  /** Neighbours in this page; absent means all. */
  limit?: number;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** An entity named by GUID, or by type name and qualified name. */
export type AtlasObjectRef = { guid: string } | { typeName: string; qualifiedName: string };

/** One column-level lineage mapping. Data sets default to the first source and the first target. */
export interface LineageColumnMapping {
  /** Source column name. */
  source: string;
  /** Target column name. */
  target: string;
  /** The source data set: a GUID or qualified name of one of the sources. */
  sourceDataset?: string;
  /** The target data set: a GUID or qualified name of one of the targets. */
  targetDataset?: string;
}

/** What {@link createLineage} records: one process from `sources` to `targets`. */
export interface LineageSpec {
  /** Data sets the process reads. */
  sources: AtlasObjectRef[];
  /** Data sets the process writes. */
  targets: AtlasObjectRef[];
  /** Name of the process; derived from the ends' names when absent. */
  processName?: string;
  /** Entity type of the process; `Process` by default (any type inheriting from Process). */
  processType?: string;
  /** Description of the process. */
  description?: string;
  /** Owner of the process, stored as its `owner` attribute. */
  owner?: string;
  /** How sure the lineage is, 0..1; stored when the process type defines `confidenceScore`. */
  confidenceScore?: number;
  /**
   * Further process attributes (the CSV's `metadata`, `relationship_type`); each is stored when the
   * process type defines it, else reported in `attributesNotStored`.
   */
  extraAttributes?: Record<string, unknown>;
  /** Which source column feeds which target column, stored as the process's `columnMapping`. */
  columnMappings?: LineageColumnMapping[];
  /** Mappings already in Purview's shape (`[{DatasetMapping, ColumnMapping}]`), merged with `columnMappings`. */
  columnMappingEntries?: Array<{
    DatasetMapping: { Source: string; Sink: string };
    ColumnMapping: Array<{ Source: string; Sink: string }>;
  }>;
}

/** What {@link createLineage} did. */
export interface CreateLineageResult {
  /** GUID of the process entity that records the lineage. */
  processGuid: string;
  /** Qualified name of that process: the same sources, targets and name always give the same one. */
  qualifiedName: string;
  /** False when the process existed already (it was updated in place). */
  created: boolean;
  /** Attributes asked for that the process type does not define, so they were not sent. */
  attributesNotStored: string[];
}
