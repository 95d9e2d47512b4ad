/**
 * The emulator's lineage graph as it was built before the lineage index (commit 2efc6a8): every ACTIVE
 * entity and relationship instance read on each request. Kept as the oracle the indexed graph
 * (lib/emulator/lineage/graph.ts) is compared with, answer for answer, in
 * tests/lib/emulator/lineage/graph_test.ts.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../../lib/emulator/store.ts";
 * import { FullScanLineageGraph } from "./lineage_full_scan.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * console.log(FullScanLineageGraph.build({ store, types, now: Date.now }).producersOf("x")); // []
 * store.close();
 * ```
 *
 * @module
 */
import type { AreaDependencies } from "../../lib/emulator/area.ts";
import { type AtlasEntity, isObject, isPlaceholderGuid } from "../../lib/emulator/entity/model.ts";
import {
  derivedRelationshipId,
  type LineageEdge,
  type LineageEdges,
  PROCESS_TYPE,
} from "../../lib/emulator/lineage/graph.ts";
import { RelationshipStore } from "../../lib/emulator/relationship/store.ts";

const INPUT_RELATIONSHIP = "dataset_process_inputs";
const OUTPUT_RELATIONSHIP = "process_dataset_outputs";

/** Processes and their inputs and outputs, indexed both ways. */
export class FullScanLineageGraph implements LineageEdges {
  readonly #entities: Map<string, AtlasEntity>;
  readonly #byProcess = new Map<string, { inputs: LineageEdge[]; outputs: LineageEdge[] }>();
  readonly #byDataset = new Map<string, { consumers: LineageEdge[]; producers: LineageEdge[] }>();

  private constructor(entities: Map<string, AtlasEntity>) {
    this.#entities = entities;
  }

  /** Reads every ACTIVE entity and relationship instance once and indexes the lineage edges. */
  static build(deps: AreaDependencies): FullScanLineageGraph {
    const active = deps.store.list();
    const entities = new Map(active.map((entity) => [entity.guid, entity]));
    const graph = new FullScanLineageGraph(entities);
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
