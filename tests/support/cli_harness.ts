/**
 * The harness of the end-to-end CLI tests: an emulator on 127.0.0.1, govcat run against it as a real
 * subprocess (the way a user runs it), a temporary directory for payload files, and the assertions those
 * tests share — a refusal of the service (exit 1) and a refusal before anything is sent (exit 2), the
 * latter proved by the emulator's request counter rather than by trusting the exit code.
 *
 * @module
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import { type ProcessResult, runGovcat } from "./govcat_process.ts";

/** One govcat run: exit code, output, and the parsed stdout of a success. */
export interface CliRun extends ProcessResult {
  /** The parsed stdout of a success; `undefined` when the run failed. */
  // deno-lint-ignore no-explicit-any
  json: any;
}

/** What a test gets from {@linkcode withCliSetup}. */
export interface CliSetup {
  emulator: RunningEmulator;
  /** The environment govcat runs with: the emulator as the catalog, plus the setup's `env`. */
  env: Record<string, string>;
  /** A client on the same emulator, for arranging data and reading results without the CLI. */
  client: CatalogClient;
  /** The test's temporary directory, removed afterwards. */
  dir: string;
  /** Runs `govcat …args`; a success must print JSON, which is `json`. */
  govcat(...args: string[]): Promise<CliRun>;
  /** Runs `govcat …args` without parsing stdout, for `--output=table` and other text output. */
  govcatText(...args: string[]): Promise<ProcessResult>;
  /** Writes a file into `dir` and returns its path: a string as is, anything else as JSON. */
  file(name: string, content: unknown): Promise<string>;
  /** Requests the emulator has received so far, all of them or those of one HTTP method. */
  requests(method?: string): number;
  /** The hint {@linkcode assertNotFound} expects, from {@linkcode CliSetupOptions.notFoundHint}. */
  notFoundHint: RegExp;
}

/** How {@linkcode withCliSetup} prepares a test. */
export interface CliSetupOptions {
  /** Start the emulator with its seed catalog; an empty catalog otherwise. */
  seed?: boolean;
  /** Start the emulator in team mode, collection roles deciding what each caller may do. */
  roles?: EmulatorOptions["roles"];
  /** Prefix of the temporary directory's name, so a leftover one says which test made it. */
  prefix?: string;
  /** More variables for govcat and the client, on top of the emulator's account and endpoint. */
  env?: Record<string, string>;
  /**
   * The hint a 404 of the commands under test gives, for {@linkcode assertNotFound}; by default
   * {@linkcode SEARCH_HINT}. A command area whose 404s point elsewhere (the glossary's point to
   * `glossary list`) says so here rather than in every assertion.
   */
  notFoundHint?: RegExp;
}

/**
 * Runs `test` against a fresh emulator and temporary directory, and removes both afterwards, whether the
 * test passed or not.
 */
export async function withCliSetup(
  options: CliSetupOptions,
  test: (setup: CliSetup) => Promise<void>,
): Promise<void> {
  const emulator = await startEmulator({ seed: options.seed ?? false, roles: options.roles });
  const env = { CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url, ...options.env };
  try {
    const dir = await Deno.makeTempDir({ prefix: options.prefix ?? "govcat-e2e-" });
    try {
      await test({
        emulator,
        env,
        // Short retry delays: a test that provokes retries should not wait the production back-off.
        client: CatalogClient.fromConfig(loadConfig(env), { retryBaseMs: 5 }),
        dir,
        govcat: async (...args) => toCliRun(args, await runGovcat(args, env)),
        govcatText: (...args) => runGovcat(args, env),
        file: async (name, content) => {
          const path = `${dir}/${name}`;
          await Deno.writeTextFile(path, typeof content === "string" ? content : JSON.stringify(content));
          return path;
        },
        requests: (method) => {
          const stats = emulator.faults.stats();
          return method === undefined
            ? stats.total
            : stats.log.filter((entry) => entry.method === method).length;
        },
        notFoundHint: options.notFoundHint ?? SEARCH_HINT,
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  } finally {
    await emulator.close();
  }
}

/**
 * Adds `json` to a run's result. A success whose stdout is not JSON — empty included — fails here, naming
 * the command: every govcat command prints JSON unless asked for another format (use `govcatText`).
 */
export function toCliRun(args: readonly string[], result: ProcessResult): CliRun {
  if (result.code !== 0) return { ...result, json: undefined };
  try {
    return { ...result, json: JSON.parse(result.stdout) };
  } catch (error) {
    throw new Error(`govcat ${args.join(" ")} succeeded but its stdout is not JSON: ${result.stdout}`, {
      cause: error,
    });
  }
}

/** The hint most "not found" refusals give: look the thing up with search. */
export const SEARCH_HINT = /hint: .*search/;

/**
 * Asserts that `govcat …args` is refused by the service: exit 1, its 404 status, the setup's
 * `notFoundHint`, and nothing on stdout. (`args` is an array rather than a rest parameter so the formatter
 * keeps a long command hugging the call instead of one argument per line.)
 */
export async function assertNotFound(setup: CliSetup, args: readonly string[]): Promise<CliRun> {
  const result = await setup.govcat(...args);
  assert.equal(result.code, 1, `${args.join(" ")}: ${result.stderr}`);
  assert.match(result.stderr, /status: 404/, args.join(" "));
  assert.match(result.stderr, setup.notFoundHint, args.join(" "));
  assert.equal(result.stdout, "");
  return result;
}

/**
 * Asserts that govcat refuses `govcat …args` itself: exit 2, an error matching `pattern`, nothing on
 * stdout, and not a single request received by the emulator — the exit code alone cannot tell a local
 * refusal from one the service answered.
 */
export async function assertRefusedLocally(
  setup: CliSetup,
  pattern: RegExp,
  args: readonly string[],
): Promise<CliRun> {
  const before = setup.requests();
  const result = await setup.govcat(...args);
  assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
  assert.match(result.stderr, pattern, args.join(" "));
  assert.equal(result.stdout, "");
  assert.equal(setup.requests(), before, `${args.join(" ")} sent nothing`);
  return result;
}

/** Requests that change the catalog so far: anything but a GET or a search (which is sent by POST). */
export function catalogWrites(emulator: RunningEmulator): number {
  return emulator.faults.stats().log.filter((entry) =>
    entry.method !== "GET" && !String(entry.path ?? "").includes("/search/")
  ).length;
}
