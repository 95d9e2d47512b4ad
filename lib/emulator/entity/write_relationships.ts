/**
 * Relationship instances made by entity writes. Atlas turns a `relationshipAttributes` value that refers to
 * other entities (a table's `columns: [{guid}]`, a column's `table: {typeName, uniqueAttributes}`) into
 * relationship instances, of the relationship type whose end for the written entity's type (or a supertype)
 * carries that attribute name. The emulator does the same here, in the write's transaction, through the
 * {@link RelationshipStore} the relationship routes use, so both ends show the relationship (see
 * `relationships.ts`) and `GET /relationship/guid/{guid}` answers for it.
 *
 * An instance between the two ends already there (made by an earlier write or by `POST /relationship`) is
 * reused. When a write gives the attribute again without an entity it held before, the instance to that
 * entity is deleted, as the relationship routes delete (for good); a value the write leaves as it was
 * (an update without the attribute) changes nothing. References that resolve to no stored
 * ACTIVE entity, or to one the relationship's other end cannot be, stay on the entity as written and make
 * no instance, as before; so do attributes no relationship definition gives the type.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { createTypeSystem } from "../types/system.ts";
 * import { syncWrittenRelationships } from "./write_relationships.ts";
 * const store = EntityStore.open();
 * const types = createTypeSystem(store.database, Date.now);
 * syncWrittenRelationships(store, types, [], Date.now()); // nothing written, nothing made
 * store.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { TypeSystem } from "../area.ts";
import { type AtlasEntity, isObject, type JsonObject } from "./model.ts";
import { newRelationship, RelationshipStore } from "../relationship/store.ts";
import type { EntityStore } from "../store.ts";
import type { AtlasRelationshipEndDef, AtlasTypeDef } from "../types/model.ts";
import { TypeRegistry } from "../types/registry.ts";

/** One entity a write stored: as it was before (absent when created) and as stored now. */
export interface WrittenEntity {
  before?: AtlasEntity;
  after: AtlasEntity;
}

/** A relationship definition the written entity can be at one end of, under the attribute's name. */
interface Candidate {
  def: AtlasTypeDef;
  /** True when the written entity is end1. */
  ownIsEnd1: boolean;
  other: AtlasRelationshipEndDef;
}

// Statements are prepared once per database rather than on every write request.
const storesByDatabase = new WeakMap<DatabaseSync, RelationshipStore>();

function relationshipStoreOf(database: DatabaseSync): RelationshipStore {
  let relationships = storesByDatabase.get(database);
  if (!relationships) {
    relationships = new RelationshipStore(database);
    storesByDatabase.set(database, relationships);
  }
  return relationships;
}

/**
 * Creates the relationship instances the written entities' `relationshipAttributes` refer to and deletes
 * those a rewritten attribute no longer refers to. Call it after every entity of the request is stored, so
 * references between them resolve. A type system without definitions (a unit test's fake) makes none.
 */
export function syncWrittenRelationships(
  store: EntityStore,
  types: TypeSystem,
  written: WrittenEntity[],
  now: number,
): void {
  if (!(types instanceof TypeRegistry)) return;
  const registry = types;
  const relevant = written.filter(({ after }) =>
    after.status === "ACTIVE" && isObject(after.relationshipAttributes) &&
    Object.keys(after.relationshipAttributes).length > 0
  );
  if (relevant.length === 0) return;
  const relationships = relationshipStoreOf(store.database);
  const candidatesByType = new Map<string, Map<string, Candidate[]>>();
  const candidatesOf = (typeName: string): Map<string, Candidate[]> => {
    let byAttribute = candidatesByType.get(typeName);
    if (!byAttribute) {
      byAttribute = relationshipCandidates(registry, typeName);
      candidatesByType.set(typeName, byAttribute);
    }
    return byAttribute;
  };

  for (const { before, after } of relevant) {
    const byAttribute = candidatesOf(after.typeName);
    const given = after.relationshipAttributes as JsonObject;
    const previous = isObject(before?.relationshipAttributes) ? before.relationshipAttributes : {};
    for (const [attribute, value] of Object.entries(given)) {
      const candidates = byAttribute.get(attribute);
      // A value carried over unchanged (an update that left the attribute out) changes no relationship.
      if (!candidates || (before && sameValue(value, previous[attribute]))) continue;
      const kept = new Set<string>();
      for (const reference of referencesIn(value)) {
        const target = store.get(reference.guid as string);
        if (!target || target.status !== "ACTIVE" || target.guid === after.guid) continue;
        const candidate = chooseCandidate(registry, candidates, reference, target);
        if (!candidate) continue;
        const [end1, end2] = candidate.ownIsEnd1 ? [after, target] : [target, after];
        kept.add(endKey(candidate.def.name, target.guid));
        if (relationships.findByEnds(candidate.def.name, end1.guid, end2.guid)) continue;
        relationships.put(newRelationship(
          candidate.def,
          { guid: end1.guid, typeName: end1.typeName },
          { guid: end2.guid, typeName: end2.typeName },
          now,
          nullAttributes(candidate.def),
        ));
      }
      // Only what this attribute referred to before can have been made by it; others are left alone.
      for (const reference of referencesIn(previous[attribute])) {
        const otherGuid = reference.guid as string;
        for (const candidate of candidates) {
          if (kept.has(endKey(candidate.def.name, otherGuid))) continue;
          const [end1, end2] = candidate.ownIsEnd1 ? [after.guid, otherGuid] : [otherGuid, after.guid];
          const stale = relationships.findByEnds(candidate.def.name, end1, end2);
          if (stale) relationships.delete(stale.guid);
        }
      }
    }
  }
}

/** Relationship definitions by the attribute name they give `typeName` at an end it can be. */
function relationshipCandidates(registry: TypeRegistry, typeName: string): Map<string, Candidate[]> {
  const byAttribute = new Map<string, Candidate[]>();
  for (const attribute of registry.relationshipAttributeDefs(typeName)) {
    const def = attribute.relationshipTypeName
      ? registry.find(attribute.relationshipTypeName, "RELATIONSHIP")
      : undefined;
    if (!def?.endDef1 || !def.endDef2) continue;
    const ownIsEnd1 = def.endDef1.name === attribute.name && registry.isA(typeName, def.endDef1.type);
    const candidate: Candidate = { def, ownIsEnd1, other: ownIsEnd1 ? def.endDef2 : def.endDef1 };
    const list = byAttribute.get(attribute.name) ?? [];
    if (!list.some((c) => c.def.name === def.name && c.ownIsEnd1 === ownIsEnd1)) list.push(candidate);
    byAttribute.set(attribute.name, list);
  }
  return byAttribute;
}

/** The reference's own `relationshipType` when it names a candidate, else the first the target fits. */
function chooseCandidate(
  registry: TypeRegistry,
  candidates: Candidate[],
  reference: JsonObject,
  target: AtlasEntity,
): Candidate | undefined {
  const fitting = candidates.filter((c) => registry.isA(target.typeName, c.other.type));
  const named = typeof reference.relationshipType === "string"
    ? fitting.find((c) => c.def.name === reference.relationshipType)
    : undefined;
  return named ?? fitting[0];
}

/** The object ids (with a guid) in an attribute value: one object or a list of them. */
function referencesIn(value: unknown): JsonObject[] {
  const items = Array.isArray(value) ? value : [value];
  return items.filter((item): item is JsonObject =>
    isObject(item) && typeof item.guid === "string" && item.guid !== ""
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function endKey(relationshipType: string, otherGuid: string): string {
  return `${relationshipType}\u0000${otherGuid}`;
}

/** The relationship type's attributes, all null: an entity write gives none of them. */
function nullAttributes(def: AtlasTypeDef): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const attribute of def.attributeDefs ?? []) attributes[attribute.name] = null;
  return attributes;
}
