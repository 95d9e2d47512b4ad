/**
 * The CSV files of the glossary commands, checked before anything is sent: the term import file of
 * `import-terms` (the service's template columns — Name, Nick Name, Status, Definition, Acronym, … — or the
 * spec's name, description, short_description, status, definition, examples) and the assignment file of
 * `assign_terms` (term_guid, entity_guid). Every problem is reported as `file:line: column …: what`, and
 * all of them at once, so a file can be fixed in one go.
 *
 * @example
 * ```ts
 * import { columnKey } from "./glossary_csv.ts";
 * columnKey("Short Description"); // "shortdescription"
 * ```
 *
 * @module
 */
import { TERM_STATUSES } from "../catalog/glossary_types.ts";
import { parseCsv } from "../deps/csv.ts";
import { UsageError } from "../errors.ts";

/** One CSV record with the line it starts on. */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** Problems listed in one error message; the rest are counted. */
const MAX_LISTED = 20;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `Nick Name`, `nick_name` and `NICKNAME` all become `nickname`, as the service matches them. */
export function columnKey(header: string): string {
  return header.trim().toLowerCase().replace(/[\s_-]+/g, "");
}

/** Parses CSV text into records with line numbers; unreadable CSV is a usage error naming the line. */
export function readCsvRecords(text: string, file: string): Promise<CsvRecord[]> {
  return new Promise((resolve, reject) => {
    parseCsv(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      record_delimiter: ["\r\n", "\n", "\r"],
    }, (error: Error | undefined, records: unknown) => {
      if (error) {
        const line = (error as Error & { lines?: number }).lines ?? 1;
        reject(new UsageError(`${file}:${line}: not valid CSV: ${error.message}`));
        return;
      }
      // With `info: true` every record comes with its position.
      const located = records as Array<{ record: string[]; info: { lines: number } }>;
      resolve(located.map(({ record, info }) => ({
        // info.lines is where the record ends; line breaks inside quoted fields move its start up.
        line: info.lines - record.join("").split("\n").length + 1,
        cells: record,
      })));
    });
  });
}

/** Throws one usage error listing `problems` (at most {@link MAX_LISTED}), or returns when there are none. */
function report(problems: string[], file: string, hint: string): void {
  if (problems.length === 0) return;
  const listed = problems.slice(0, MAX_LISTED);
  const more = problems.length > MAX_LISTED ? [`… and ${problems.length - MAX_LISTED} more`] : [];
  const heading = `${file} has ${problems.length} problem${
    problems.length > 1 ? "s" : ""
  }; nothing was sent:`;
  throw new UsageError([heading, ...listed, ...more].join("\n  "), hint);
}

/** The header and data records of a file; an empty file or one without data rows is a usage error. */
async function headerAndRows(text: string, file: string, hint: string): Promise<[CsvRecord, CsvRecord[]]> {
  const [header, ...rows] = await readCsvRecords(text, file);
  if (!header) throw new UsageError(`${file} is empty: a header line and at least one row are needed.`, hint);
  if (rows.length === 0) {
    throw new UsageError(`${file}:${header.line}: a header but no rows to import.`, hint);
  }
  return [header, rows];
}

const TERM_HINT = "Columns: Name (required), Status (Draft, Approved, Alert, Expired), Definition, " +
  "Nick Name, Acronym, Resources, Related Terms, Synonyms, Stewards, Experts, Parent Term Name; or name, " +
  "description, short_description, status, definition, examples.";

/** Checks a term import file: a Name column, a name on every row, no name twice, valid statuses. */
export async function checkTermCsv(text: string, file: string): Promise<{ rows: number }> {
  const [header, rows] = await headerAndRows(text, file, TERM_HINT);
  const keys = header.cells.map(columnKey);
  const nameAt = keys.indexOf("name");
  if (nameAt < 0) {
    throw new UsageError(
      `${file}:${header.line}: no Name column (found: ${header.cells.join(", ") || "nothing"}).`,
      TERM_HINT,
    );
  }
  const statusAt = keys.indexOf("status");
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const label = (i: number) => `column ${header.cells[i].trim()}`;
  for (const row of rows) {
    const name = (row.cells[nameAt] ?? "").trim();
    if (name === "") problems.push(`${file}:${row.line}: ${label(nameAt)}: the term name is empty`);
    else if (name.includes("@")) {
      problems.push(`${file}:${row.line}: ${label(nameAt)}: "${name}" contains '@'`);
    } else if (seen.has(name)) {
      problems.push(`${file}:${row.line}: ${label(nameAt)}: "${name}" is also on line ${seen.get(name)}`);
    } else seen.set(name, row.line);
    const status = statusAt < 0 ? "" : (row.cells[statusAt] ?? "").trim();
    if (status !== "" && !TERM_STATUSES.some((s) => s.toLowerCase() === status.toLowerCase())) {
      problems.push(
        `${file}:${row.line}: ${label(statusAt)}: "${status}" is not a term status (${
          TERM_STATUSES.join(", ")
        })`,
      );
    }
  }
  report(problems, file, TERM_HINT);
  return { rows: rows.length };
}

/** One row of an assignment file. */
export interface AssignmentRow {
  line: number;
  termGuid: string;
  entityGuid: string;
}

const ASSIGN_HINT = "The file needs the columns term_guid and entity_guid, one assignment per row.";

/** Reads an assignment file: both columns present, GUIDs well formed, no pair twice. */
export async function readAssignmentCsv(text: string, file: string): Promise<AssignmentRow[]> {
  const [header, rows] = await headerAndRows(text, file, ASSIGN_HINT);
  const keys = header.cells.map((cell) => cell.trim().toLowerCase());
  const missing = ["term_guid", "entity_guid"].filter((column) => !keys.includes(column));
  if (missing.length > 0) {
    throw new UsageError(
      `${file}:${header.line}: no ${missing.join(" or ")} column (found: ${header.cells.join(", ")}).`,
      ASSIGN_HINT,
    );
  }
  const termAt = keys.indexOf("term_guid");
  const entityAt = keys.indexOf("entity_guid");
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const assignments: AssignmentRow[] = [];
  for (const row of rows) {
    const termGuid = (row.cells[termAt] ?? "").trim();
    const entityGuid = (row.cells[entityAt] ?? "").trim();
    let ok = true;
    for (const [column, value] of [["term_guid", termGuid], ["entity_guid", entityGuid]]) {
      if (!GUID.test(value)) {
        ok = false;
        problems.push(
          `${file}:${row.line}: column ${column}: ${value ? `"${value}" is not a GUID` : "empty"}`,
        );
      }
    }
    if (!ok) continue;
    const key = `${termGuid.toLowerCase()} ${entityGuid.toLowerCase()}`;
    if (seen.has(key)) {
      problems.push(
        `${file}:${row.line}: this term_guid and entity_guid pair is also on line ${seen.get(key)}`,
      );
      continue;
    }
    seen.set(key, row.line);
    assignments.push({ line: row.line, termGuid, entityGuid });
  }
  report(problems, file, ASSIGN_HINT);
  return assignments;
}
