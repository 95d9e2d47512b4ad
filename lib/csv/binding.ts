/**
 * One row checked against a header's match to its template (`header_binding.ts`): each cell's
 * presence and kind, `;`-separated multi-value cells, and the template's own checks across cells. Every
 * problem names its line and column and says what was expected. Pure: no I/O.
 *
 * @example
 * ```ts
 * import { checkRow } from "./binding.ts";
 * import { bindHeader } from "./header_binding.ts";
 * import type { CsvTemplate } from "./types.ts";
 * const template: CsvTemplate = {
 *   name: "demo", summary: "", usage: "", sample: [],
 *   columns: [{ name: "guid", kind: "guid", required: true, description: "Entity GUID" }],
 * };
 * const { binding } = bindHeader(template, { line: 1, cells: ["GUID"] }, "demo.csv");
 * checkRow(binding, { line: 2, cells: ["nope"] }).problems[0].message; // '"nope" is not a GUID: …'
 * ```
 *
 * @module
 */
import { type CsvDelimiter, delimiterName } from "./delimiter.ts";
import { CellError, convertCell, kindLabel } from "./kinds.ts";
import { shown } from "./problems.ts";
import type { HeaderBinding } from "./header_binding.ts";
import type { CellValue, CheckedRow, CsvProblem, CsvRow, CsvTemplate } from "./types.ts";

/** `text` written with `delimiter` in place of its commas, a tab as `<tab>`. */
function example(delimiter: CsvDelimiter, text: string): string {
  return text.replaceAll(",", delimiter === "\t" ? "<tab>" : delimiter);
}

/** The cells of a multi-value cell: split at `;`, trimmed, empty parts dropped. */
export function splitMulti(text: string): string[] {
  return text.split(";").map((part) => part.trim()).filter((part) => part !== "");
}

/**
 * Checks one row: its cell count against the header, required cells, each value's kind (each part of a
 * multi-value cell), values under unnamed columns, then the template's `checkRow` (only when the cells
 * passed). Empty cells are absent from `values`.
 */
export function checkRow(binding: HeaderBinding, row: CsvRow): { row: CheckedRow; problems: CsvProblem[] } {
  const { file, slots, names } = binding;
  const values: Record<string, CellValue> = {};
  const extras: Record<string, CellValue> = {};
  // Made as fresh.ts says, for a million rows: never straight into the old generation.
  const checked = {} as CheckedRow;
  checked.line = row.line;
  checked.cells = row.cells;
  checked.values = values;
  checked.extras = extras;
  // A literal: V8 may place such arrays in the old generation, but nothing keeps them and an empty one
  // holds nothing young alive (fresh.ts).
  const problems: CsvProblem[] = [];
  const line = row.line;
  if (row.cells.length !== slots.length) {
    const fewer = row.cells.length < slots.length;
    problems.push({
      file,
      line,
      message: `the row has ${row.cells.length} field${
        row.cells.length === 1 ? "" : "s"
      } but the header has ${slots.length}: ${
        fewer
          ? `add the missing fields (empty ones too, as in ${example(binding.delimiter, "a,,c")}).`
          : `a value holding a ${delimiterName(binding.delimiter)} must be enclosed in double quotes (${
            example(binding.delimiter, '"a, b"')
          }).`
      }`,
    });
    return checkedWith(checked, problems);
  }
  for (let index = 0; index < slots.length; index++) {
    const slot = slots[index];
    const text = row.cells[index].trim();
    if (slot.type === "ignored") {
      if (slot.reason === "unnamed" && text !== "") {
        problems.push({
          file,
          line,
          column: index + 1,
          message: `${shown(text)} is under a column without a name in the header; name the column or ` +
            "remove the value.",
        });
      }
      continue;
    }
    if (slot.type === "pattern") {
      if (text === "") continue;
      const value = convertCell(slot.pattern, text);
      if (value instanceof CellError) cellProblem(problems, binding, line, index, value.message);
      else extras[slot.name] = value;
      continue;
    }
    const spec = slot.spec;
    if (!spec.multi) {
      if (text === "") {
        if (spec.required) {
          cellProblem(problems, binding, line, index, `a value is required (${spec.description}).`);
        }
        continue;
      }
      const value = convertCell(spec, text);
      if (value instanceof CellError) cellProblem(problems, binding, line, index, value.message);
      else values[spec.name] = value;
      continue;
    }
    const parts = splitMulti(text);
    if (parts.length === 0) {
      if (spec.required) {
        cellProblem(problems, binding, line, index, `a value is required (${spec.description}).`);
      }
      continue;
    }
    const converted: CellValue[] = [];
    for (const part of parts) {
      const value = convertCell(spec, part);
      if (value instanceof CellError) cellProblem(problems, binding, line, index, value.message);
      else converted.push(value);
    }
    if (converted.length === parts.length) values[spec.name] = converted;
  }
  if (problems.length === 0 && binding.template.checkRow) {
    for (const [name, message] of binding.template.checkRow(checked)) {
      const index = name === undefined ? undefined : placeOf(binding, name);
      problems.push(
        index === undefined
          ? { file, line, message }
          : { file, line, column: index + 1, columnName: names[index], message },
      );
    }
  }
  return checkedWith(checked, problems);
}

/** What {@link checkRow} returns, of no allocation site (see fresh.ts). */
function checkedWith(row: CheckedRow, problems: CsvProblem[]): { row: CheckedRow; problems: CsvProblem[] } {
  const result = {} as { row: CheckedRow; problems: CsvProblem[] };
  result.row = row;
  result.problems = problems;
  return result;
}

/** Adds a problem of one cell. */
function cellProblem(
  problems: CsvProblem[],
  binding: HeaderBinding,
  line: number,
  index: number,
  message: string,
): void {
  problems.push({ file: binding.file, line, column: index + 1, columnName: binding.names[index], message });
}

/** The 0-based header position of a template column or a pattern column's full name. */
function placeOf(binding: HeaderBinding, name: string): number | undefined {
  const position = binding.positions.get(name);
  if (position !== undefined) return position;
  const index = binding.slots.findIndex((slot) => slot.type === "pattern" && slot.name === name);
  return index < 0 ? undefined : index;
}

/** One paragraph describing a template's columns, required ones marked, for hints and `--help`. */
export function templateHint(template: CsvTemplate): string {
  const columns = template.columns.map((spec) => {
    const notes = [
      spec.required ? "required" : spec.requiredColumn ? "column required" : undefined,
      spec.kind === "text" ? undefined : kindLabel(spec),
      spec.multi ? "several separated by ';'" : undefined,
    ].filter((note) => note !== undefined);
    return notes.length > 0 ? `${spec.name} (${notes.join("; ")})` : spec.name;
  });
  const patterns = (template.patterns ?? []).map((pattern) =>
    `${pattern.prefix}<name> (${pattern.kind === "text" ? pattern.description : kindLabel(pattern)})`
  );
  const sentences = [`Columns of the ${template.name} template: ${[...columns, ...patterns].join(", ")}.`];
  for (const group of template.oneOf ?? []) sentences.push(`At least one of ${group.join(", ")} is needed.`);
  for (const group of template.unique ?? []) {
    sentences.push(`${group.join(" with ")} must not repeat within the file (letter case aside).`);
  }
  sentences.push(`Header names ignore case, spaces, '_' and '-'; the first line must be the header.`);
  return sentences.join(" ");
}
