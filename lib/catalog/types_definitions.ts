/**
 * Wire types of the Atlas v2 type system (`/atlas/v2/types/...`), written from the 2023-09-01 data-map
 * contract: type definitions of every category, their headers, attribute definitions and the bulk
 * `AtlasTypesDef` envelope. Index signatures keep fields the service adds.
 *
 * @example
 * ```ts
 * import type { AtlasTypesDef } from "./types_definitions.ts";
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

/**
 * How many values an attribute holds: one (`SINGLE`), an ordered list (`LIST`) or a set without
 * duplicates (`SET`).
 */
export type Cardinality = "SINGLE" | "LIST" | "SET";

/**
 * A constraint on an attribute, such as `ownedRef` (the referred entity is deleted with its owner) or
 * `inverseRef` (the attribute mirrors one on the other side).
 */
export interface AtlasConstraintDef {
  /** Kind of constraint: `ownedRef`, `inverseRef`, ... */
  type?: string;
  /** Parameters of the constraint; `inverseRef` names the mirrored attribute in `attribute`. */
  params?: Record<string, unknown>;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** One attribute of an entity, struct, classification or business metadata definition. */
export interface AtlasAttributeDef {
  /** Name of the attribute, unique within its definition and the definition's super types. */
  name: string;
  /** An Atlas type: a primitive (`string`, `int`, `long`, `float`, `double`, `boolean`, `date`), an enum,
   * `array<…>` or `map<…,…>`. */
  typeName: string;
  /** How many values the attribute holds; `SINGLE` when omitted. */
  cardinality?: Cardinality;
  /** Constraints on the attribute's values. */
  constraints?: AtlasConstraintDef[];
  /** Value the attribute takes when none is given, as a string. */
  defaultValue?: string;
  /** What the attribute records. */
  description?: string;
  /** Whether changes of the attribute are sent in entity change notifications. */
  includeInNotification?: boolean;
  /** Whether the attribute is indexed, so search and filters can use it. */
  isIndexable?: boolean;
  /** Whether an instance may leave the attribute unset; `false` makes it required. */
  isOptional?: boolean;
  /** Whether two instances of the type may not share a value (as with `qualifiedName`). */
  isUnique?: boolean;
  /** Free-form options; Purview puts `applicableEntityTypes` (a JSON array as a string) and
   * `maxStrLength` here for business metadata attributes. */
  options?: Record<string, string>;
  /** Most values a `LIST` or `SET` attribute may hold. */
  valuesMaxCount?: number;
  /** Fewest values a `LIST` or `SET` attribute must hold. */
  valuesMinCount?: number;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** An attribute an entity type gets from a relationship type (such as a table's `columns`). */
export interface AtlasRelationshipAttributeDef extends AtlasAttributeDef {
  /** Whether the attribute also exists as a plain attribute of older type versions. */
  isLegacyAttribute?: boolean;
  /** Name of the relationship type the attribute comes from. */
  relationshipTypeName?: string;
}

/** One value of an enum type definition. */
export interface AtlasEnumElementDef {
  /** The value as entities carry it. */
  value: string;
  /** Position of the value in the enum, from 0. */
  ordinal?: number;
  /** What the value means. */
  description?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/**
 * One end of a relationship type: the entity type at that end and the attribute through which that
 * entity sees the other end.
 */
export interface AtlasRelationshipEndDef {
  /** Entity type name at this end. */
  type?: string;
  /** Name of the attribute the entity type at this end gets for the relationship. */
  name?: string;
  /** How many entities that attribute may hold. */
  cardinality?: Cardinality;
  /** What the end stands for. */
  description?: string;
  /** Whether this end contains the other (a table containing its columns). */
  isContainer?: boolean;
  /** Whether the attribute also exists as a plain attribute of older type versions. */
  isLegacyAttribute?: boolean;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/**
 * Any type definition. The contract's common fields, plus those of the specific kinds (attributes,
 * super types, enum elements, relationship ends), all optional; unknown fields are kept.
 */
export interface AtlasTypeDef {
  /** Name of the type, unique in the account (`azure_sql_table`, `MICROSOFT.PERSONAL.EMAIL`). */
  name?: string;
  /** GUID of the definition; set by the service. */
  guid?: string;
  /** `ENTITY`, `CLASSIFICATION`, `ENUM`, `STRUCT`, `RELATIONSHIP`, `BUSINESS_METADATA`, `TERM_TEMPLATE`… */
  category?: string;
  /** What the type stands for. */
  description?: string;
  /** Version of the type as its author numbers it (`1.0`). */
  typeVersion?: string;
  /** Family the type belongs to (`Azure SQL Database`, `Purview`, ...), used to group types. */
  serviceType?: string;
  /** Free-form options of the definition, strings by name. */
  options?: Record<string, string>;
  /** Epoch milliseconds of creation; set by the service. */
  createTime?: number;
  /** Who created the definition; set by the service. */
  createdBy?: string;
  /** Epoch milliseconds of the last update; set by the service. */
  updateTime?: number;
  /** Who last updated the definition; set by the service. */
  updatedBy?: string;
  /** Version number the service increments on each update. */
  version?: number;
  /** Opaque change marker (an ETag) of the definition. */
  lastModifiedTS?: string;
  /** Attributes of an entity, struct, classification or business metadata type. */
  attributeDefs?: AtlasAttributeDef[];
  /** Types this entity or classification type inherits attributes from. */
  superTypes?: string[];
  /** Types that inherit from this one; set by the service. */
  subTypes?: string[];
  /** For a classification: the only entity types (and their subtypes) it may be applied to. */
  entityTypes?: string[];
  /** For an entity type: the attributes it gets from relationship types. */
  relationshipAttributeDefs?: AtlasRelationshipAttributeDef[];
  /** For an enum: its values. */
  elementDefs?: AtlasEnumElementDef[];
  /** For an enum: the value used when none is given. */
  defaultValue?: string;
  /** For a relationship type: its first end. */
  endDef1?: AtlasRelationshipEndDef;
  /** For a relationship type: its second end. */
  endDef2?: AtlasRelationshipEndDef;
  /**
   * For a relationship type: `ASSOCIATION` (no containment), `AGGREGATION` (a container whose parts may
   * outlive it) or `COMPOSITION` (parts deleted with their container).
   */
  relationshipCategory?: "ASSOCIATION" | "AGGREGATION" | "COMPOSITION";
  /** For a relationship type: the label of its edges in the graph. */
  relationshipLabel?: string;
  /**
   * For a relationship type: which way classifications flow along it (`NONE`, `ONE_TO_TWO`, `TWO_TO_ONE`,
   * `BOTH`); the service lists it on every relationship type.
   */
  propagateTags?: "NONE" | "ONE_TO_TWO" | "TWO_TO_ONE" | "BOTH";
  /**
   * For an entity type: the business metadata attributes that apply to it, by business metadata name
   * (`{}` when none do); set by the service.
   */
  businessAttributeDefs?: Record<string, AtlasAttributeDef[]>;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A business metadata definition: a named group of attributes assignable to entities. */
export interface AtlasBusinessMetadataDef extends AtlasTypeDef {
  /** Name of the group, as entities' `businessAttributes` key it. */
  name: string;
  /** Attributes of the group; `options.applicableEntityTypes` says which entity types may carry each. */
  attributeDefs?: AtlasAttributeDef[];
}

/** A summary of a type definition, as `GET /types/typedefs/headers` lists it. */
export interface AtlasTypeDefHeader {
  /** GUID of the definition. */
  guid?: string;
  /** Name of the type. */
  name?: string;
  /** Category of the type (`ENTITY`, `CLASSIFICATION`, ...). */
  category?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** The bulk envelope of the type calls: one list per kind of definition. */
export interface AtlasTypesDef {
  /** Business metadata definitions (groups of attributes assignable to entities). */
  businessMetadataDefs?: AtlasBusinessMetadataDef[];
  /** Classification definitions. */
  classificationDefs?: AtlasTypeDef[];
  /** Entity type definitions. */
  entityDefs?: AtlasTypeDef[];
  /** Enum definitions. */
  enumDefs?: AtlasTypeDef[];
  /** Relationship type definitions. */
  relationshipDefs?: AtlasTypeDef[];
  /** Struct definitions (attribute groups used as attribute types). */
  structDefs?: AtlasTypeDef[];
  /** Term template definitions (attributes glossary terms may carry). */
  termTemplateDefs?: AtlasTypeDef[];
  /** Fields of newer contract versions, kept as read. */
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
