/**
 * Type definitions in the shapes of the 2023-09-01 data-map contract (`AtlasEntityDef`, `AtlasRelationshipDef`,
 * ...), and the pure helpers that turn a caller's (or the built-in catalogue's) partial definition into the
 * complete one the service returns: category, guid, timestamps, version and attribute defaults.
 *
 * @example
 * ```ts
 * import { normalizeTypeDef } from "./model.ts";
 * const def = normalizeTypeDef({ name: "my_table", superTypes: ["DataSet"] }, "ENTITY", {
 *   guid: "0f7c2a51-0000-4000-8000-000000000001",
 *   now: 0,
 *   user: "emulator",
 * });
 * console.log(def.version, def.description); // 1 "my_table"
 * ```
 *
 * @module
 */
import { createHash } from "node:crypto";

/** Categories of type definitions the emulator stores (the contract's `TypeCategory` plus business metadata). */
export type TypeDefCategory =
  | "ENUM"
  | "STRUCT"
  | "CLASSIFICATION"
  | "ENTITY"
  | "RELATIONSHIP"
  | "BUSINESS_METADATA"
  | "TERM_TEMPLATE";

/** `AtlasAttributeDef`. */
export interface AtlasAttributeDef {
  name: string;
  typeName: string;
  isOptional: boolean;
  cardinality: "SINGLE" | "LIST" | "SET";
  valuesMinCount: number;
  valuesMaxCount: number;
  isUnique: boolean;
  isIndexable: boolean;
  includeInNotification: boolean;
  description?: string;
  defaultValue?: string;
  options?: Record<string, string>;
  constraints?: Array<{ type?: string; params?: Record<string, unknown> }>;
  /** Only on computed `relationshipAttributeDefs`. */
  relationshipTypeName?: string;
  isLegacyAttribute?: boolean;
}

/** `AtlasRelationshipEndDef`. */
export interface AtlasRelationshipEndDef {
  type: string;
  name: string;
  isContainer: boolean;
  cardinality: "SINGLE" | "LIST" | "SET";
  isLegacyAttribute: boolean;
  description?: string;
}

/** How classifications flow along a relationship (`AtlasRelationshipDef.propagateTags`). */
export type PropagateTags = "NONE" | "ONE_TO_TWO" | "TWO_TO_ONE" | "BOTH";

const PROPAGATE_TAGS: ReadonlySet<string> = new Set(["NONE", "ONE_TO_TWO", "TWO_TO_ONE", "BOTH"]);

/** `AtlasEnumElementDef`. */
export interface AtlasEnumElementDef {
  value: string;
  ordinal: number;
  description?: string;
}

/** Any type definition: the fields every category shares, plus the optional ones of each category. */
export interface AtlasTypeDef {
  category: TypeDefCategory;
  guid: string;
  name: string;
  description: string;
  createdBy: string;
  updatedBy: string;
  createTime: number;
  updateTime: number;
  version: number;
  typeVersion: string;
  lastModifiedTS: string;
  serviceType?: string;
  options?: Record<string, string>;
  attributeDefs?: AtlasAttributeDef[];
  superTypes?: string[];
  subTypes?: string[];
  entityTypes?: string[];
  relationshipAttributeDefs?: AtlasAttributeDef[];
  elementDefs?: AtlasEnumElementDef[];
  defaultValue?: string;
  relationshipCategory?: "ASSOCIATION" | "AGGREGATION" | "COMPOSITION";
  relationshipLabel?: string;
  propagateTags?: PropagateTags;
  endDef1?: AtlasRelationshipEndDef;
  endDef2?: AtlasRelationshipEndDef;
  [field: string]: unknown;
}

/** `AtlasTypesDef`: definitions grouped by category, as the bulk routes take and return them. */
export interface AtlasTypesDef {
  enumDefs?: AtlasTypeDef[];
  structDefs?: AtlasTypeDef[];
  classificationDefs?: AtlasTypeDef[];
  entityDefs?: AtlasTypeDef[];
  relationshipDefs?: AtlasTypeDef[];
  businessMetadataDefs?: AtlasTypeDef[];
  termTemplateDefs?: AtlasTypeDef[];
}

/** `AtlasTypeDefHeader`. */
export interface AtlasTypeDefHeader {
  guid: string;
  name: string;
  category: TypeDefCategory;
}

/** Which `AtlasTypesDef` list holds which category, in the order the service lists them. */
export const CATEGORY_LISTS: ReadonlyArray<readonly [keyof AtlasTypesDef, TypeDefCategory]> = [
  ["enumDefs", "ENUM"],
  ["structDefs", "STRUCT"],
  ["classificationDefs", "CLASSIFICATION"],
  ["entityDefs", "ENTITY"],
  ["relationshipDefs", "RELATIONSHIP"],
  ["businessMetadataDefs", "BUSINESS_METADATA"],
  ["termTemplateDefs", "TERM_TEMPLATE"],
];

/** The path word of each category's own routes (`/types/entitydef/name/{name}`). */
export const CATEGORY_PATHS: Readonly<Record<string, TypeDefCategory>> = {
  enumdef: "ENUM",
  structdef: "STRUCT",
  classificationdef: "CLASSIFICATION",
  entitydef: "ENTITY",
  relationshipdef: "RELATIONSHIP",
  businessmetadatadef: "BUSINESS_METADATA",
  termtemplatedef: "TERM_TEMPLATE",
};

/** Atlas's primitive type names; attribute types are these, a defined type, `array<T>` or `map<K,V>`. */
export const PRIMITIVE_TYPES: ReadonlySet<string> = new Set([
  "boolean",
  "byte",
  "short",
  "int",
  "long",
  "float",
  "double",
  "biginteger",
  "bigdecimal",
  "string",
  "date",
]);

/** Java's Integer.MAX_VALUE: what Atlas reports as the maximum count of an unbounded SET or LIST. */
const UNBOUNDED = 2147483647;

/** A parsed attribute type name. */
export type ParsedTypeName =
  | { kind: "array"; element: string }
  | { kind: "map"; key: string; value: string }
  | { kind: "named"; name: string };

/** Splits `array<T>` and `map<K,V>` (nested ones too); anything else is a plain type name. */
export function parseTypeName(typeName: string): ParsedTypeName {
  const trimmed = typeName.trim();
  if (trimmed.startsWith("array<") && trimmed.endsWith(">")) {
    return { kind: "array", element: trimmed.slice("array<".length, -1).trim() };
  }
  if (trimmed.startsWith("map<") && trimmed.endsWith(">")) {
    const inner = trimmed.slice("map<".length, -1);
    // The key/value comma is the first one outside nested angle brackets.
    let depth = 0;
    for (let i = 0; i < inner.length; i++) {
      if (inner[i] === "<") depth++;
      else if (inner[i] === ">") depth--;
      else if (inner[i] === "," && depth === 0) {
        return { kind: "map", key: inner.slice(0, i).trim(), value: inner.slice(i + 1).trim() };
      }
    }
  }
  return { kind: "named", name: trimmed };
}

/** The plain type names inside an attribute type (`map<string,array<DataSet>>` gives string and DataSet). */
export function namedTypesIn(typeName: string): string[] {
  const parsed = parseTypeName(typeName);
  if (parsed.kind === "array") return namedTypesIn(parsed.element);
  if (parsed.kind === "map") return [...namedTypesIn(parsed.key), ...namedTypesIn(parsed.value)];
  return [parsed.name];
}

/**
 * A stable guid for a built-in definition, derived from its name, so every emulator (and every restart)
 * reports the same guid for `DataSet` and tests can rely on it.
 */
export function builtinGuid(name: string): string {
  const hex = createHash("sha1").update(`govcat-emulator-typedef:${name}`).digest("hex");
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${
    hex.slice(20, 32)
  }`;
}

/** What the service fills in when it stores a definition. */
export interface StampOptions {
  guid: string;
  now: number;
  user: string;
}

/**
 * The complete definition the service stores and returns for a caller's partial one: fields it owns
 * (guid, timestamps, version) from `stamp`, defaults for the rest (description = name, typeVersion 1.0,
 * attribute cardinality SINGLE, ...).
 */
export function normalizeTypeDef(
  input: Record<string, unknown>,
  category: TypeDefCategory,
  stamp: StampOptions,
): AtlasTypeDef {
  const name = String(input.name);
  const def: AtlasTypeDef = {
    category,
    guid: stamp.guid,
    createdBy: stamp.user,
    updatedBy: stamp.user,
    createTime: stamp.now,
    updateTime: stamp.now,
    version: 1,
    name,
    description: typeof input.description === "string" && input.description !== "" ? input.description : name,
    typeVersion: typeof input.typeVersion === "string" ? input.typeVersion : "1.0",
    lastModifiedTS: "1",
  };
  if (typeof input.serviceType === "string") def.serviceType = input.serviceType;
  if (isRecord(input.options)) def.options = stringRecord(input.options);
  if (category === "ENUM") {
    def.elementDefs = arrayOf(input.elementDefs).map((element, i) => enumElement(element, i));
    if (typeof input.defaultValue === "string") def.defaultValue = input.defaultValue;
    return def;
  }
  def.attributeDefs = arrayOf(input.attributeDefs).map(normalizeAttributeDef);
  if (category === "ENTITY" || category === "CLASSIFICATION") {
    def.superTypes = stringArray(input.superTypes);
    def.subTypes = [];
  }
  if (category === "CLASSIFICATION") def.entityTypes = stringArray(input.entityTypes);
  if (category === "RELATIONSHIP") {
    def.relationshipCategory = input.relationshipCategory === "AGGREGATION" ||
        input.relationshipCategory === "COMPOSITION"
      ? input.relationshipCategory
      : "ASSOCIATION";
    def.relationshipLabel = typeof input.relationshipLabel === "string" && input.relationshipLabel !== ""
      ? input.relationshipLabel
      : `r:${name}`;
    // Every relationship def the service lists carries propagateTags, NONE unless defined otherwise
    // (Azure/azure-sdk-for-js
    // sdk/purview/purview-catalog-rest/recordings/node/purview_catalog_tepedefs_test/recording_should_list_all_available_typedefs_sources.json).
    def.propagateTags = typeof input.propagateTags === "string" && PROPAGATE_TAGS.has(input.propagateTags)
      ? input.propagateTags as PropagateTags
      : "NONE";
    def.endDef1 = normalizeEndDef(input.endDef1);
    def.endDef2 = normalizeEndDef(input.endDef2);
  }
  return def;
}

/** An attribute definition with the service's defaults: mandatory unless `isOptional`, SINGLE, not unique. */
export function normalizeAttributeDef(value: unknown): AtlasAttributeDef {
  const input = isRecord(value) ? value : {};
  const cardinality = cardinalityOf(input.cardinality);
  // Atlas's AtlasAttributeDef defaults isOptional to false, so an attribute sent without it is mandatory.
  const isOptional = input.isOptional === true;
  const def: AtlasAttributeDef = {
    name: String(input.name ?? ""),
    typeName: String(input.typeName ?? ""),
    isOptional,
    cardinality,
    valuesMinCount: typeof input.valuesMinCount === "number" ? input.valuesMinCount : isOptional ? 0 : 1,
    valuesMaxCount: typeof input.valuesMaxCount === "number"
      ? input.valuesMaxCount
      : cardinality === "SINGLE"
      ? 1
      : UNBOUNDED,
    isUnique: input.isUnique === true,
    isIndexable: input.isIndexable === true,
    includeInNotification: input.includeInNotification === true,
  };
  if (typeof input.description === "string") def.description = input.description;
  if (typeof input.defaultValue === "string") def.defaultValue = input.defaultValue;
  if (isRecord(input.options)) def.options = stringRecord(input.options);
  if (Array.isArray(input.constraints)) {
    def.constraints = input.constraints as AtlasAttributeDef["constraints"];
  }
  return def;
}

function normalizeEndDef(value: unknown): AtlasRelationshipEndDef | undefined {
  if (!isRecord(value)) return undefined;
  const end: AtlasRelationshipEndDef = {
    type: String(value.type ?? ""),
    name: String(value.name ?? ""),
    isContainer: value.isContainer === true,
    cardinality: cardinalityOf(value.cardinality),
    isLegacyAttribute: value.isLegacyAttribute === true,
  };
  if (typeof value.description === "string") end.description = value.description;
  return end;
}

function enumElement(value: unknown, index: number): AtlasEnumElementDef {
  const input = isRecord(value) ? value : { value };
  const element: AtlasEnumElementDef = {
    value: String(input.value ?? ""),
    ordinal: typeof input.ordinal === "number" ? input.ordinal : index,
  };
  if (typeof input.description === "string") element.description = input.description;
  return element;
}

function cardinalityOf(value: unknown): "SINGLE" | "LIST" | "SET" {
  return value === "LIST" || value === "SET" ? value : "SINGLE";
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function stringArray(value: unknown): string[] {
  return arrayOf(value).filter((item): item is string => typeof item === "string");
}

// Atlas keeps option values as strings (`"maxStrLength": "50"`), whatever JSON type the caller used.
function stringRecord(value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  );
}

/** True for a non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
