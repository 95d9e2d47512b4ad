/**
 * The lineage graph of the emulator's catalog, read on demand from what is stored: every ACTIVE entity
 * whose type is a `Process` contributes an edge from each of its `inputs` to itself and from itself to each
 * of its `outputs`. Ends come from the attributes and the relationship attributes (object ids by guid or by
 * type name and unique attributes), and from `dataset_process_inputs` / `process_dataset_outputs`
 * relationship instances, as on the service, where all three are the same edges. Deleted processes and
 * deleted or unknown ends are left out.
 *
 * A request reads only the entities its answer reaches: a process's edges come from its own entity and
 * relationship instances, a data set's from the processes that name it, found through the
 * `lineage_references` index (references.ts) and the relationship table's end index. So lineage costs
 * what the answer holds, not what the catalog holds.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { LineageGraph } from "./graph.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * const graph = LineageGraph.open({ store, types, now: Date.now });
 * console.log(graph.producersOf("any-guid")); // []
 * store.close();
 * ```
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { AreaDependencies } from "../area.ts";
import { type AtlasEntity, isObject, isPlaceholderGuid } from "../entity/model.ts";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { LineageReferences } from "./references.ts";
import { RelationshipStore } from "../relationship/store.ts";

/** The super type every lineage process inherits from. */
export const PROCESS_TYPE = "Process";
/** The super type of lineage data sets. */
export const DATASET_TYPE = "DataSet";
/** Relationship types whose instances are lineage edges (end1 the process, end2 the data set). */
const INPUT_RELATIONSHIP = "dataset_process_inputs";
const OUTPUT_RELATIONSHIP = "process_dataset_outputs";

/** One edge between a process and a data set. */
export interface LineageEdge {
  processGuid: string;
  datasetGuid: string;
  /** `input`: the data set feeds the process; `output`: the process writes the data set. */
  kind: "input" | "output";
  /** The relationship instance's guid, or a stable guid derived from the edge when there is none. */
  relationshipId: string;
}

/** What a lineage answer reads of the graph: entities and the edges next to each, both ways. */
export interface LineageEdges {
  /** The ACTIVE entity with this guid, if any. */
  entity(guid: string): AtlasEntity | undefined;
  /** Edges from the process's input data sets into it. */
  inputsOf(processGuid: string): LineageEdge[];
  /** Edges from the process to the data sets it writes. */
  outputsOf(processGuid: string): LineageEdge[];
  /** Edges from the processes that write this data set (its upstream). */
  producersOf(datasetGuid: string): LineageEdge[];
  /** Edges into the processes that read this data set (its downstream). */
  consumersOf(datasetGuid: string): LineageEdge[];
}

/** An ACTIVE entity and its row's position (the order the service's full scan met them in). */
interface StoredEntity {
  entity: AtlasEntity;
  rowid: number;
}

interface ProcessEdges {
  inputs: LineageEdge[];
  outputs: LineageEdge[];
}

interface DatasetEdges {
  consumers: LineageEdge[];
  producers: LineageEdge[];
}

const NO_PROCESS_EDGES: ProcessEdges = { inputs: [], outputs: [] };
const NO_DATASET_EDGES: DatasetEdges = { consumers: [], producers: [] };

/** The statements one database's graphs read with, prepared once. */
class LineageReads {
  readonly activeByGuid: StatementSync;
  readonly activeByQualifiedName: StatementSync;
  readonly lineageInstancesTo: StatementSync;
  readonly references: LineageReferences;
  readonly relationships: RelationshipStore;

  constructor(database: DatabaseSync) {
    // The index first: it also makes the qualified-name index the second statement relies on.
    this.references = LineageReferences.for(database);
    this.activeByGuid = database.prepare(
      "SELECT rowid, json FROM entities WHERE guid = ? AND status = 'ACTIVE'",
    );
    this.activeByQualifiedName = database.prepare(
      "SELECT rowid, json FROM entities WHERE qualified_name = ? AND status = 'ACTIVE' ORDER BY rowid",
    );
    this.lineageInstancesTo = database.prepare(
      `SELECT DISTINCT end1_guid FROM relationships WHERE end2_guid = ? AND type_name IN (?, ?)`,
    );
    this.relationships = new RelationshipStore(database);
  }
}

const readsOf = new WeakMap<DatabaseSync, LineageReads>();

/**
 * Processes and their inputs and outputs, indexed both ways, read from the store as a request asks for
 * them: a process's edges from its own entity and relationship instances, a data set's from the processes
 * that name it (found through {@link LineageReferences} and the relationship instances' ends). Each entity
 * is read once per graph, so one graph serves one request and sees the store as it was then.
 */
export class LineageGraph implements LineageEdges {
  readonly #deps: AreaDependencies;
  readonly #reads: LineageReads;
  readonly #entities = new Map<string, StoredEntity | undefined>();
  readonly #byQualifiedName = new Map<string, StoredEntity[]>();
  readonly #byProcess = new Map<string, ProcessEdges>();
  readonly #byDataset = new Map<string, DatasetEdges>();

  private constructor(deps: AreaDependencies) {
    this.#deps = deps;
    const database = deps.store.database;
    let reads = readsOf.get(database);
    if (!reads) {
      reads = new LineageReads(database);
      readsOf.set(database, reads);
    }
    this.#reads = reads;
  }

  /** A graph over the store as it is now, for one request. */
  static open(deps: AreaDependencies): LineageGraph {
    return new LineageGraph(deps);
  }

  /** The ACTIVE entity with this guid, if any. */
  entity(guid: string): AtlasEntity | undefined {
    return this.#stored(guid)?.entity;
  }

  /** Edges from the process's input data sets into it. */
  inputsOf(processGuid: string): LineageEdge[] {
    return this.#processEdges(processGuid).inputs;
  }

  /** Edges from the process to the data sets it writes. */
  outputsOf(processGuid: string): LineageEdge[] {
    return this.#processEdges(processGuid).outputs;
  }

  /** Edges from the processes that write this data set (its upstream). */
  producersOf(datasetGuid: string): LineageEdge[] {
    return this.#datasetEdges(datasetGuid).producers;
  }

  /** Edges into the processes that read this data set (its downstream). */
  consumersOf(datasetGuid: string): LineageEdge[] {
    return this.#datasetEdges(datasetGuid).consumers;
  }

  #stored(guid: string): StoredEntity | undefined {
    if (this.#entities.has(guid)) return this.#entities.get(guid);
    const stored = storedOf(this.#reads.activeByGuid.get(guid));
    this.#entities.set(guid, stored);
    return stored;
  }

  #activeNamed(qualifiedName: string): StoredEntity[] {
    let list = this.#byQualifiedName.get(qualifiedName);
    if (!list) {
      list = this.#reads.activeByQualifiedName.all(qualifiedName).map((row) => {
        const stored = storedOf(row)!;
        // The same rows by guid: one object per entity within a graph.
        if (!this.#entities.has(stored.entity.guid)) this.#entities.set(stored.entity.guid, stored);
        return this.#entities.get(stored.entity.guid)!;
      });
      this.#byQualifiedName.set(qualifiedName, list);
    }
    return list;
  }

  #resolve(reference: unknown): AtlasEntity | undefined {
    if (!isObject(reference)) return undefined;
    if (typeof reference.guid === "string" && !isPlaceholderGuid(reference.guid)) {
      return this.entity(reference.guid);
    }
    const qualifiedName = isObject(reference.uniqueAttributes)
      ? reference.uniqueAttributes.qualifiedName
      : undefined;
    if (typeof qualifiedName !== "string" || typeof reference.typeName !== "string") return undefined;
    // A reference may name a super type (`DataSet`) of the entity it means (`azure_sql_table`).
    const typeName = reference.typeName;
    return this.#activeNamed(qualifiedName).find((e) => this.#deps.types.isA(e.entity.typeName, typeName))
      ?.entity;
  }

  /** The edges of one ACTIVE process: its object ids first, then its lineage relationship instances. */
  #processEdges(processGuid: string): ProcessEdges {
    const known = this.#byProcess.get(processGuid);
    if (known) return known;
    const process = this.entity(processGuid);
    if (!process || !this.#deps.types.isA(process.typeName, PROCESS_TYPE)) {
      this.#byProcess.set(processGuid, NO_PROCESS_EDGES);
      return NO_PROCESS_EDGES;
    }
    const edges: ProcessEdges = { inputs: [], outputs: [] };
    const instances = this.#reads.relationships.listForEntity(process.guid).filter((r) =>
      r.status !== "DELETED"
    );
    for (const kind of ["input", "output"] as const) {
      const attribute = kind === "input" ? "inputs" : "outputs";
      const relationshipType = kind === "input" ? INPUT_RELATIONSHIP : OUTPUT_RELATIONSHIP;
      const ends = new Map<string, string | undefined>();
      for (const reference of referencesOf(process, attribute)) {
        const end = this.#resolve(reference);
        if (end && end.guid !== process.guid && !ends.has(end.guid)) ends.set(end.guid, undefined);
      }
      for (const instance of instances) {
        if (instance.typeName !== relationshipType || instance.end1.guid !== process.guid) continue;
        if (this.entity(instance.end2.guid)) ends.set(instance.end2.guid, instance.guid);
      }
      for (const [datasetGuid, relationshipId] of ends) {
        (kind === "input" ? edges.inputs : edges.outputs).push({
          processGuid: process.guid,
          datasetGuid,
          kind,
          relationshipId: relationshipId ??
            derivedRelationshipId(relationshipType, process.guid, datasetGuid),
        });
      }
    }
    this.#byProcess.set(processGuid, edges);
    return edges;
  }

  /**
   * The edges of one ACTIVE entity as a data set: those of every process that names it, in the order the
   * processes were first stored (as a scan of every process would meet them).
   */
  #datasetEdges(datasetGuid: string): DatasetEdges {
    const known = this.#byDataset.get(datasetGuid);
    if (known) return known;
    const dataset = this.entity(datasetGuid);
    let edges = NO_DATASET_EDGES;
    if (dataset) {
      const candidates = new Set(
        this.#reads.references.entitiesNaming(dataset.guid, dataset.attributes.qualifiedName),
      );
      for (
        const row of this.#reads.lineageInstancesTo.all(dataset.guid, INPUT_RELATIONSHIP, OUTPUT_RELATIONSHIP)
      ) {
        candidates.add(String((row as { end1_guid: string }).end1_guid));
      }
      const processes = [...candidates].map((guid) => this.#stored(guid)).filter((stored) =>
        stored !== undefined
      )
        .sort((a, b) => a.rowid - b.rowid);
      edges = { consumers: [], producers: [] };
      for (const { entity } of processes) {
        const { inputs, outputs } = this.#processEdges(entity.guid);
        edges.consumers.push(...inputs.filter((edge) => edge.datasetGuid === datasetGuid));
        edges.producers.push(...outputs.filter((edge) => edge.datasetGuid === datasetGuid));
      }
    }
    this.#byDataset.set(datasetGuid, edges);
    return edges;
  }
}

function storedOf(row: unknown): StoredEntity | undefined {
  if (!row) return undefined;
  const { rowid, json } = row as { rowid: number | bigint; json: string };
  return { entity: JSON.parse(json) as AtlasEntity, rowid: Number(rowid) };
}

/** The object ids a process holds under `inputs` or `outputs`, in attributes and relationship attributes. */
function referencesOf(process: AtlasEntity, attribute: "inputs" | "outputs"): unknown[] {
  const fromAttributes = process.attributes[attribute];
  const relationshipAttributes = isObject(process.relationshipAttributes)
    ? process.relationshipAttributes[attribute]
    : undefined;
  return [fromAttributes, relationshipAttributes].flatMap((value) =>
    Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]
  );
}

/**
 * On the service every lineage edge is a relationship instance with a guid. The emulator creates one for
 * `relationshipAttributes.inputs`/`outputs` (see `entity/write_relationships.ts`) but none for the legacy
 * `attributes.inputs`/`outputs`, so for those it derives one from the edge: the same edge always gets the
 * same id, across requests and restarts.
 */
export function derivedRelationshipId(
  relationshipType: string,
  processGuid: string,
  datasetGuid: string,
): string {
  const hex = createHash("sha256").update(`${relationshipType}\u0000${processGuid}\u0000${datasetGuid}`)
    .digest("hex");
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${
    hex.slice(20, 32)
  }`;
}
