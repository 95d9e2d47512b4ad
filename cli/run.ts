/**
 * The command-line front end: `govcat <group> <command> --opt=value`, plus the built-in `serve` and
 * `emulator` commands. Returns the exit code instead of exiting, so tests can call it in-process.
 *
 * @module
 */
import type { EnvSource } from "../lib/config.ts";
import { GovcatError, UsageError } from "../lib/errors.ts";
import { redactSecrets } from "../lib/log.ts";
import { createOperationRegistry } from "../lib/operations/mod.ts";
import type { OperationRegistry } from "../lib/operations/registry.ts";
import { VERSION } from "../lib/version.ts";
import { parseOperationArgs } from "./args.ts";
import { createOperationContext } from "./context.ts";
import { BUILTIN_COMMANDS, groupHelp, operationHelp, topLevelHelp } from "./help.ts";
import { formatOutput } from "./output.ts";
import { didYouMean } from "../lib/suggest.ts";

export interface CliIo {
  env: EnvSource;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  signal?: AbortSignal;
}

const encoder = new TextEncoder();

/** Console I/O of this process. */
export function processIo(): CliIo {
  return {
    env: Deno.env.toObject(),
    stdout: (text) => writeAll(Deno.stdout, text + "\n"),
    stderr: (text) => writeAll(Deno.stderr, text + "\n"),
  };
}

function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string) {
  const bytes = encoder.encode(text);
  let written = 0;
  while (written < bytes.length) written += stream.writeSync(bytes.subarray(written));
}

/** Runs one command line and returns its exit code. */
export async function runCli(
  argv: string[],
  io: CliIo = processIo(),
  registry: OperationRegistry = createOperationRegistry(),
): Promise<number> {
  try {
    return await dispatch(argv, io, registry);
  } catch (error) {
    return reportError(error, io);
  }
}

async function dispatch(argv: string[], io: CliIo, registry: OperationRegistry): Promise<number> {
  const [first, second, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    if (first === "help" && second) return dispatch([second, ...rest, "--help"], io, registry);
    io.stdout(topLevelHelp(registry));
    return 0;
  }
  if (first === "--version" || first === "-V" || first === "version") {
    io.stdout(`govcat ${VERSION}`);
    return 0;
  }
  // Loaded on demand: the MCP SDK and the emulator stay out of the start-up of catalog commands.
  if (first === "emulator") {
    return await (await import("./emulator_command.ts")).runEmulatorCommand(argv.slice(1));
  }
  if (first === "serve") {
    return await (await import("./serve_command.ts")).runServeCommand(argv.slice(1), io.env);
  }
  if (first.startsWith("-")) {
    throw new UsageError(
      `unknown option ${first}.${didYouMean(first.replace(/^-+/, ""), ["help", "version"], "--")}`,
    );
  }

  const group = registry.group(first);
  if (!group) {
    const names = [...registry.groups().map((g) => g.name), ...BUILTIN_COMMANDS.map((c) => c.name)];
    throw new UsageError(
      `unknown command group "${first}".${didYouMean(first, names)}`,
      'Run "govcat --help".',
    );
  }
  if (second === undefined) {
    // A group alone is an incomplete command: show what it offers, and fail so scripts notice.
    io.stderr(groupHelp(registry, group.name));
    return 2;
  }
  if (second === "--help" || second === "-h") {
    io.stdout(groupHelp(registry, group.name));
    return 0;
  }
  let operation = registry.find(group.name, second);
  let args = rest;
  // Two-word commands (`uc term create`): the resource, then the action.
  if (!operation && rest[0] !== undefined && !rest[0].startsWith("-")) {
    operation = registry.find(group.name, `${second} ${rest[0]}`);
    if (operation) args = rest.slice(1);
  }
  if (!operation) {
    const family = registry.inGroup(group.name).filter((op) => op.command.startsWith(`${second} `));
    if (family.length > 0) {
      io.stderr(groupHelp(registry, group.name, `${second} `));
      return 2;
    }
    const hint = `Run "govcat ${group.name} --help" for its commands.`;
    if (registry.inGroup(group.name).length === 0) {
      throw new UsageError(`the ${group.name} group has no commands in govcat ${VERSION}.`, hint);
    }
    throw new UsageError(
      `unknown command "${second}" in group ${group.name}.${
        didYouMean(second, registry.commandNames(group.name))
      }`,
      hint,
    );
  }

  const { input, global } = parseOperationArgs(operation, args);
  if (global.help) {
    io.stdout(operationHelp(operation));
    return 0;
  }
  const context = createOperationContext({
    env: io.env,
    profile: global.profile,
    verbose: global.verbose,
    signal: io.signal,
    writeLog: io.stderr,
  });
  const result = await operation.run(context, input);
  io.stdout(formatOutput(result, global.output));
  return reportsFailures(result) ? 1 : 0;
}

/**
 * A bulk command's summary that counts failed rows (`{"failed": 3, …}`) means the service refused part of
 * the work: the summary is printed, and the exit code says so, so scripts notice.
 */
export function reportsFailures(result: unknown): boolean {
  if (!result || typeof result !== "object") return false;
  const failed = (result as { failed?: unknown }).failed;
  return (typeof failed === "number" && failed > 0) || (Array.isArray(failed) && failed.length > 0);
}

/** Prints an error (message and hint, secrets masked) and returns its exit code. */
export function reportError(error: unknown, io: CliIo): number {
  const secrets = [io.env.CLOUD_CLIENT_SECRET, io.env.CATALOG_MCP_AUTH_TOKEN].filter((s): s is string =>
    !!s && s.length >= 6
  );
  const clean = (text: string) => redactSecrets(text, secrets);
  if (error instanceof GovcatError) {
    io.stderr(`error: ${clean(error.message)}`);
    if ("status" in error && typeof error.status === "number" && error.status > 0) {
      const code = "code" in error && error.code ? ` ${error.code}` : "";
      const requestId = "requestId" in error && error.requestId ? `, request id ${error.requestId}` : "";
      io.stderr(`status: ${error.status}${code}${requestId}`);
    }
    if (error.hint) io.stderr(`hint: ${clean(error.hint)}`);
    return error.exitCode;
  }
  io.stderr(
    `error: unexpected failure: ${
      clean(error instanceof Error ? error.stack ?? error.message : String(error))
    }`,
  );
  return 1;
}
