/**
 * Turns the argument list of one command into the operation's validated input. Options are derived
 * from the operation's schema and accepted as `--name=value` or `--name value`, in kebab case
 * (`--glossary-guid`, the spelling `--help` shows), camel case (`--glossaryGuid`, a spelling users
 * also type) or snake case (`--glossary_guid`). Enum values are taken in any letter case and passed on in
 * the schema's spelling (`--status=published` → `Published`).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { UsageError } from "../lib/core/errors.ts";
import { canonicalEnums, type InputField, inputFields, optionSpellings } from "../lib/operations/fields.ts";
import type { Operation } from "../lib/operations/types.ts";
import { didYouMean } from "../lib/core/suggest.ts";
import { applyGlobal, booleanValue, GLOBAL_FLAGS, type GlobalOptions } from "./global_options.ts";

type ParseArgsOption = { type: "string" | "boolean"; multiple?: boolean; short?: string };

/**
 * Parses `args` (everything after `govcat <group> <command>`) for `operation`; `given` holds the global
 * options written before the command.
 */
export function parseOperationArgs(
  operation: Operation,
  args: string[],
  given: Partial<GlobalOptions> = {},
): { input: Record<string, unknown>; global: GlobalOptions } {
  const fields = inputFields(operation.input);
  const { options, byFlag } = parserOptions(fields);
  refuseOneDashLongOptions(operation, args, [...byFlag.keys(), ...GLOBAL_FLAGS]);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  } catch (e) {
    throw new UsageError(`${usagePrefix(operation)}${(e as Error).message}`);
  }
  // Global options written before the command (`given`) count unless the command's own options repeat them.
  const global: GlobalOptions = { output: "json", verbose: false, help: false, ...given };
  const { raw, positionals } = optionValues(operation, parsed.tokens ?? [], { fields, byFlag, global });
  if (global.help) return { input: {}, global };
  placePositionals(operation, positionals, raw);

  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const values = raw[field.name];
    if (values === undefined) continue;
    if (field.kind !== "string-list" && values.length > 1) {
      throw new UsageError(
        `${usagePrefix(operation)}option --${field.flag} is given ${values.length} times.`,
      );
    }
    input[field.name] = coerce(field, values, operation);
  }
  return {
    input: validate(operation, canonicalEnums(operation.input, input) as typeof input, fields),
    global,
  };
}

/**
 * `-keywords=x` would be read as the short options -k -e -y…: refuse a one-dash word naming a long option
 * (or carrying `=`, which no short option takes) and say it takes two dashes.
 */
function refuseOneDashLongOptions(operation: Operation, args: string[], known: string[]): void {
  for (const arg of args) {
    if (arg === "--") return;
    const match = /^-([^-=][^=]+)(=.*)?$/.exec(arg);
    if (!match || !(known.includes(match[1]) || match[2] !== undefined && match[1].length > 1)) continue;
    const spelled = known.includes(match[1])
      ? ""
      : ` --${match[1]} is not one of its options.${didYouMean(match[1], known, "--")}`;
    throw new UsageError(
      `${usagePrefix(operation)}option ${arg} has one dash; long options take two (--${match[1]}${
        match[2] ?? ""
      }).${spelled}`,
      spelled ? `Run "govcat ${operation.group} ${operation.command} --help" for its options.` : undefined,
    );
  }
}

/** The option parser's settings for an operation's fields (every spelling), and each spelling's field. */
function parserOptions(
  fields: InputField[],
): { options: Record<string, ParseArgsOption>; byFlag: Map<string, InputField> } {
  const byFlag = new Map<string, InputField>();
  const options: Record<string, ParseArgsOption> = {
    output: { type: "string", short: "o" },
    query: { type: "string" },
    verbose: { type: "boolean", short: "v" },
    help: { type: "boolean", short: "h" },
    profile: { type: "string" },
  };
  // Taken by every write (see optionValues), not only by those that ask.
  options.confirm = { type: "boolean" };
  for (const field of fields) {
    for (const flag of optionSpellings(field)) {
      byFlag.set(flag, field);
      // A global's short form stays (`-o table` where the command has its own --output).
      const short = options[flag]?.short ? { short: options[flag].short } : {};
      options[flag] = field.kind === "boolean"
        ? { type: "boolean", ...short }
        : { type: "string", multiple: field.kind === "string-list", ...short };
    }
  }
  return { options, byFlag };
}

type ParsedToken = NonNullable<ReturnType<typeof parseArgs>["tokens"]>[number];

/**
 * The values of the operation's options by field name, and the bare arguments; global options are applied
 * to `global` as they come. An unknown option, or one without its value, is refused.
 */
function optionValues(
  operation: Operation,
  tokens: ParsedToken[],
  context: { fields: InputField[]; byFlag: Map<string, InputField>; global: GlobalOptions },
): { raw: Record<string, unknown[]>; positionals: string[] } {
  const { fields, byFlag, global } = context;
  const raw: Record<string, unknown[]> = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") {
      positionals.push(token.value);
      continue;
    }
    if (token.kind !== "option") continue;
    const name = token.name;
    // An operation's own option wins over a global one of the same name, but for a value only the global
    // one takes: `validate csv --output=table` is the format, `--output=report.json` its old report option.
    if (GLOBAL_FLAGS.includes(name) && (!byFlag.has(name) || formatValue(name, token.value))) {
      applyGlobal(global, name, token.value, token.inlineValue);
      continue;
    }
    const field = byFlag.get(name);
    // Scripts pass --confirm to every change; a write that asks nothing (domain update) has nothing to skip.
    if (!field && name === "confirm" && !operation.annotations.readOnly) {
      booleanValue(token.rawName, token.value);
      continue;
    }
    if (!field) {
      const known = [...fields.map((f) => f.flag), ...GLOBAL_FLAGS];
      throw new UsageError(
        `${usagePrefix(operation)}unknown option ${token.rawName}.${didYouMean(name, known, "--")}`,
        name === "confirm"
          ? `${operation.group} ${operation.command} only reads: it changes nothing, so there is nothing to confirm.`
          : `Run "govcat ${operation.group} ${operation.command} --help" for its options.`,
      );
    }
    (raw[field.name] ??= []).push(
      field.kind === "boolean" ? booleanValue(token.rawName, token.value) : token.value,
    );
    if (field.kind !== "boolean" && token.value === undefined) {
      throw new UsageError(
        `${usagePrefix(operation)}option ${token.rawName} needs a value (--${field.flag}=…).`,
      );
    }
  }
  return { raw, positionals };
}

/** The bare arguments as the operation's positional fields, in order; more than it takes are refused. */
function placePositionals(operation: Operation, positionals: string[], raw: Record<string, unknown[]>): void {
  const positionalNames = operation.positionals ?? [];
  if (positionals.length > positionalNames.length) {
    const extra = positionals.slice(positionalNames.length).join(" ");
    throw new UsageError(
      `${usagePrefix(operation)}unexpected argument${
        positionals.length - positionalNames.length > 1 ? "s" : ""
      }: ${extra}.`,
      positionalNames.length
        ? undefined
        : "Options are written --name=value; this command takes no bare arguments.",
    );
  }
  positionals.forEach((value, i) => (raw[positionalNames[i]] ??= []).push(value));
}

/** Validates coerced values against the schema, reporting each problem by its option name. */
export function validate(
  operation: Operation,
  input: Record<string, unknown>,
  fields: InputField[] = inputFields(operation.input),
): Record<string, unknown> {
  const result = operation.input.safeParse(input);
  if (result.success) return result.data;
  const flags = new Map(fields.map((f) => [f.name, f.flag]));
  const problems = result.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? "");
    const flag = flags.get(key);
    // Whatever zod calls it (invalid_type, invalid_value for enums), an absent value is a missing option.
    if (input[key] === undefined && flag && issue.path.length === 1) {
      return `missing required option --${flag}`;
    }
    // An enum value that matches none, whatever its case: the values there are.
    if (issue.code === "invalid_value" && flag && issue.values.every((v) => typeof v === "string")) {
      const given = issue.path.reduce<unknown>(
        (value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key],
        input,
      );
      return `--${flag}: must be one of ${issue.values.join(", ")} (any letter case), not ${
        JSON.stringify(given)
      }`;
    }
    return flag ? `--${flag}: ${issue.message}` : issue.message;
  });
  throw new UsageError(
    `${usagePrefix(operation)}${problems.join("; ")}.`,
    `Run "govcat ${operation.group} ${operation.command} --help" for its options.`,
  );
}

/** True when `--<name>=<value>` is a value of the global `--output` (a format name). */
function formatValue(name: string, value: string | undefined): boolean {
  if (name !== "output" || value === undefined) return false;
  try {
    applyGlobal({ output: "json", verbose: false, help: false }, name, value, true);
    return true;
  } catch {
    return false;
  }
}

function usagePrefix(operation: Operation): string {
  return `${operation.group} ${operation.command}: `;
}

function coerce(field: InputField, values: unknown[], operation: Operation): unknown {
  const value = values[0];
  const where = `${usagePrefix(operation)}--${field.flag}`;
  switch (field.kind) {
    case "boolean":
      return value;
    case "string-list":
      return values;
    case "integer":
    case "number": {
      const text = String(value).trim();
      const number = Number(text);
      if (text === "" || Number.isNaN(number) || (field.kind === "integer" && !Number.isInteger(number))) {
        throw new UsageError(
          `${where} takes ${field.kind === "integer" ? "an integer" : "a number"}, got "${text}".`,
        );
      }
      return number;
    }
    case "json":
      try {
        return JSON.parse(String(value));
      } catch (e) {
        throw new UsageError(`${where} takes JSON, e.g. '{"key":"value"}': ${(e as Error).message}`);
      }
    default:
      return value;
  }
}
