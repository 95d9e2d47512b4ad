/**
 * What a caller sets for a bulk import run (`engine.ts`): the file, batching, dry run, resume or restart,
 * the reject and checkpoint files, and the signal, progress and logger it reports through.
 *
 * @module
 */
import type { Logger } from "../core/log.ts";
import type { ProgressSink } from "../core/progress.ts";
import type { FileAccess } from "../files/file_access.ts";
import type { AdaptiveWindow } from "./adaptive_window.ts";
import type { CsvDelimiter } from "./delimiter.ts";
import type { ImportTerms } from "./summary.ts";

/** Options of a bulk import run. */

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
