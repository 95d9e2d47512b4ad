/**
 * `govcat emulator`: runs the local catalog emulator until interrupted.
 *
 * @example
 * ```ts
import { runEmulatorCommand } from "./emulator_command.ts";
 * const code = await runEmulatorCommand(["--port=0", "--seed", "--latency-ms", "20"]);
 * Deno.exit(code);
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { didYouMean } from "../lib/core/suggest.ts";
import { withoutTaskSeparator } from "./task_separator.ts";
import { waitForStop } from "./stop_signals.ts";
import { createLogger } from "../lib/core/log.ts";
import { parseRolesOption, type TeamMode } from "./emulator_roles.ts";
import {
  ADMIN_PREFIX,
  API_PREFIXES,
  type FaultSettings,
  FaultSettingsError,
  ROUTE_FAMILIES,
  type RunningEmulator,
  startEmulator,
  validateFaultSettings,
} from "../lib/emulator/mod.ts";

/** Port used when `--port` is not given. */
export const DEFAULT_EMULATOR_PORT = 8085;

/** Where output goes and what stops the server; tests replace them, the CLI uses the defaults. */
export interface EmulatorCommandIo {
  /** One line of stdout. */
  out?: (line: string) => void;
  /** One line of stderr. */
  err?: (line: string) => void;
  /** Stops the emulator when aborted (besides SIGINT and SIGTERM). */
  stop?: AbortSignal;
  /** Called once the emulator listens. */
  onStarted?: (emulator: RunningEmulator) => void;
}

const FAULT_OPTIONS: Record<string, keyof FaultSettings> = {
  "latency-ms": "latencyMs",
  "throttle-rate": "throttleRate",
  "retry-after": "retryAfterSeconds",
  "error-rate": "errorRate",
  "error-status": "errorStatus",
  "rps": "requestsPerSecond",
  "drop-rate": "dropRate",
};

const OPTIONS = {
  port: { type: "string" },
  data: { type: "string" },
  seed: { type: "boolean" },
  "no-seed": { type: "boolean" },
  roles: { type: "string" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  ...Object.fromEntries(Object.keys(FAULT_OPTIONS).map((name) => [name, { type: "string" }])),
} as const satisfies Record<string, { type: "string" | "boolean"; short?: string }>;

const USAGE = `Usage: govcat emulator [options]

Runs a local catalog emulator (Purview data-map API) on 127.0.0.1 until Ctrl+C.

Options:
  --port=N            port to listen on (default ${DEFAULT_EMULATOR_PORT}; 0 picks a free port)
  --data=FILE         SQLite file that keeps the catalog between runs (default: in-memory)
  --seed              load the sample catalog when the store is empty (first use)
  --no-seed           start empty (the default)
  --roles[=OID,...]   team mode: every request needs a bearer token whose user holds the collection role
                      it needs (no token: 401, no role: 403); the object ids named get every role on the
                      root collection, as an account's first administrators
  --latency-ms=N      delay every response by N milliseconds (0 to 600000)
  --throttle-rate=F   answer a fraction F (0 to 1) of requests 429 with Retry-After
  --retry-after=S     Retry-After seconds on injected 429 and 503 (default 1)
  --error-rate=F      answer a fraction F (0 to 1) of requests with --error-status
  --error-status=N    status of injected errors, 500 to 599 (default 503)
  --rps=N             admit N requests per second, answer the excess 429 (0: no limit)
  --drop-rate=F       cut off the response of a fraction F (0 to 1) of requests
  --verbose           log every request to stderr
  -h, --help          show this help

Admin endpoints (never faulted): ${ADMIN_PREFIX}/health, ${ADMIN_PREFIX}/faults (GET, PUT),
${ADMIN_PREFIX}/faults/script (GET, POST), ${ADMIN_PREFIX}/stats, ${ADMIN_PREFIX}/reset[?data=true] (POST).`;

/** Runs `govcat emulator` with `argv` (the arguments after `emulator`); resolves to the exit code. */
export async function runEmulatorCommand(argv: string[], io: EmulatorCommandIo = {}): Promise<number> {
  const out = io.out ?? ((line: string) => console.log(line));
  const err = io.err ?? ((line: string) => console.error(line));

  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    err(`govcat emulator: ${(error as Error).message}`);
    err("Run `govcat emulator --help` for the options.");
    return 2;
  }
  if (parsed.help) {
    out(USAGE);
    return 0;
  }

  const logger = createLogger(parsed.verbose ? "debug" : "warn", { write: err });
  // Listening starts before the emulator does: a launcher that ends during the start-up still counts.
  const stopped = waitForStop(io.stop);
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator({
      port: parsed.port,
      dataFile: parsed.data,
      seed: parsed.seed,
      faults: parsed.faults,
      logger,
      roles: parsed.roles,
    });
  } catch (error) {
    err(`govcat emulator: cannot start: ${(error as Error).message}`);
    return 1;
  }

  for (const line of startBanner(emulator, parsed.faults, parsed.roles)) out(line);
  io.onStarted?.(emulator);
  const signal = await stopped;
  err(`govcat emulator: ${signal}, shutting down`);
  await emulator.close();
  return 0;
}

interface ParsedCommandLine {
  help: boolean;
  verbose: boolean;
  port: number;
  data?: string;
  seed: boolean;
  faults: Partial<FaultSettings>;
  roles?: TeamMode;
}

function parseCommandLine(argv: string[]): ParsedCommandLine {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      // `--roles` alone turns team mode on; parseArgs needs a value for a string option.
      args: withoutTaskSeparator(argv).map((arg) => (arg === "--roles" ? "--roles=" : arg)),
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new Error(explainParseError(error as Error & { code?: string }));
  }
  if (values.seed && values["no-seed"]) {
    throw new Error("--seed and --no-seed contradict each other; pick one");
  }

  let port = DEFAULT_EMULATOR_PORT;
  if (values.port !== undefined) {
    const raw = String(values.port);
    if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) {
      throw new Error(`--port must be a whole number from 0 to 65535 (0 picks a free port), got "${raw}"`);
    }
    port = Number(raw);
  }
  if (values.data !== undefined && String(values.data).trim() === "") {
    throw new Error("--data needs a file name, e.g. --data=catalog.db");
  }

  const faults: Record<string, number> = {};
  for (const [option, field] of Object.entries(FAULT_OPTIONS)) {
    const raw = values[option];
    if (raw === undefined) continue;
    const value = String(raw).trim() === "" ? Number.NaN : Number(raw);
    try {
      validateFaultSettings({ [field]: Number.isNaN(value) ? String(raw) : value });
    } catch (error) {
      if (!(error instanceof FaultSettingsError)) throw error;
      const problem = error.message.slice(error.field.length + 1);
      throw new Error(`--${option} ${problem}, got "${raw}"`);
    }
    faults[field] = value;
  }

  return {
    help: values.help === true,
    verbose: values.verbose === true,
    port,
    data: values.data as string | undefined,
    seed: values.seed === true,
    faults: faults as Partial<FaultSettings>,
    roles: values.roles === undefined ? undefined : parseRolesOption(String(values.roles), "--roles"),
  };
}

function explainParseError(error: Error & { code?: string }): string {
  const option = /'(-{1,2}[^' ]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
      const name = (option ?? "").replace(/^-+/, "").split("=")[0];
      return `unknown option ${option ?? ""}.${didYouMean(name, Object.keys(OPTIONS), "--")}`;
    }
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return /does not take an argument/.test(error.message)
        ? `${option} is a flag and takes no value (write just ${option})`
        : `${option} needs a value, e.g. ${option}=VALUE`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument "${
        /'([^']*)'/.exec(error.message)?.[1] ?? ""
      }": the emulator takes options only, written --name or --name=value (see --help)`;
    default:
      return error.message;
  }
}

function startBanner(
  emulator: RunningEmulator,
  faults: Partial<FaultSettings>,
  roles?: TeamMode,
): string[] {
  const data = emulator.dataLocation === ":memory:" ? "in-memory (lost on exit)" : emulator.dataLocation;
  const faultText = Object.entries(faults).map(([k, v]) => `${k}=${v}`).join(", ") || "none";
  return [
    `govcat catalog emulator listening on ${emulator.url}`,
    `  data:      ${data}`,
    `  entities:  ${emulator.entityCount()}`,
    `  routes:    ${API_PREFIXES.join(" and ")} +`,
    ...ROUTE_FAMILIES.map((family) => `               ${family}`),
    `             ${ADMIN_PREFIX}/{health,faults,faults/script,stats,reset} (admin, never faulted)`,
    `  faults:    ${faultText}`,
    `  roles:     ${
      roles
        ? `enforced (bearer token required; administrators: ${roles.admins?.join(", ") || "none named"})`
        : "not enforced"
    }`,
    "Point govcat at it:",
    `  export CATALOG_ACCOUNT_NAME=emulator CATALOG_ENDPOINT=${emulator.url}`,
    "Press Ctrl+C to stop.",
  ];
}
