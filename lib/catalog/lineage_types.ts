/**
 * Lineage shapes of the 2023-09-01 data-map contract (`AtlasLineageInfo` and its relations), the options
 * of the lineage calls, and what the lineage builder takes and returns.
 *
 * @module
 */
import type { AtlasEntityHeader } from "./types.ts";

/** Which way lineage is walked: INPUT is upstream (where data comes from), OUTPUT downstream. */
export type LineageDirection = "INPUT" | "OUTPUT" | "BOTH";

/** The lineage directions, in the contract's order. */
export const LINEAGE_DIRECTIONS: readonly LineageDirection[] = ["INPUT", "OUTPUT", "BOTH"];

/** An edge of the lineage graph: a data set into a process, or a process into a data set. */
export interface LineageRelation {
  fromEntityId?: string;
  toEntityId?: string;
  /** GUID of the relationship that records the edge. */
  relationshipId?: string;
}

/** A node's container (a column's table, a step's pipeline), answered with `includeParent`. */
export interface ParentRelation {
  childEntityId?: string;
  parentEntityId?: string;
  relationshipId?: string;
}

/** The lineage of one entity (`AtlasLineageInfo`). */
export interface AtlasLineageInfo {
  baseEntityGuid?: string;
  /** Header of every entity in the answer, the base included, by GUID. */
  guidEntityMap?: Record<string, AtlasEntityHeader>;
  /** Per direction, each node's full number of neighbours (more than the answer holds when width cut it). */
  widthCounts?: Record<string, Record<string, unknown>>;
  lineageDepth?: number;
  lineageWidth?: number;
  /** Neighbours in all (next page); -1 when not counted. */
  childrenCount?: number;
  lineageDirection?: LineageDirection;
  parentRelations?: ParentRelation[];
  relations?: LineageRelation[];
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
  signal?: AbortSignal;
}

/** Options of {@link LineageApi.nextPage}. */
export interface LineageNextPageOptions {
  direction: LineageDirection;
  /** Neighbours to skip. */
  offset?: number;
  /** Neighbours in this page; absent means all. */
  limit?: number;
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
  sources: AtlasObjectRef[];
  targets: AtlasObjectRef[];
  /** Name of the process; derived from the ends' names when absent. */
  processName?: string;
  /** Entity type of the process; `Process` by default (any type inheriting from Process). */
  processType?: string;
  description?: string;
  owner?: string;
  /** How sure the lineage is, 0..1; stored when the process type defines `confidenceScore`. */
  confidenceScore?: number;
  /**
   * Further process attributes (the CSV's `metadata`, `relationship_type`); each is stored when the
   * process type defines it, else reported in `attributesNotStored`.
   */
  extraAttributes?: Record<string, unknown>;
  columnMappings?: LineageColumnMapping[];
}

/** What {@link createLineage} did. */
export interface CreateLineageResult {
  processGuid: string;
  qualifiedName: string;
  /** False when the process existed already (it was updated in place). */
  created: boolean;
  /** Attributes asked for that the process type does not define, so they were not sent. */
  attributesNotStored: string[];
}
