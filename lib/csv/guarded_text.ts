/**
 * CSV text that passes between govcat and the service, given or taken the guard against spreadsheet
 * formulas (`cell_guard.ts`): the CSV the service writes (`glossary export-terms`) is guarded before it
 * reaches a file, and a file govcat uploads for the service to read (`glossary import-terms`) has the guard
 * taken off first, since the service would keep the `'` as part of the value. Text with no cell to change is
 * returned as it is, byte for byte; otherwise it is written again, cell for cell, with its line endings.
 *
 * @example
 * ```ts
 * import { guardCsvText, unguardCsvText } from "./guarded_text.ts";
 * guardCsvText("Name,Definition\nRevenue,=1+1\n", "export"); // "Name,Definition\nRevenue,'=1+1\n"
 * unguardCsvText("Name,Definition\nRevenue,'=1+1\n", "terms.csv"); // "Name,Definition\nRevenue,=1+1\n"
 * ```
 *
 * @module
 */
import { guardCell, unguardCell } from "./cell_guard.ts";
import type { CsvDelimiter } from "./delimiter.ts";
import { csvLine, readCsvTextSync } from "./reader.ts";

/** `text` (a CSV the service wrote) with every cell guarded; `file` names it in messages. */
export function guardCsvText(text: string, file: string, delimiter: CsvDelimiter = ","): string {
  return rewritten(text, file, delimiter, guardCell, true);
}

/** `text` (a CSV to upload) with the guard taken off every cell; `file` names it in messages. */
export function unguardCsvText(text: string, file: string, delimiter?: CsvDelimiter): string {
  return rewritten(text, file, delimiter, unguardCell, false);
}

function rewritten(
  text: string,
  file: string,
  delimiter: CsvDelimiter | undefined,
  change: (cell: string) => string,
  guard: boolean,
): string {
  let separator: CsvDelimiter = delimiter ?? ",";
  const rows: string[][] = [];
  let changed = false;
  const read = { delimiter, unguard: false, onDelimiter: (found: CsvDelimiter) => separator = found };
  for (const row of readCsvTextSync(text, file, read)) {
    const cells = row.cells.map(change);
    changed ||= cells.some((cell, i) => cell !== row.cells[i]);
    // csvLine guards the cells itself, so it gets them as they were read.
    rows.push(guard ? row.cells : cells);
  }
  if (!changed) return text;
  const end = text.includes("\r\n") ? "\r\n" : "\n";
  const bom = text.charCodeAt(0) === 0xfeff ? "\uFEFF" : "";
  return bom + rows.map((cells) => csvLine(cells, separator, { guard }) + end).join("");
}
