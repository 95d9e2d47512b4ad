/**
 * A small validator for the Swagger 2.0 schemas of the published contracts, enough to check request and
 * response bodies in contract tests. It understands `$ref` (JSON pointers into the contract document, such
 * as `#/definitions/AtlasEntity`), `type` (object, array, string, integer, number, boolean; `file` accepts
 * anything), `properties`, `required`, `items`, `additionalProperties` (a schema or a boolean), `enum`,
 * `allOf`, `format` (`int32`/`int64` integer ranges, `uuid`, `date-time`) and `x-nullable`/`nullable`.
 *
 * It is lenient where the contract is silent: properties the schema does not name are allowed unless it
 * says `additionalProperties: false`, and a schema without `type` accepts any value its other keywords
 * allow. `null` is accepted where the schema says `x-nullable: true` (or `nullable: true`), for an
 * unconstrained schema (`{}`), and for an optional property or map value (Atlas writes absent optional
 * fields as `null`) unless that schema says `x-nullable: false`; it is refused at the top level, in array
 * items and for required properties.
 *
 * Every problem is reported with the JSON path of the offending value:
 * `$.entity.attributes.name: expected string, got number`.
 *
 * @example
 * ```ts
 * import { validateSchema } from "./schema.ts";
 * const root = { definitions: { Pet: { type: "object", required: ["name"], properties: { name: { type: "string" } } } } };
 * const errors = validateSchema({ name: 7 }, { $ref: "#/definitions/Pet" }, { root });
 * console.log(errors[0].path, errors[0].message); // "$.name" "expected string, got number"
 * ```
 *
 * @module
 */

/** A Swagger 2.0 schema object (or any JSON object used as one). */
export type Schema = { [keyword: string]: unknown };

/** One problem: where (a JSON path starting with `$`) and what. */
export interface SchemaError {
  path: string;
  message: string;
}

/** Options of {@link validateSchema}. */
export interface ValidateOptions {
  /** The document `$ref`s point into (the whole contract, with its `definitions`). */
  root?: unknown;
  /** Path of the value being validated; `$` by default. */
  path?: string;
  /**
   * Values to accept besides a definition's `enum`, by definition name, for contract errata: e.g.
   * `{TypeCategory: ["BUSINESS_METADATA"]}` where the contract's own examples use a value its enum lacks.
   */
  enumExtensions?: Record<string, readonly unknown[]>;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_LIMIT = 2 ** 63;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const MAX_REF_HOPS = 64;

/** Validates `value` against `schema`; returns every problem found (empty when the value conforms). */
export function validateSchema(value: unknown, schema: Schema, options: ValidateOptions = {}): SchemaError[] {
  const errors: SchemaError[] = [];
  const ctx = { root: options.root, errors, enumExtensions: options.enumExtensions ?? {} };
  check(value, schema, options.path ?? "$", ctx, false);
  return errors;
}

/** The errors as one readable block, one `path: message` per line. */
export function formatSchemaErrors(errors: readonly SchemaError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join("\n");
}

/** The JSON path of a child: `$.a.b`, `$.a[0]`, `$["odd key"]`. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** A short description of a JSON value's type, as used in messages: `null`, `array`, `number`, ... */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Resolves a local `$ref` such as `#/definitions/AtlasEntity` in `root`; undefined when it points nowhere. */
export function resolveRef(root: unknown, ref: string): Schema | undefined {
  if (!ref.startsWith("#")) return undefined;
  const pointer = ref.slice(1);
  if (pointer === "") return isSchemaObject(root) ? root : undefined;
  if (!pointer.startsWith("/")) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isSchemaObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
    if (node === undefined) return undefined;
  }
  return isSchemaObject(node) ? node : undefined;
}

interface Context {
  root: unknown;
  errors: SchemaError[];
  enumExtensions: Record<string, readonly unknown[]>;
}

interface Resolved {
  schema: Schema;
  nullable?: boolean;
  /** The definition the last `$ref` pointed at (`AtlasEntity` for `#/definitions/AtlasEntity`). */
  definition?: string;
}

/**
 * Follows `$ref`s until a schema without one. Siblings of `$ref` are ignored, as Swagger 2.0 says, except
 * `x-nullable`, which AutoRest honours next to a `$ref`.
 */
function dereference(schema: Schema, path: string, ctx: Context): Resolved | undefined {
  let current = schema;
  let nullable = nullableFlag(schema);
  let definition: string | undefined;
  for (let hops = 0; typeof current.$ref === "string"; hops++) {
    const ref = current.$ref;
    if (hops >= MAX_REF_HOPS) {
      ctx.errors.push({ path, message: `$ref cycle at ${ref}` });
      return undefined;
    }
    const target = resolveRef(ctx.root, ref);
    if (!target) {
      ctx.errors.push({ path, message: `unresolvable $ref ${ref}` });
      return undefined;
    }
    current = target;
    nullable ??= nullableFlag(target);
    const named = /^#\/definitions\/([^/]+)$/.exec(ref);
    definition = named ? decodeURIComponent(named[1]).replaceAll("~1", "/").replaceAll("~0", "~") : undefined;
  }
  return { schema: current, nullable, definition };
}

function nullableFlag(schema: Schema): boolean | undefined {
  const flag = schema["x-nullable"] ?? schema.nullable;
  return typeof flag === "boolean" ? flag : undefined;
}

function isUnconstrained(schema: Schema): boolean {
  return schema.type === undefined && schema.enum === undefined && schema.allOf === undefined &&
    schema.properties === undefined && schema.items === undefined &&
    schema.additionalProperties === undefined &&
    schema.required === undefined;
}

/** `optional` is true for an optional property or a map value: there `null` stands for "absent". */
function check(value: unknown, rawSchema: Schema, path: string, ctx: Context, optional: boolean): void {
  const resolved = dereference(rawSchema, path, ctx);
  if (!resolved) return;
  const { schema, nullable, definition } = resolved;

  if (value === null) {
    if (nullable === true || isUnconstrained(schema)) return;
    if (optional && nullable !== false) return;
    if (schema.type === "file") return;
    ctx.errors.push({ path, message: `expected ${expectedName(schema)}, got null` });
    return;
  }

  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) {
      if (isSchemaObject(part)) check(value, part, path, ctx, optional);
    }
  }

  if (!checkType(value, schema, path, ctx)) return;

  if (Array.isArray(schema.enum)) {
    const allowed = [...schema.enum, ...(definition ? ctx.enumExtensions[definition] ?? [] : [])];
    if (!allowed.some((item) => sameJson(item, value))) {
      ctx.errors.push({
        path,
        message: `expected one of ${JSON.stringify(schema.enum)}, got ${JSON.stringify(value)}`,
      });
    }
  }

  if (Array.isArray(value)) {
    if (isSchemaObject(schema.items)) {
      const items = schema.items;
      value.forEach((item, i) => check(item, items, childPath(path, i), ctx, false));
    }
    return;
  }

  if (isPlainObject(value)) checkObject(value, schema, path, ctx);
}

function checkObject(value: Record<string, unknown>, schema: Schema, path: string, ctx: Context): void {
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [];
  for (const name of required) {
    if (!(name in value) || value[name] === undefined) {
      ctx.errors.push({ path: childPath(path, name), message: "required property is missing" });
    }
  }
  for (const [name, propertySchema] of Object.entries(properties)) {
    if (!(name in value) || value[name] === undefined || !isSchemaObject(propertySchema)) continue;
    check(value[name], propertySchema, childPath(path, name), ctx, !required.includes(name));
  }

  const additional = schema.additionalProperties;
  if (additional === undefined || additional === true) return;
  const known = knownProperties(schema, ctx.root, 0);
  for (const [name, item] of Object.entries(value)) {
    if (known.has(name) || item === undefined) continue;
    if (additional === false) {
      ctx.errors.push({
        path: childPath(path, name),
        message: "property is not allowed (additionalProperties: false)",
      });
    } else if (isSchemaObject(additional)) {
      check(item, additional, childPath(path, name), ctx, true);
    }
  }
}

/** Property names a schema declares, its own and those of its `allOf` parts (followed through `$ref`s). */
function knownProperties(schema: Schema, root: unknown, depth: number): Set<string> {
  const names = new Set<string>();
  if (depth > MAX_REF_HOPS) return names;
  const target = typeof schema.$ref === "string" ? resolveRef(root, schema.$ref) : schema;
  if (!target) return names;
  if (isSchemaObject(target.properties)) Object.keys(target.properties).forEach((n) => names.add(n));
  if (Array.isArray(target.allOf)) {
    for (const part of target.allOf) {
      if (isSchemaObject(part)) knownProperties(part, root, depth + 1).forEach((n) => names.add(n));
    }
  }
  return names;
}

/** Checks `type` and `format`; false when the type is wrong (further checks would only add noise). */
function checkType(value: unknown, schema: Schema, path: string, ctx: Context): boolean {
  const type = schema.type;
  const format = typeof schema.format === "string" ? schema.format : undefined;
  const fail = (message: string) => {
    ctx.errors.push({ path, message });
    return false;
  };
  switch (type) {
    case undefined:
    case "file":
      return true;
    case "object":
      return isPlainObject(value) || fail(`expected object, got ${describeType(value)}`);
    case "array":
      return Array.isArray(value) || fail(`expected array, got ${describeType(value)}`);
    case "boolean":
      return typeof value === "boolean" || fail(`expected boolean, got ${describeType(value)}`);
    case "string":
      if (typeof value !== "string") return fail(`expected string, got ${describeType(value)}`);
      if (format === "uuid" && !UUID.test(value)) {
        return fail(`expected a uuid, got ${JSON.stringify(value)}`);
      }
      if (format === "date-time" && (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value)))) {
        return fail(`expected an RFC 3339 date-time, got ${JSON.stringify(value)}`);
      }
      return true;
    case "number":
      return (typeof value === "number" && Number.isFinite(value)) ||
        fail(`expected number, got ${describeType(value)}`);
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) {
        return fail(`expected integer, got ${describeType(value)}`);
      }
      if (!Number.isInteger(value)) return fail(`expected integer, got number ${value}`);
      if (format === "int32" && (value < INT32_MIN || value > INT32_MAX)) {
        return fail(`${value} is out of range for int32`);
      }
      if (format === "int64" && Math.abs(value) >= INT64_LIMIT) {
        return fail(`${value} is out of range for int64`);
      }
      return true;
    }
    default:
      return fail(`schema has an unknown type ${JSON.stringify(type)}`);
  }
}

function expectedName(schema: Schema): string {
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.enum)) return `one of ${JSON.stringify(schema.enum)}`;
  if (schema.properties !== undefined || schema.additionalProperties !== undefined) return "object";
  if (schema.items !== undefined) return "array";
  return "a value";
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isSchemaObject(value: unknown): value is Schema {
  return isPlainObject(value);
}
