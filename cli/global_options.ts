/**
 * The options every command accepts (`--output`, `--query`, `--verbose`, `--profile`, `--help`), and taking
 * them off the front of a command line (`govcat --profile prod entity get …`). Kept apart from the option parser, with
 * nothing to load but the error types, because main.ts reads them before `serve`'s fast start.
 *
 * @module
 */
import { UsageError } from "../lib/core/errors.ts";

/** The formats `--output` takes; json is the default. */
export const OUTPUT_FORMATS = ["json", "table", "csv", "tsv"] as const;

/** One of {@linkcode OUTPUT_FORMATS}. */
export type OutputFormat = typeof OUTPUT_FORMATS[number];

/** Options every command accepts, whatever its operation. */
export interface GlobalOptions {
  output: OutputFormat;
  /** `--query EXPR`: a JMESPath expression applied to the result before it is formatted (see `output.ts`). */
  query?: string;
  verbose: boolean;
  help: boolean;
  /** `--profile NAME`: the connection profile to use (see `cli/profile_selection.ts`). */
  profile?: string;
}

/** The names of the global options, as written after `--`. */
export const GLOBAL_FLAGS = ["output", "query", "verbose", "help", "profile"];

/** The global options written before the command (`govcat --profile prod entity get …`), and the rest. */
export interface LeadingGlobals {
  /** The options given, as values. */
  global: Partial<GlobalOptions>;
  /** The arguments from the command on. */
  rest: string[];
}

const LEADING_NAMES: ReadonlyMap<string, "output" | "query" | "verbose" | "profile"> = new Map([
  ["--output", "output"],
  ["-o", "output"],
  ["--query", "query"],
  ["--verbose", "verbose"],
  ["-v", "verbose"],
  ["--profile", "profile"],
]);

/** The global options each built-in command (which parses its own) takes. */
const BUILTIN_GLOBALS: Record<"serve" | "emulator", ReadonlyArray<keyof GlobalOptions>> = {
  serve: ["profile", "verbose"],
  emulator: ["verbose"],
};

/**
 * The global options written before a built-in command, as its own arguments; one it does not take is
 * refused (`govcat --output=table serve`).
 */
export function builtinArgs(global: Partial<GlobalOptions>, command: "serve" | "emulator"): string[] {
  const args: string[] = [];
  for (const [name, value] of Object.entries(global) as Array<[keyof GlobalOptions, unknown]>) {
    if (!BUILTIN_GLOBALS[command].includes(name)) {
      throw new UsageError(
        `--${name} does not apply to govcat ${command}.`,
        `Run "govcat ${command} --help" for its options.`,
      );
    }
    if (name === "verbose") {
      if (value === true) args.push("--verbose");
    } else args.push(`--${name}=${value}`);
  }
  return args;
}

/**
 * Takes `--profile`, `--output`, `--query` and `--verbose` off the front of a command line, so they may be written
 * before the command as well as after it. Any other option there is left for the caller to refuse.
 */
export function takeLeadingGlobals(argv: string[]): LeadingGlobals {
  const full: GlobalOptions = { output: "json", verbose: false, help: false };
  const global: Partial<GlobalOptions> = {};
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i];
    const equals = arg.indexOf("=");
    const rawName = equals > 0 ? arg.slice(0, equals) : arg;
    const name = LEADING_NAMES.get(rawName);
    if (!name) break;
    let value = equals > 0 ? arg.slice(equals + 1) : undefined;
    if (value === undefined && name !== "verbose") {
      value = argv[i + 1];
      if (value === undefined || value.startsWith("-")) {
        throw new UsageError(`${rawName} needs a value (--${name}=…) before the command.`);
      }
      i++;
    }
    applyGlobal(full, name, value, equals > 0);
    (global as Record<string, unknown>)[name] = full[name];
    i++;
  }
  return { global, rest: argv.slice(i) };
}

/** Applies one global option to `global`, refusing a bad value. */
export function applyGlobal(
  global: GlobalOptions,
  name: string,
  value: string | undefined,
  inline: boolean | undefined,
) {
  if (name === "output") {
    if (!(OUTPUT_FORMATS as readonly unknown[]).includes(value)) {
      throw new UsageError(
        `--output must be one of ${OUTPUT_FORMATS.join(", ")}, got ${
          value === undefined ? "nothing" : `"${value}"`
        }.`,
      );
    }
    global.output = value as OutputFormat;
  } else if (name === "query") {
    // Only emptiness is checked here: the expression is compiled when the command is about to run, so the
    // JMESPath library loads only for commands that use it.
    if (value === undefined || value.trim() === "") {
      throw new UsageError("--query needs a JMESPath expression (--query='value[].name').");
    }
    global.query = value;
  } else if (name === "verbose") global.verbose = inline ? booleanValue("--verbose", value) : true;
  else if (name === "help") global.help = true;
  else if (name === "profile") {
    if (value === undefined || value.trim() === "") {
      throw new UsageError("--profile needs a profile name (--profile=NAME).");
    }
    global.profile = value.trim();
  }
}

/** A boolean option's value: none, `true|1|yes` or `false|0|no`. */
export function booleanValue(rawName: string, value: string | undefined): boolean {
  if (value === undefined) return true;
  const lower = value.toLowerCase();
  if (["true", "1", "yes"].includes(lower)) return true;
  if (["false", "0", "no"].includes(lower)) return false;
  throw new UsageError(`${rawName} takes true or false, got "${value}".`);
}
