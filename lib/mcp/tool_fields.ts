/**
 * A tool's arguments read from its operation's input: each field of the operation is an argument under
 * its snake_case name (`extendedInfo` → `extended_info`) with the operation's schema (its type, default,
 * bounds and description), and a call's arguments are mapped back by the same names. A tool states only
 * where it differs from its operation ({@link FieldOverride}): a description written for a model, a
 * field it leaves out or renames, a schema of its own, or an argument its view reads that the operation
 * does not take.
 *
 * A GUID field is taken at the tool as a non-empty string; its form is checked by the operation's own
 * schema when the call is mapped to it (`tool_operation.ts`), which refuses a malformed one naming the
 * tool's argument and saying nothing was sent, as the command line refuses `--guid`.
 *
 * @example
 * ```ts
 * import { getRelationship } from "../operations/relationship_operations.ts";
 * import { toolArguments } from "./tool_fields.ts";
 * const { input, toOperation } = toolArguments("get_relationship", getRelationship, {});
 * Object.keys(input.shape); // ["guid", "extended_info"]
 * toOperation({ guid: "ca7a…", extended_info: true }); // { guid: "ca7a…", extendedInfo: true }
 * ```
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { CONFIRM_FIELD } from "../operations/confirmation.ts";
import { isGuidField } from "../operations/guid_fields.ts";
import type { Operation } from "../operations/types.ts";

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

/** An argument of the tool alone: its view reads it; the operation is not given it. */
export interface ToolOnlyArgument {
  toolOnly: z.ZodType;
}

/**
 * How a tool takes one field of its operation, where it differs from the operation's declaration:
 * - `true`: as the operation declares it (named only to place it: named fields come first);
 * - a string: the field, described in these words;
 * - `false`: left out (the operation's default applies);
 * - a schema: the tool's own schema for it (required where the operation's is optional, other bounds);
 * - `{ as, schema?, description? }`: under another name;
 * - {@link toolOnly}: an argument the operation does not have.
 */
export type FieldOverride =
  | true
  | string
  | false
  | z.ZodType
  | { as: string; schema?: z.ZodType; description?: string }
  | ToolOnlyArgument;

/** An argument of the tool that its operation does not take (its view or check reads it). */
export function toolOnly(schema: z.ZodType): ToolOnlyArgument {
  return { toolOnly: schema };
}

/** `minExtInfo` → `min_ext_info`, `end1Guid` → `end1_guid`: the tool's spelling of an operation's field. */
export function toSnake(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** A tool's input schema and the mapping of its arguments to its operation's input. */
export interface ToolArguments {
  input: ObjectSchema;
  /** The operation's input for a call's (parsed) arguments. */
  toOperation(args: Record<string, unknown>): Record<string, unknown>;
  /** Each argument taken from the operation: the tool's name → the operation's field name. */
  fromOperation: ReadonlyMap<string, string>;
}

/**
 * The arguments of tool `tool` for `operation`: the fields named in `overrides` first, in its order, then
 * the operation's other fields in theirs. Naming a field the operation lacks is an error here, when the
 * tool is defined, so a field renamed in the operation cannot leave a tool mapping it to nothing.
 */
export function toolArguments(
  tool: string,
  operation: Operation,
  overrides: Readonly<Record<string, FieldOverride>> = {},
): ToolArguments {
  const fields = operationShape(operation);
  const shape: Record<string, z.ZodType> = {};
  const fromOperation = new Map<string, string>();
  const names = [...new Set([...Object.keys(overrides), ...Object.keys(fields)])];
  for (const name of names) {
    if (name === CONFIRM_FIELD) continue;
    const override = overrides[name];
    if (override !== undefined && typeof override === "object" && "toolOnly" in override) {
      shape[toSnake(name)] = override.toolOnly;
      continue;
    }
    if (!Object.hasOwn(fields, name)) {
      throw new Error(`${tool}: ${operation.id} has no field ${name}; name it as its operation does`);
    }
    if (override === false) continue;
    const { as, schema } = argumentOf(name, fields[name], override);
    shape[as] = schema;
    fromOperation.set(as, name);
  }
  return {
    input: z.object(shape),
    fromOperation,
    toOperation: (args) =>
      Object.fromEntries([...fromOperation].map(([argument, field]) => [field, args[argument]])),
  };
}

/** The shape of an operation's input (an object schema). */
function operationShape(operation: Operation): Record<string, z.ZodType> {
  const shape = (operation.input as unknown as Partial<ObjectSchema>).shape;
  if (!shape) throw new Error(`${operation.id}: a tool is built from an operation whose input is an object`);
  return shape as Record<string, z.ZodType>;
}

/** One argument taken from the operation's field `name`, as `override` says. */
function argumentOf(
  name: string,
  field: z.ZodType,
  override: Exclude<FieldOverride, false | ToolOnlyArgument> | undefined,
): { as: string; schema: z.ZodType } {
  if (override instanceof z.ZodType) return { as: toSnake(name), schema: override };
  if (typeof override === "string") {
    return { as: toSnake(name), schema: redescribed(takenAs(field), override) };
  }
  if (override === undefined || override === true) return { as: toSnake(name), schema: takenAs(field) };
  const schema = override.schema ?? takenAs(field);
  const description = override.description;
  return { as: override.as, schema: description === undefined ? schema : redescribed(schema, description) };
}

/** The schema a tool takes an operation's field with: its own, but for a GUID's form (see the module). */
function takenAs(field: z.ZodType): z.ZodType {
  if (isGuidField(field)) return described(z.string().min(1), field.description);
  if (field instanceof z.ZodOptional && isGuidField(field.unwrap() as z.ZodType)) {
    const loose = described(z.string().min(1), (field.unwrap() as z.ZodType).description).optional();
    return described(loose, field.description);
  }
  return field;
}

function described<S extends z.ZodType>(schema: S, description: string | undefined): S {
  return description === undefined ? schema : schema.describe(description);
}

/**
 * `schema` described in other words, where its description is: on an optional field itself, or on the
 * schema it makes optional (their JSON Schemas list the keywords in another order).
 */
function redescribed(schema: z.ZodType, description: string): z.ZodType {
  if (schema instanceof z.ZodOptional && schema.description === undefined) {
    return redescribed(schema.unwrap() as z.ZodType, description).optional();
  }
  return schema.describe(description);
}
