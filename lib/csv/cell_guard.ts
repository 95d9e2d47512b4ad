/**
 * The guard against CSV injection (OWASP "CSV Injection"), the one place every CSV and TSV govcat writes
 * and reads goes through. A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is
 * written with a leading `'`, so a spreadsheet shows it as text instead of running it as a formula; govcat's
 * readers take that one `'` off again, so export → edit → import gives back the value exactly.
 *
 * The rule, without ambiguity: a value that already starts with `'`s followed by a formula start (`'=x`)
 * gets one more (`''=x`), and reading takes exactly one off. A `'` before anything else (`'quoted'`) is
 * neither added nor taken off, nor is one before white space alone. Negative numbers are guarded too (`-5` is written `'-5`, which spreadsheets
 * show as text); govcat reads them back as `-5`.
 *
 * @example
 * ```ts
 * import { guardCell, unguardCell } from "./cell_guard.ts";
 * guardCell("=HYPERLINK(\"http://x\")"); // "'=HYPERLINK(\"http://x\")"
 * unguardCell(guardCell("-5")); // "-5"
 * guardCell("'=x"); // "''=x", read back as "'=x"
 * guardCell("Finance"); // "Finance"
 * ```
 *
 * @module
 */

/**
 * Text that gets a `'` on writing: a formula start, after any `'`s of its own, so that text which already
 * starts with `'=` is written `''=` and reads back as it was. A tab or carriage return counts only when
 * something other than white space follows (a cell of white space alone runs nothing, and readers skip a
 * row of such cells).
 */
const GUARDED = /^'*(?:[=+\-@]|[\t\r]\s*\S)/;

const QUOTE = 39; // "'"

/** A cell as written to a file: text a spreadsheet would run as a formula gets a leading `'`. */
export function guardCell(value: string): string {
  return GUARDED.test(value) ? `'${value}` : value;
}

/** A cell as read from a file: the `'` {@link guardCell} added is taken off. */
export function unguardCell(value: string): string {
  return value.charCodeAt(0) === QUOTE && GUARDED.test(value.slice(1)) ? value.slice(1) : value;
}

/** Takes the guard off every cell of `cells`, in place (rows as the reader makes them). */
export function unguardCells(cells: string[]): void {
  for (let i = 0; i < cells.length; i++) {
    if (cells[i].charCodeAt(0) === QUOTE) cells[i] = unguardCell(cells[i]);
  }
}
