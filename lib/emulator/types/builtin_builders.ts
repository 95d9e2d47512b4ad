/**
 * Short-hand constructors for the built-in type catalogue, so the data modules read as a list of types
 * rather than as pages of JSON. They produce partial definitions; `builtin_types.ts` completes them with
 * {@link normalizeTypeDef} like any definition a caller creates.
 *
 * @example
 * ```ts
 * import { entity, optional } from "./builtin_builders.ts";
 * const def = entity("my_table", ["DataSet"], "A table", [optional("rowCount", "long")]);
 * console.log(def.category); // "ENTITY"
 * ```
 *
 * @module
 */
import type { TypeDefCategory } from "./model.ts";

/** One built-in definition before normalization. */
export interface BuiltinDef {
  category: TypeDefCategory;
  def: Record<string, unknown>;
}

type Cardinality = "SINGLE" | "SET";

function attribute(
  name: string,
  typeName: string,
  isOptional: boolean,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  const cardinality: Cardinality = typeName.startsWith("array<") ? "SET" : "SINGLE";
  return { name, typeName, isOptional, cardinality, isUnique: false, isIndexable: false, ...extra };
}

/** An optional attribute (`array<…>` ones get SET cardinality). */
export function optional(name: string, typeName: string, extra: Record<string, unknown> = {}) {
  return attribute(name, typeName, true, extra);
}

/** A mandatory attribute. */
export function required(name: string, typeName: string, extra: Record<string, unknown> = {}) {
  return attribute(name, typeName, false, extra);
}

/** An entity type. */
export function entity(
  name: string,
  superTypes: string[],
  description: string,
  attributeDefs: Record<string, unknown>[] = [],
  serviceType?: string,
  options?: Record<string, string>,
): BuiltinDef {
  return { category: "ENTITY", def: { name, superTypes, description, attributeDefs, serviceType, options } };
}

/**
 * The options of a column type: which attribute is the column's schema (its data type). Purview's column
 * types carry it (`azure_mariadb_view_column` has `{"schemaAttributes": "[\"dataType\"]"}` in the typedefs
 * Microsoft recorded: Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/node/purview_catalog_tepedefs_test/).
 */
export function columnOptions(dataTypeAttribute: string): Record<string, string> {
  return { schemaAttributes: JSON.stringify([dataTypeAttribute]) };
}

/** One end of a relationship: the entity type, the attribute it gets, its cardinality and flags. */
export type EndSpec = [type: string, name: string, cardinality: Cardinality, flags?: {
  container?: boolean;
  legacy?: boolean;
}];

function end([type, name, cardinality, flags]: EndSpec): Record<string, unknown> {
  return {
    type,
    name,
    cardinality,
    isContainer: flags?.container === true,
    isLegacyAttribute: flags?.legacy === true,
  };
}

/** A relationship type between two entity types. */
export function relationship(
  name: string,
  relationshipCategory: "ASSOCIATION" | "AGGREGATION" | "COMPOSITION",
  end1: EndSpec,
  end2: EndSpec,
  options: {
    description?: string;
    attributeDefs?: Record<string, unknown>[];
    serviceType?: string;
    propagateTags?: "NONE" | "ONE_TO_TWO";
  } = {},
): BuiltinDef {
  return {
    category: "RELATIONSHIP",
    def: {
      name,
      description: options.description ?? name,
      serviceType: options.serviceType,
      relationshipCategory,
      propagateTags: options.propagateTags,
      endDef1: end(end1),
      endDef2: end(end2),
      attributeDefs: options.attributeDefs ?? [],
    },
  };
}

/** A classification type as Purview's system classifications are defined: no attributes, a display name. */
export function classification(name: string, displayName: string, description: string): BuiltinDef {
  return {
    category: "CLASSIFICATION",
    def: { name, description, options: { displayName }, attributeDefs: [], superTypes: [], entityTypes: [] },
  };
}

/** An enum type; plain strings get ordinals 0, 1, 2, ... */
export function enumeration(
  name: string,
  description: string,
  elementDefs: Array<string | { value: string; ordinal: number; description?: string }>,
  serviceType?: string,
): BuiltinDef {
  const elements = elementDefs.map((element, i) =>
    typeof element === "string" ? { value: element, ordinal: i } : element
  );
  return { category: "ENUM", def: { name, description, elementDefs: elements, serviceType } };
}

/** A struct type. */
export function struct(
  name: string,
  description: string,
  attributeDefs: Record<string, unknown>[],
  serviceType?: string,
): BuiltinDef {
  return { category: "STRUCT", def: { name, description, attributeDefs, serviceType } };
}
