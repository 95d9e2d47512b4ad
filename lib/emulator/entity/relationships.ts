/**
 * Relationship instances as the entities at their ends show them: every relationship made through
 * `/atlas/v2/relationship` or by an entity write's `relationshipAttributes` (write_relationships.ts)
 * appears, on an entity read, under the entity's `relationshipAttributes` as an
 * `AtlasRelatedObjectId` of the entity at the other end — the shape of the contract's Entity_Get and
 * Glossary_ListEntitiesAssignedWithTerm examples:
 *
 * ```json
 * "composeSchema": { "guid": "…", "typeName": "tabular_schema", "entityStatus": "ACTIVE",
 *   "displayText": "tabular_schema", "relationshipType": "tabular_schema_columns",
 *   "relationshipGuid": "…", "relationshipStatus": "ACTIVE",
 *   "relationshipAttributes": { "typeName": "tabular_schema_columns" } }
 * ```
 *
 * The key is the attribute the relationship definition gives the entity's own end (`endDef1.name` for the
 * entity at end1, `endDef2.name` at end2), and that end's cardinality decides the value: SET and LIST ends
 * hold an array, SINGLE ends one object (the ACTIVE relationship when there are several, as Atlas picks).
 * When the relationship type is unknown to the type system (a fake in a unit test), the key is the
 * relationship's type name and the value an array.
 *
 * Relationships are read from the relationship store on each entity read rather than copied into the
 * stored entity, so an entity update never loses them and a deleted relationship (the emulator deletes
 * relationships for good, as its `GET /relationship/guid` answers 404 after a delete) simply disappears.
 * When the entity at either end is soft-deleted the relationship is reported with `relationshipStatus`
 * DELETED (Atlas soft-deletes an entity's relationships with it) and the other end's `entityStatus`.
 * What the caller stored in `relationshipAttributes` stays; a stored reference to an entity a relationship
 * also links is replaced, where it stands, by the relationship's richer object.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { createTypeSystem } from "../types/system.ts";
 * import { EntityRelationships } from "./relationships.ts";
 * const store = EntityStore.open();
 * const related = new EntityRelationships(store, createTypeSystem(store.database, Date.now));
 * const end = { guid: "gone", typeName: "DataSet" };
 * console.log(related.relationshipStatus({ status: "ACTIVE", end1: end, end2: end })); // "DELETED"
 * store.close();
 * ```
 *
 * @module
 */
import type { TypeSystem } from "../area.ts";
import { type AtlasEntity, isObject, type JsonObject } from "./model.ts";
import { displayText, entityView } from "./views.ts";
import { type AtlasRelationship, RelationshipStore } from "../relationship/store.ts";
import type { EntityStore } from "../store.ts";
import { TypeRegistry } from "../types/registry.ts";

/** The relationship status the service reports. */
export type RelationshipStatus = "ACTIVE" | "DELETED";

/** One end's view of a relationship: the attribute it appears under and whether that holds many. */
interface EndView {
  attribute: string;
  many: boolean;
  relationship: AtlasRelationship;
  other: AtlasEntity;
}

/** Reads relationship instances into entity views. */
export class EntityRelationships {
  readonly #store: EntityStore;
  readonly #relationships: RelationshipStore;
  readonly #types: TypeSystem;

  constructor(store: EntityStore, types: TypeSystem) {
    this.#store = store;
    this.#types = types;
    this.#relationships = new RelationshipStore(store.database);
  }

  /**
   * The entity as a read returns it: {@link entityView} with the relationships of the entity merged into
   * `relationshipAttributes`; `ignoreRelationships` leaves relationship attributes out altogether.
   */
  view(entity: AtlasEntity, options: { ignoreRelationships?: boolean } = {}): AtlasEntity {
    const view = entityView(entity, options);
    if (options.ignoreRelationships) return view;
    const ends = this.#endViews(entity);
    if (ends.length === 0) return view;
    const merged: JsonObject = isObject(view.relationshipAttributes) ? view.relationshipAttributes : {};
    for (const [attribute, group] of groupByAttribute(ends)) {
      const objects = group.map((end) => this.#relatedObject(entity, end));
      if (group[0].many) {
        const given = merged[attribute];
        const list = Array.isArray(given) ? given : given === undefined || given === null ? [] : [given];
        // A stored reference to an entity a relationship also links is replaced where it stands.
        const byGuid = new Map(objects.map((o) => [o.guid, o]));
        const placed = new Set<unknown>();
        const kept = list.map((item) => {
          if (!isObject(item) || !byGuid.has(item.guid as string) || placed.has(item.guid)) return item;
          placed.add(item.guid);
          return byGuid.get(item.guid as string)!;
        });
        merged[attribute] = [...kept, ...objects.filter((o) => !placed.has(o.guid))];
      } else {
        merged[attribute] = objects.find((o) => o.relationshipStatus === "ACTIVE") ?? objects.at(-1);
      }
    }
    view.relationshipAttributes = merged;
    return view;
  }

  /** DELETED when the relationship or the entity at either end is deleted, else ACTIVE. */
  relationshipStatus(
    relationship: Pick<AtlasRelationship, "status" | "end1" | "end2">,
  ): RelationshipStatus {
    if (relationship.status === "DELETED") return "DELETED";
    for (const end of [relationship.end1, relationship.end2]) {
      const entity = this.#store.get(end.guid);
      if (!entity || entity.status === "DELETED") return "DELETED";
    }
    return "ACTIVE";
  }

  #endViews(entity: AtlasEntity): EndView[] {
    const ends: EndView[] = [];
    for (const relationship of this.#relationships.listForEntity(entity.guid)) {
      const def = this.#relationshipDef(relationship.typeName);
      const sides = [
        { own: relationship.end1, other: relationship.end2, endDef: def?.endDef1 },
        { own: relationship.end2, other: relationship.end1, endDef: def?.endDef2 },
      ];
      for (const { own, other, endDef } of sides) {
        if (own.guid !== entity.guid) continue;
        const otherEntity = this.#store.get(other.guid);
        // A purged end (never the service's delete) leaves nothing to point at.
        if (!otherEntity) continue;
        ends.push({
          attribute: endDef?.name ?? relationship.typeName,
          many: endDef ? endDef.cardinality !== "SINGLE" : true,
          relationship,
          other: otherEntity,
        });
      }
    }
    return ends;
  }

  #relationshipDef(typeName: string) {
    return this.#types instanceof TypeRegistry ? this.#types.find(typeName, "RELATIONSHIP") : undefined;
  }

  /** AtlasRelatedObjectId of the other end, as the contract's examples show it. */
  #relatedObject(entity: AtlasEntity, end: EndView): JsonObject {
    const { relationship, other } = end;
    const deleted = relationship.status === "DELETED" || entity.status === "DELETED" ||
      other.status === "DELETED";
    const struct: JsonObject = { typeName: relationship.typeName };
    if (isObject(relationship.attributes) && Object.keys(relationship.attributes).length > 0) {
      struct.attributes = structuredClone(relationship.attributes);
    }
    return {
      guid: other.guid,
      typeName: other.typeName,
      entityStatus: other.status,
      displayText: displayText(other),
      relationshipType: relationship.typeName,
      relationshipGuid: relationship.guid,
      relationshipStatus: deleted ? "DELETED" : "ACTIVE",
      relationshipAttributes: struct,
    };
  }
}

function groupByAttribute(ends: EndView[]): Map<string, EndView[]> {
  const groups = new Map<string, EndView[]>();
  for (const end of ends) {
    const group = groups.get(end.attribute);
    if (group) group.push(end);
    else groups.set(end.attribute, [end]);
  }
  return groups;
}
