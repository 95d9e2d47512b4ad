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

export interface InputField {
  /** Property name in the input object (camel case). */
  name: string;
  /** Kebab-case flag name without dashes (`glossary-guid`). */
  flag: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  enum?: string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

/** `glossaryGuid` → `glossary-guid`, `bmName` → `bm-name`, `csv_file` → `csv-file`. */
export function toKebab(name: string): string {
  return name.replace(/_/g, "-").replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

const cache = new WeakMap<z.ZodType, InputField[]>();

/** The JSON Schema of an input, as the caller must send it (defaults make fields optional). */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}

/** The fields of an object schema, in declaration order. */
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
  return undefined;
}
