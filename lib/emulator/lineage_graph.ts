/**
 * The lineage graph of the emulator's catalog, built on demand from what is stored: every ACTIVE entity
 * whose type is a `Process` contributes an edge from each of its `inputs` to itself and from itself to each
 * of its `outputs`. Ends come from the attributes and the relationship attributes (object ids by guid or by
 * type name and unique attributes), and from `dataset_process_inputs` / `process_dataset_outputs`
 * relationship instances, as on the service, where all three are the same edges. Deleted processes and
 * deleted or unknown ends are left out.
 *
 * @example
 * ```ts
 * import { EntityStore } from "./store.ts";
 * import { LineageGraph } from "./lineage_graph.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * const graph = LineageGraph.build({ store, types, now: Date.now });
 * console.log(graph.producersOf("any-guid")); // []
 * store.close();
 * ```
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { AreaDependencies } from "./area.ts";
import { type AtlasEntity, isObject, isPlaceholderGuid } from "./entity_model.ts";
import { RelationshipStore } from "./relationship_store.ts";

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

/** Processes and their inputs and outputs, indexed both ways. */
export class LineageGraph {
  readonly #entities: Map<string, AtlasEntity>;
  readonly #byProcess = new Map<string, { inputs: LineageEdge[]; outputs: LineageEdge[] }>();
  readonly #byDataset = new Map<string, { consumers: LineageEdge[]; producers: LineageEdge[] }>();

  private constructor(entities: Map<string, AtlasEntity>) {
    this.#entities = entities;
  }

  /** Reads every ACTIVE entity and relationship instance once and indexes the lineage edges. */
  static build(deps: AreaDependencies): LineageGraph {
    const active = deps.store.list();
    const entities = new Map(active.map((entity) => [entity.guid, entity]));
    const graph = new LineageGraph(entities);
    const byQualifiedName = new Map<string, AtlasEntity[]>();
    for (const entity of active) {
      const list = byQualifiedName.get(entity.attributes.qualifiedName) ?? [];
      list.push(entity);
      byQualifiedName.set(entity.attributes.qualifiedName, list);
    }
    const resolve = (reference: unknown): AtlasEntity | undefined => {
      if (!isObject(reference)) return undefined;
      if (typeof reference.guid === "string" && !isPlaceholderGuid(reference.guid)) {
        return entities.get(reference.guid);
      }
      const qualifiedName = isObject(reference.uniqueAttributes)
        ? reference.uniqueAttributes.qualifiedName
        : undefined;
      if (typeof qualifiedName !== "string" || typeof reference.typeName !== "string") return undefined;
      // A reference may name a super type (`DataSet`) of the entity it means (`azure_sql_table`).
      const typeName = reference.typeName;
      return byQualifiedName.get(qualifiedName)?.find((e) => deps.types.isA(e.typeName, typeName));
    };
    const relationships = new RelationshipStore(deps.store.database);
    for (const process of active) {
      if (!deps.types.isA(process.typeName, PROCESS_TYPE)) continue;
      const instances = relationships.listForEntity(process.guid).filter((r) => r.status !== "DELETED");
      for (const kind of ["input", "output"] as const) {
        const attribute = kind === "input" ? "inputs" : "outputs";
        const relationshipType = kind === "input" ? INPUT_RELATIONSHIP : OUTPUT_RELATIONSHIP;
        const ends = new Map<string, string | undefined>();
        for (const reference of referencesOf(process, attribute)) {
          const end = resolve(reference);
          if (end && end.guid !== process.guid && !ends.has(end.guid)) ends.set(end.guid, undefined);
        }
        for (const instance of instances) {
          if (instance.typeName !== relationshipType || instance.end1.guid !== process.guid) continue;
          if (entities.has(instance.end2.guid)) ends.set(instance.end2.guid, instance.guid);
        }
        for (const [datasetGuid, relationshipId] of ends) {
          graph.#add({
            processGuid: process.guid,
            datasetGuid,
            kind,
            relationshipId: relationshipId ??
              derivedRelationshipId(relationshipType, process.guid, datasetGuid),
          });
        }
      }
    }
    return graph;
  }

  /** The ACTIVE entity with this guid, if any. */
  entity(guid: string): AtlasEntity | undefined {
    return this.#entities.get(guid);
  }

  /** Edges from the process's input data sets into it. */
  inputsOf(processGuid: string): LineageEdge[] {
    return this.#byProcess.get(processGuid)?.inputs ?? [];
  }

  /** Edges from the process to the data sets it writes. */
  outputsOf(processGuid: string): LineageEdge[] {
    return this.#byProcess.get(processGuid)?.outputs ?? [];
  }

  /** Edges from the processes that write this data set (its upstream). */
  producersOf(datasetGuid: string): LineageEdge[] {
    return this.#byDataset.get(datasetGuid)?.producers ?? [];
  }

  /** Edges into the processes that read this data set (its downstream). */
  consumersOf(datasetGuid: string): LineageEdge[] {
    return this.#byDataset.get(datasetGuid)?.consumers ?? [];
  }

  #add(edge: LineageEdge): void {
    const process = this.#byProcess.get(edge.processGuid) ?? { inputs: [], outputs: [] };
    (edge.kind === "input" ? process.inputs : process.outputs).push(edge);
    this.#byProcess.set(edge.processGuid, process);
    const dataset = this.#byDataset.get(edge.datasetGuid) ?? { consumers: [], producers: [] };
    (edge.kind === "input" ? dataset.consumers : dataset.producers).push(edge);
    this.#byDataset.set(edge.datasetGuid, dataset);
  }
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
 * `relationshipAttributes.inputs`/`outputs` (see `entity_write_relationships.ts`) but none for the legacy
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
