/**
 * Checking a CSV file against its template before a command that does not run on the bulk engine sends
 * it anywhere (the service's own imports of glossary terms and business metadata), or before a command
 * that does checks what only the whole file and the catalog can tell (collections, synonyms): the same
 * streamed check, problem list and hint the engine gives, so every import refuses a bad file alike.
 *
 * @example
 * ```ts
 * import { checkFileFirst } from "./csv_prechecks.ts";
 * import { glossaryTerms } from "../templates/csv/glossary_templates.ts";
 * async function check(path: string) {
 *   const report = await checkFileFirst(path, glossaryTerms); // a UsageError lists the problems
 *   console.log(report.rows, report.sha256);
 * }
 * ```
 *
 * @module
 */
import { checkCsvFile, type CsvCheckReport } from "../csv/check.ts";
import { type CsvDelimiter, delimiterName } from "../csv/delimiter.ts";
import { problemsError } from "../csv/problems.ts";
import type { CsvProblem, CsvTemplate } from "../csv/types.ts";
import { UsageError } from "../core/errors.ts";
import type { ProgressSink } from "../core/progress.ts";

/** Problems listed when a file is refused (as the engine lists them). */
const MAX_PROBLEMS = 30;

/** The hint of a refused file: fix it, or list every problem with `validate csv`. */
export function fixHint(display: string, template: CsvTemplate, delimiter?: CsvDelimiter): string {
  const option = delimiter ? ` --delimiter=${delimiterName(delimiter)}` : "";
  return `Fix the rows above and run the command again; \`govcat validate csv --csv-file ${display} ` +
    `--template ${template.name}${option} --report-file report.json\` lists every problem.`;
}

/** Throws one UsageError listing `problems` (sorted by place) unless there are none. */
export function throwProblems(display: string, template: CsvTemplate, problems: readonly CsvProblem[]): void {
  if (problems.length === 0) return;
  const sorted = [...problems].sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
  throw problemsError(
    { file: display, problems: sorted, problemCount: sorted.length },
    fixHint(display, template),
  );
}

/**
 * Checks `path` against `template`; throws a UsageError listing the problems (plus `extra`, found by the
 * caller, e.g. in the header) or saying the file has no rows. Returns the report of a good file, which
 * says the field separator it was read with: read the file again with that one.
 */
export async function checkFileFirst(
  path: string,
  template: CsvTemplate,
  options: {
    displayName?: string;
    signal?: AbortSignal;
    progress?: ProgressSink;
    extra?: (report: CsvCheckReport) => CsvProblem[] | Promise<CsvProblem[]>;
    /** The field separator (`--delimiter`); detected from the header line when absent. */
    delimiter?: CsvDelimiter;
  } = {},
): Promise<CsvCheckReport> {
  const display = options.displayName ?? path;
  const report = await checkCsvFile(path, template, {
    displayName: display,
    maxProblems: MAX_PROBLEMS,
    signal: options.signal,
    delimiter: options.delimiter,
    onRows: (rows) => options.progress?.update({ phase: "validating", done: rows, errors: 0 }),
  });
  const extra = await options.extra?.(report) ?? [];
  if (report.problemCount + extra.length > 0) {
    options.progress?.finish();
    const problems = [...report.problems, ...extra].sort((a, b) =>
      a.line - b.line || (a.column ?? 0) - (b.column ?? 0)
    );
    throw problemsError(
      { file: display, problems, problemCount: report.problemCount + extra.length },
      fixHint(display, template, options.delimiter),
    );
  }
  if (report.rows === 0) {
    options.progress?.finish();
    throw new UsageError(`${display} has a header but no rows to import.`);
  }
  return report;
}
