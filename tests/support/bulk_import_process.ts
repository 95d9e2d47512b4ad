/**
 * `govcat entity bulk-import` as a real subprocess, for the resilience tests and the bulk import benches:
 * started with a loopback catalog's environment, watched through its checkpoint file (to kill or interrupt
 * it mid-import), its summary read back from stdout (a finished or interrupted run) or stderr, and
 * its peak resident memory measured.
 *
 * @example
 * ```ts
 * import { completedBatches, spawnBulkImport } from "./bulk_import_process.ts";
 * const run = spawnBulkImport(["--csv-file", "/tmp/e.csv"], { CATALOG_ENDPOINT: "http://127.0.0.1:8085" });
 * while (await completedBatches("/tmp/e.csv.govcat-checkpoint") < 5) await new Promise((r) => setTimeout(r, 20));
 * run.kill("SIGKILL");
 * console.log((await run.result).code);
 * ```
 *
 * @module
 */
import type { BulkImportSummary } from "../../lib/csv/engine.ts";
import { govcatArgs, killQuietly, type ProcessResult, spawnPiped } from "./govcat_process.ts";

/** A running `govcat entity bulk-import`. */
export interface BulkImportProcess {
  pid: number;
  /** Exit code and everything printed, once the process has ended. */
  result: Promise<ProcessResult>;
  /** Sends `signal`; a process already gone is not an error. */
  kill(signal: Deno.Signal): void;
}

/**
 * The environment of an import against the loopback catalog at `endpoint`. The client-side rate limit is
 * off (the tests and benches measure the service's limits, not the client's), unless `extra` sets it.
 */
export function catalogEnv(endpoint: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: endpoint,
    CATALOG_RATE_LIMIT: "0",
    ...extra,
  };
}

/**
 * Starts `govcat entity bulk-import …args`; it is killed after `timeoutMs` (default 60 s). With `prefix`
 * the command line starts with it (e.g. `/usr/bin/time -f %M -o FILE`); `denoFlags` go to `deno run`.
 */
export function spawnBulkImport(
  args: string[],
  env: Record<string, string>,
  options: { timeoutMs?: number; prefix?: string[]; denoFlags?: string[] } = {},
): BulkImportProcess {
  const deno = [Deno.execPath(), ...govcatArgs(["entity", "bulk-import", ...args], options)];
  const [program, ...rest] = [...(options.prefix ?? []), ...deno];
  const child = spawnPiped(rest, { program, env });
  const kill = (signal: Deno.Signal) => killQuietly(child, signal);
  const deadline = setTimeout(() => kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const result = (async () => {
    const [stdout, stderr, status] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.status,
    ]);
    clearTimeout(deadline);
    return { code: status.code, stdout, stderr };
  })();
  return { pid: child.pid, result, kill };
}

/** Completed batches recorded in a checkpoint file (0 while it does not exist). */
export async function completedBatches(checkpoint: string): Promise<number> {
  let text: string;
  try {
    text = await Deno.readTextFile(checkpoint);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
  return text.split("\n").filter((line) => line.includes('"event":"completed"')).length;
}

/**
 * Waits until the checkpoint records at least `batches` completed batches, polling every 10 ms; throws when
 * the process ends first (the fault it was meant to suffer would then not happen) or after `timeoutMs`.
 */
export async function waitForCompletedBatches(
  checkpoint: string,
  batches: number,
  run: BulkImportProcess,
  timeoutMs = 30_000,
): Promise<number> {
  let ended = false;
  run.result.then(() => ended = true, () => ended = true);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const done = await completedBatches(checkpoint);
    if (done >= batches) return done;
    if (ended) {
      const { code, stdout, stderr } = await run.result;
      throw new Error(
        `the import ended (exit ${code}) before ${batches} batches were recorded (${done} were):\n` +
          `${stdout.slice(0, 2000)}\n${stderr.slice(0, 2000)}`,
      );
    }
    if (Date.now() > deadline) throw new Error(`${batches} batches not recorded in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The import summary in a command's output: the JSON object on stdout (a finished run's or an interrupted
 * one's), or one printed inside an error message on stderr (a run that stopped early for another reason).
 * Undefined when there is none.
 */
export function summaryIn(text: string): BulkImportSummary | undefined {
  const start = text.search(/^\{/m);
  if (start < 0) return undefined;
  const end = text.slice(start).search(/^\}/m);
  if (end < 0) return undefined;
  try {
    const value = JSON.parse(text.slice(start, start + end + 1));
    return typeof value === "object" && value && "operation" in value ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Rows a summary accounts for: each row is in exactly one of these counts. */
export const accountedRows = (s: BulkImportSummary): number =>
  s.created + s.updated + s.skipped + s.recovered + s.rejected;
