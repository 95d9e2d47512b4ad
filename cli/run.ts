/**
 * The command-line front end: `govcat <group> <command> --opt=value`, plus the built-in `serve` and
 * `emulator` commands. Returns the exit code instead of exiting, so tests can call it in-process.
 *
 * While an operation runs, the first Ctrl-C aborts its signal (a bulk job finishes its in-flight batch
 * and saves its progress) and the command exits 130 once the operation returns, its result (an interrupted
 * import's summary too) on stdout; a second Ctrl-C quits at once. Long jobs report progress on stderr
 * (see `progress.ts`).
 *
 * @module
 */
import type { EnvSource } from "../lib/config/config.ts";
import { ImportInterruptedError } from "../lib/csv/summary.ts";
import { GovcatError, UsageError } from "../lib/core/errors.ts";
import { redactSecrets } from "../lib/core/log.ts";
import { onStopSignals, type StopSignal } from "../lib/core/stop_signals.ts";
import { reportsBadInput } from "../lib/operations/bad_input.ts";
import type { OperationRegistry } from "../lib/operations/registry.ts";
import type { Operation } from "../lib/operations/types.ts";
import { asksForVersion, VERSION, VERSION_LINE } from "../lib/core/version.ts";
import { parseOperationArgs } from "./args.ts";
import { cliConfirmation, terminalQuestion } from "./confirm.ts";
import { builtinArgs, type GlobalOptions, takeLeadingGlobals } from "./global_options.ts";
import { createOperationContext } from "./context.ts";
import { BUILTIN_COMMANDS, groupHelp, operationHelp, topLevelHelp } from "./help.ts";
import { prepareOutput } from "./output.ts";
import { createTerminalProgress } from "./progress.ts";
import { didYouMean } from "../lib/core/suggest.ts";

export interface CliIo {
  env: EnvSource;
  /** Writes a line to stdout (the line end is added). */
  stdout: (text: string) => void;
  /** Writes a line to stderr (the line end is added). */
  stderr: (text: string) => void;
  /** Writes to stderr as is, for progress redraws; without it, progress lines go through `stderr`. */
  stderrRaw?: (text: string) => void;
  /** Whether stderr is a terminal, where progress is a line redrawn in place; false when absent. */
  isTerminal?: boolean;
  /** Terminal width, for the progress line. */
  columns?: number;
  signal?: AbortSignal;
  /**
   * Subscribes to Ctrl-C (SIGINT) and SIGTERM while an operation runs; returns the function that
   * unsubscribes. The listener is told which came (none: SIGINT). Without it, nothing interrupts but
   * `signal`.
   */
  onInterrupt?: (listener: (signal?: StopSignal) => void) => () => void;
  /** Ends the process at once with `code` (a second Ctrl-C); without it, a second Ctrl-C does nothing more. */
  exit?: (code: number) => void;
  /**
   * Asks a person a yes/no question (a destructive command without `--confirm`) and returns the answer, or
   * null when there is none. Absent when nobody can be asked (no terminal): such a command is refused.
   */
  ask?: (question: string) => Promise<string | null>;
}

/** The exit code of a command interrupted by Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED_EXIT_CODE = 130;
/** The exit code of a command stopped by SIGTERM (128 + 15), as shells report it. */
export const TERMINATED_EXIT_CODE = 143;
/** What the first Ctrl-C prints. */
export const INTERRUPT_MESSAGE =
  "interrupted: finishing in-flight work and saving progress (Ctrl-C again to quit now)";
/** What the first SIGTERM prints. */
export const TERMINATE_MESSAGE =
  "stopped by SIGTERM: finishing in-flight work and saving progress (SIGTERM again to quit now)";

const encoder = new TextEncoder();

/** Console I/O of this process. */
export function processIo(): CliIo {
  const env = Deno.env.toObject();
  return {
    env,
    // Text that ends its own last line (a CSV report), or is empty, gets no line ending added.
    stdout: (text) => writeAll(Deno.stdout, text === "" || text.endsWith("\n") ? text : text + "\n"),
    stderr: (text) => writeAll(Deno.stderr, text + "\n"),
    stderrRaw: (text) => writeAll(Deno.stderr, text),
    // A dumb terminal does not understand the escape that clears the rest of the line.
    isTerminal: Deno.stderr.isTerminal() && env.TERM !== "dumb",
    columns: consoleColumns(),
    // Removed when the operation ends: a live listener would keep the process running.
    onInterrupt: onStopSignals,
    exit: (code) => Deno.exit(code),
    ask: terminalQuestion(),
  };
}

function consoleColumns(): number | undefined {
  try {
    return Deno.consoleSize().columns || undefined;
  } catch {
    return undefined;
  }
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
  registry?: OperationRegistry,
): Promise<number> {
  try {
    return await dispatch(argv, io, registry);
  } catch (error) {
    return reportError(error, io);
  }
}

/**
 * The shipped registry, loaded on first use: `--version`, `serve` and `emulator` need none of it, and a
 * command of a group (`entity bulk-import`, `glossary --help`) loads that group's operations alone.
 */
async function shippedRegistry(first: string | undefined): Promise<OperationRegistry> {
  const { createGroupRegistry, hasGroupSources } = await import("../lib/operations/group_registry.ts");
  if (first !== undefined && hasGroupSources(first)) return await createGroupRegistry(first);
  return (await import("../lib/operations/mod.ts")).createOperationRegistry();
}

async function dispatch(commandLine: string[], io: CliIo, given?: OperationRegistry): Promise<number> {
  const leading = takeLeadingGlobals(commandLine);
  const argv = leading.rest;
  const [first, second, ...rest] = argv;
  if (asksForVersion(first)) {
    io.stdout(VERSION_LINE);
    return 0;
  }
  // Loaded on demand: the MCP SDK and the emulator stay out of the start-up of catalog commands.
  if (first === "emulator") {
    return await (await import("./emulator_command.ts")).runEmulatorCommand([
      ...builtinArgs(leading.global, "emulator"),
      ...argv.slice(1),
    ]);
  }
  if (first === "serve") {
    return await (await import("./serve_command.ts")).runServeCommand(
      [...builtinArgs(leading.global, "serve"), ...argv.slice(1)],
      io.env,
    );
  }
  const registry = given ?? await shippedRegistry(first);
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    if (first === "help" && second) return dispatch([second, ...rest, "--help"], io, registry);
    io.stdout(topLevelHelp(registry));
    return 0;
  }
  const command = findCommand(registry, first, second, rest, io);
  if (typeof command === "number") return command;
  const { input, global } = parseOperationArgs(command.operation, command.args, leading.global);
  if (global.help) {
    io.stdout(operationHelp(command.operation));
    return 0;
  }
  return await runOperation(command.operation, input, global, io);
}

/**
 * The operation a command line names (`<group> <command>`, or `<group> <resource> <action>`), or the exit
 * code when it names a group alone or asks for the group's help (printed here). Unknown names are a
 * {@link UsageError} with the closest names.
 */
function findCommand(
  registry: OperationRegistry,
  first: string,
  second: string | undefined,
  rest: string[],
  io: CliIo,
): { operation: Operation; args: string[] } | number {
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
  const operation = registry.find(group.name, second);
  if (operation) return { operation, args: rest };
  // Two-word commands (`uc term create`): the resource, then the action.
  if (rest[0] !== undefined && !rest[0].startsWith("-")) {
    const twoWords = registry.find(group.name, `${second} ${rest[0]}`);
    if (twoWords) return { operation: twoWords, args: rest.slice(1) };
  }
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

/**
 * Runs an operation with the terminal around it: progress on stderr, Ctrl-C as an interruption (a second
 * one quits), the confirmation of destructive commands, and the result rendered with secrets masked.
 * Returns the exit code.
 */
async function runOperation(
  operation: Operation,
  input: Record<string, unknown>,
  global: GlobalOptions,
  io: CliIo,
): Promise<number> {
  // A bad --query is refused before anything is sent.
  const render = await prepareOutput(global);
  // `--progress` is an option of the operations that offer it (lineage_csv process): plain progress lines
  // even when stderr is not a terminal.
  const progress = createTerminalProgress({
    write: io.stderrRaw ?? ((text) => io.stderr(text.replace(/\n$/, ""))),
    isTerminal: io.isTerminal ?? false,
    columns: io.columns,
    mode: (input as { progress?: unknown }).progress === true ? "always" : "auto",
  });
  // Anything else written to stderr first moves the progress line out of the way.
  const stderrLine = (line: string) => {
    progress.clear();
    io.stderr(line);
  };
  const interrupt = new AbortController();
  let stoppedBy: StopSignal = "SIGINT";
  const stoppedCode = () => stoppedBy === "SIGTERM" ? TERMINATED_EXIT_CODE : INTERRUPTED_EXIT_CODE;
  const stopListening = io.onInterrupt?.((signal = "SIGINT") => {
    if (interrupt.signal.aborted) {
      progress.clear();
      io.exit?.(signal === "SIGTERM" ? TERMINATED_EXIT_CODE : INTERRUPTED_EXIT_CODE);
      return;
    }
    stoppedBy = signal;
    stderrLine(signal === "SIGTERM" ? TERMINATE_MESSAGE : INTERRUPT_MESSAGE);
    interrupt.abort(
      new DOMException(signal === "SIGTERM" ? "stopped by SIGTERM" : "interrupted by Ctrl-C", "AbortError"),
    );
  });
  const signals = [io.signal, stopListening ? interrupt.signal : undefined].filter((s) => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  const context = createOperationContext({
    env: io.env,
    profile: global.profile,
    verbose: global.verbose,
    signal,
    writeLog: stderrLine,
    progress,
  });
  // Destructive commands ask on a terminal, and are refused without one unless --confirm was given.
  context.confirmation = cliConfirmation(io.ask, signal);
  let result: unknown;
  try {
    result = await operation.run(context, input);
  } catch (error) {
    if (!signal?.aborted) throw error;
    // An interrupted bulk job's summary (rows done, rows left, the checkpoint to --resume) is its result:
    // printed on stdout below, as a finished job's is; stderr keeps the message and the hint.
    const interrupted = error instanceof ImportInterruptedError ? error : undefined;
    // The interruption was announced already; anything else that went wrong is still worth telling.
    if (!isAbortError(error, signal)) reportError(interrupted ? withoutSummary(interrupted) : error, io);
    if (interrupted === undefined) return stoppedCode();
    result = interrupted.summary;
  } finally {
    stopListening?.();
    progress.finish();
  }
  // A secret that found its way into a result (pasted into another variable that `config list` shows) is
  // masked like in errors.
  const output = render(result);
  if (output.text !== undefined) io.stdout(redactSecrets(output.text, knownSecrets(io.env)));
  // csv and tsv keep stdout to the rows: a list's paging fields (count, continuation token) go to stderr.
  for (const note of output.notes) stderrLine(redactSecrets(note, knownSecrets(io.env)));
  if (signal?.aborted) return stoppedCode();
  // A report of bad input (`validate csv` on a file with problems) exits as bad input does.
  if (reportsBadInput(result)) return 2;
  return reportsFailures(result) ? 1 : 0;
}

/** An interrupted import's error as stderr tells it: the message and hint, the summary left to stdout. */
function withoutSummary(error: ImportInterruptedError): GovcatError {
  return new GovcatError(error.message.replace(`\n${JSON.stringify(error.summary, null, 2)}`, ""), {
    exitCode: error.exitCode,
    hint: error.hint,
  });
}

/** True for the error an aborted signal raises: its reason, or any AbortError. */
function isAbortError(error: unknown, signal: AbortSignal): boolean {
  return error === signal.reason || (error instanceof Error && error.name === "AbortError") ||
    (error instanceof DOMException && error.name === "AbortError");
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

/** The secrets of the environment that must never be printed. */
function knownSecrets(env: CliIo["env"]): string[] {
  return [env.CLOUD_CLIENT_SECRET, env.CATALOG_MCP_AUTH_TOKEN].filter((s): s is string =>
    !!s && s.length >= 6
  );
}

/** Prints an error (message and hint, secrets masked) and returns its exit code. */
export function reportError(error: unknown, io: CliIo): number {
  const secrets = knownSecrets(io.env);
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
