/**
 * Writes command results: JSON by default (stable and pipeable, the result as the service gave it), or a
 * `table` to read, or `csv` or `tsv` to script with — a header row, then one row per record, from the rows
 * `output_rows.ts` finds. `--query` applies a JMESPath expression to the result first, as `az` does.
 *
 * - table: cells on one line (whitespace runs become one space, invisible characters `\uXXXX` escapes),
 *   at most 60 characters, a cut one ending in `…`; a list's paging fields (a search's `@search.count` and
 *   `continuationToken`) follow the table after a blank line.
 * - csv: RFC 4180 quoting; nothing cut.
 * - tsv: cells joined by tabs; a backslash, tab, line feed or carriage return in a value is written `\\`,
 *   `\t`, `\n`, `\r`, so every record is one line and the escaping can be undone; nothing cut.
 * - csv and tsv: a cell a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
 *   carriage return; a negative number too) gets a leading `'` (`lib/csv/cell_guard.ts`), which govcat's CSV
 *   readers take off again.
 * - csv and tsv print only the rows on stdout; a list's paging fields go to stderr as `name: value` lines.
 * - table, csv and tsv: a nested list or record in a cell is compact JSON; Atlas times in epoch milliseconds
 *   are ISO 8601; a plain value, or a list of them (`--query "value[].name"`), is one value per line
 *   without a header, and a list of lists (`--query "value[].[name, id]"`) one row per list.
 *
 * @example
 * ```ts
 * import { renderOutput } from "./output.ts";
 * renderOutput({ value: [{ name: "orders" }], continuationToken: "t1" }, "csv");
 * // { text: "name\norders", notes: ["continuationToken: t1"] }
 * ```
 *
 * @module
 */
import { guardCell } from "../lib/csv/cell_guard.ts";
import { visible } from "../lib/csv/problems.ts";
import { stringifyCsv } from "../lib/deps/csv.ts";
import { UsageError } from "../lib/core/errors.ts";
import { assertRenderableDepth } from "../lib/core/json_depth.ts";
import type { OutputFormat } from "./global_options.ts";
import { type Rows, rowsOf } from "./output_rows.ts";

/** What a command prints. */
export interface RenderedOutput {
  /** For stdout; undefined when there is nothing to print (csv or tsv of no rows). */
  text?: string;
  /** Lines for stderr: a list's paging fields, when the format is csv or tsv. */
  notes: string[];
}

/** Renders one command result. */
export type OutputRenderer = (result: unknown) => RenderedOutput;

/** The widest a table cell gets before it is cut. */
export const MAX_CELL_WIDTH = 60;

/**
 * Makes the renderer of a command's result from its global options, before the command runs: a bad
 * `--query` is refused (exit 2) before anything is sent. The JMESPath library loads only when a query is
 * given.
 */
export async function prepareOutput(
  options: { output: OutputFormat; query?: string },
): Promise<OutputRenderer> {
  const { output, query } = options;
  if (query === undefined) return (result) => renderOutput(result, output);
  const apply = await compileQuery(query);
  return (result) => renderOutput(apply(result), output, { queried: true });
}

/** `expression` compiled to a function of a result; a syntax error is a UsageError naming it. */
async function compileQuery(expression: string): Promise<(result: unknown) => unknown> {
  const { compile, TreeInterpreter } = await import("../lib/deps/jmespath.ts");
  let node: ReturnType<typeof compile>;
  try {
    node = compile(expression);
  } catch (error) {
    throw new UsageError(
      `--query ${JSON.stringify(expression)} is not a valid JMESPath expression: ${(error as Error).message}`,
      "See https://jmespath.org/tutorial.html; e.g. --query 'value[].{name: name, id: id}'.",
    );
  }
  return (result) => {
    assertRenderableDepth(result);
    // The result as JSON output would show it: no undefined fields, no class instances.
    const data = JSON.parse(JSON.stringify(result ?? null));
    try {
      return TreeInterpreter.search(node, data);
    } catch (error) {
      throw new UsageError(
        `--query ${JSON.stringify(expression)} failed on the result: ${(error as Error).message}`,
      );
    }
  };
}

/**
 * Renders `value` in `format`. A string result of a command is text meant to be printed as it is (a CSV
 * template), in any format; a string a query picked is data like any other (`"…"` in JSON).
 */
export function renderOutput(
  value: unknown,
  format: OutputFormat,
  options: { queried?: boolean } = {},
): RenderedOutput {
  if (typeof value === "string" && !options.queried) return { text: value, notes: [] };
  // A text result marked as a report of bad input (`validate csv --format=text`) is a String object.
  if (value instanceof String && !options.queried) return { text: value.toString(), notes: [] };
  // Every format below recurses through the value.
  assertRenderableDepth(value);
  if (format === "json") return { text: JSON.stringify(value ?? null, null, 2), notes: [] };
  const rows = rowsOf(value);
  if (format === "table") return { text: tableText(rows), notes: [] };
  const text = format === "csv" ? csvText(rows) : tsvText(rows);
  return { text: text === "" ? undefined : text, notes: notesOf(rows) };
}

/** The stdout text of {@linkcode renderOutput} (empty when there is none). */
export function formatOutput(value: unknown, format: OutputFormat): string {
  return renderOutput(value, format).text ?? "";
}

// --- table ---------------------------------------------------------------------------------------------

function tableText(rows: Rows): string | undefined {
  if (rows.kind === "values") {
    const text = rows.values.map(tableCell).join("\n");
    return text === "" ? undefined : text;
  }
  if (rows.kind === "tuples") return aligned(rows.rows.map((row) => row.map(tableCell)));
  const body = rows.rows.length === 0 ? "(no rows)" : aligned([
    rows.columns.map(tableCell),
    ...rows.rows.map((row) => rows.columns.map((column) => tableCell(row[column]))),
  ], true);
  const notes = notesOf(rows).map(tableCell);
  return notes.length ? [body, "", ...notes].join("\n") : body;
}

/** Rows of cells in columns two spaces apart, each at most {@linkcode MAX_CELL_WIDTH} wide. */
function aligned(cells: string[][], header = false): string {
  const count = Math.max(...cells.map((row) => row.length));
  const widths = Array.from(
    { length: count },
    (_, i) => Math.min(MAX_CELL_WIDTH, Math.max(...cells.map((row) => (row[i] ?? "").length))),
  );
  const line = (row: string[]) => widths.map((width, i) => fit(row[i] ?? "", width)).join("  ").trimEnd();
  const lines = cells.map(line);
  if (header) lines.splice(1, 0, line(widths.map((w) => "-".repeat(w))));
  return lines.join("\n");
}

/** `text` padded to `width`, or cut to it with `…` as its last character. */
function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

/** A value as one line of text a terminal shows as it is. */
function tableCell(value: unknown): string {
  return visible(dataCell(value).replace(/\s+/g, " "));
}

// --- csv and tsv ---------------------------------------------------------------------------------------

function csvText(rows: Rows): string {
  const table = guardedTable(rows);
  return table.length === 0 ? "" : stringifyCsv(table).replace(/\n$/, "");
}

function tsvText(rows: Rows): string {
  return guardedTable(rows).map((row) => row.map(tsvCell).join("\t")).join("\n");
}

/** The cells csv and tsv write, each guarded against running as a spreadsheet formula. */
function guardedTable(rows: Rows): string[][] {
  return dataTable(rows).map((row) => row.map(guardCell));
}

/** The cells csv and tsv write: the header and the rows of records, or one row per value or list. */
function dataTable(rows: Rows): string[][] {
  if (rows.kind === "values") {
    return rows.values.every((v) => v === null || v === undefined)
      ? []
      : rows.values.map((v) => [dataCell(v)]);
  }
  if (rows.kind === "tuples") return rows.rows.map((row) => row.map(dataCell));
  if (rows.rows.length === 0) return [];
  return [rows.columns, ...rows.rows.map((row) => rows.columns.map((column) => dataCell(row[column])))];
}

const TSV_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

function tsvCell(text: string): string {
  return text.replace(/[\\\t\n\r]/g, (c) => TSV_ESCAPES[c]);
}

// --- cells and notes -----------------------------------------------------------------------------------

/** A value as the text of a cell: nothing for null, compact JSON for a list or record. */
function dataCell(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The paging fields of a list result as `name: value` lines. */
function notesOf(rows: Rows): string[] {
  return rows.kind === "records" ? rows.notes.map(([key, value]) => `${key}: ${dataCell(value)}`) : [];
}
