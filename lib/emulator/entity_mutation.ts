/**
 * Entity writes against the store: create-or-update by unique attributes, with placeholder guids assigned
 * and references between the written entities resolved, all in one transaction; and deletes.
 *
 * @example
 * ```ts
 * import { EntityStore } from "./store.ts";
 * import { upsertEntities } from "./entity_mutation.ts";
 * import { validateEntityInput } from "./entity_model.ts";
 * const store = EntityStore.open();
 * const input = validateEntityInput({ guid: "-1", typeName: "DataSet", attributes: { qualifiedName: "ds://a" } }, "entity");
 * const result = upsertEntities(store, [input], { now: Date.now() });
 * console.log(result.guidAssignments?.["-1"]);
 * store.close();
 * ```
 *
 * @module
 */
import {
  type AtlasEntity,
  type AtlasEntityHeader,
  deletionHeader,
  type EntityInput,
  type EntityMutationResult,
  isObject,
  isPlaceholderGuid,
  type JsonObject,
  mutationHeader,
  newEntity,
  resolveReferences,
  updatedEntity,
} from "./entity_model.ts";
import type { EntityStore } from "./store.ts";

/** The collection entities land in when the caller names none: the root collection, named after the account. */
export const DEFAULT_COLLECTION_ID = "emulator";

/** Options of one write request. */
export interface UpsertOptions {
  /** Epoch milliseconds to stamp on created and updated entities. */
  now: number;
  /** The `collectionId` query parameter: every written entity moves there. */
  collectionId?: string;
}

interface WritePlan {
  guid: string;
  existing?: AtlasEntity;
  inputs: EntityInput[];
}

// Atlas gives entities sent without a guid an internal negative id, and reports it in guidAssignments.
let nextInternalId = Date.now() * 1000;

function placeholderGuid(): string {
  nextInternalId += 1;
  return `-${nextInternalId}`;
}

function uniqueKey(typeName: string, qualifiedName: string): string {
  return `${typeName}\u0000${qualifiedName}`;
}

/**
 * Creates or updates `inputs` (the main entities followed by referred ones). An entity whose type and
 * qualified name exist already is updated and keeps its guid; any other is created with a new guid.
 */
export function upsertEntities(
  store: EntityStore,
  inputs: EntityInput[],
  options: UpsertOptions,
): EntityMutationResult {
  return store.transaction(() => {
    const plans = new Map<string, WritePlan>();
    const assignments: Record<string, string> = {};
    for (const input of inputs) {
      const key = uniqueKey(input.typeName, input.attributes.qualifiedName);
      let plan = plans.get(key);
      if (!plan) {
        const existing = findExisting(store, input);
        plan = { guid: existing?.guid ?? crypto.randomUUID(), existing, inputs: [] };
        plans.set(key, plan);
      }
      // Two entries for one entity in a request are applied in order to the same entity.
      plan.inputs.push(input);
      const given = typeof input.guid === "string" && input.guid !== "" ? input.guid : placeholderGuid();
      if (given !== plan.guid) assignments[given] = plan.guid;
    }

    const resolve = (reference: JsonObject): string | undefined => {
      if (typeof reference.guid === "string" && assignments[reference.guid]) {
        return assignments[reference.guid];
      }
      if (typeof reference.guid === "string" && !isPlaceholderGuid(reference.guid)) return undefined;
      const unique = reference.uniqueAttributes;
      if (!isObject(unique) || typeof unique.qualifiedName !== "string") return undefined;
      const typeName = String(reference.typeName);
      return plans.get(uniqueKey(typeName, unique.qualifiedName))?.guid ??
        store.findByQualifiedName(typeName, unique.qualifiedName)?.guid;
    };

    const created: AtlasEntityHeader[] = [];
    const updated: AtlasEntityHeader[] = [];
    for (const plan of plans.values()) {
      let entity = plan.existing;
      for (const input of plan.inputs) {
        entity = entity
          ? updatedEntity(entity, input, options.now)
          : newEntity(input, plan.guid, options.now);
      }
      entity = resolveReferences(entity!, resolve);
      entity.collectionId = options.collectionId ?? entity.collectionId ?? DEFAULT_COLLECTION_ID;
      store.put(entity);
      (plan.existing ? updated : created).push(mutationHeader(entity));
    }

    const mutatedEntities: EntityMutationResult["mutatedEntities"] = {};
    if (created.length > 0) mutatedEntities.CREATE = created;
    if (updated.length > 0) mutatedEntities.UPDATE = updated;
    return { mutatedEntities, guidAssignments: assignments };
  });
}

function findExisting(store: EntityStore, input: EntityInput): AtlasEntity | undefined {
  const byName = store.findByQualifiedName(input.typeName, input.attributes.qualifiedName);
  if (byName || typeof input.guid !== "string" || isPlaceholderGuid(input.guid)) return byName;
  // A real guid lets a caller rename an entity (change its qualified name).
  const byGuid = store.get(input.guid);
  return byGuid?.typeName === input.typeName ? byGuid : undefined;
}

/** Deletes the entities that exist among `guids`; returns their headers in request order. */
export function deleteEntities(store: EntityStore, guids: string[]): EntityMutationResult {
  const deleted = store.transaction(() => {
    const headers: AtlasEntityHeader[] = [];
    for (const guid of new Set(guids)) {
      const entity = store.get(guid);
      if (entity && store.delete(guid)) headers.push(deletionHeader(entity));
    }
    return headers;
  });
  return deleted.length > 0 ? { mutatedEntities: { DELETE: deleted } } : { mutatedEntities: {} };
}
