/**
 * Enforcement of type definitions on instances: an entity's attributes against its entity type (inherited
 * attributes included), and business metadata values against their group's definition. Values are checked
 * the way Atlas's built-in types accept them: numbers or numeric strings for numeric types, `true`/`false`
 * (also as strings) for booleans, epoch milliseconds or ISO-8601 text for dates, element values or ordinals
 * for enums, object ids (`{guid}` or `{typeName, uniqueAttributes}`) for entity references.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { TypeRegistry } from "./registry.ts";
 * import { entityError } from "./value_checks.ts";
 * const db = new DatabaseSync(":memory:");
 * const registry = new TypeRegistry(db, Date.now);
 * const error = entityError(registry, { typeName: "DataSet", attributes: { qualifiedName: "q" } });
 * console.log(error?.code); // "ATLAS-400-00-02B": name is mandatory
 * db.close();
 * ```
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";
import { typeErrors } from "./errors.ts";
import type { TypeRegistry } from "./registry.ts";
import {
  type AtlasAttributeDef,
  type AtlasTypeDef,
  isRecord,
  parseTypeName,
  type TypeDefCategory,
} from "./model.ts";

/** The definition lookups that checking a value needs. */
export interface TypeLookups {
  find(name: string, category?: TypeDefCategory): AtlasTypeDef | undefined;
  allAttributes(typeName: string): Map<string, AtlasAttributeDef>;
  isA(typeName: string, superType: string): boolean;
}

/** An entity as the entity routes hand it over; relationship attributes can satisfy mandatory attributes. */
export interface EntityShape {
  typeName?: string;
  attributes?: Record<string, unknown>;
  relationshipAttributes?: unknown;
}

/**
 * The error for an entity that breaks its type: unknown type (404), a mandatory attribute missing from both
 * `attributes` and `relationshipAttributes`, an attribute the type does not define, or a value of the wrong
 * type (400). Attribute names of the type's relationships are accepted in `attributes` as object ids.
 */
export function entityError(registry: TypeRegistry, entity: EntityShape): EmulatorError | undefined {
  const typeName = entity.typeName;
  if (typeof typeName !== "string" || typeName === "") {
    return EmulatorError.invalidParameters("typeName is required", "typeName");
  }
  if (!registry.find(typeName, "ENTITY")) return typeErrors.typeNameNotFound(typeName);
  const attributes = entity.attributes ?? {};
  if (!isRecord(attributes)) {
    return EmulatorError.invalidParameters("attributes must be a JSON object", "attributes");
  }
  const relationshipAttributes = isRecord(entity.relationshipAttributes) ? entity.relationshipAttributes : {};
  const defined = registry.allAttributes(typeName);

  for (const attribute of defined.values()) {
    if (attribute.isOptional) continue;
    if (isAbsent(attributes[attribute.name]) && isAbsent(relationshipAttributes[attribute.name])) {
      return EmulatorError.missingAttribute(typeName, attribute.name);
    }
  }
  const relationshipNames = new Set(registry.relationshipAttributeDefs(typeName).map((a) => a.name));
  for (const [name, value] of Object.entries(attributes)) {
    const attribute = defined.get(name);
    // Atlas's AtlasStringType accepts any value and stores its toString() (isValidValue is always true;
    // apache/atlas, intg/src/main/java/org/apache/atlas/type/AtlasBuiltInTypes.java): a number or boolean
    // sent for a string attribute is stored as its text rather than refused.
    if (attribute?.typeName === "string" && (typeof value === "number" || typeof value === "boolean")) {
      attributes[name] = String(value);
      continue;
    }
    if (attribute) {
      const error = valueError(registry, value, attribute.typeName, `${typeName}.${name}`);
      if (error) return error;
    } else if (relationshipNames.has(name)) {
      if (!isAbsent(value) && !isObjectIdOrList(value)) {
        return typeErrors.invalidValue(`${typeName}.${name}`, "object id");
      }
    } else {
      return typeErrors.unknownAttribute(name, typeName);
    }
  }
  return undefined;
}

/** The error for a classification whose type is not a classification definition (404). */
export function classificationError(registry: TypeRegistry, typeName: string): EmulatorError | undefined {
  return registry.find(typeName, "CLASSIFICATION") ? undefined : typeErrors.classificationNotFound(typeName);
}

/**
 * The error for business metadata values (group name → attribute name → value): an undefined group, an
 * attribute the group does not define, or a value of the wrong type or over the attribute's `maxStrLength`.
 * A null value (removal) is always accepted.
 */
export function businessMetadataError(
  registry: TypeRegistry,
  values: Record<string, Record<string, unknown>>,
): EmulatorError | undefined {
  if (!isRecord(values)) return EmulatorError.invalidParameters("businessAttributes must be a JSON object");
  for (const [group, groupValues] of Object.entries(values)) {
    const def = registry.find(group, "BUSINESS_METADATA");
    if (!def) return typeErrors.unknownBusinessMetadata(group, registry.businessMetadataNames());
    if (!isRecord(groupValues)) {
      return EmulatorError.invalidParameters(`business metadata ${group} must be a JSON object`, group);
    }
    for (const [name, value] of Object.entries(groupValues)) {
      const attribute = def.attributeDefs?.find((a) => a.name === name);
      if (!attribute) return typeErrors.unknownAttribute(name, group);
      if (isAbsent(value)) continue;
      const error = valueError(registry, value, attribute.typeName, `${group}.${name}`) ??
        lengthError(attribute, value, `${group}.${name}`);
      if (error) return error;
    }
  }
  return undefined;
}

/** The error for a value that is not of the attribute type `typeName`; `path` names it in the message. */
export function valueError(
  registry: TypeLookups,
  value: unknown,
  typeName: string,
  path: string,
): EmulatorError | undefined {
  if (isAbsent(value)) return undefined;
  const parsed = parseTypeName(typeName);
  if (parsed.kind === "array") {
    if (!Array.isArray(value)) return typeErrors.invalidValue(path, typeName);
    for (const [i, element] of value.entries()) {
      const error = valueError(registry, element, parsed.element, `${path}[${i}]`);
      if (error) return error;
    }
    return undefined;
  }
  if (parsed.kind === "map") {
    if (!isRecord(value)) return typeErrors.invalidValue(path, typeName);
    for (const [key, element] of Object.entries(value)) {
      const error = valueError(registry, element, parsed.value, `${path}.${key}`);
      if (error) return error;
    }
    return undefined;
  }
  const primitive = PRIMITIVE_CHECKS[parsed.name];
  if (primitive) return primitive(value) ? undefined : typeErrors.invalidValue(path, typeName);
  const def = registry.find(parsed.name);
  if (def?.category === "ENUM") {
    const ok = (def.elementDefs ?? []).some((e) => e.value === value || e.ordinal === value);
    return ok ? undefined : typeErrors.invalidValue(path, typeName);
  }
  if (def?.category === "STRUCT") return structError(registry, value, parsed.name, path);
  if (def?.category === "ENTITY") {
    if (!isObjectId(value)) return typeErrors.invalidValue(path, typeName);
    const referred = (value as Record<string, unknown>).typeName;
    const compatible = typeof referred !== "string" || registry.isA(referred, parsed.name);
    return compatible ? undefined : typeErrors.invalidValue(path, typeName);
  }
  return undefined;
}

// A struct value is an AtlasStruct ({typeName, attributes}) or a plain object of attribute values.
function structError(
  registry: TypeLookups,
  value: unknown,
  structName: string,
  path: string,
): EmulatorError | undefined {
  if (!isRecord(value)) return typeErrors.invalidValue(path, structName);
  const attributes = typeof value.typeName === "string" && isRecord(value.attributes)
    ? value.attributes
    : value;
  const defined = registry.allAttributes(structName);
  for (const attribute of defined.values()) {
    if (!attribute.isOptional && isAbsent(attributes[attribute.name])) {
      return EmulatorError.missingAttribute(structName, attribute.name);
    }
  }
  for (const [name, element] of Object.entries(attributes)) {
    const attribute = defined.get(name);
    if (!attribute) return typeErrors.unknownAttribute(name, structName);
    const error = valueError(registry, element, attribute.typeName, `${path}.${name}`);
    if (error) return error;
  }
  return undefined;
}

function lengthError(attribute: AtlasAttributeDef, value: unknown, path: string): EmulatorError | undefined {
  const max = Number(attribute.options?.maxStrLength);
  if (typeof value !== "string" || !Number.isFinite(max) || value.length <= max) return undefined;
  return typeErrors.invalidValue(path, `${attribute.typeName} of at most ${max} characters`);
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function integerIn(min: bigint, max: bigint): (value: unknown) => boolean {
  return (value) => {
    if (typeof value === "number") {
      return Number.isInteger(value) && value >= Number(min) && value <= Number(max);
    }
    if (typeof value !== "string" || !INTEGER_TEXT.test(value.trim())) return false;
    const parsed = BigInt(value.trim());
    return parsed >= min && parsed <= max;
  };
}

function isDecimal(value: unknown): boolean {
  return (typeof value === "number" && Number.isFinite(value)) ||
    (typeof value === "string" && DECIMAL_TEXT.test(value.trim()));
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

const PRIMITIVE_CHECKS: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === "string",
  boolean: (value) =>
    typeof value === "boolean" || (typeof value === "string" && /^(true|false)$/i.test(value.trim())),
  byte: integerIn(-128n, 127n),
  short: integerIn(-32768n, 32767n),
  int: integerIn(-2147483648n, 2147483647n),
  long: integerIn(LONG_MIN, LONG_MAX),
  biginteger: (value) =>
    (typeof value === "number" && Number.isInteger(value)) ||
    (typeof value === "string" && INTEGER_TEXT.test(value.trim())),
  float: isDecimal,
  double: isDecimal,
  bigdecimal: isDecimal,
  // Atlas stores dates as epoch milliseconds and also parses them from text.
  date: (value) =>
    (typeof value === "number" && Number.isInteger(value)) ||
    (typeof value === "string" && (INTEGER_TEXT.test(value.trim()) || !Number.isNaN(Date.parse(value)))),
};

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** True for an AtlasObjectId: `{guid}` or `{typeName, uniqueAttributes}`. */
export function isObjectId(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if (typeof value.guid === "string" && value.guid !== "") return true;
  return typeof value.typeName === "string" && isRecord(value.uniqueAttributes);
}

function isObjectIdOrList(value: unknown): boolean {
  return Array.isArray(value) ? value.every(isObjectId) : isObjectId(value);
}
