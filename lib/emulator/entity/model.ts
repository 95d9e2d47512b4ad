/**
 * The Atlas entity as the emulator stores and returns it, and the pure functions that turn what a caller
 * sent into that shape: validation, the fields the service owns, merge on update, and the object references
 * between entities. How answers show an entity (headers, views) is in views.ts.
 *
 * @example
 * ```ts
 * import { newEntity, validateEntityInput } from "./model.ts";
 * const input = validateEntityInput({ typeName: "DataSet", attributes: { qualifiedName: "ds://a", name: "a" } }, "entity");
 * const entity = newEntity(input, crypto.randomUUID(), Date.now());
 * console.log(entity.lastModifiedTS); // "1"
 * ```
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** An entity as stored: what the caller sent plus the fields the service maintains. */
export interface AtlasEntity {
  guid: string;
  typeName: string;
  attributes: JsonObject & { qualifiedName: string };
  status: "ACTIVE" | "DELETED";
  createTime: number;
  updateTime: number;
  createdBy: string;
  updatedBy: string;
  version: number;
  /** The service's ETag: "1" on create, incremented on every update. */
  lastModifiedTS: string;
  collectionId?: string;
  classifications?: JsonObject[];
  labels?: string[];
  [field: string]: unknown;
}

/** The header the service returns for mutated entities. */
export interface AtlasEntityHeader {
  typeName: string;
  guid: string;
  /** Left out of partial-update headers, as in the contract's examples. */
  status?: string;
  lastModifiedTS?: string;
  displayText?: string;
  attributes: JsonObject;
  classificationNames?: string[];
  labels?: string[];
  meaningNames?: string[];
  meanings?: unknown[];
}

/** The operations a mutation result lists entities under. */
export type MutationOperation = "CREATE" | "UPDATE" | "PARTIAL_UPDATE" | "DELETE";

/** The body of every entity write (`EntityMutationResult` in the contract). */
export interface EntityMutationResult {
  mutatedEntities?: Partial<Record<MutationOperation, AtlasEntityHeader[]>>;
  guidAssignments?: Record<string, string>;
  /** The entities a partial update changed (beside `mutatedEntities.PARTIAL_UPDATE`). */
  partialUpdatedEntities?: AtlasEntityHeader[];
}

/**
 * What a full update does with the `businessAttributes` it carries (the `businessAttributeUpdateBehavior`
 * query parameter): the service ignores them unless told to replace or merge.
 */
export type BusinessAttributeUpdateBehavior = "ignore" | "replace" | "merge";

/** Business metadata on an entity: group name to attribute name to value. */
export type BusinessAttributes = Record<string, Record<string, unknown>>;

/** A caller's entity after validation: typeName and qualifiedName are known to be present. */
export interface EntityInput extends JsonObject {
  typeName: string;
  attributes: JsonObject & { qualifiedName: string };
}

/** Who the emulator says created and updated entities. */
export const EMULATOR_USER = "emulator";

/** Fields the service sets itself; values a caller sends for them are ignored. */
const SERVICE_OWNED_FIELDS = new Set([
  "guid",
  "status",
  "createTime",
  "updateTime",
  "createdBy",
  "updatedBy",
  "version",
  "lastModifiedTS",
]);

/** Checks one entity of a request body; `where` names it in the error (`entities[2]`). */
export function validateEntityInput(value: unknown, where: string): EntityInput {
  if (!isObject(value)) throw EmulatorError.invalidParameters(`${where} must be a JSON object`, where);
  lenientEntityShape(value);
  const typeName = value.typeName;
  if (typeof typeName !== "string" || typeName.trim() === "") {
    throw EmulatorError.invalidParameters(`${where}.typeName is required`, `${where}.typeName`);
  }
  const attributes = value.attributes;
  if (attributes !== undefined && !isObject(attributes)) {
    throw EmulatorError.invalidParameters(`${where}.attributes must be a JSON object`, `${where}.attributes`);
  }
  const qualifiedName = attributes?.qualifiedName;
  if (typeof qualifiedName !== "string" || qualifiedName.trim() === "") {
    throw EmulatorError.missingAttribute(typeName, "qualifiedName");
  }
  if (value.classifications !== undefined) validateClassifications(value.classifications, where);
  if (value.labels !== undefined && !isStringArray(value.labels)) {
    throw EmulatorError.invalidParameters(`${where}.labels must be an array of strings`, `${where}.labels`);
  }
  return value as EntityInput;
}

/**
 * Reads an entity the way Atlas's JSON binding does, in place, before it is checked. Each leniency below is
 * one Atlas (and so Purview) has, and widely used clients rely on it:
 * - `guid` as a JSON number (`-1`): AtlasEntity's `guid` is a Java String, and Jackson binds a number to a
 *   String field as its text (scalar coercion is on by default), so `-1` is the placeholder `"-1"` and
 *   `guidAssignments` is keyed `"-1"`.
 * - `null` for `attributes`, `classifications`, `labels`, `meanings`, `relationshipAttributes`: Jackson sets
 *   the field to null and Atlas treats a null collection as none (a null `attributes` then fails on the
 *   mandatory `qualifiedName`, as on the service), so they are dropped rather than refused.
 * - A `qualifiedName` given as a number or boolean: string attributes are `AtlasStringType`, whose
 *   `isValidValue` accepts any value and whose `getNormalizedValue` is `obj.toString()`
 *   (apache/atlas, intg/src/main/java/org/apache/atlas/type/AtlasBuiltInTypes.java).
 * - Object references in `attributes` and `relationshipAttributes`: see {@link lenientObjectId}.
 * Unknown top-level fields are not refused, and not stored either (see `ENTITY_FIELDS`).
 */
function lenientEntityShape(value: JsonObject): void {
  if (typeof value.guid === "number" || typeof value.guid === "bigint") value.guid = String(value.guid);
  for (const field of ["attributes", "classifications", "labels", "meanings", "relationshipAttributes"]) {
    if (value[field] === null) delete value[field];
  }
  if (isObject(value.attributes)) {
    const qualifiedName = value.attributes.qualifiedName;
    if (typeof qualifiedName === "number" || typeof qualifiedName === "boolean") {
      value.attributes.qualifiedName = String(qualifiedName);
    }
    value.attributes = lenientReferences(value.attributes) as JsonObject;
  }
  if (isObject(value.relationshipAttributes)) {
    value.relationshipAttributes = lenientReferences(value.relationshipAttributes) as JsonObject;
  }
}

// Attribute values nest a few levels at most (array<map<string, AtlasObjectId>>); deeper values are left
// as sent, for the type checks to refuse, so a hostile body cannot exhaust the stack here.
const REFERENCE_DEPTH = 32;

function lenientReferences(value: unknown, depth = 0): unknown {
  if (depth > REFERENCE_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => lenientReferences(item, depth + 1));
  if (!isObject(value)) return value;
  if (typeof value.typeName === "string" && !("attributes" in value)) {
    const reference = lenientObjectId(value);
    if (reference) return reference;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lenientReferences(v, depth + 1)]));
}

/**
 * An object reference as Atlas reads it, or undefined when `value` is not one. Atlas builds an
 * AtlasObjectId from the attribute's map by taking `guid` with `toString()` (so `-1` is `"-1"`) and ignores
 * fields it does not know (`@JsonIgnoreProperties(ignoreUnknown=true)`; apache/atlas,
 * intg/src/main/java/org/apache/atlas/model/instance/AtlasObjectId.java). Purview goes one step further
 * and resolves a `qualifiedName` written at the top level (`{typeName, guid, qualifiedName}`, as
 * pyapacheatlas's minimal JSON writes it) like `uniqueAttributes: {qualifiedName}`; the emulator moves it
 * there, so the reference resolves by its (placeholder) guid first and by its qualified name otherwise.
 */
export function lenientObjectId(value: JsonObject): JsonObject | undefined {
  const numericGuid = typeof value.guid === "number" || typeof value.guid === "bigint";
  const topLevelName = typeof value.qualifiedName === "string" && value.qualifiedName !== "";
  if (!numericGuid && !topLevelName) return undefined;
  const reference: JsonObject = { ...value };
  if (numericGuid) reference.guid = String(value.guid);
  if (topLevelName) {
    if (!isObject(reference.uniqueAttributes)) {
      reference.uniqueAttributes = { qualifiedName: value.qualifiedName };
    }
    delete reference.qualifiedName;
  }
  return reference;
}

function validateClassifications(value: unknown, where: string): void {
  const ok = Array.isArray(value) && value.every((c) => isObject(c) && typeof c.typeName === "string");
  if (!ok) {
    throw EmulatorError.invalidParameters(
      `${where}.classifications must be an array of objects with a typeName`,
      `${where}.classifications`,
    );
  }
}

/** The service-owned fields of a record (entity, relationship) created at `now`, in the service's order. */
export function newRecordFields(now: number) {
  return {
    status: "ACTIVE" as const,
    createdBy: EMULATOR_USER,
    updatedBy: EMULATOR_USER,
    createTime: now,
    updateTime: now,
    version: 0,
  };
}

/** A new entity from a caller's input, with service-owned fields filled in. */
export function newEntity(input: EntityInput, guid: string, now: number): AtlasEntity {
  const entity: AtlasEntity = {
    ...callerFields(input),
    typeName: input.typeName,
    attributes: { ...input.attributes },
    guid,
    ...newRecordFields(now),
    lastModifiedTS: "1",
  };
  return withClassificationOwner(entity);
}

/**
 * The stored entity after a full update: attributes merge key by key (attributes the caller left out keep
 * their value, as in Atlas), every other field the caller sent replaces the stored one, except business
 * attributes, which follow `businessAttributes` (ignored by default, as on the service).
 */
export function updatedEntity(
  existing: AtlasEntity,
  input: EntityInput,
  now: number,
  businessAttributes: BusinessAttributeUpdateBehavior = "ignore",
): AtlasEntity {
  const entity: AtlasEntity = {
    ...existing,
    ...callerFields(input),
    typeName: existing.typeName,
    attributes: { ...existing.attributes, ...input.attributes },
  };
  const stored = existing.businessAttributes as BusinessAttributes | undefined;
  const given = isObject(input.businessAttributes)
    ? input.businessAttributes as BusinessAttributes
    : undefined;
  const next = businessAttributes === "replace"
    ? given
    : businessAttributes === "merge"
    ? mergeBusinessAttributes(stored ?? {}, given ?? {})
    : stored;
  if (next === undefined) delete entity.businessAttributes;
  else entity.businessAttributes = next;
  return touchedEntity(entity, now);
}

/**
 * The entity after any change (attributes, classifications, labels, business metadata, collection):
 * `version` and the `lastModifiedTS` ETag go up by one, `updateTime` and `updatedBy` are set.
 */
export function touchedEntity(entity: AtlasEntity, now: number): AtlasEntity {
  const touched: AtlasEntity = {
    ...entity,
    updatedBy: EMULATOR_USER,
    updateTime: Math.max(now, entity.updateTime),
    version: Number(entity.version ?? 0) + 1,
    lastModifiedTS: String(Number(entity.lastModifiedTS || "0") + 1),
  };
  return withClassificationOwner(touched);
}

/** The entity soft-deleted: status DELETED, as a change like any other (version, ETag, time). */
export function softDeletedEntity(entity: AtlasEntity, now: number): AtlasEntity {
  return touchedEntity({ ...entity, status: "DELETED" }, now);
}

/**
 * `stored` with `given` merged in attribute by attribute; a null value removes the attribute (Atlas
 * accepts null as "no value"), and groups left empty disappear.
 */
export function mergeBusinessAttributes(
  stored: BusinessAttributes,
  given: BusinessAttributes,
): BusinessAttributes {
  const merged: BusinessAttributes = {};
  for (const [group, values] of Object.entries(stored)) merged[group] = { ...values };
  for (const [group, values] of Object.entries(given)) merged[group] = { ...merged[group], ...values };
  for (const values of Object.values(merged)) {
    for (const [name, value] of Object.entries(values)) {
      if (value === null || value === undefined) delete values[name];
    }
  }
  return Object.fromEntries(Object.entries(merged).filter(([, values]) => Object.keys(values).length > 0));
}

/**
 * The fields of AtlasEntity in the data-map contract (2023-09-01). A field a caller sends beyond these is
 * ignored, neither refused nor stored: Atlas's AtlasEntity is `@JsonIgnoreProperties(ignoreUnknown=true)`, so
 * Jackson drops it while binding (apache/atlas, intg/src/main/java/org/apache/atlas/model/instance/
 * AtlasEntity.java, as AtlasObjectId.java beside it).
 */
const ENTITY_FIELDS = new Set([
  "attributes",
  "businessAttributes",
  "classifications",
  "collectionId",
  "contacts",
  "createTime",
  "createdBy",
  "customAttributes",
  "guid",
  "homeId",
  "isIncomplete",
  "labels",
  "lastModifiedTS",
  "meanings",
  "provenanceType",
  "proxy",
  "relationshipAttributes",
  "status",
  "typeName",
  "updateTime",
  "updatedBy",
  "version",
]);

function callerFields(input: JsonObject): JsonObject {
  const fields: JsonObject = {};
  for (const [key, value] of Object.entries(input)) {
    if (ENTITY_FIELDS.has(key) && !SERVICE_OWNED_FIELDS.has(key) && value !== undefined) fields[key] = value;
  }
  return fields;
}

/** The service reports, on each classification, which entity carries it and that entity's status. */
export function withClassificationOwner(entity: AtlasEntity): AtlasEntity {
  if (Array.isArray(entity.classifications)) {
    entity.classifications = entity.classifications.map((c) => ({
      ...c,
      entityGuid: entity.guid,
      entityStatus: entity.status,
    }));
  }
  return entity;
}

/**
 * Rewrites object references (`{guid, typeName}`) inside attributes and relationship attributes: `resolve`
 * gets each reference and returns the guid it should carry, or undefined to leave it untouched.
 */
export function resolveReferences(
  entity: AtlasEntity,
  resolve: (reference: JsonObject) => string | undefined,
): AtlasEntity {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isObject(value)) return value;
    if (
      typeof value.typeName === "string" &&
      (typeof value.guid === "string" || isObject(value.uniqueAttributes))
    ) {
      const guid = resolve(value);
      return guid === undefined ? value : { ...value, guid };
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
  };
  const resolved: AtlasEntity = {
    ...entity,
    attributes: walk(entity.attributes) as AtlasEntity["attributes"],
  };
  if (isObject(entity.relationshipAttributes)) {
    resolved.relationshipAttributes = walk(entity.relationshipAttributes);
  }
  return resolved;
}

/** Guids of the entities this one refers to, in attributes and (unless excluded) relationship attributes. */
export function referencedGuids(entity: AtlasEntity, includeRelationships: boolean): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!isObject(value)) return;
    if (typeof value.typeName === "string" && typeof value.guid === "string") found.add(value.guid);
    Object.values(value).forEach(walk);
  };
  walk(entity.attributes);
  if (includeRelationships) walk(entity.relationshipAttributes);
  found.delete(entity.guid);
  return [...found];
}

/** Atlas marks not-yet-assigned guids with a leading minus sign. */
export function isPlaceholderGuid(guid: unknown): guid is string {
  return typeof guid === "string" && guid.startsWith("-");
}

/** True for a non-null, non-array object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}
