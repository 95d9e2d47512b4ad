/**
 * The result of a bulk import: the summary every front end prints (JSON on stdout, an MCP result), the
 * one-line account for stderr, and the error a run that stopped early throws with its summary.
 *
 * @example
 * ```ts
 * import { summaryLine } from "./summary.ts";
 * import type { BulkImportSummary } from "./summary.ts";
 * declare const summary: BulkImportSummary;
 * console.log(summaryLine(summary)); // "entity.bulk-import: 250 rows, 250 created, …" (or "1 row, …")
 * ```
 *
 * @module
 */
import { GovcatError } from "../core/errors.ts";
import { counted } from "../core/plural.ts";
import type { PlannedAction } from "./types.ts";

/**
 * How the caller continues or restarts an import, in its own terms, for hints: the command line's options
 * (`--resume`) or an MCP call's arguments (`"resume": true`).
 */
export interface ImportTerms {
  /** Continue the import recorded in the checkpoint: `--resume`, `"resume": true`. */
  resume: string;
  /** Start over, discarding the checkpoint: `--restart`, `"restart": true`. */
  restart: string;
  /** Starting over as the caller writes it with the consent to discard the checkpoint (file_consent.ts). */
  startOver: string;
  /** Saying to run the same import again with `option`: "run the same command again with --resume". */
  again(option: string): string;
}

/** The command line's terms. */
export const CLI_TERMS: ImportTerms = {
  resume: "--resume",
  restart: "--restart",
  startOver: "--restart --overwrite",
  again: (option) => `run the same command again with ${option}`,
};

/** The terms of an MCP call whose arguments are named `resume` and `restart`. */
export const CALL_TERMS: ImportTerms = {
  resume: '"resume": true',
  restart: '"restart": true',
  startOver: '"restart": true and "overwrite": true',
  again: (option) => `call again with the same arguments and ${option}`,
};

/** What happened to one planned unit in a dry run. */
export interface PreviewEntry {
  lines: number[];
  action: PlannedAction;
  [key: string]: unknown;
}

/** The result of an import: every data row of the file is counted in exactly one of the row counts. */
export interface BulkImportSummary {
  operation: string;
  file: string;
  template: string;
  dryRun: boolean;
  /** Data rows in the file. */
  rows: number;
  created: number;
  updated: number;
  skipped: number;
  /** Rows of interrupted batches found already applied on resume. */
  recovered: number;
  rejected: number;
  /** Rejected rows (non-zero makes the CLI exit 1 after printing this summary). */
  failed: number;
  /** Rows not processed because the run stopped early; `resume` continues with them. */
  pending: number;
  batches: number;
  resumed: boolean;
  /** 429 answers seen (each made the engine slow down). */
  throttled: number;
  elapsedMs: number;
  rowsPerSecond: number;
  errorsFile?: string;
  checkpointFile?: string;
  /** Dry runs: what would be done, and the first units in detail. */
  wouldCreate?: number;
  wouldUpdate?: number;
  wouldSkip?: number;
  wouldReject?: number;
  preview?: PreviewEntry[];
}

/** The run stopped before every row was processed; the checkpoint lets `--resume` continue it. */
export class ImportInterruptedError extends GovcatError {
  readonly summary: BulkImportSummary;
  constructor(
    message: string,
    summary: BulkImportSummary,
    options: { exitCode: number; cause?: unknown; terms?: ImportTerms },
  ) {
    const terms = options.terms ?? CLI_TERMS;
    const again = terms.again(terms.resume);
    super(`${message}\n${JSON.stringify(summary, null, 2)}`, {
      exitCode: options.exitCode,
      cause: options.cause,
      hint: summary.checkpointFile
        ? `${again[0].toUpperCase()}${again.slice(1)}: finished batches are not sent again.`
        : undefined,
    });
    this.summary = summary;
  }
}

/** Fills in the derived fields of `summary` (failed, elapsed time, this run's rate) and returns it. */
export function finishSummary(
  summary: BulkImportSummary,
  started: number,
  changes: Partial<BulkImportSummary>,
  rowsBefore = 0,
): BulkImportSummary {
  Object.assign(summary, changes);
  summary.failed = summary.rejected;
  summary.elapsedMs = Math.round(performance.now() - started);
  // The rate of this run: rows earlier runs finished took their own time.
  const processed = summary.rows - summary.pending - rowsBefore;
  summary.rowsPerSecond = summary.elapsedMs > 0 ? Math.round((processed * 1000) / summary.elapsedMs) : 0;
  return summary;
}

/** The one line a front end shows on stderr when a run ends. */
export function summaryLine(summary: BulkImportSummary, terms: ImportTerms = CLI_TERMS): string {
  const seconds = (summary.elapsedMs / 1000).toFixed(1);
  if (summary.dryRun) {
    return `${summary.operation} (dry run): ${counted(summary.rows, "row")} would be ${
      summary.wouldCreate ?? 0
    } created, ` +
      `${summary.wouldUpdate ?? 0} updated, ${summary.wouldSkip ?? 0} skipped, ${summary.wouldReject ?? 0} ` +
      `rejected; nothing was changed (${seconds} s)`;
  }
  const counts = `${summary.created} created, ${summary.updated} updated, ${summary.skipped} skipped, ` +
    `${summary.rejected} rejected` + (summary.recovered > 0 ? `, ${summary.recovered} already applied` : "");
  const files = summary.errorsFile ? `; rejected rows in ${summary.errorsFile}` : "";
  if (summary.pending > 0) {
    return `${summary.operation}: stopped with ${summary.rows - summary.pending} of ${
      counted(summary.rows, "row")
    } done ` +
      `(${counts}); ${summary.pending} left: ${terms.again(terms.resume)}${files}`;
  }
  return `${summary.operation}: ${counted(summary.rows, "row")}, ${counts} in ${seconds} s ` +
    `(${summary.rowsPerSecond} rows/s)${files}`;
}
