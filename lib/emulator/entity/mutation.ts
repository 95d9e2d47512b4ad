/**
 * Entity writes against the store: create-or-update by unique attributes, with placeholder guids assigned,
 * references between the written entities resolved and the relationship instances their
 * `relationshipAttributes` refer to made (see `write_relationships.ts`), all in one transaction;
 * and deletes.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { upsertEntities } from "./mutation.ts";
 * import { validateEntityInput } from "./model.ts";
 * const store = EntityStore.open();
 * const input = validateEntityInput({ guid: "-1", typeName: "DataSet", attributes: { qualifiedName: "ds://a" } }, "entity");
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * const result = upsertEntities(store, [input], { now: Date.now(), types });
 * console.log(result.guidAssignments?.["-1"]);
 * store.close();
 * ```
 *
 * @module
 */
import type { TypeSystem } from "../area.ts";
import {
  type AtlasEntity,
  type AtlasEntityHeader,
  type BusinessAttributes,
  type BusinessAttributeUpdateBehavior,
  type EntityInput,
  type EntityMutationResult,
  isObject,
  isPlaceholderGuid,
  type JsonObject,
  newEntity,
  resolveReferences,
  softDeletedEntity,
  updatedEntity,
} from "./model.ts";
import { deletionHeader, mutationHeader, partialUpdateHeader } from "./views.ts";
import { checkLabels } from "./labels.ts";
import { syncWrittenRelationships, type WrittenEntity } from "./write_relationships.ts";
import type { EntityStore } from "../store.ts";

/** The collection entities land in when the caller names none: the root collection, named after the account. */
export const DEFAULT_COLLECTION_ID = "emulator";

/** Options of one write request. */
export interface UpsertOptions {
  /** Epoch milliseconds to stamp on created and updated entities. */
  now: number;
  /** The `collectionId` query parameter: every written entity moves there. */
  collectionId?: string;
  /** Checks every written entity, its classifications and business metadata against the type definitions. */
  types: TypeSystem;
  /** The `businessAttributeUpdateBehavior` query parameter (full updates only; creates always keep them). */
  businessAttributes?: BusinessAttributeUpdateBehavior;
  /**
   * Guids of entities updated partially (`PUT` by guid or unique attribute): listed under PARTIAL_UPDATE
   * and in `partialUpdatedEntities`, and checked as merged (required attributes may come from the store).
   */
  partial?: Set<string>;
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
  // Atlas checks every entity of the request before writing any (a full write must be complete on its own).
  for (const input of inputs) {
    const partial = typeof input.guid === "string" && options.partial?.has(input.guid) === true;
    if (!partial) checkEntity(options.types, input, { businessMetadata: false });
    if (Array.isArray(input.labels)) checkLabels(input.labels as string[]);
  }
  return store.transaction(() => {
    const plans = new Map<string, WritePlan>();
    const assignments: Record<string, string> = {};
    for (const input of inputs) {
      const key = uniqueKey(input.typeName, input.attributes.qualifiedName);
      let plan = plans.get(key);
      if (!plan) {
        const existing = findExisting(store, input, options.partial);
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
    const partial: AtlasEntityHeader[] = [];
    const written: WrittenEntity[] = [];
    for (const plan of plans.values()) {
      let entity = plan.existing;
      for (const input of plan.inputs) {
        entity = entity
          ? updatedEntity(entity, input, options.now, options.businessAttributes)
          : newEntity(input, plan.guid, options.now);
      }
      entity = resolveReferences(entity!, resolve);
      entity.collectionId = options.collectionId ?? entity.collectionId ?? DEFAULT_COLLECTION_ID;
      const isPartial = plan.existing !== undefined && options.partial?.has(plan.guid) === true;
      // Business metadata is checked where it is applied: on create, or on update when not ignored.
      const applied = !plan.existing || (options.businessAttributes ?? "ignore") !== "ignore";
      if (isPartial) checkEntity(options.types, entity, { businessMetadata: true });
      else if (applied) checkBusinessMetadata(options.types, entity.businessAttributes);
      store.put(entity);
      written.push({ before: plan.existing, after: entity });
      if (isPartial) partial.push(partialUpdateHeader(entity));
      else (plan.existing ? updated : created).push(mutationHeader(entity));
    }
    // After every entity is stored, so references between the written entities find their other end.
    syncWrittenRelationships(store, options.types, written, options.now);

    const mutatedEntities: EntityMutationResult["mutatedEntities"] = {};
    if (created.length > 0) mutatedEntities.CREATE = created;
    if (updated.length > 0) mutatedEntities.UPDATE = updated;
    if (partial.length > 0) mutatedEntities.PARTIAL_UPDATE = partial;
    const result: EntityMutationResult = { mutatedEntities, guidAssignments: assignments };
    if (partial.length > 0) result.partialUpdatedEntities = partial;
    return result;
  });
}

/**
 * Throws the type system's error for the entity and its classifications, and with `businessMetadata` for
 * its business metadata.
 */
export function checkEntity(
  types: TypeSystem,
  entity: JsonObject & { typeName: string },
  options: { businessMetadata: boolean },
): void {
  const entityError = types.validateEntity(entity as { typeName: string; attributes?: JsonObject });
  if (entityError) throw entityError;
  for (const classification of Array.isArray(entity.classifications) ? entity.classifications : []) {
    if (!isObject(classification)) continue;
    const error = types.validateClassification(String(classification.typeName));
    if (error) throw error;
  }
  if (options.businessMetadata) checkBusinessMetadata(types, entity.businessAttributes);
}

/** Throws the type system's error for business metadata (`{group: {attribute: value}}`), if any. */
export function checkBusinessMetadata(types: TypeSystem, businessAttributes: unknown): void {
  if (!isObject(businessAttributes)) return;
  const error = types.validateBusinessMetadata(businessAttributes as BusinessAttributes);
  if (error) throw error;
}

// The contract: "Existing entity is matched using its unique guid if supplied or by its unique attributes".
// A real guid therefore lets a caller rename an entity; a full write does not revive a deleted entity, while
// a partial update changes the entity it names whatever its status (Atlas updates the deleted vertex).
function findExisting(
  store: EntityStore,
  input: EntityInput,
  partial?: Set<string>,
): AtlasEntity | undefined {
  if (typeof input.guid === "string" && input.guid !== "" && !isPlaceholderGuid(input.guid)) {
    const byGuid = store.get(input.guid);
    if (byGuid && partial?.has(byGuid.guid)) return byGuid;
    if (byGuid?.typeName === input.typeName && byGuid.status === "ACTIVE") return byGuid;
  }
  return store.findByQualifiedName(input.typeName, input.attributes.qualifiedName);
}

/**
 * Soft-deletes the ACTIVE entities among `guids` (status DELETED, version and ETag up); returns their
 * headers as they were just before, in request order. Unknown and already deleted guids are skipped, as
 * Atlas's delete handler skips entities whose state is DELETED already.
 */
export function deleteEntities(store: EntityStore, guids: string[], now: number): EntityMutationResult {
  const deleted = store.transaction(() => {
    const headers: AtlasEntityHeader[] = [];
    for (const guid of new Set(guids)) {
      const entity = store.get(guid);
      if (!entity || entity.status === "DELETED") continue;
      store.put(softDeletedEntity(entity, now));
      headers.push(deletionHeader(entity));
    }
    return headers;
  });
  return deleted.length > 0 ? { mutatedEntities: { DELETE: deleted } } : { mutatedEntities: {} };
}
