/**
 * The bulk CSV engine every import runs on. A run is two streamed passes over the file:
 *
 * 1. **Check**: every row against the import's template (columns, kinds, duplicates). Any problem stops the
 *    run with every problem listed by file, line and column, before anything is sent.
 * 2. **Send**: rows become units (usually one per row), units are grouped in batches of `batchSize`, and up
 *    to `concurrency` batches are in flight; the window halves on a 429 and grows back with successes.
 *
 * Every row ends as created, updated, skipped or rejected. A batch the service refuses is split in halves
 * until the rows at fault are found, and only those are rejected, with the service's answer, into a reject
 * file beside the input. Each batch is recorded in a checkpoint when it starts (durably, before it is sent)
 * and when it completes; after a crash, Ctrl-C or a lost network, `resume` skips completed batches and asks
 * the catalog which rows of unfinished ones are already there before sending the rest. A row the catalog
 * cannot look up (a 404 for a type it does not know) is not there: it is sent, and rejected with the
 * service's answer if the service refuses it, so a resume never stalls on it. `restart` discards the
 * checkpoint and starts over. An existing reject file is replaced, and an existing checkpoint discarded by
 * `restart`, only with `overwrite` (file_consent.ts): a resume replaces only the reject file its
 * checkpoint records. One run at a time holds a checkpoint (`run_lock.ts`): a second is refused,
 * naming the first. Dry runs check the file, look up what exists and report what would happen, changing
 * nothing.
 *
 * @example
 * ```ts
 * import { runBulkImport } from "./engine.ts";
 * import type { BulkImport } from "./types.ts";
 * declare const entityImport: BulkImport<unknown>;
 * const summary = await runBulkImport(entityImport, { file: "entities.csv", batchSize: 100, concurrency: 4 });
 * console.log(summary.created, summary.rejected);
 * ```
 *
 * @module
 */
import { GovcatError, UsageError } from "../core/errors.ts";
import { counted } from "../core/plural.ts";
import type { Logger } from "../core/log.ts";
import type { FileAccess } from "../files/file_access.ts";
import type { ProgressSink } from "../core/progress.ts";
import { AdaptiveWindow } from "./adaptive_window.ts";
import { BatchSender, rowsIn, StopImport, type Tally } from "./batch_sender.ts";
import { forEachBatch, unitBatches } from "./batches.ts";
import { HEAP_RELIEF_MIN_ROWS, startHeapRelief } from "./heap_relief.ts";
import { checkCsvFile, checkedRowBatches } from "./check.ts";
import { type CsvDelimiter, delimiterName } from "./delimiter.ts";
import { Checkpoint } from "./checkpoint.ts";
import { problemsError } from "./problems.ts";
import { isRowRefusal } from "./refusals.ts";
import { defaultSidePath, writeRejectFile } from "./rejects.ts";
import { RunLock } from "./run_lock.ts";
import { LocalFileError, writeProblem } from "../files/user_files.ts";
import { consentToReplace } from "../files/file_consent.ts";
import {
  type BulkImportSummary,
  CLI_TERMS,
  finishSummary,
  ImportInterruptedError,
  type ImportTerms,
  type PreviewEntry,
  summaryLine,
} from "./summary.ts";
import type { BulkImport, ImportUnit, PlannedAction } from "./types.ts";

export {
  type BulkImportSummary,
  CALL_TERMS,
  CLI_TERMS,
  ImportInterruptedError,
  type ImportTerms,
  type PreviewEntry,
  summaryLine,
} from "./summary.ts";

export interface BulkImportOptions {
  /** Path of the input file (already allowed by the front end's file access). */
  file: string;
  /** How the file is named in messages (the path the user typed). */
  displayName?: string;
  /** The field separator (`--delimiter`); detected from the header line when absent. */
  delimiter?: CsvDelimiter;
  batchSize: number;
  /** Most batches in flight; the engine lowers it while the service throttles. */
  concurrency: number;
  dryRun?: boolean;
  /** Rows whose entity (or term, …) already exists are skipped instead of updated. */
  skipExisting?: boolean;
  /** Continue the import recorded in the checkpoint. */
  resume?: boolean;
  /** Discard the checkpoint of an earlier run, if any, and start over. */
  restart?: boolean;
  /** How the caller writes `resume` and `restart`, for hints (default: the command line's options). */
  terms?: ImportTerms;
  /** Where rejected rows go; default beside the input (`<name>.rejected.csv`). */
  errorsFile?: string;
  /** Where progress is recorded; default `<input>.govcat-checkpoint`. */
  checkpointFile?: string;
  /**
   * Consent to replace an existing reject file and, with `restart`, to discard an existing checkpoint
   * (file_consent.ts); without it the run is refused before anything is sent.
   */
  overwrite?: boolean;
  /** Import options that change what is sent; a resume must use the same. */
  settings?: Record<string, unknown>;
  files?: FileAccess;
  signal?: AbortSignal;
  progress?: ProgressSink;
  logger?: Logger;
  /** Units described in a dry run's preview (default 20). */
  previewLimit?: number;
  /** Attempts at a batch while the catalog cannot be reached (default 5), and the first delay. */
  unreachableAttempts?: number;
  retryDelayMs?: number;
  /** The window of batches in flight; by default an adaptive window of at most `concurrency` batches. */
  window?: AdaptiveWindow;
}

const CHECKPOINT_SUFFIX = ".govcat-checkpoint";

/** Runs `plugin` over `options.file`; see the module documentation. */
export async function runBulkImport<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
): Promise<BulkImportSummary> {
  const started = performance.now();
  const display = options.displayName ?? options.file;
  if (!Number.isInteger(options.batchSize) || options.batchSize < 1) {
    throw new UsageError(`--batch-size must be a positive integer, not ${options.batchSize}.`);
  }
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new UsageError(`--concurrency must be a positive integer, not ${options.concurrency}.`);
  }
  // The caller's signal stops the run: no new batch starts, and batches in flight finish and are recorded
  // (requests are not cut off, so a resume never has to guess whether they were applied).
  const signal = options.signal ?? new AbortController().signal;
  const terms = options.terms ?? CLI_TERMS;
  if (options.resume && options.restart) {
    throw new UsageError(
      `${terms.resume} and ${terms.restart} exclude each other: continue the interrupted import, or start ` +
        "it over.",
    );
  }
  // Lookups that reconcile batches never stop the run on a row the catalog does not know.
  plugin = withSafeLookups(plugin);

  const report = await checkCsvFile(options.file, plugin.template, {
    displayName: display,
    maxProblems: 30,
    signal,
    delimiter: options.delimiter,
    onRows: (rows) => options.progress?.update({ phase: "validating", done: rows, errors: 0 }),
  });
  if (report.problemCount > 0) {
    options.progress?.finish();
    const delimiter = options.delimiter ? ` --delimiter=${delimiterName(options.delimiter)}` : "";
    throw problemsError(
      report,
      `Fix the rows above and run the command again; \`govcat validate csv --csv-file ${display} ` +
        `--template ${plugin.template.name}${delimiter} --report-file report.json\` lists every problem.`,
    );
  }
  // The passes after the check read the file as the check did.
  const read: BulkImportOptions = { ...options, delimiter: report.delimiter };
  if (report.rows === 0) {
    options.progress?.finish();
    throw new UsageError(`${display} has a header but no rows to import.`);
  }

  const summary: BulkImportSummary = {
    operation: plugin.id,
    file: display,
    template: plugin.template.name,
    dryRun: options.dryRun ?? false,
    rows: report.rows,
    created: 0,
    updated: 0,
    skipped: 0,
    recovered: 0,
    rejected: 0,
    failed: 0,
    pending: report.rows,
    batches: 0,
    resumed: false,
    throttled: 0,
    elapsedMs: 0,
    rowsPerSecond: 0,
  };
  const window = options.window ?? new AdaptiveWindow(plugin.sequential ? 1 : options.concurrency);
  const unsubscribe = plugin.onThrottle?.((pauseMs) => {
    summary.throttled++;
    // Every request of the client waits out the pause the service asked for (lib/http/client.ts), so round trips
    // within it measure the pause: the window must know how long it lasts, not only its cool-down.
    window.throttled(pauseMs);
  });
  // A large import's heap is kept near what it holds, not what V8's heuristics let it reach (heap_relief.ts).
  const relief = report.rows >= HEAP_RELIEF_MIN_ROWS ? await startHeapRelief() : undefined;
  try {
    const result = options.dryRun
      ? await planRun(plugin, read, summary, signal, started)
      : await importRun(plugin, read, summary, report.sha256, report.size, window, signal, started);
    options.progress?.finish();
    options.progress?.summary?.(summaryLine(result, terms));
    return result;
  } catch (error) {
    options.progress?.finish();
    if (error instanceof ImportInterruptedError) {
      options.progress?.summary?.(summaryLine(error.summary, terms));
    }
    throw error;
  } finally {
    unsubscribe?.();
    relief?.stop();
  }
}

async function planRun<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
  summary: BulkImportSummary,
  signal: AbortSignal,
  started: number,
): Promise<BulkImportSummary> {
  const preview: PreviewEntry[] = [];
  const limit = options.previewLimit ?? 20;
  let wouldCreate = 0, wouldUpdate = 0, wouldSkip = 0, wouldReject = 0, done = 0;
  const rows = checkedRowBatches(options.file, plugin.template, {
    displayName: summary.file,
    signal,
    delimiter: options.delimiter,
  });
  const window = new AdaptiveWindow(options.concurrency);
  const planned: Array<{ units: ImportUnit<Item>[]; actions: PlannedAction[] }> = [];
  await forEachBatch(unitBatches(plugin, rows, options.batchSize), window, async (units) => {
    let actions: PlannedAction[];
    if (plugin.plan) actions = await plugin.plan(units, signal);
    else {
      const exists = plugin.existing ? await plugin.existing(units, signal) : units.map(() => false);
      actions = exists.map((found): PlannedAction =>
        found ? (options.skipExisting ? "skip" : "update") : "create"
      );
    }
    units.forEach((unit, i) => {
      const rowCount = unit.lines.length;
      if (actions[i] === "create") wouldCreate += rowCount;
      else if (actions[i] === "update") wouldUpdate += rowCount;
      else if (actions[i] === "skip") wouldSkip += rowCount;
      else wouldReject += rowCount;
    });
    if (preview.length < limit) planned.push({ units, actions });
    done += rowsIn(units);
    options.progress?.update({ phase: "planning", done, total: summary.rows, errors: 0 });
  }, () => signal.aborted);
  signal.throwIfAborted();
  for (const { units, actions } of planned) {
    for (const [i, unit] of units.entries()) {
      if (preview.length >= limit) break;
      preview.push({ lines: unit.lines, action: actions[i], ...plugin.describe(unit) });
    }
  }
  preview.sort((a, b) => a.lines[0] - b.lines[0]);
  return finishSummary(summary, started, {
    pending: 0,
    wouldCreate,
    wouldUpdate,
    wouldSkip,
    wouldReject,
    preview,
  });
}

async function importRun<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
  summary: BulkImportSummary,
  sha256: string,
  size: number,
  window: AdaptiveWindow,
  signal: AbortSignal,
  started: number,
): Promise<BulkImportSummary> {
  const checkpointPath = options.checkpointFile ?? options.file + CHECKPOINT_SUFFIX;
  const errorsPath = options.errorsFile ?? defaultSidePath(options.file, ".rejected.csv");
  const allowedCheckpoint = await options.files?.writable(checkpointPath, "--checkpoint-file") ??
    checkpointPath;
  const allowedErrors = await options.files?.writable(errorsPath, "--errors-file") ?? errorsPath;
  const overwrite = options.overwrite === true;
  // Only the import a checkpoint records may replace the reject file it wrote, when it is resumed.
  const ownRejects = options.resume === true && !options.restart &&
    await Checkpoint.recordedErrorsFile(allowedCheckpoint) === allowedErrors;
  await consentToReplace(allowedErrors, {
    shown: options.errorsFile ?? errorsPath,
    option: "--errors-file",
    overwrite: overwrite || ownRejects,
  });
  const lock = await takeRunLock(`${allowedCheckpoint}.lock`, signal, overwrite);
  try {
    if (options.restart) {
      const discard = await consentToReplace(allowedCheckpoint, {
        shown: options.checkpointFile ?? checkpointPath,
        option: "--checkpoint-file",
        overwrite,
        action: "discard",
      });
      if (discard) await Checkpoint.discard(allowedCheckpoint);
    }
    return await lockedRun(plugin, options, summary, sha256, size, window, signal, started, {
      checkpoint: allowedCheckpoint,
      errors: allowedErrors,
    });
  } finally {
    await lock.release();
  }
}

/** The import itself, once this run holds the checkpoint's lock. */
async function lockedRun<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
  summary: BulkImportSummary,
  sha256: string,
  size: number,
  window: AdaptiveWindow,
  signal: AbortSignal,
  started: number,
  paths: { checkpoint: string; errors: string },
): Promise<BulkImportSummary> {
  const { checkpoint: allowedCheckpoint, errors: allowedErrors } = paths;
  const terms = options.terms ?? CLI_TERMS;
  const { checkpoint, state } = await Checkpoint.open(allowedCheckpoint, {
    operation: plugin.id,
    file: await Deno.realPath(options.file),
    sha256,
    size,
    batchSize: options.batchSize,
    options: JSON.stringify(options.settings ?? {}),
    errorsFile: allowedErrors,
  }, { resume: options.resume ?? false, terms });
  summary.resumed = state.resumed;
  const rejected = new Map<number, string>();
  const tally = (record: Tally) => {
    summary.created += record.created;
    summary.updated += record.updated;
    summary.skipped += record.skipped;
    summary.recovered += record.recovered;
    summary.rejected += record.rejected.length;
    summary.pending -= record.rows;
    for (const [line, reason] of record.rejected) rejected.set(line, reason);
  };
  for (const record of state.completed.values()) tally(record);
  const rowsBefore = summary.rows - summary.pending;

  let stopped: { message: string; exitCode: number; cause: unknown } | undefined;
  const sender = new BatchSender(plugin, window, signal, options, () => summary.throttled);
  const rows = checkedRowBatches(options.file, plugin.template, {
    displayName: summary.file,
    signal,
    delimiter: options.delimiter,
  });
  try {
    await forEachBatch(
      unitBatches(plugin, rows, options.batchSize),
      window,
      async (units, batch) => {
        if (state.completed.has(batch)) return;
        const lines: [number, number] = [units[0].lines[0], units.at(-1)!.lines.at(-1)!];
        // Durable before a row is sent: a batch sent is never taken for one that was not.
        await checkpoint.started(batch, lines);
        try {
          const record = await sender.run(units, state.uncertain.has(batch));
          checkpoint.completed({ batch, ...record });
          summary.batches++;
          tally(record);
          window.succeeded();
          options.progress?.update({
            phase: "importing",
            done: summary.rows - summary.pending,
            total: summary.rows,
            errors: summary.rejected,
          });
        } catch (error) {
          stopped ??= stopReason(error, signal);
        }
      },
      () => stopped !== undefined || signal.aborted,
    );
  } catch (error) {
    // Reading the file again failed, or it was aborted while waiting.
    stopped ??= stopReason(error, signal);
  }

  if (rejected.size > 0) {
    await writeRejectFile(options.file, allowedErrors, rejected, {
      displayName: summary.file,
      delimiter: options.delimiter,
    });
    summary.errorsFile = allowedErrors;
  }
  if (stopped || summary.pending > 0) {
    checkpoint.close();
    summary.checkpointFile = allowedCheckpoint;
    stopped ??= signal.aborted
      ? { message: "interrupted", exitCode: 130, cause: signal.reason }
      : { message: "the import stopped early", exitCode: 1, cause: undefined };
    throw new ImportInterruptedError(
      `${stopped.message}; ${summary.rows - summary.pending} of ${counted(summary.rows, "row")} done, ` +
        `${summary.pending} left for ${terms.resume}.`,
      finishSummary(summary, started, {}, rowsBefore),
      { ...stopped, terms },
    );
  }
  await checkpoint.remove();
  return finishSummary(summary, started, {}, rowsBefore);
}

/**
 * `plugin` with lookups (`existing`, `applied`) that a refusal of what was asked (a 404 for a type the
 * catalog does not know, a 400) does not stop: the units are asked again in halves, down to single units,
 * and a single unit whose lookup is refused is not there: "not applied, send it". Its send then gets the
 * service's own answer (created, or rejected into the reject file). Unreachable, throttled and refused
 * callers are not refusals of the rows and go on to the engine's usual handling.
 */
function withSafeLookups<Item>(plugin: BulkImport<Item>): BulkImport<Item> {
  type Lookup = (units: ImportUnit<Item>[], signal: AbortSignal) => Promise<boolean[]>;
  const safe = (lookup: Lookup | undefined): Lookup | undefined => {
    if (!lookup) return undefined;
    const ask: Lookup = async (units, signal) => {
      try {
        return await lookup(units, signal);
      } catch (error) {
        if (!isRowRefusal(error) || error.status < 400 || error.status >= 500) throw error;
        if (units.length === 1) return [false];
        const middle = Math.ceil(units.length / 2);
        return [...await ask(units.slice(0, middle), signal), ...await ask(units.slice(middle), signal)];
      }
    };
    return ask;
  };
  return {
    ...plugin,
    existing: safe(plugin.existing?.bind(plugin)),
    applied: safe(plugin.applied?.bind(plugin)),
  };
}

function stopReason(
  error: unknown,
  signal: AbortSignal,
): { message: string; exitCode: number; cause: unknown } {
  if (signal.aborted) return { message: "interrupted", exitCode: 130, cause: error };
  if (error instanceof StopImport) return { message: error.message, exitCode: 1, cause: error.cause };
  if (error instanceof GovcatError) return { message: error.message, exitCode: error.exitCode, cause: error };
  return { message: `unexpected failure: ${(error as Error)?.stack ?? error}`, exitCode: 1, cause: error };
}

/**
 * Takes the run lock beside the checkpoint. A lock file that cannot be written (a read-only directory, a
 * full disk) is a LocalFileError naming it, before anything is sent; a run holding the lock is the lock's
 * own refusal.
 */
async function takeRunLock(
  path: string,
  signal: AbortSignal | undefined,
  overwrite: boolean,
): Promise<RunLock> {
  try {
    return await RunLock.acquire(path, { signal, overwrite });
  } catch (error) {
    if (error instanceof GovcatError || (error instanceof Error && error.name === "AbortError")) throw error;
    throw new LocalFileError(
      path,
      `could not write the import's lock file ${path}: ${writeProblem(error)}; nothing was sent`,
      "Name a checkpoint file in a directory you can write with --checkpoint-file (the lock file goes beside it).",
      error,
    );
  }
}
