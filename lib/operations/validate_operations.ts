/**
 * The `validate` group (spec §4.6): `validate csv` checks a CSV file against a template — named with
 * `--template`, or detected from the header — without contacting the catalog. The file is streamed, so
 * a file of millions of rows is fine. Every problem is located as `file:line:column`; the summary lists
 * the first {@link SUMMARY_PROBLEMS}, and `--output` writes a report of all of them (json, text or csv).
 *
 * A file with problems is a failed validation: the summary is printed and carries `failed` (the problem
 * count), so the command exits 1.
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
import { formatProblem } from "../csv/problems.ts";
import { csvLine, readCsvFile } from "../csv/reader.ts";
import { CSV_TEMPLATE_NAMES, csvTemplate, rankCsvTemplates } from "../csv/templates/mod.ts";
import type { CsvTemplate } from "../csv/types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../errors.ts";
import { didYouMean } from "../suggest.ts";
import { guardCell } from "./collections_csv.ts";
import { writeOutputFile } from "./output_files.ts";
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
 * Reads a local file; the catalog is not touched. Read-only, so it stays available in read-only mode:
 * the one thing it may write is the report file the user asks for (confined like every file argument).
 */
const LOCAL_CHECK: OperationAnnotations = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
};

const FORMATS = ["json", "text", "csv"] as const;
type ReportFormat = (typeof FORMATS)[number];

/** The template `--template` names, or a usage error suggesting the nearest name. */
function namedTemplate(name: string): CsvTemplate {
  const template = csvTemplate(name);
  if (template) return template;
  throw new UsageError(
    `--template: unknown CSV template "${name}".${didYouMean(name, CSV_TEMPLATE_NAMES)}`,
    `Templates: ${CSV_TEMPLATE_NAMES.join(", ")} ("govcat templates list --kind csv" describes them).`,
  );
}

/** The header cells of a file, or undefined when it has no rows at all. */
async function readHeader(
  path: string,
  displayName: string,
  signal?: AbortSignal,
): Promise<string[] | undefined> {
  for await (const row of readCsvFile(path, { displayName, signal })) return row.cells;
  return undefined;
}

/** The template whose columns the header fits best, or a usage error naming the closest one. */
function detectedTemplate(header: string[], file: string): CsvTemplate {
  const [best] = rankCsvTemplates(header);
  if (best && best.missingRequired.length === 0) return best.template;
  const closest = best
    ? ` The closest is ${best.template.name}, which needs ${best.missingRequired.join(", ")}` +
      (best.unknown.length > 0 ? ` and does not know ${best.unknown.join(", ")}.` : ".")
    : "";
  throw new UsageError(
    `${file}:1: the header (${header.join(", ") || "empty"}) matches no CSV template.${closest}`,
    `Name the template with --template (${CSV_TEMPLATE_NAMES.join(", ")}), or fix the column names; ` +
      '"govcat templates show <name>" prints a template\'s header and sample rows.',
  );
}

export const validateCsv = defineOperation({
  id: "validate.csv",
  group: "validate",
  command: "csv",
  summary: "Check a CSV file against a template (named or detected from its header); exit 1 on problems",
  description: "Nothing is sent to the catalog. Every row is checked: required columns and values, each " +
    "value's kind (GUID, number, status, JSON, …), values that must not repeat, and the template's rules " +
    "across cells. Without --template the template is detected from the header and named in the result. " +
    `The result lists the first ${SUMMARY_PROBLEMS} problems as file:line:column; --output writes all of ` +
    `them (up to ${REPORT_MAX_PROBLEMS}) to a report file in --format json (default), text (one problem ` +
    "a line) or csv (line, column, columnName, message). Exits 1 when the file has problems.",
  input: z.object({
    csvFile: z.string().min(1).describe("CSV file to check"),
    template: z.string().trim().min(1).optional().describe(
      "Template to check against (see `govcat templates list --kind csv`); detected from the header when left out",
    ),
    output: z.string().min(1).optional().describe("File to write the report of every problem to (replaced)"),
    format: z.enum(FORMATS).optional().describe("Format of the --output report: json (default), text or csv"),
  }),
  annotations: LOCAL_CHECK,
  run: async (ctx, input) => {
    if (input.format && !input.output) {
      throw new UsageError(
        "validate csv: --format is the format of the --output report; add --output <file>.",
        "Without --output the result is printed as JSON.",
      );
    }
    const file = input.csvFile;
    const path = ctx.files ? await ctx.files.readable(file, "--csv-file") : file;
    // A report path the front end refuses is refused before a long check, not after it.
    if (input.output) await ctx.files?.writable(input.output, "--output");
    let template: CsvTemplate;
    let detected = false;
    if (input.template) template = namedTemplate(input.template);
    else {
      const header = await readHeader(path, file, ctx.signal);
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
      input.output ? REPORT_MAX_PROBLEMS : SUMMARY_PROBLEMS,
    );
    const reportFile = input.output
      ? await writeReport(ctx, input.output, input.format ?? "json", report, detected)
      : undefined;
    return {
      file,
      template: template.name,
      detected,
      usage: template.usage,
      rows: report.rows,
      valid: report.problemCount === 0,
      problemCount: report.problemCount,
      problems: report.problems.slice(0, SUMMARY_PROBLEMS).map(formatProblem),
      ...(reportFile ?? {}),
      // A file with problems failed validation: the CLI prints this and exits 1.
      failed: report.problemCount,
    };
  },
});

async function check(
  ctx: OperationContext,
  path: string,
  file: string,
  template: CsvTemplate,
  maxProblems: number,
): Promise<CsvCheckReport> {
  try {
    return await checkCsvFile(path, template, {
      displayName: file,
      maxProblems,
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
): Promise<{ reportFile: string; reportFormat: ReportFormat; reportedProblems: number }> {
  const { problems } = report;
  await writeOutputFile(ctx, output, "--output", async (write) => {
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
  }, { overwrite: true });
  return { reportFile: output, reportFormat: format, reportedProblems: problems.length };
}

/** One CSV line of the csv report, cells guarded against spreadsheet formulas. */
function csvReportLine(cells: string[]): string {
  return csvLine(cells.map(guardCell)) + "\r\n";
}

/** Every operation of the `validate` group. */
export const VALIDATE_OPERATIONS: Operation[] = [validateCsv];
