/**
 * The classic glossary as the emulator stores it, the errors the service answers for glossary requests,
 * and the checks that turn a request body into stored fields. Relations (anchors aside) are rows of their
 * own (see `store.ts`), so the stored objects carry only their own fields and audit information.
 *
 * @example
 * ```ts
 * import { readFields, TERM_FIELDS } from "./model.ts";
 * const fields = readFields({ name: "Revenue", status: "Approved" }, TERM_FIELDS, "term");
 * console.log(fields.status); // "Approved"
 * ```
 *
 * @module
 */
import { isObject, type JsonObject } from "../entity/model.ts";
import { EmulatorError } from "../errors.ts";

/** Fields every stored glossary object has: its guid, name and audit information. */
export interface StoredObject extends JsonObject {
  guid: string;
  name: string;
  createTime: number;
  updateTime: number;
  createdBy: string;
  updatedBy: string;
  /** The service's ETag: "1" on create, one more on every change. */
  lastModifiedTS: string;
}

/** A glossary as stored. */
export type StoredGlossary = StoredObject;

/** A category as stored: its glossary (anchor) and its parent, each with the relation's guid. */
export interface StoredCategory extends StoredObject {
  glossaryGuid: string;
  anchorRelationGuid: string;
  parentGuid?: string;
  parentRelationGuid?: string;
}

/** A term as stored: its glossary (anchor) and, in a term hierarchy, its parent term. */
export interface StoredTerm extends StoredObject {
  glossaryGuid: string;
  anchorRelationGuid: string;
  parentTermGuid?: string;
}

/**
 * A relation row. `kind` is `term:<attribute>` between two terms (end1's attribute lists end2; end2 sees
 * end1 under the inverse attribute), `categorization` from a term (end1) to a category (end2), or
 * `assignment` from a term (end1) to an entity (end2). `attributes` are the relationship's attributes.
 */
export interface StoredRelation {
  guid: string;
  kind: string;
  end1: string;
  end2: string;
  attributes: JsonObject;
  createTime: number;
}

/** Status of a CSV import operation (the catalog contract's ImportCSVOperationStatus). */
export type ImportStatus = "NotStarted" | "Running" | "Succeeded" | "Failed";

/**
 * A CSV import operation as stored and answered (ImportCSVOperation), in the keys and value types the
 * service answers (Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/browsers/purview_catalog_glossary_test/recording_should_work_with_lro_helper.json).
 */
export interface ImportOperation extends JsonObject {
  id: string;
  status: ImportStatus;
  createTime: string;
  taskPickUpTime: string | null;
  lastUpdateTime: string;
  /** Decimal strings; totalTermsDetected is "-1" until the file has been read. */
  properties: { importedTerms: string; totalTermsDetected: string };
  /** errorCode 0 and an empty message unless the import failed. */
  error: { errorCode: number; errorMessage: string };
  progress: { status: string | null; statistics: JsonObject | null };
}

/** One data row of an import file: its line in the file and its cells by normalized column name. */
export interface ImportRow {
  line: number;
  cells: Record<string, string>;
}

/** A CSV import as stored: the operation answered to callers and what processing it needs. */
export interface ImportRecord {
  operation: ImportOperation;
  glossaryGuid: string;
  includeTermHierarchy: boolean;
  /** Epoch milliseconds of the upload; the operation advances by the time since. */
  startedAt: number;
  rows: ImportRow[];
}

/** Who the emulator says created and updated glossary objects (the same user as for entities). */
export const GLOSSARY_USER = "emulator";

/** The contract's TermStatus values. */
export const TERM_STATUSES = ["Draft", "Approved", "Alert", "Expired"] as const;

/** Relation kind of a term categorization. */
export const CATEGORIZATION = "categorization";
/** Relation kind of a term assigned to an entity (AtlasGlossarySemanticAssignment). */
export const ASSIGNMENT = "assignment";

/**
 * The term-to-term relationship attributes of AtlasGlossaryTerm, each with the attribute the other end
 * sees: symmetric ones (synonyms) map to themselves, directed ones (isA and classifies) to each other.
 */
export const TERM_RELATION_INVERSES: Readonly<Record<string, string>> = {
  seeAlso: "seeAlso",
  synonyms: "synonyms",
  antonyms: "antonyms",
  preferredTerms: "preferredToTerms",
  preferredToTerms: "preferredTerms",
  replacementTerms: "replacedBy",
  replacedBy: "replacementTerms",
  translationTerms: "translatedTerms",
  translatedTerms: "translationTerms",
  isA: "classifies",
  classifies: "isA",
  validValues: "validValuesFor",
  validValuesFor: "validValues",
};

/** Relationship attributes kept on term-to-term relations (AtlasRelatedTermHeader). */
export const TERM_RELATION_ATTRIBUTES = ["description", "expression", "status", "steward"];

/** What a field of a request body may hold. */
export type FieldKind = "string" | "strings" | "objects" | "object" | "array";

const COMMON_FIELDS: Record<string, FieldKind> = {
  name: "string",
  shortDescription: "string",
  longDescription: "string",
  classifications: "objects",
};
/** Fields a caller sets on a glossary. */
export const GLOSSARY_FIELDS: Record<string, FieldKind> = {
  ...COMMON_FIELDS,
  language: "string",
  usage: "string",
};
/** Fields a caller sets on a category. */
export const CATEGORY_FIELDS: Record<string, FieldKind> = COMMON_FIELDS;
/** Fields a caller sets on a term. */
export const TERM_FIELDS: Record<string, FieldKind> = {
  ...COMMON_FIELDS,
  abbreviation: "string",
  nickName: "string",
  usage: "string",
  status: "string",
  examples: "strings",
  resources: "objects",
  contacts: "object",
  attributes: "object",
  templateName: "array",
};

/** Attributes a partial update may change, per kind (values are strings in the contract). */
export const PARTIAL_FIELDS = {
  glossary: ["name", "shortDescription", "longDescription", "language", "usage"],
  category: ["name", "shortDescription", "longDescription"],
  term: ["name", "shortDescription", "longDescription", "abbreviation", "nickName", "usage", "status"],
} as const;

/**
 * The caller-set fields of a body, checked against `spec`; null counts as absent. `kind` names the object
 * in errors. A term's status must be one of the contract's TermStatus values.
 */
export function readFields(body: JsonObject, spec: Record<string, FieldKind>, kind: string): JsonObject {
  const fields: JsonObject = {};
  for (const [name, fieldKind] of Object.entries(spec)) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    if (!fits(value, fieldKind)) {
      throw EmulatorError.invalidParameters(`${kind}.${name} must be ${describeKind(fieldKind)}`, name);
    }
    fields[name] = structuredClone(value);
  }
  if (fields.status !== undefined) fields.status = termStatus(fields.status);
  if (typeof fields.name === "string") {
    const name = fields.name.trim();
    if (name === "") throw EmulatorError.invalidParameters(`${kind}.name must not be empty`, "name");
    checkName(name);
    fields.name = name;
  }
  return fields;
}

function fits(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "strings":
      return Array.isArray(value) && value.every((item) => typeof item === "string");
    case "objects":
      return Array.isArray(value) && value.every(isObject);
    case "object":
      return isObject(value);
    case "array":
      return Array.isArray(value);
  }
}

function describeKind(kind: FieldKind): string {
  return {
    string: "a string",
    strings: "an array of strings",
    objects: "an array of objects",
    object: "an object",
    array: "an array",
  }[kind];
}

/** A valid TermStatus, or the 400 naming the allowed values. */
export function termStatus(value: unknown): string {
  const match = TERM_STATUSES.find((s) => s === value);
  if (match) return match;
  throw EmulatorError.invalidParameters(
    `status must be one of ${TERM_STATUSES.join(", ")}, got ${JSON.stringify(value)}`,
    "status",
  );
}

/** Names may not contain '@': the service uses it to join a term's and its glossary's names. */
export function checkName(name: string): void {
  if (name.includes("@")) {
    throw new EmulatorError(400, "ATLAS-400-00-083", "name cannot contain following special chars ('@')");
  }
}

/** The fields a new object starts with: guid, audit information, ETag 1. */
export function newObject(guid: string, name: string, now: number): StoredObject {
  return {
    guid,
    name,
    createTime: now,
    updateTime: now,
    createdBy: GLOSSARY_USER,
    updatedBy: GLOSSARY_USER,
    lastModifiedTS: "1",
  };
}

/** The object after a change: updated by and at, ETag one up. */
export function touched<T extends StoredObject>(object: T, now: number): T {
  return {
    ...object,
    updateTime: Math.max(now, object.updateTime),
    updatedBy: GLOSSARY_USER,
    lastModifiedTS: String(Number(object.lastModifiedTS || "0") + 1),
  };
}

/** `stored` with its caller-set fields (those of `spec`) replaced by `fields`, keeping links and audit. */
export function replaceFields<T extends StoredObject>(
  stored: T,
  fields: JsonObject,
  spec: Record<string, FieldKind>,
): T {
  const next: JsonObject = { ...stored };
  for (const name of Object.keys(spec)) delete next[name];
  return { ...next, ...fields, name: typeof fields.name === "string" ? fields.name : stored.name } as T;
}

// ---- Errors -------------------------------------------------------------------------------------------

/** 409: a glossary of this name exists. */
export function glossaryExists(qualifiedName: string): EmulatorError {
  return new EmulatorError(
    409,
    "ATLAS-409-00-007",
    `Glossary with qualifiedName ${qualifiedName} already exists`,
  );
}

/** 409: a term of this name exists in the glossary. */
export function termExists(qualifiedName: string): EmulatorError {
  return new EmulatorError(
    409,
    "ATLAS-409-00-009",
    `Glossary term with qualifiedName ${qualifiedName} already exists`,
  );
}

/** 409: a category of this name exists among the parent's children. */
export function categoryExists(qualifiedName: string): EmulatorError {
  return new EmulatorError(
    409,
    "ATLAS-409-00-00A",
    `Glossary category with qualifiedName ${qualifiedName} already exists`,
  );
}

/** 400: the body names no glossary (anchor.glossaryGuid). */
export function missingAnchor(): EmulatorError {
  return new EmulatorError(400, "ATLAS-400-00-072", "Mandatory anchor attribute is missing");
}

/** 400: the body has no name to derive the qualified name from. */
export function missingName(kind: "glossary" | "term" | "category"): EmulatorError {
  if (kind === "glossary") {
    return new EmulatorError(
      400,
      "ATLAS-400-00-079",
      "Attributes qualifiedName and name are missing. Failed to derive a unique name for Glossary",
    );
  }
  if (kind === "category") return new EmulatorError(400, "ATLAS-400-00-082", "Category name is empty/null");
  return new EmulatorError(
    400,
    "ATLAS-400-00-07A",
    "Attributes qualifiedName, name & glossary name are missing. Failed to derive a unique name for Glossary term",
  );
}

/** 400: a term that entities still carry cannot be deleted. */
export function termHasAssignments(guid: string, count: number): EmulatorError {
  return new EmulatorError(
    400,
    "ATLAS-400-00-086",
    `Term (guid=${guid}) can't be deleted as it has been assigned to ${count} entities.`,
  );
}

/** 400: a term related to itself. */
export function relationToSelf(): EmulatorError {
  return new EmulatorError(
    400,
    "ATLAS-400-00-07E",
    "Invalid Term relationship: Term can't have a relationship with self",
  );
}

/** 400: a partial update names an attribute the object does not have (or that is not a plain value). */
export function invalidPartialAttribute(attribute: string, kind: string): EmulatorError {
  return new EmulatorError(
    400,
    "ATLAS-400-00-074",
    `Invalid attribute ${attribute} for partial update of ${kind}`,
  );
}

/** 404: the entity was deleted. */
export function instanceDeleted(guid: string): EmulatorError {
  return new EmulatorError(404, "ATLAS-404-00-012", `Given instance guid ${guid} has been deleted`);
}

// ---- Request helpers ----------------------------------------------------------------------------------

/** The JSON body as an object, or a 400. */
export function asBodyObject(body: unknown, what: string): JsonObject {
  if (!isObject(body)) throw EmulatorError.badRequest(`Request body must be a JSON object (${what})`);
  return body;
}

/** A `{termGuid}`/`{categoryGuid}`/`{glossaryGuid}` reference's guid, or undefined when it has none. */
export function referenceGuid(value: unknown, key: string): string | undefined {
  if (!isObject(value)) return undefined;
  const guid = value[key];
  return typeof guid === "string" && guid.trim() !== "" ? guid : undefined;
}

/** Items of an optional array field; a non-array is a 400 naming the field. */
export function arrayField(body: JsonObject, name: string): unknown[] | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw EmulatorError.invalidParameters(`${name} must be an array`, name);
  return value;
}

/** One page of `items`: `limit` (-1 or absent for all), `offset` and `sort` (ASC or DESC by `key`). */
export function page<T>(items: T[], url: URL, key: (item: T) => string): T[] {
  const limit = integerParam(url, "limit", -1);
  const offset = integerParam(url, "offset", 0);
  if (offset < 0) throw EmulatorError.invalidParameters("offset must not be negative", "offset");
  const sort = (url.searchParams.get("sort") || "ASC").toUpperCase();
  if (sort !== "ASC" && sort !== "DESC") {
    throw EmulatorError.invalidParameters(`sort must be ASC or DESC, got ${sort}`, "sort");
  }
  const sorted = [...items].sort((a, b) => key(a).localeCompare(key(b)));
  if (sort === "DESC") sorted.reverse();
  return limit < 0 ? sorted.slice(offset) : sorted.slice(offset, offset + limit);
}

function integerParam(url: URL, name: string, fallback: number): number {
  const text = url.searchParams.get(name);
  if (text === null || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value)) throw EmulatorError.invalidParameters(`${name} must be an integer`, name);
  return value;
}
