/**
 * Relationships of the unified catalog, seen from either end: a term, data product, critical data element
 * (or data asset, data column) relates to another entity by a relationship type its kind allows; adding
 * one again updates its description, a listing shows the other end of each, and removing names the other
 * end. A term's Parent is seen only from the child.
 *
 * @module
 */
import { isGuid } from "../../core/guid.ts";
import type { UnifiedCatalog } from "./catalog.ts";
import { entityNotFound, invalidField } from "./errors.ts";
import {
  EMULATOR_USER_ID,
  ENTITY_CATEGORIES,
  enumValue,
  isRecord,
  type Json,
  kindOf,
  type KindSpec,
  TERM_RELATIONSHIP_TYPES,
} from "./model.ts";
import type { StoredRelationship, UnifiedStore } from "./store.ts";

/** Adds a relationship from a term, data product or critical data element. */
export function addRelationship(
  catalog: UnifiedCatalog,
  spec: KindSpec,
  id: string,
  entityTypeParam: string | null,
  body: unknown,
): Json {
  const source = catalog.existing(spec, id);
  if (!isRecord(body)) {
    throw invalidField("body", 'The body must be {"entityId": ..., "relationshipType": ...}.');
  }
  const rawType = entityTypeParam ?? (typeof body.entityType === "string" ? body.entityType : undefined) ??
    (spec.kind === "dataProduct" || spec.relationshipTypes ? undefined : "TERM");
  if (rawType === undefined) {
    throw invalidField(
      "entityType",
      `The entityType query parameter is required; allowed values: ${ENTITY_CATEGORIES.join(", ")}.`,
    );
  }
  const entityType = enumValue("entityType", rawType, ENTITY_CATEGORIES);
  if (!isGuid(body.entityId)) {
    throw invalidField(
      "entityId",
      `entityId '${String(body.entityId ?? "")}' must be the GUID of the related entity.`,
    );
  }
  const entityId = body.entityId.toLowerCase();
  if (entityId === String(source.id)) {
    throw invalidField("entityId", "An entity cannot be related to itself.");
  }
  const allowedTypes = spec.kind === "term" ? TERM_RELATIONSHIP_TYPES : spec.relationshipTypes;
  const relationshipType = allowedTypes
    ? enumValue("relationshipType", body.relationshipType ?? "Related", allowedTypes)
    : typeof body.relationshipType === "string" && body.relationshipType !== ""
    ? body.relationshipType
    : "Related";
  // A column's Parent is not a term (the data column API relates columns to other kinds as Parent).
  if (relationshipType === "Parent" && entityType !== "TERM" && spec.kind !== "dataColumn") {
    throw invalidField("entityType", "A Parent relationship links two terms: entityType must be TERM.");
  }
  const targetSpec = kindOf(entityType);
  // DATAASSET and DATACOLUMN may name Data Map assets and columns (as the 2025-09-15-preview relationships
  // of terms and data products do), which the unified catalog does not store: not checked.
  const checked = targetSpec && targetSpec.kind !== "dataAsset" && targetSpec.kind !== "dataColumn";
  if (checked && !catalog.store.get(targetSpec.kind, entityId)) {
    throw invalidField("entityId", `entityId '${entityId}' does not name an existing ${targetSpec.label}.`);
  }
  if (body.description !== undefined && body.description !== null && typeof body.description !== "string") {
    throw invalidField("description", "description must be a string.");
  }
  const existing = relationshipViews(catalog.store, String(source.id), spec.category)
    .find((v) =>
      v.otherId === entityId && v.otherType === entityType && v.row.relationshipType === relationshipType
    );
  const at = new Date(catalog.now()).toISOString();
  const row: StoredRelationship = existing?.row ?? {
    fromType: spec.category,
    fromId: String(source.id),
    toType: entityType,
    toId: entityId,
    relationshipType,
    createdAt: at,
    createdBy: EMULATOR_USER_ID,
  };
  if (typeof body.description === "string") row.description = body.description;
  catalog.store.addRelationship(row);
  return relationshipWire(row, entityId, entityType);
}

/** The relationships of an entity, seen from it, filtered by the `entityType`/`relationshipType` params. */
export function relationshipsOf(
  catalog: UnifiedCatalog,
  id: string,
  category: string,
  entityType: string | null,
  relationshipType: string | null,
): Json[] {
  return relationshipViews(catalog.store, id.toLowerCase(), category)
    .filter((v) => !entityType || v.otherType === entityType.toUpperCase())
    .filter((v) =>
      !relationshipType || v.row.relationshipType.toLowerCase() === relationshipType.toLowerCase()
    )
    .map((v) => relationshipWire(v.row, v.otherId, v.otherType));
}

/** Removes the relationships between an entity and `entityId`; a 404 when there is none. */
export function removeRelationships(
  catalog: UnifiedCatalog,
  spec: KindSpec,
  id: string,
  entityId: string | null,
  entityType: string | null,
  relationshipType: string | null,
): void {
  const source = catalog.existing(spec, id);
  if (!entityId) throw invalidField("entityId", "The entityId query parameter is required.");
  const views = relationshipViews(catalog.store, String(source.id), spec.category)
    .filter((v) => v.otherId === entityId.toLowerCase())
    .filter((v) => !entityType || v.otherType === entityType.toUpperCase())
    .filter((v) =>
      !relationshipType || v.row.relationshipType.toLowerCase() === relationshipType.toLowerCase()
    );
  if (views.length === 0) {
    throw entityNotFound(`relationship of ${spec.label} '${source.id}'`, entityId);
  }
  for (const view of views) catalog.store.removeRelationship(view.row);
}

/** The relationships of an entity, each seen from it: the row, the other end's id and its category. */
export function relationshipViews(
  store: UnifiedStore,
  id: string,
  category: string,
): { row: StoredRelationship; otherId: string; otherType: string }[] {
  const views = [];
  for (const row of store.relationshipsOf(id)) {
    if (row.fromId === id && row.fromType === category) {
      views.push({ row, otherId: row.toId, otherType: row.toType });
    } else if (row.toId === id && row.toType === category && row.relationshipType !== "Parent") {
      views.push({ row, otherId: row.fromId, otherType: row.fromType });
    }
  }
  return views;
}

function relationshipWire(row: StoredRelationship, entityId: string, entityType: string): Json {
  return {
    entityId,
    entityType,
    relationshipType: row.relationshipType,
    ...(row.description === undefined ? {} : { description: row.description }),
    systemData: {
      createdAt: row.createdAt,
      createdBy: row.createdBy,
      lastModifiedAt: row.createdAt,
      lastModifiedBy: row.createdBy,
    },
  };
}

/** Kinds a `{entityType}` path segment of the generic relationships route may name besides the stored ones. */
export function categoryOfSegment(segment: string): { spec?: KindSpec; category: string } {
  const spec = kindOf(segment);
  if (spec) return { spec, category: spec.category };
  const lower = segment.toLowerCase();
  const known: Record<string, string> = { dataassets: "DATAASSET", datacolumns: "DATACOLUMN" };
  return { category: known[lower] ?? segment.toUpperCase() };
}
