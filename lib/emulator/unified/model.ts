/**
 * The resource kinds of the unified catalog, their enums and the checks of request bodies: required
 * fields, enum values (accepted in any case, stored in the API's own spelling), GUID contacts (Microsoft
 * Entra ID object IDs, never e-mail addresses) and references to other entities.
 *
 * @module
 */
import {
  AUDIENCES,
  CDE_DATA_TYPES,
  DATA_ASSET_RELATIONSHIP_TYPES as ASSET_RELATIONSHIP_TYPES,
  DATA_COLUMN_RELATIONSHIP_TYPES as COLUMN_RELATIONSHIP_TYPES,
  DATA_PRODUCT_TYPES,
  DOMAIN_TYPES,
  ENTITY_CATEGORIES as API_ENTITY_CATEGORIES,
  ENTITY_STATUSES,
  KEY_RESULT_STATUSES,
  OBJECTIVE_STATUSES,
  UPDATE_FREQUENCIES,
} from "./enums.ts";
import { invalidField } from "./errors.ts";
import { isGuid } from "../../core/guid.ts";

/** A JSON object as stored and answered. */
export type Json = Record<string, unknown>;

/** The stored kinds of the unified catalog. */
export type Kind =
  | "domain"
  | "term"
  | "dataProduct"
  | "cde"
  | "objective"
  | "keyResult"
  | "policy"
  | "dataAsset"
  | "dataColumn";

/** What the routes need to know about one kind. */
export interface KindSpec {
  kind: Kind;
  /** Path segment under `/datagovernance/catalog`. */
  path: string;
  /** EntityCategory of relationships (`entityType` query parameter). */
  category: string;
  /** Words for messages. */
  label: string;
  /** The field holding the display name (`definition` for objectives and key results). */
  nameField: "name" | "definition";
  /** The field naming the domain. */
  domainField?: "domain" | "domainId";
  /** Allowed status values in the API's spelling. */
  statuses?: readonly string[];
  /** Default status of a new entity when the body has none (undefined: status is required). */
  defaultStatus?: string;
  /**
   * The relationship types its relationships may have, checked in any case; with them the `entityType`
   * query parameter is required (the 2026-03-20-preview data asset and data column operations).
   */
  relationshipTypes?: readonly string[];
}

/** The Entra object ID the emulator records as the author of API changes (it has no signed-in user). */
export const EMULATOR_USER_ID = "00000000-0000-4000-8000-0000000000e1";

// The enumerations are the contract's, in the emulator's own copy (enums.ts), not the client's.
export {
  AUDIENCES,
  CDE_DATA_TYPES,
  DATA_ASSET_RELATIONSHIP_TYPES,
  DATA_COLUMN_RELATIONSHIP_TYPES,
  DATA_PRODUCT_TYPES,
  DOMAIN_TYPES,
  TERM_RELATIONSHIP_TYPES,
  UPDATE_FREQUENCIES,
} from "./enums.ts";
/** CatalogModelStatus: status of domains, terms, data products, critical data elements. */
export const CATALOG_STATUS = ENTITY_STATUSES;
/** OkrSharedEntityStatus: status of objectives. */
export const OBJECTIVE_STATUS = OBJECTIVE_STATUSES;
/** OverallStatusEnum: status of key results. */
export const KEY_RESULT_STATUS = KEY_RESULT_STATUSES;
/** EntityCategory values of the `entityType` query parameter; the emulator also relates policies. */
export const ENTITY_CATEGORIES = [...API_ENTITY_CATEGORIES, "POLICY"] as const;

/** Every stored kind, by kind. */
export const KINDS: Record<Kind, KindSpec> = {
  domain: {
    kind: "domain",
    path: "businessdomains",
    category: "DOMAIN",
    label: "business domain",
    nameField: "name",
    statuses: CATALOG_STATUS,
    defaultStatus: "DRAFT",
  },
  term: {
    kind: "term",
    path: "terms",
    category: "TERM",
    label: "term",
    nameField: "name",
    domainField: "domain",
    statuses: CATALOG_STATUS,
  },
  dataProduct: {
    kind: "dataProduct",
    path: "dataProducts",
    category: "DATAPRODUCT",
    label: "data product",
    nameField: "name",
    domainField: "domain",
    statuses: CATALOG_STATUS,
    defaultStatus: "DRAFT",
  },
  cde: {
    kind: "cde",
    path: "criticalDataElements",
    category: "CRITICALDATAELEMENT",
    label: "critical data element",
    nameField: "name",
    domainField: "domain",
    statuses: CATALOG_STATUS,
    defaultStatus: "DRAFT",
  },
  objective: {
    kind: "objective",
    path: "objectives",
    category: "OBJECTIVE",
    label: "objective",
    nameField: "definition",
    domainField: "domain",
    statuses: OBJECTIVE_STATUS,
    defaultStatus: "Draft",
  },
  keyResult: {
    kind: "keyResult",
    path: "keyResults",
    category: "KEYRESULT",
    label: "key result",
    nameField: "definition",
    domainField: "domainId",
    statuses: KEY_RESULT_STATUS,
  },
  policy: { kind: "policy", path: "policies", category: "POLICY", label: "policy", nameField: "name" },
  dataAsset: {
    kind: "dataAsset",
    path: "dataAssets",
    category: "DATAASSET",
    label: "data asset",
    nameField: "name",
    relationshipTypes: ASSET_RELATIONSHIP_TYPES,
  },
  dataColumn: {
    kind: "dataColumn",
    path: "dataColumns",
    category: "DATACOLUMN",
    label: "data column",
    nameField: "name",
    relationshipTypes: COLUMN_RELATIONSHIP_TYPES,
  },
};

/** The kind for a path segment (`terms`) or an EntityCategory (`TERM`), any case. */
export function kindOf(segment: string): KindSpec | undefined {
  const lower = segment.toLowerCase();
  return Object.values(KINDS).find((spec) =>
    spec.path.toLowerCase() === lower || spec.category.toLowerCase() === lower
  );
}

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The value of `allowed` equal to `value` ignoring case, or a 400 listing the allowed values. */
export function enumValue(target: string, value: unknown, allowed: readonly string[]): string {
  const match = typeof value === "string"
    ? allowed.find((candidate) => candidate.toLowerCase() === value.toLowerCase())
    : undefined;
  if (match === undefined) {
    throw invalidField(
      target,
      `${target} '${String(value)}' is not a valid value; allowed values: ${allowed.join(", ")}.`,
    );
  }
  return match;
}

/** Checks that an identity is a Microsoft Entra ID object ID; e-mail addresses get a message of their own. */
export function requireIdentity(target: string, value: unknown): string {
  if (isGuid(value)) return value;
  const shown = typeof value === "string" ? `'${value}'` : JSON.stringify(value);
  const what = typeof value === "string" && value.includes("@") ? "an e-mail address" : "not a GUID";
  throw invalidField(
    target,
    `${target} ${shown} is ${what}: an identity-provider (Microsoft Entra ID) object ID (a GUID such as ` +
      `9a4d1c2e-0000-4000-8000-000000000001) is expected, not an e-mail address or user name.`,
  );
}

/** Checks a ContactsMap: `{role: [{id: <Entra object ID>, description?}]}`. */
export function checkContacts(value: unknown, target = "contacts"): void {
  if (value === undefined || value === null) return;
  if (!isRecord(value)) {
    throw invalidField(
      target,
      `${target} must be an object such as {"owner": [{"id": "<Entra object ID>"}]}.`,
    );
  }
  for (const [role, people] of Object.entries(value)) {
    if (!Array.isArray(people)) {
      throw invalidField(`${target}.${role}`, `${target}.${role} must be an array.`);
    }
    people.forEach((person, index) => {
      const where = `${target}.${role}[${index}]`;
      if (!isRecord(person)) throw invalidField(where, `${where} must be an object with an id.`);
      requireIdentity(`${where}.id`, person.id);
      if (
        person.description !== undefined && person.description !== null &&
        typeof person.description !== "string"
      ) {
        throw invalidField(`${where}.description`, `${where}.description must be a string.`);
      }
    });
  }
}

/** A required non-empty string. */
export function requireString(body: Json, field: string, label: string): string {
  const value = body[field];
  if (typeof value !== "string" || value.trim() === "") {
    throw invalidField(field, `The ${label} needs '${field}' (a non-empty string).`);
  }
  return value;
}

/** An optional string; a 400 when present with another type. */
export function optionalString(body: Json, field: string): void {
  const value = body[field];
  if (value !== undefined && value !== null && typeof value !== "string") {
    throw invalidField(field, `${field} must be a string.`);
  }
}

/** An optional array of strings. */
export function optionalStringArray(body: Json, field: string): void {
  const value = body[field];
  if (value === undefined || value === null) return;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw invalidField(field, `${field} must be an array of strings.`);
  }
}

/** An optional array (of objects). */
export function optionalArray(body: Json, field: string): void {
  const value = body[field];
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) throw invalidField(field, `${field} must be an array.`);
}

/** An optional number. */
export function optionalNumber(body: Json, field: string): void {
  const value = body[field];
  if (value !== undefined && value !== null && typeof value !== "number") {
    throw invalidField(field, `${field} must be a number.`);
  }
}

/** The status of a body in the kind's spelling; the default or a 400 when missing. */
export function normalizeStatus(spec: KindSpec, body: Json): void {
  if (!spec.statuses) return;
  if (body.status === undefined || body.status === null || body.status === "") {
    if (spec.defaultStatus === undefined) {
      throw invalidField(
        "status",
        `The ${spec.label} needs 'status'; allowed values: ${spec.statuses.join(", ")}.`,
      );
    }
    body.status = spec.defaultStatus;
    return;
  }
  body.status = enumValue("status", body.status, spec.statuses);
}

/** Normalizes an optional enum field in place. */
export function normalizeEnum(body: Json, field: string, allowed: readonly string[]): void {
  const value = body[field];
  if (value === undefined || value === null) return;
  body[field] = enumValue(field, value, allowed);
}

/** Normalizes an optional array-of-enum field in place. */
export function normalizeEnumArray(body: Json, field: string, allowed: readonly string[]): void {
  const value = body[field];
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) {
    throw invalidField(field, `${field} must be an array of: ${allowed.join(", ")}.`);
  }
  body[field] = value.map((item, index) => enumValue(`${field}[${index}]`, item, allowed));
}

/** Checks `managedAttributes: [{name, value, isRequired}]`. */
export function checkManagedAttributes(body: Json): void {
  const value = body.managedAttributes;
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) throw invalidField("managedAttributes", "managedAttributes must be an array.");
  value.forEach((item, index) => {
    if (!isRecord(item) || typeof item.name !== "string" || item.name === "") {
      throw invalidField(
        `managedAttributes[${index}].name`,
        `managedAttributes[${index}] must be an object with a non-empty name.`,
      );
    }
  });
}

/** The kind-specific field checks (everything but references to other entities). */
export function checkFields(spec: KindSpec, body: Json): void {
  if (body.id !== undefined && body.id !== null && !isGuid(body.id)) {
    throw invalidField("id", `id '${String(body.id)}' must be a GUID.`);
  }
  optionalString(body, "description");
  checkContacts(body.contacts);
  checkManagedAttributes(body);
  switch (spec.kind) {
    case "domain":
      requireString(body, "name", spec.label);
      normalizeEnum(body, "type", DOMAIN_TYPES);
      optionalString(body, "parentId");
      break;
    case "term":
      requireString(body, "name", spec.label);
      requireString(body, "domain", spec.label);
      optionalString(body, "parentId");
      optionalStringArray(body, "acronyms");
      optionalArray(body, "resources");
      break;
    case "dataProduct":
      requireString(body, "name", spec.label);
      requireString(body, "domain", spec.label);
      normalizeEnum(body, "type", DATA_PRODUCT_TYPES);
      normalizeEnum(body, "updateFrequency", UPDATE_FREQUENCIES);
      normalizeEnumArray(body, "audience", AUDIENCES);
      optionalArray(body, "termsOfUse");
      optionalArray(body, "documentation");
      optionalString(body, "businessUse");
      if (body.endorsed !== undefined && typeof body.endorsed !== "boolean") {
        throw invalidField("endorsed", "endorsed must be true or false.");
      }
      break;
    case "cde":
      requireString(body, "name", spec.label);
      requireString(body, "domain", spec.label);
      normalizeEnum(body, "dataType", CDE_DATA_TYPES);
      break;
    case "objective":
      requireString(body, "definition", spec.label);
      requireString(body, "domain", spec.label);
      optionalString(body, "targetDate");
      if (typeof body.targetDate === "string" && Number.isNaN(Date.parse(body.targetDate))) {
        throw invalidField("targetDate", `targetDate '${body.targetDate}' is not an ISO 8601 date-time.`);
      }
      break;
    case "keyResult":
      requireString(body, "domainId", spec.label);
      optionalString(body, "definition");
      optionalNumber(body, "progress");
      optionalNumber(body, "goal");
      optionalNumber(body, "max");
      break;
    case "policy":
      optionalString(body, "name");
      break;
  }
  normalizeStatus(spec, body);
}
