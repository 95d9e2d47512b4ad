/**
 * Reads an operation's zod input schema as a flat list of fields, from which the CLI builds its options
 * (`glossaryGuid` ⇄ `--glossary-guid`), `--help` its option table, and the MCP registry tools their
 * schemas. Derived from the schema's JSON Schema, so every zod construct maps the same way.
 *
 * @module
 */
import { z } from "../deps/zod.ts";

/** How a field is typed on the command line. */
export type FieldKind = "string" | "integer" | "number" | "boolean" | "string-list" | "json";

/** One field of an operation's input, as the command line and `--help` see it. */
export interface InputField {
  /** Property name in the input object (camel case). */
  name: string;
  /** Kebab-case flag name without dashes (`glossary-guid`). */
  flag: string;
  /** How the value is typed on the command line. */
  kind: FieldKind;
  /** Whether the operation needs it (a field with a default is not required). */
  required: boolean;
  /** What the field means, from the schema. */
  description?: string;
  /** The values allowed, when the schema lists them. */
  enum?: string[];
  /** The value used when the field is left out. */
  default?: unknown;
  /** Smallest number allowed. */
  minimum?: number;
  /** Largest number allowed. */
  maximum?: number;
}

/** `glossaryGuid` → `glossary-guid`, `bmName` → `bm-name`, `csv_file` → `csv-file`. */
export function toKebab(name: string): string {
  return name.replace(/_/g, "-").replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/**
 * Every spelling of a field's option users may type, kebab first (the one `--help` shows), then camel
 * and snake case: `glossary-guid`, `glossaryGuid`, `glossary_guid`.
 */
export function optionSpellings(field: Pick<InputField, "name" | "flag">): string[] {
  return [...new Set([field.flag, field.name, field.flag.replace(/-/g, "_")])];
}

const cache = new WeakMap<z.ZodType, InputField[]>();

/**
 * The JSON Schema of an input, as the caller must send it (defaults make fields optional).
 *
 * @internal The schema type is zod's; the library's users read fields through {@link InputField}.
 */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}

/**
 * The fields of an object schema, in declaration order.
 *
 * @internal Takes a zod schema; an operation's fields are read as `inputFields(operation.input)`.
 */
export function inputFields(schema: z.ZodType): InputField[] {
  const cached = cache.get(schema);
  if (cached) return cached;
  const json = inputJsonSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchemaNode>;
  const required = new Set((json.required ?? []) as string[]);
  const fields = Object.entries(properties).map(([name, node]) => ({
    name,
    flag: toKebab(name),
    kind: kindOf(node),
    required: required.has(name),
    description: node.description,
    enum: enumOf(node),
    default: node.default,
    minimum: node.minimum !== undefined && node.minimum > -Number.MAX_SAFE_INTEGER ? node.minimum : undefined,
    maximum: node.maximum !== undefined && node.maximum < Number.MAX_SAFE_INTEGER ? node.maximum : undefined,
  }));
  cache.set(schema, fields);
  return fields;
}

interface JsonSchemaNode {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  properties?: Record<string, JsonSchemaNode>;
  additionalProperties?: boolean | JsonSchemaNode;
}

function kindOf(node: JsonSchemaNode): FieldKind {
  if (node.enum || node.const !== undefined) return "string";
  switch (node.type) {
    case "string":
      return "string";
    case "integer":
      return "integer";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
      return node.items?.type === "string" || node.items?.enum ? "string-list" : "json";
    default:
      return "json";
  }
}

function enumOf(node: JsonSchemaNode): string[] | undefined {
  if (node.enum) return node.enum.map(String);
  if (node.const !== undefined) return [String(node.const)];
  // A list of enum values (`--facet`, repeatable): the values of one.
  if (node.type === "array" && node.items) return enumOf(node.items);
  return undefined;
}

/**
 * `value` spelled as `accepted` spells it: itself when it is one of them, else the first equal to it but
 * for letter case (`published` → `Published`); undefined when none is.
 */
export function canonicalEnumValue(value: string, accepted: ReadonlyArray<string>): string | undefined {
  if (accepted.includes(value)) return value;
  const lower = value.toLowerCase();
  return accepted.find((candidate) => candidate.toLowerCase() === lower);
}

const jsonSchemas = new WeakMap<z.ZodType, JsonSchemaNode>();

/**
 * `value` (an input object) with every enum value in it, at any depth, spelled as `schema` declares it:
 * enum values are matched without regard to letter case everywhere (`--status=published`,
 * `"direction": "input"`), and the operation or tool gets the canonical spelling. A value that matches
 * none is left as it is, for validation to refuse with the accepted values.
 *
 * @example
 * ```ts
 * import { z } from "../deps/zod.ts";
 * import { canonicalEnums } from "./fields.ts";
 * canonicalEnums(z.object({ sort: z.enum(["ASC", "DESC"]) }), { sort: "desc" }); // { sort: "DESC" }
 * ```
 */
export function canonicalEnums(schema: z.ZodType, value: unknown): unknown {
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = inputJsonSchema(schema) as JsonSchemaNode;
    jsonSchemas.set(schema, json);
  }
  return canonicalIn(json, value);
}

function canonicalIn(node: JsonSchemaNode, value: unknown): unknown {
  if (typeof value === "string") {
    const accepted = enumValuesOf(node);
    return accepted ? canonicalEnumValue(value, accepted) ?? value : value;
  }
  if (Array.isArray(value)) {
    const items = node.items ?? node.anyOf?.find((branch) => branch.items)?.items;
    return items ? value.map((item) => canonicalIn(items, item)) : value;
  }
  if (value && typeof value === "object") {
    const properties = node.properties ?? node.anyOf?.find((branch) => branch.properties)?.properties;
    const others = typeof node.additionalProperties === "object" ? node.additionalProperties : undefined;
    if (!properties && !others) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const child = properties && Object.hasOwn(properties, key) ? properties[key] : others;
        return [key, child ? canonicalIn(child, item) : item];
      }),
    );
  }
  return value;
}

/** The string values a node accepts when it is an enum (or a choice of enums and constants). */
function enumValuesOf(node: JsonSchemaNode): string[] | undefined {
  if (node.enum) return node.enum.filter((v): v is string => typeof v === "string");
  if (typeof node.const === "string") return [node.const];
  if (!node.anyOf) return undefined;
  // A choice that also takes free text (an enum or any string) keeps what was typed.
  const branches = node.anyOf.filter((branch) => branch.type !== "null");
  const values = branches.map(enumValuesOf);
  if (values.length === 0 || values.some((v) => v === undefined)) return undefined;
  return values.flat() as string[];
}
