/**
 * Wire types of the Atlas v2 type system (`/atlas/v2/types/...`), written from the 2023-09-01 data-map
 * contract: type definitions of every category, their headers, attribute definitions and the bulk
 * `AtlasTypesDef` envelope. Index signatures keep fields the service adds.
 *
 * @example
 * ```ts
 * import type { AtlasTypesDef } from "./typedef_types.ts";
 * const payload: AtlasTypesDef = {
 *   businessMetadataDefs: [{
 *     name: "Governance",
 *     attributeDefs: [{ name: "dataOwner", typeName: "string", isOptional: true, cardinality: "SINGLE" }],
 *   }],
 * };
 * ```
 *
 * @module
 */

/** Type categories the list calls filter by (`GET /types/typedefs?type=ENTITY`). */
export type TypeCategory =
  | "PRIMITIVE"
  | "OBJECT_ID_TYPE"
  | "ENUM"
  | "STRUCT"
  | "CLASSIFICATION"
  | "ENTITY"
  | "ARRAY"
  | "MAP"
  | "RELATIONSHIP"
  | "TERM_TEMPLATE";

/** Every type category as a list, in the contract's order. */
export const TYPE_CATEGORIES: ReadonlyArray<TypeCategory> = [
  "PRIMITIVE",
  "OBJECT_ID_TYPE",
  "ENUM",
  "STRUCT",
  "CLASSIFICATION",
  "ENTITY",
  "ARRAY",
  "MAP",
  "RELATIONSHIP",
  "TERM_TEMPLATE",
];

/** The kinds of definition with their own read path (`/types/{category}def/name/{name}`). */
export type TypeDefCategory =
  | "entity"
  | "classification"
  | "enum"
  | "relationship"
  | "struct"
  | "businessmetadata";

/** Every {@link TypeDefCategory}, for option enums and validation. */
export const TYPEDEF_CATEGORIES: ReadonlyArray<TypeDefCategory> = [
  "entity",
  "classification",
  "enum",
  "relationship",
  "struct",
  "businessmetadata",
];

export type Cardinality = "SINGLE" | "LIST" | "SET";

export interface AtlasConstraintDef {
  type?: string;
  params?: Record<string, unknown>;
  [field: string]: unknown;
}

/** One attribute of an entity, struct, classification or business metadata definition. */
export interface AtlasAttributeDef {
  name: string;
  /** An Atlas type: a primitive (`string`, `int`, `long`, `float`, `double`, `boolean`, `date`), an enum,
   * `array<…>` or `map<…,…>`. */
  typeName: string;
  cardinality?: Cardinality;
  constraints?: AtlasConstraintDef[];
  defaultValue?: string;
  description?: string;
  includeInNotification?: boolean;
  isIndexable?: boolean;
  isOptional?: boolean;
  isUnique?: boolean;
  /** Free-form options; Purview puts `applicableEntityTypes` (a JSON array as a string) and
   * `maxStrLength` here for business metadata attributes. */
  options?: Record<string, string>;
  valuesMaxCount?: number;
  valuesMinCount?: number;
  [field: string]: unknown;
}

export interface AtlasRelationshipAttributeDef extends AtlasAttributeDef {
  isLegacyAttribute?: boolean;
  relationshipTypeName?: string;
}

export interface AtlasEnumElementDef {
  value: string;
  ordinal?: number;
  description?: string;
  [field: string]: unknown;
}

export interface AtlasRelationshipEndDef {
  type?: string;
  name?: string;
  cardinality?: Cardinality;
  description?: string;
  isContainer?: boolean;
  isLegacyAttribute?: boolean;
  [field: string]: unknown;
}

/**
 * Any type definition. The contract's common fields, plus those of the specific kinds (attributes,
 * super types, enum elements, relationship ends), all optional; unknown fields are kept.
 */
export interface AtlasTypeDef {
  name?: string;
  guid?: string;
  /** `ENTITY`, `CLASSIFICATION`, `ENUM`, `STRUCT`, `RELATIONSHIP`, `BUSINESS_METADATA`, `TERM_TEMPLATE`… */
  category?: string;
  description?: string;
  typeVersion?: string;
  serviceType?: string;
  options?: Record<string, string>;
  createTime?: number;
  createdBy?: string;
  updateTime?: number;
  updatedBy?: string;
  version?: number;
  lastModifiedTS?: string;
  attributeDefs?: AtlasAttributeDef[];
  superTypes?: string[];
  subTypes?: string[];
  entityTypes?: string[];
  relationshipAttributeDefs?: AtlasRelationshipAttributeDef[];
  elementDefs?: AtlasEnumElementDef[];
  defaultValue?: string;
  endDef1?: AtlasRelationshipEndDef;
  endDef2?: AtlasRelationshipEndDef;
  relationshipCategory?: "ASSOCIATION" | "AGGREGATION" | "COMPOSITION";
  relationshipLabel?: string;
  [field: string]: unknown;
}

/** A business metadata definition: a named group of attributes assignable to entities. */
export interface AtlasBusinessMetadataDef extends AtlasTypeDef {
  name: string;
  attributeDefs?: AtlasAttributeDef[];
}

export interface AtlasTypeDefHeader {
  guid?: string;
  name?: string;
  category?: string;
  [field: string]: unknown;
}

/** The bulk envelope of the type calls: one list per kind of definition. */
export interface AtlasTypesDef {
  businessMetadataDefs?: AtlasBusinessMetadataDef[];
  classificationDefs?: AtlasTypeDef[];
  entityDefs?: AtlasTypeDef[];
  enumDefs?: AtlasTypeDef[];
  relationshipDefs?: AtlasTypeDef[];
  structDefs?: AtlasTypeDef[];
  termTemplateDefs?: AtlasTypeDef[];
  [field: string]: unknown;
}

/** The definition lists of {@link AtlasTypesDef}, in the contract's order. */
export const TYPES_DEF_LISTS = [
  "businessMetadataDefs",
  "classificationDefs",
  "entityDefs",
  "enumDefs",
  "relationshipDefs",
  "structDefs",
  "termTemplateDefs",
] as const;
