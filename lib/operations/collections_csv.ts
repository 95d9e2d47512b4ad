/**
 * The CSV layout of collection import and export, and the guard against CSV injection: a cell that starts
 * with `=`, `+`, `-` or `@` (or a tab or carriage return) is written with a leading `'` so a spreadsheet
 * shows it as text instead of running it as a formula, and the import takes that `'` off again.
 *
 * @example
 * ```ts
 * import { guardCell, unguardCell } from "./collections_csv.ts";
 * guardCell("=HYPERLINK(\"http://x\")"); // "'=HYPERLINK(\"http://x\")"
 * unguardCell(guardCell("-finance")); // "-finance"
 * guardCell("Finance"); // "Finance"
 * ```
 *
 * @module
 */
import { parseCsv } from "../deps/csv.ts";
import { UsageError } from "../errors.ts";

/** The columns the import reads; only `collection_name` is required. */
export const IMPORT_COLUMNS = [
  "collection_name",
  "friendly_name",
  "description",
  "parent_collection",
] as const;

/** Columns of the export. */
export const EXPORT_COLUMNS = {
  base: ["collection_name", "friendly_name"],
  hierarchy: ["parent_collection", "path"],
  metadata: [
    "description",
    "provisioning_state",
    "created_at",
    "created_by",
    "last_modified_at",
    "last_modified_by",
  ],
} as const;

/** Columns the export writes that the import accepts and ignores, so an exported file imports again. */
export const EXPORT_ONLY_COLUMNS: ReadonlySet<string> = new Set(
  [...EXPORT_COLUMNS.hierarchy, ...EXPORT_COLUMNS.metadata].filter((c) =>
    !(IMPORT_COLUMNS as readonly string[]).includes(c)
  ),
);

const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as written to a file: text a spreadsheet would run as a formula gets a leading `'`. */
export function guardCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A cell as read from a file: the `'` {@link guardCell} added is taken off. */
export function unguardCell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** One parsed record and the line of the file it starts on (1-based). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** Parses CSV text into records with their line numbers; a syntax error is a usage error naming file:line. */
export function parseCsvRecords(text: string, file: string): Promise<CsvRecord[]> {
  return new Promise((resolve, reject) => {
    parseCsv(
      text,
      { bom: true, info: true, skip_empty_lines: true, relax_column_count: true },
      (error, records) => {
        if (error) {
          const line = typeof error.lines === "number" ? error.lines : undefined;
          reject(new UsageError(`${file}${line ? `:${line}` : ""}: not valid CSV: ${error.message}`));
          return;
        }
        resolve((records as unknown as Array<{ info: { lines: number }; record: string[] }>).map((r) => ({
          // info.lines is the line a record ends on; a quoted cell may span several.
          line: r.info.lines - r.record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0),
          cells: r.record,
        })));
      },
    );
  });
}

/** At most this many problems are listed; the rest are counted. */
const MAX_LISTED_PROBLEMS = 20;

/** A usage error listing `problems` (each already `file:line: …`), or nothing when there are none. */
export function throwProblems(file: string, problems: string[], hint?: string): void {
  if (problems.length === 0) return;
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
  const more = problems.length - listed.length;
  throw new UsageError(
    `${file} has ${problems.length} problem${problems.length === 1 ? "" : "s"}; nothing was imported:\n` +
      listed.map((p) => `  ${p}`).join("\n") + (more > 0 ? `\n  … and ${more} more` : ""),
    hint,
  );
}
