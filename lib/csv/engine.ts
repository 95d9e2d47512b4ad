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
import { UsageError } from "../core/errors.ts";
import { AdaptiveWindow } from "./adaptive_window.ts";
import { HEAP_RELIEF_MIN_ROWS, startHeapRelief } from "./heap_relief.ts";
import { checkCsvFile, type CsvCheckReport } from "./check.ts";
import { checkpointedRun } from "./checkpointed_run.ts";
import { delimiterName } from "./delimiter.ts";
import { dryRun } from "./dry_run.ts";
import type { BulkImportOptions } from "./import_options.ts";
import { problemsError } from "./problems.ts";
import { isRowRefusal } from "./refusals.ts";
import {
  type BulkImportSummary,
  CLI_TERMS,
  ImportInterruptedError,
  type ImportTerms,
  summaryLine,
} from "./summary.ts";
import type { BulkImport, ImportUnit } from "./types.ts";

export {
  type BulkImportSummary,
  CALL_TERMS,
  CLI_TERMS,
  ImportInterruptedError,
  type ImportTerms,
  type PreviewEntry,
  summaryLine,
} from "./summary.ts";

/** Runs `plugin` over `options.file`; see the module documentation. */
export async function runBulkImport<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
): Promise<BulkImportSummary> {
  const started = performance.now();
  const display = options.displayName ?? options.file;
  // The caller's signal stops the run: no new batch starts, and batches in flight finish and are recorded
  // (requests are not cut off, so a resume never has to guess whether they were applied).
  const signal = options.signal ?? new AbortController().signal;
  const terms = options.terms ?? CLI_TERMS;
  checkRunOptions(options, terms);
  // Lookups that reconcile batches never stop the run on a row the catalog does not know.
  plugin = withSafeLookups(plugin);

  const report = await checkFile(plugin, options, display, signal);
  // The passes after the check read the file as the check did.
  const read: BulkImportOptions = { ...options, delimiter: report.delimiter };
  const summary = newSummary(plugin, options, display, report.rows);
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
      ? await dryRun(plugin, read, summary, signal, started)
      : await checkpointedRun(plugin, read, summary, report, window, signal, started);
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

/** Refuses batch sizes, concurrencies and option pairs no run can honour, before the file is read. */
function checkRunOptions(options: BulkImportOptions, terms: ImportTerms): void {
  if (!Number.isInteger(options.batchSize) || options.batchSize < 1) {
    throw new UsageError(`--batch-size must be a positive integer, not ${options.batchSize}.`);
  }
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new UsageError(`--concurrency must be a positive integer, not ${options.concurrency}.`);
  }
  if (options.resume && options.restart) {
    throw new UsageError(
      `${terms.resume} and ${terms.restart} exclude each other: continue the interrupted import, or start ` +
        "it over.",
    );
  }
}

/** The check pass: every problem of the file, or its report when it has rows and none is wrong. */
async function checkFile<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
  display: string,
  signal: AbortSignal,
): Promise<CsvCheckReport> {
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
  if (report.rows === 0) {
    options.progress?.finish();
    throw new UsageError(`${display} has a header but no rows to import.`);
  }
  return report;
}

/** The summary of a run before any batch: every row pending. */
function newSummary<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
  display: string,
  rows: number,
): BulkImportSummary {
  return {
    operation: plugin.id,
    file: display,
    template: plugin.template.name,
    dryRun: options.dryRun ?? false,
    rows,
    created: 0,
    updated: 0,
    skipped: 0,
    recovered: 0,
    rejected: 0,
    failed: 0,
    pending: rows,
    batches: 0,
    resumed: false,
    throttled: 0,
    elapsedMs: 0,
    rowsPerSecond: 0,
  };
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
