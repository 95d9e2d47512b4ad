/**
 * How a long job (a CSV import, a validation) reports its progress: the job calls a sink, and the front end
 * decides how, and whether, to show it.
 *
 * @module
 */

/** A snapshot of a long job's progress. */
export interface ProgressReport {
  /** What the job is doing: `validating` a file, `importing` it, or another phase name. */
  phase: string;
  /** Units of work finished (rows, for CSV imports). */
  done: number;
  /** All units of work, when known. */
  total?: number;
  /** Rows that failed so far. */
  errors: number;
}

/** Receives progress reports; the front end decides how (and whether) to show them. */
export interface ProgressSink {
  /** The job's progress now; called often, so a sink shows only what changed enough. */
  update(report: ProgressReport): void;
  /** The job ended (successfully or not): clear any progress display. */
  finish(): void;
  /** One line saying how the job ended, for people reading stderr; the result itself is returned as usual. */
  summary?(line: string): void;
}
