/**
 * How problems found in CSV files are written for people: `file:line:column: column <name>: message`,
 * the way compilers point at a place in a file, and the one error that lists them when a file is refused.
 * Also the key header names are matched by.
 *
 * @example
 * ```ts
 * import { columnKey, formatProblem } from "./problems.ts";
 * columnKey(" Nick_Name "); // "nickname"
 * formatProblem({ file: "terms.csv", line: 4, column: 2, columnName: "status", message: "not a status" });
 * // "terms.csv:4:2: column status: not a status"
 * ```
 *
 * @module
 */
import { UsageError } from "../core/errors.ts";
import type { CsvProblem } from "./types.ts";

/** Problems listed in one error; the rest are counted. */
export const MAX_LISTED_PROBLEMS = 30;

/** The column key used to match header names: trimmed, lower case, spaces, `_` and `-` removed. */
export function columnKey(header: string): string {
  return header.trim().toLowerCase().replace(/[\s_-]+/g, "");
}

/**
 * Characters a terminal would hide or use to reorder the text around them (controls, bidirectional
 * overrides and isolates, zero-width characters, lone surrogates): a cell or header holding them must not
 * make a message read differently from what the file holds.
 */
const INVISIBLE =
  // deno-lint-ignore no-control-regex -- control characters are what it finds.
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF\uFFF9-\uFFFB]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` with every invisible or reordering character written as a `\uXXXX` escape; tabs and line feeds kept. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
}

/** `file:line:column: column <name>: message` (the column parts only when known), invisible characters escaped. */
export function formatProblem(problem: CsvProblem): string {
  const place = `${problem.file}:${problem.line}${problem.column ? `:${problem.column}` : ""}`;
  const column = problem.columnName ? ` column ${problem.columnName}:` : "";
  return visible(`${place}:${column} ${problem.message}`);
}

/**
 * One UsageError listing the first {@link MAX_LISTED_PROBLEMS} problems, then "… and N more", headed
 * `<file> has N problems; nothing was sent:`; `hint` says how to fix them or see them all.
 */
export function problemsError(
  report: { file: string; problems: readonly CsvProblem[]; problemCount: number },
  hint: string,
): UsageError {
  const count = Math.max(report.problemCount, report.problems.length);
  const listed = report.problems.slice(0, MAX_LISTED_PROBLEMS).map(formatProblem);
  const more = count > listed.length ? [`… and ${count - listed.length} more`] : [];
  const heading = visible(`${report.file} has ${count} problem${count === 1 ? "" : "s"}; nothing was sent:`);
  return new UsageError([heading, ...listed, ...more].join("\n  "), hint);
}

/** A cell's text for a message: quoted, cut when long, invisible characters escaped. */
export function shown(text: string, max = 60): string {
  return visible(JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text));
}
