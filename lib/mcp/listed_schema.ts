/**
 * How a tool's JSON Schema is trimmed for `tools/list`, which every session pays for in context before its
 * first word. Input schemas lose only what says nothing (`propertyNames: {type: "string"}`, an empty
 * `additionalProperties`, `minLength: 1`). Output schemas keep their shape — property names, types, enums, which
 * properties are always there — down to the fields of nested objects and array items; below that a part
 * is listed by its type alone. Their prose goes: a model learns what comes back from the tool's
 * description. Everything dropped only loosens a schema, so what the server returns (validated by zod
 * against the full schema) still validates against what it lists, as the SDK client checks.
 *
 * @module
 */

type SchemaNode = Record<string, unknown>;

/**
 * What `tools/list` of every tool may weigh, as sent (compact JSON, UTF-8); a test and `deno task bench`
 * hold it. The 39 tools of the original set list in 40 KB (held by a test of its own); all 47 list in
 * about 48 KB, and the budget leaves room for two more.
 */
export const TOOLS_LIST_BUDGET_BYTES = 50_000;

/** Levels of fields an output schema lists: the result's own, and those of its objects and items. */
export const OUTPUT_FIELD_LEVELS = 1;

/** Output keywords kept where the shape is listed; every other keyword is prose or a bound. */
const OUTPUT_KEYWORDS = new Set(["type", "enum", "const"]);

/** An input schema without the parts that say nothing (every JSON key is a string; `{}` allows anything). */
export function listedInputSchema(node: unknown): unknown {
  if (!node || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map(listedInputSchema);
  const entries = Object.entries(node as SchemaNode).filter(([key, value]) => !saysNothing(key, value));
  return Object.fromEntries(entries.map(([key, value]) => [key, listedInputChild(key, value)]));
}

/** A keyword's value; under `properties` the keys are field names (a field may be called `minLength`). */
function listedInputChild(key: string, value: unknown): unknown {
  if (key !== "properties" || !value || typeof value !== "object") return listedInputSchema(value);
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [name, withoutEcho(name, listedInputSchema(field))]),
  );
}

/** A field whose description only repeats its name (`url`: "URL", `domain_id`: "Domain ID") without it. */
function withoutEcho(name: string, field: unknown): unknown {
  if (!field || typeof field !== "object") return field;
  const { description, ...rest } = field as SchemaNode;
  const words = (text: string) => text.toLowerCase().replace(/[_\s]+/g, " ").trim();
  return typeof description === "string" && words(description) === words(name) ? rest : field;
}

function saysNothing(key: string, value: unknown): boolean {
  // "Not empty" (67 strings in tools/list) goes without saying for a name or an ID; the server still
  // refuses an empty one with a clear error.
  if (key === "minLength") return value === 1;
  // A GUID's pattern (48 bytes, on every GUID argument): the description says "GUID", and the server
  // refuses a malformed one naming the argument.
  if (key === "pattern") return typeof value === "string" && value.includes("{8}-");
  const empty = !!value && typeof value === "object" && Object.keys(value).length === 0;
  if (key === "additionalProperties") return empty;
  if (key === "propertyNames") {
    const keys = Object.keys(value as SchemaNode);
    return keys.length === 1 && (value as SchemaNode).type === "string";
  }
  return false;
}

/**
 * An output schema as listed: no prose, and the fields of `levels` levels of objects (the result's own
 * fields are level 1; an array's items are at the level of the array); deeper parts by their type alone.
 */
export function listedOutputSchema(node: SchemaNode, levels = OUTPUT_FIELD_LEVELS): SchemaNode {
  if (levels === 0) return typeOnly(node);
  const listed: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (OUTPUT_KEYWORDS.has(key)) listed[key] = value;
    else if (key === "properties") listed.properties = mapValues(value as SchemaNode, levels - 1);
    else if (key === "items") listed.items = listedOutputSchema(value as SchemaNode, levels);
    else if (key === "anyOf" || key === "oneOf" || key === "allOf") {
      listed[key] = (value as SchemaNode[]).map((branch) => listedOutputSchema(branch, levels));
    } else if (key === "additionalProperties" && !saysNothing(key, value) && typeof value === "object") {
      listed.additionalProperties = listedOutputSchema(value as SchemaNode, levels - 1);
    }
  }
  return listed;
}

function mapValues(properties: SchemaNode, levels: number): SchemaNode {
  return Object.fromEntries(
    Object.entries(properties).map((
      [name, schema],
    ) => [name, listedOutputSchema(schema as SchemaNode, levels)]),
  );
}

/**
 * The loosest schema with the node's JSON type(s): `{type: "array"}` for any array, a union's types
 * together; `{}` (anything) when a part has no stated type.
 */
function typeOnly(node: SchemaNode): SchemaNode {
  const branches = (node.anyOf ?? node.oneOf) as SchemaNode[] | undefined;
  if (!branches) return node.type === undefined || node.allOf ? {} : { type: node.type };
  const types = branches.map((branch) => typeOnly(branch).type);
  if (types.some((type) => type === undefined)) return {};
  const unique = [...new Set(types.flat() as string[])];
  return { type: unique.length === 1 ? unique[0] : unique };
}
