/**
 * The `validate` group: `validate csv` checks a CSV file against a template — named with
 * `--template`, or detected from the header — without contacting the catalog. The file is streamed, so
 * a file of millions of rows is fine. Fields are separated by commas, semicolons, tabs or pipes, detected
 * from the header or given with `--delimiter`. Every problem is located as `file:line:column`; the summary
 * lists the first {@link SUMMARY_PROBLEMS}, and `--report-file` writes a report of all of them (json, text
 * or csv).
 *
 * The report file was once `--output`, which is also every command's output format (`--output=table`).
 * The old spelling still names the report file when its value is not a format name: the command line
 * gives a format name to the global option (`cli/args.ts`), and this operation refuses one, so
 * `--output=table` never writes a file named `table`; a path is taken with a note that it is deprecated.
 *
 * A file with problems is bad input: the summary is printed and the command exits 2, as an import of the
 * same file does (the result is marked with `markBadInput`; MCP clients get the report as a result).
 *
 * @example
 * ```ts
 * import { VALIDATE_OPERATIONS } from "./validate_operations.ts";
 * console.log(VALIDATE_OPERATIONS.map((op) => op.command)); // ["csv"]
 * ```
 *
 * @module
 */
import { checkCsvFile, type CsvCheckReport } from "../csv/check.ts";
import {
  type CsvDelimiter,
  DELIMITER_OPTION_HELP,
  delimiterName,
  delimiterOption,
} from "../csv/delimiter.ts";
import { formatProblem } from "../csv/problems.ts";
import { csvLine } from "../csv/reader.ts";
import {
  closestTemplateText,
  type CsvHeader,
  readCsvHeader,
  readWithText,
} from "../templates/template_choice.ts";
import { CSV_TEMPLATE_NAMES, csvTemplate, rankCsvTemplates } from "../templates/csv/mod.ts";
import type { CsvTemplate } from "../csv/types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { didYouMean } from "../core/suggest.ts";
import { markBadInput } from "./bad_input.ts";
import { checkOutputFile, writeOutputFile } from "../files/output_files.ts";
import {
  defineOperation,
  type Operation,
  type OperationAnnotations,
  type OperationContext,
} from "./types.ts";

/** Problems the printed summary lists; the report file has all of them. */
export const SUMMARY_PROBLEMS = 100;
/**
 * Problems a report file holds at most; the rest are counted. Kept in memory while the file is checked
 * (about 200 bytes each), so a file where every row is wrong cannot exhaust memory.
 */
export const REPORT_MAX_PROBLEMS = 1_000_000;

/**
 * Reads a local file; the catalog is not touched. Read-only without a report file, so it stays available
 * in read-only mode; the report file (`reportFile`, or the old `output` naming a path) is a local write,
 * which read-only mode refuses (see `writesLocalFile`).
 */
const LOCAL_CHECK: OperationAnnotations = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  writesLocalFile: ["reportFile", "output"],
};

const FORMATS = ["json", "text", "csv"] as const;
type ReportFormat = (typeof FORMATS)[number];

/**
 * The values of the global `--output` (the format of a command's result): given to this command's old
 * `--output`, they are never a report file's name.
 */
export const OUTPUT_FORMAT_NAMES: readonly string[] = ["json", "table", "csv", "tsv"];

/** The template `--template` names, or a usage error suggesting the nearest name. */
function namedTemplate(name: string): CsvTemplate {
  const template = csvTemplate(name);
  if (template) return template;
  throw new UsageError(
    `--template: unknown CSV template "${name}".${didYouMean(name, CSV_TEMPLATE_NAMES)}`,
    `Templates: ${CSV_TEMPLATE_NAMES.join(", ")} ("govcat templates list --kind csv" describes them).`,
  );
}

/**
 * The template whose columns the header fits best, or a usage error naming the closest one, the columns
 * it misses, and how the header was read.
 */
function detectedTemplate(header: CsvHeader, file: string): CsvTemplate {
  const [best] = rankCsvTemplates(header.cells);
  if (best && best.missingRequired.length === 0) return best.template;
  throw new UsageError(
    `${file}:1: the header (${header.cells.join(", ") || "empty"}) matches no CSV template.${
      closestTemplateText(best)
    }${readWithText(header)}`,
    `Add the missing columns, or name the template with --template (${CSV_TEMPLATE_NAMES.join(", ")}); ` +
      '"govcat templates show <name>" prints a template\'s header and sample rows.',
  );
}

/**
 * The report file: `--report-file`, or the deprecated `--output` holding a path. A format name there is
 * the result's format, never a file (the command line takes it as such before this runs).
 */
function reportFileOf(
  input: { reportFile?: string; output?: string },
  warn: (message: string) => void,
): string | undefined {
  if (input.output === undefined) return input.reportFile;
  if (OUTPUT_FORMAT_NAMES.includes(input.output.trim().toLowerCase())) {
    throw new UsageError(
      `validate csv: output "${input.output}" is an output format, not a report file.`,
      "Name the report file with --report-file (reportFile); the format of the result is the global --output.",
    );
  }
  if (input.reportFile !== undefined) {
    throw new UsageError(
      "validate csv: --output and --report-file both name the report file; give --report-file only.",
    );
  }
  warn(
    `validate csv: --output=${input.output} as the report file is deprecated (--output is the format of ` +
      `the result); write --report-file=${input.output}.`,
  );
  return input.output;
}

export const validateCsv = defineOperation({
  id: "validate.csv",
  group: "validate",
  command: "csv",
  summary: "Check a CSV file against a template (named or detected from its header); exit 2 on problems",
  description: "Nothing is sent to the catalog. Every row is checked: required columns and values, each " +
    "value's kind (GUID, number, status, JSON, …), values that must not repeat, and the template's rules " +
    "across cells. Without --template the template is detected from the header and named in the result; " +
    "the field separator (comma, semicolon, tab or pipe) is detected from the header unless --delimiter " +
    `gives it. The result lists the first ${SUMMARY_PROBLEMS} problems as file:line:column; --report-file ` +
    `writes all of them (up to ${REPORT_MAX_PROBLEMS}) in --format json (default), text (one problem a ` +
    "line) or csv (line, column, columnName, message); --format=text or csv alone prints that report instead " +
    "of the summary. Exits 2 when the file has problems, as an import of " +
    "it would. --output=<file> is the old spelling of --report-file (deprecated); --output=table and the " +
    "other format names are the format of the result, as for every command.",
  input: z.object({
    csvFile: z.string().min(1).describe("CSV file to check"),
    template: z.string().trim().min(1).optional().describe(
      "Template to check against (see `govcat templates list --kind csv`); detected from the header when left out",
    ),
    reportFile: z.string().min(1).optional().describe(
      "File to write the report of every problem to (an existing file only with overwrite)",
    ),
    overwrite: z.boolean().optional().describe("Replace the report file when it exists"),
    format: z.enum(FORMATS).optional().describe(
      "Format of the report: json (default), text or csv; without --report-file, text and csv are printed in place of the summary",
    ),
    delimiter: z.string().min(1).optional().describe(`Field separator: ${DELIMITER_OPTION_HELP}`),
    output: z.string().min(1).optional().describe(
      "Deprecated spelling of --report-file, taken when it is not an output format name (json, table, csv, tsv)",
    ),
  }),
  annotations: LOCAL_CHECK,
  run: async (ctx, input) => {
    const reportPath = reportFileOf(input, (message) => ctx.logger?.warn(message));
    // --format alone prints the report itself (text or csv) in place of the summary.
    const printedReport = reportPath ? undefined : input.format === "json" ? undefined : input.format;
    const delimiter = delimiterOption(input.delimiter);
    const file = input.csvFile;
    const path = ctx.files ? await ctx.files.readable(file, "--csv-file") : file;
    // A report path the front end refuses (or an existing file) is refused before a long check, not after.
    const overwrite = input.overwrite === true;
    if (reportPath) await checkOutputFile(ctx, reportPath, "--report-file", { overwrite });
    let template: CsvTemplate;
    let detected = false;
    if (input.template) template = namedTemplate(input.template);
    else {
      const header = await readCsvHeader(path, file, { delimiter, signal: ctx.signal });
      if (header === undefined) {
        throw new UsageError(
          `${file} is empty: the first line must be a header naming the columns.`,
          '"govcat templates list --kind csv" lists the templates; "govcat templates show <name>" prints one.',
        );
      }
      template = detectedTemplate(header, file);
      detected = true;
    }
    const report = await check(
      ctx,
      path,
      file,
      template,
      reportPath || printedReport ? REPORT_MAX_PROBLEMS : SUMMARY_PROBLEMS,
      delimiter,
    );
    if (printedReport) {
      const chunks: string[] = [];
      await renderReport(printedReport, report, detected, (text) => void chunks.push(text));
      // Printed as it is; still a report of bad input when the file has problems (exit 2).
      const text = new String(chunks.join(""));
      return report.problemCount > 0 ? markBadInput(text) : text;
    }
    const written = reportPath
      ? await writeReport(ctx, reportPath, input.format ?? "json", report, detected, overwrite)
      : undefined;
    const result = {
      file,
      template: template.name,
      detected,
      usage: template.usage,
      delimiter: delimiterName(report.delimiter),
      delimiterDetected: report.delimiterDetected,
      rows: report.rows,
      valid: report.problemCount === 0,
      problemCount: report.problemCount,
      problems: report.problems.slice(0, SUMMARY_PROBLEMS).map(formatProblem),
      ...(written ?? {}),
    };
    // A file with problems is bad input: the command line prints this and exits 2.
    return report.problemCount > 0 ? markBadInput(result) : result;
  },
});

async function check(
  ctx: OperationContext,
  path: string,
  file: string,
  template: CsvTemplate,
  maxProblems: number,
  delimiter: CsvDelimiter | undefined,
): Promise<CsvCheckReport> {
  try {
    return await checkCsvFile(path, template, {
      displayName: file,
      maxProblems,
      delimiter,
      signal: ctx.signal,
      onRows: (rows) => ctx.progress?.update({ phase: "validating", done: rows, errors: 0 }),
    });
  } finally {
    ctx.progress?.finish();
  }
}

/** Writes the report in `format`; returns the fields the summary adds. */
async function writeReport(
  ctx: OperationContext,
  output: string,
  format: ReportFormat,
  report: CsvCheckReport,
  detected: boolean,
  overwrite: boolean,
): Promise<{ reportFile: string; reportFormat: ReportFormat; reportedProblems: number }> {
  await writeOutputFile(
    ctx,
    output,
    "--report-file",
    (write) => renderReport(format, report, detected, write),
    { overwrite },
  );
  return { reportFile: output, reportFormat: format, reportedProblems: report.problems.length };
}

/** The report of every problem held, in `format`, written piece by piece. */
async function renderReport(
  format: ReportFormat,
  report: CsvCheckReport,
  detected: boolean,
  write: (text: string) => unknown,
): Promise<void> {
  const { problems } = report;
  if (format === "text") {
    for (const problem of problems) await write(`${formatProblem(problem)}\n`);
    if (report.problemCount > problems.length) {
      await write(`… and ${report.problemCount - problems.length} more problems not listed\n`);
    }
    return;
  }
  if (format === "csv") {
    await write("line,column,columnName,message\r\n");
    for (const p of problems) {
      await write(
        csvReportLine([String(p.line), p.column ? String(p.column) : "", p.columnName ?? "", p.message]),
      );
    }
    return;
  }
  const head = {
    file: report.file,
    template: report.template,
    detected,
    delimiter: delimiterName(report.delimiter),
    rows: report.rows,
    valid: report.problemCount === 0,
    problemCount: report.problemCount,
    reportedProblems: problems.length,
    sha256: report.sha256,
    size: report.size,
  };
  await write(`${JSON.stringify(head, null, 2).slice(0, -2)},\n  "problems": [`);
  for (let i = 0; i < problems.length; i++) {
    const { line, column, columnName, message } = problems[i];
    await write(`${i === 0 ? "" : ","}\n    ${JSON.stringify({ line, column, columnName, message })}`);
  }
  await write(problems.length === 0 ? "]\n}\n" : "\n  ]\n}\n");
}

/** One CSV line of the csv report (csvLine guards cells against spreadsheet formulas). */
function csvReportLine(cells: string[]): string {
  return csvLine(cells) + "\r\n";
}

/** Every operation of the `validate` group. */
export const VALIDATE_OPERATIONS: Operation[] = [validateCsv];
