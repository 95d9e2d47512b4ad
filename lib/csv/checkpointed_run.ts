/**
 * The sending pass of a bulk import (not a dry run), and the files it owns. The reject file is replaced
 * only with consent, the run lock beside the checkpoint keeps a second run out, and `restart` discards the
 * checkpoint; then each batch is recorded in the checkpoint when it starts (durably, before it is sent) and
 * when it completes. A resume skips completed batches and has the sender ask the catalog about unfinished
 * ones. A run that stops early keeps its checkpoint and ends in {@link ImportInterruptedError}; a finished
 * one removes it.
 *
 * @module
 */
import { GovcatError } from "../core/errors.ts";
import { counted } from "../core/plural.ts";
import { LocalFileError, writeProblem } from "../files/user_files.ts";
import { consentToReplace } from "../files/file_consent.ts";
import type { AdaptiveWindow } from "./adaptive_window.ts";
import { BatchSender, StopImport, type Tally } from "./batch_sender.ts";
import { forEachBatch, unitBatches } from "./batches.ts";
import { checkedRowBatches } from "./check.ts";
import { Checkpoint } from "./checkpoint.ts";
import type { BulkImportOptions } from "./import_options.ts";
import { defaultSidePath, writeRejectFile } from "./rejects.ts";
import { RunLock } from "./run_lock.ts";
import { type BulkImportSummary, CLI_TERMS, finishSummary, ImportInterruptedError } from "./summary.ts";
import type { BulkImport } from "./types.ts";

const CHECKPOINT_SUFFIX = ".govcat-checkpoint";

/** Why a run stopped before every row was done, and the exit code that says so. */
interface StopReason {
  message: string;
  exitCode: number;
  cause: unknown;
}

/** What one run has checked of its file: its digest and size, recorded in the checkpoint. */
export interface CheckedFile {
  sha256: string;
  size: number;
}

/** Sends `options.file` through `plugin` under a checkpoint; `summary` is filled in as batches complete. */
export async function checkpointedRun<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
  summary: BulkImportSummary,
  checked: CheckedFile,
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
    return await lockedRun(plugin, options, summary, checked, window, signal, started, {
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
  checked: CheckedFile,
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
    sha256: checked.sha256,
    size: checked.size,
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

  let stopped = await sendUnfinished(plugin, options, summary, { checkpoint, state }, tally, window, signal);

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
 * Sends every batch the checkpoint does not record as completed, recording each, until the file ends or
 * the run stops; the reason it stopped, if it did.
 */
async function sendUnfinished<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
  summary: BulkImportSummary,
  { checkpoint, state }: Awaited<ReturnType<typeof Checkpoint.open>>,
  tally: (record: Tally) => void,
  window: AdaptiveWindow,
  signal: AbortSignal,
): Promise<StopReason | undefined> {
  let stopped: StopReason | undefined;
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
  return stopped;
}

function stopReason(error: unknown, signal: AbortSignal): StopReason {
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
