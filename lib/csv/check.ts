/**
 * Checking a CSV file against a template before anything is sent, streamed: the header, every row and
 * the duplicates of the template's `unique` groups, with the file's SHA-256 computed in the same read.
 * Problems go into a report (the first `maxProblems` kept, all counted); only a file that cannot be read
 * as CSV at all (missing, bad encoding, unbalanced quote) throws. Then the second pass, which yields the
 * checked rows of a file already validated, for the import to map and send.
 *
 * The field separator is the `delimiter` given, else the one detected from the header line; the report says
 * which, and the second pass is given the one the first used.
 *
 * The header and row checks ({@link bindHeader}, {@link checkRow}) and the duplicate tracker are
 * re-exported here from `binding.ts` and `duplicates.ts`.
 *
 * @example
 * ```ts
 * import { checkCsvFile, checkedRows } from "./check.ts";
 * import { problemsError } from "./problems.ts";
 * declare const template: import("./types.ts").CsvTemplate;
 * const report = await checkCsvFile("terms.csv", template);
 * if (report.problemCount > 0) throw problemsError(report, "Fix the rows and run again.");
 * for await (const row of checkedRows("terms.csv", template)) console.log(row.line, row.values);
 * ```
 *
 * @module
 */
import { createHash } from "node:crypto";
import { UsageError } from "../core/errors.ts";
import { checkRow, templateHint } from "./binding.ts";
import { bindHeader, type HeaderBinding } from "./header_binding.ts";
import { type CsvDelimiter, delimiterName, describeDelimiter } from "./delimiter.ts";
import { DuplicateTracker } from "./duplicates.ts";
import { emptyArray } from "./fresh.ts";
import { formatProblem } from "./problems.ts";
import { readCsvFileBatches, readCsvTextBatches } from "./reader.ts";
import type { CheckedRow, CsvProblem, CsvRow, CsvTemplate } from "./types.ts";

export { checkRow, templateHint } from "./binding.ts";
export {
  bindHeader,
  type HeaderBinding,
  type HeaderSlot,
  REJECT_COLUMNS,
  reservedNamePart,
} from "./header_binding.ts";
export { DuplicateTracker } from "./duplicates.ts";

/** Problems a report keeps unless told otherwise; all are counted. */
export const DEFAULT_MAX_PROBLEMS = 1000;
/** Rows between two `onRows` calls. */
const PROGRESS_EVERY = 5000;

/** The outcome of checking a file. */
export interface CsvCheckReport {
  file: string;
  template: string;
  /** Data rows read (the header, empty lines and rows of empty cells not counted). */
  rows: number;
  problemCount: number;
  /** The first problems by line, at most `maxProblems`. */
  problems: CsvProblem[];
  sha256: string;
  size: number;
  /** The field separator the file was read with (a comma for an empty file). */
  delimiter: CsvDelimiter;
  /** True when {@link CsvCheckReport.delimiter} was detected from the header rather than given. */
  delimiterDetected: boolean;
}

/** How a file is read: its separator, and whether it was detected. */
interface Dialect {
  delimiter: CsvDelimiter;
  detected: boolean;
}

interface CheckOptions {
  maxProblems?: number;
  onRows?: (rows: number) => void;
  /** The share of the input read so far (0 to 1), when known: the duplicate check sizes its set by it. */
  readShare?: () => number;
}

/**
 * The checks over a stream of rows; `reread` reads the file again when duplicates must be confirmed.
 * `dialect` is how the stream was read, known once its first row is out.
 */
async function checkRows(
  batches: AsyncIterable<CsvRow[]> | Iterable<CsvRow[]>,
  reread: () => AsyncIterable<CsvRow[]> | Iterable<CsvRow[]>,
  file: string,
  template: CsvTemplate,
  options: CheckOptions,
  dialect: () => Dialect,
): Promise<Omit<CsvCheckReport, "sha256" | "size" | "delimiter" | "delimiterDetected">> {
  const max = options.maxProblems ?? DEFAULT_MAX_PROBLEMS;
  const kept: CsvProblem[] = [];
  let problemCount = 0;
  const add = (problems: CsvProblem[]) => {
    problemCount += problems.length;
    for (const problem of problems) if (kept.length < max) kept.push(problem);
  };
  let binding: HeaderBinding | undefined;
  let tracker: DuplicateTracker | undefined;
  let count = 0;
  for await (const rows of batches) {
    for (const row of rows) {
      if (!binding) {
        const { delimiter, detected } = dialect();
        const bound = bindHeader(template, row, file, delimiter);
        binding = bound.binding;
        tracker = new DuplicateTracker(binding);
        add(withDelimiterNote(bound.problems, delimiter, detected));
        if (template.delimiters && !template.delimiters.includes(delimiter)) {
          add([delimiterProblem(template, file, row.line, delimiter, detected)]);
        }
        continue;
      }
      count++;
      const checked = checkRow(binding, row);
      if (checked.problems.length > 0) add(checked.problems);
      tracker!.add(checked.row);
      if (count % PROGRESS_EVERY === 0) options.onRows?.(count);
    }
    const share = options.readShare?.() ?? 0;
    // A tenth more than the rows at this pace, as the rows of the last chunk read are not all counted yet.
    if (share > 0 && count > 0) tracker?.expectRows(Math.ceil((count / share) * 1.1));
  }
  tracker?.endRows();
  options.onRows?.(count);
  if (!binding || !tracker) {
    add([{
      file,
      line: 1,
      message: `the file is empty: the first line must be the header. ${templateHint(template)}`,
    }]);
    return { file, template: template.name, rows: 0, problemCount, problems: kept };
  }
  if (tracker.unresolved > 0) await resolveDuplicates(tracker, binding, reread());
  const duplicates = tracker.problems();
  problemCount += duplicates.length;
  const problems = duplicates.length === 0
    ? kept
    : [...kept, ...duplicates].sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0)).slice(
      0,
      max,
    );
  return { file, template: template.name, rows: count, problemCount, problems };
}

/** The problem of a file separated otherwise than its template allows (the service reads commas only). */
function delimiterProblem(
  template: CsvTemplate,
  file: string,
  line: number,
  delimiter: CsvDelimiter,
  detected: boolean,
): CsvProblem {
  const allowed = template.delimiters!.map((d) => `${delimiterName(d)}s`).join(" or ");
  return {
    file,
    line,
    message:
      `the file has ${describeDelimiter(delimiter, detected)}, but it goes to the service's own import ` +
      `as it is (${template.usage}), which reads ${allowed} only: save it with ${allowed} between fields ` +
      '(in Excel: "CSV UTF-8 (Comma delimited)").',
  };
}

/**
 * The header problems of a file read with another separator than a comma, the first saying how it was read
 * (a header read with the wrong one is all wrong). A comma file's problems are as they are; a header that
 * looks separated otherwise says so itself ({@link bindHeader}).
 */
function withDelimiterNote(problems: CsvProblem[], delimiter: CsvDelimiter, detected: boolean): CsvProblem[] {
  if (delimiter === "," || problems.length === 0) return problems;
  const [first, ...rest] = problems;
  const note = `(The file was read with ${describeDelimiter(delimiter, detected)}.)`;
  return [{ ...first, message: `${first.message} ${note}` }, ...rest];
}

/** Re-reads rows from the top until the tracker knows the first row of every repeated key hash. */
async function resolveDuplicates(
  tracker: DuplicateTracker,
  binding: HeaderBinding,
  batches: AsyncIterable<CsvRow[]> | Iterable<CsvRow[]>,
): Promise<void> {
  let header = true;
  for await (const rows of batches) {
    for (const row of rows) {
      if (header) header = false;
      else if (!tracker.resolve(checkRow(binding, row).row)) return;
    }
  }
}

/**
 * Validates a file against a template in one streamed pass (plus a re-read of its first rows only
 * when rows repeat a key, to confirm the duplicates). Problems are in the report; throws UsageError only when the file cannot be read as CSV.
 */
export async function checkCsvFile(
  path: string,
  template: CsvTemplate,
  options: {
    displayName?: string;
    maxProblems?: number;
    signal?: AbortSignal;
    onRows?: (rows: number) => void;
    /** The field separator; detected from the header line when absent. */
    delimiter?: CsvDelimiter;
  } = {},
): Promise<CsvCheckReport> {
  const file = options.displayName ?? path;
  const hash = createHash("sha256");
  let size = 0;
  const total = await Deno.stat(path).then((info) => info.size, () => 0);
  const dialect = dialectOf(options.delimiter);
  const rows = readCsvFileBatches(path, {
    displayName: file,
    signal: options.signal,
    delimiter: options.delimiter,
    onDelimiter: dialect.found,
    onChunk: (bytes) => {
      hash.update(bytes);
      size += bytes.length;
    },
  });
  // The second read of a file uses the separator the first found.
  const reread = () =>
    readCsvFileBatches(path, {
      displayName: file,
      signal: options.signal,
      delimiter: dialect.get().delimiter,
    });
  const readShare = () => total > 0 ? Math.min(1, size / total) : 0;
  const report = await checkRows(rows, reread, file, template, { ...options, readShare }, dialect.get);
  const { delimiter, detected } = dialect.get();
  return { ...report, sha256: hash.digest("hex"), size, delimiter, delimiterDetected: detected };
}

/** {@link checkCsvFile} for text in memory; the fingerprint is that of the text's UTF-8 bytes. */
export async function checkCsvText(
  text: string,
  file: string,
  template: CsvTemplate,
  options: { maxProblems?: number; delimiter?: CsvDelimiter } = {},
): Promise<CsvCheckReport> {
  const bytes = new TextEncoder().encode(text);
  const dialect = dialectOf(options.delimiter);
  const first = readCsvTextBatches(text, file, { delimiter: options.delimiter, onDelimiter: dialect.found });
  const again = () => readCsvTextBatches(text, file, { delimiter: dialect.get().delimiter });
  const report = await checkRows(first, again, file, template, options, dialect.get);
  const { delimiter, detected } = dialect.get();
  return {
    ...report,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    size: bytes.length,
    delimiter,
    delimiterDetected: detected,
  };
}

/** Records how a file turned out to be read; before it is known, a given separator or a comma. */
function dialectOf(
  given: CsvDelimiter | undefined,
): { found: (d: CsvDelimiter) => void; get: () => Dialect } {
  let dialect: Dialect = { delimiter: given ?? ",", detected: given === undefined };
  return {
    found: (delimiter) => dialect = { delimiter, detected: given === undefined },
    get: () => dialect,
  };
}

/**
 * Checked rows of a stream, an array per array read; a problem now means the file changed after it was
 * validated.
 */
async function* checkedBatches(
  batches: AsyncIterable<CsvRow[]> | Iterable<CsvRow[]>,
  file: string,
  template: CsvTemplate,
  /** The separator the rows were read with, asked when the header is out. */
  delimiter: () => CsvDelimiter | undefined,
): AsyncGenerator<CheckedRow[]> {
  const changed = (problem: CsvProblem) =>
    new UsageError(
      `${file} changed after it was checked: ${formatProblem(problem)}`,
      "Do not edit the file while it is imported; run the command again to check it anew.",
    );
  let binding: HeaderBinding | undefined;
  for await (const rows of batches) {
    const checkedRows = emptyArray<CheckedRow>();
    for (const row of rows) {
      if (!binding) {
        const bound = bindHeader(template, row, file, delimiter());
        if (bound.problems.length > 0) throw changed(bound.problems[0]);
        binding = bound.binding;
        continue;
      }
      const checked = checkRow(binding, row);
      if (checked.problems.length > 0) {
        // The rows before it come first, as they would one by one.
        if (checkedRows.length > 0) yield checkedRows;
        throw changed(checked.problems[0]);
      }
      checkedRows.push(checked.row);
    }
    if (checkedRows.length > 0) yield checkedRows;
  }
}

async function* flatten<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

/** Options of the second pass: give the `delimiter` the check reported, so both read the file alike. */
export interface CheckedRowsOptions {
  displayName?: string;
  signal?: AbortSignal;
  /** The field separator; detected from the header line when absent. */
  delimiter?: CsvDelimiter;
}

/**
 * The second pass: the checked rows of a file already validated by {@link checkCsvFile}, in file order.
 * Throws UsageError if a row now has a problem (the file changed between the passes).
 */
export function checkedRows(
  path: string,
  template: CsvTemplate,
  options: CheckedRowsOptions = {},
): AsyncGenerator<CheckedRow> {
  return flatten(checkedRowBatches(path, template, options));
}

/**
 * {@link checkedRows} in arrays of rows read together (none empty), for passes over every row: one promise
 * an array instead of one a row.
 */
export function checkedRowBatches(
  path: string,
  template: CsvTemplate,
  options: CheckedRowsOptions = {},
): AsyncGenerator<CheckedRow[]> {
  const file = options.displayName ?? path;
  let delimiter = options.delimiter;
  return checkedBatches(
    readCsvFileBatches(path, {
      displayName: file,
      signal: options.signal,
      delimiter,
      onDelimiter: (found) => delimiter = found,
    }),
    file,
    template,
    () => delimiter,
  );
}

/** {@link checkedRows} for text in memory. */
export function checkedRowsFromText(
  text: string,
  file: string,
  template: CsvTemplate,
  options: { delimiter?: CsvDelimiter } = {},
): AsyncGenerator<CheckedRow> {
  let delimiter = options.delimiter;
  const rows = readCsvTextBatches(text, file, { delimiter, onDelimiter: (found) => delimiter = found });
  return flatten(checkedBatches(rows, file, template, () => delimiter));
}
