/**
 * A CSV header matched to a template, and one row checked against that match: which column each header
 * position holds (names compared by {@link columnKey}, aliases and prefix patterns too), then each cell's
 * presence and kind, `;`-separated multi-value cells, and the template's own checks across cells. Every
 * problem names its line and column and says what was expected. Pure: no I/O.
 *
 * @example
 * ```ts
 * import { bindHeader, checkRow } from "./binding.ts";
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
import { closestName } from "../suggest.ts";
import { type CsvDelimiter, delimiterName } from "./delimiter.ts";
import { CellError, convertCell, kindLabel } from "./kinds.ts";
import { columnKey, shown } from "./problems.ts";
import type {
  CellValue,
  CheckedRow,
  ColumnPattern,
  ColumnSpec,
  CsvProblem,
  CsvRow,
  CsvTemplate,
} from "./types.ts";

/** Columns reject files add; always ignored when checking, so a fixed reject file can be imported again. */
export const REJECT_COLUMNS = ["source_line", "import_error"] as const;
const REJECT_KEYS = new Set<string>(REJECT_COLUMNS.map(columnKey));

/** What one header position holds. */
export type HeaderSlot =
  | { type: "column"; spec: ColumnSpec }
  | { type: "pattern"; pattern: ColumnPattern; name: string }
  /** Not read: a reject-file column, an unknown or repeated column, or a column without a name. */
  | { type: "ignored"; reason: "reject" | "unknown" | "duplicate" | "unnamed" };

/** A header matched to a template. */
export interface HeaderBinding {
  template: CsvTemplate;
  file: string;
  headerLine: number;
  /** The header names as written, trimmed. */
  names: readonly string[];
  /** What each header position holds, in header order. */
  slots: readonly HeaderSlot[];
  /** 0-based position of each template column present, by `ColumnSpec.name`. */
  positions: ReadonlyMap<string, number>;
  /** The field separator the file is read with (a comma when not told), for messages. */
  delimiter: CsvDelimiter;
}

function lookup(template: CsvTemplate): Map<string, ColumnSpec> {
  const byKey = new Map<string, ColumnSpec>();
  for (const spec of template.columns) {
    for (const name of [spec.name, ...(spec.aliases ?? [])]) byKey.set(columnKey(name), spec);
  }
  return byKey;
}

/** The template's groups must name its own columns: a mistake there is a bug, not a user error. */
function assertTemplate(template: CsvTemplate): void {
  const names = new Set(template.columns.map((spec) => spec.name));
  for (const group of [...(template.unique ?? []), ...(template.oneOf ?? [])]) {
    for (const name of group) {
      if (!names.has(name)) throw new Error(`template ${template.name}: unknown column ${name} in a group`);
    }
  }
}

/** Header spellings users can write, for suggestions and hints. */
function knownNames(template: CsvTemplate): string[] {
  return [
    ...template.columns.map((spec) => spec.name),
    ...(template.patterns ?? []).map(patternForm),
  ];
}

/**
 * Matches a header to a template. Problems: a required column missing, an unknown column (unless
 * `strictColumns` is false; with a suggestion), a column twice, none of a `oneOf` group present, and a
 * header of one column that looks separated by another character than the `delimiter` it was read with.
 */
export function bindHeader(
  template: CsvTemplate,
  header: CsvRow,
  file: string,
  delimiter: CsvDelimiter = ",",
): { binding: HeaderBinding; problems: CsvProblem[] } {
  assertTemplate(template);
  const byKey = lookup(template);
  const names = header.cells.map((cell) => cell.trim());
  const slots: HeaderSlot[] = [];
  const positions = new Map<string, number>();
  const patternNames = new Set<string>();
  const problems: CsvProblem[] = [];
  const line = header.line;
  const binding: HeaderBinding = { template, file, headerLine: line, names, slots, positions, delimiter };
  const only = names.length === 1 ? names[0] : undefined;
  const other = only === undefined
    ? undefined
    : [",", ";", "\t", "|"].find((c) => c !== delimiter && only.includes(c));
  if (other !== undefined && template.columns.length > 1) {
    const separator = other === "\t" ? "tabs" : `'${other}'`;
    const option = other === "\t" ? "tab" : delimiterName(other as CsvDelimiter);
    problems.push({
      file,
      line,
      message: `the header is one column ${shown(only!)}: the file seems to use ${separator} to separate ` +
        `fields, but it was read with ${delimiterName(delimiter)}s; give --delimiter=${option}, or leave ` +
        "--delimiter out to have the separator detected from the header.",
    });
    slots.push({ type: "ignored", reason: "unknown" });
    return { binding, problems };
  }
  names.forEach((name, index) => {
    const key = columnKey(name);
    const at = { file, line, column: index + 1, columnName: name };
    if (key === "") {
      slots.push({ type: "ignored", reason: "unnamed" });
      return;
    }
    const spec = byKey.get(key);
    if (spec) {
      const first = positions.get(spec.name);
      if (first === undefined) {
        positions.set(spec.name, index);
        slots.push({ type: "column", spec });
      } else {
        slots.push({ type: "ignored", reason: "duplicate" });
        problems.push({
          ...at,
          message: `the column ${spec.name} is already in the header as field ${first + 1} ` +
            `(${shown(names[first])}); remove one of them.`,
        });
      }
      return;
    }
    const lower = name.toLowerCase();
    const pattern = (template.patterns ?? []).find((candidate) =>
      lower.startsWith(candidate.prefix.toLowerCase()) && lower.length > candidate.prefix.length
    );
    if (pattern) {
      const problem = patternNameProblem(pattern, name);
      if (problem) {
        slots.push({ type: "ignored", reason: "unknown" });
        problems.push({ ...at, message: problem });
      } else if (patternNames.has(key)) {
        slots.push({ type: "ignored", reason: "duplicate" });
        problems.push({ ...at, message: "this column is already in the header; remove one of them." });
      } else {
        patternNames.add(key);
        slots.push({ type: "pattern", pattern, name });
      }
      return;
    }
    if (REJECT_KEYS.has(key)) {
      slots.push({ type: "ignored", reason: "reject" });
      return;
    }
    slots.push({ type: "ignored", reason: "unknown" });
    if (template.strictColumns === false) return;
    const candidates = template.columns.flatMap((column) => [column.name, ...(column.aliases ?? [])]);
    const close = closestName(name, candidates);
    const suggestion = close ? ` Did you mean "${byKey.get(columnKey(close))?.name ?? close}"?` : "";
    problems.push({
      ...at,
      message: `not a column of template ${template.name}.${suggestion} Known columns: ${
        knownNames(template).join(", ")
      }.`,
    });
  });
  for (const spec of template.columns) {
    if ((spec.required || spec.requiredColumn) && !positions.has(spec.name)) {
      problems.push({
        file,
        line,
        message: `the header has no ${spec.name} column, which is required (${spec.description}).`,
      });
    }
  }
  for (const group of template.oneOf ?? []) {
    if (!group.some((name) => positions.has(name))) {
      problems.push({
        file,
        line,
        message: `the header needs at least one of the columns ${group.join(", ")}.`,
      });
    }
  }
  return { binding, problems };
}

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

/** How a pattern column's name is written, for messages. */
function patternForm(pattern: ColumnPattern): string {
  return pattern.nameForm ?? `${pattern.prefix}<name>`;
}

/** Names that would reach an object's prototype instead of naming an attribute. */
const RESERVED_NAME_PARTS = new Set(["__proto__", "prototype", "constructor"]);

/**
 * The part of a dotted name (`bm.__proto__.x`) that would reach an object's prototype when used as a key
 * of the object built from it, or undefined. Such names are refused wherever users name attributes.
 */
export function reservedNamePart(name: string): string | undefined {
  return name.split(".").map((part) => part.trim()).find((part) => RESERVED_NAME_PARTS.has(part));
}

/**
 * What is wrong with a pattern column's name (`bm.Governance` lacks its attribute, `attr.__proto__` names
 * no attribute), or undefined: such a column would be dropped, or worse, written onto every object.
 */
function patternNameProblem(pattern: ColumnPattern, name: string): string | undefined {
  const parts = name.slice(pattern.prefix.length).split(".");
  const wanted = pattern.nameParts ?? 1;
  const form = patternForm(pattern);
  if (parts.length < wanted || parts.some((part) => part.trim() === "")) {
    return `the column name ${shown(name)} does not have the form ${form}; name the column that way.`;
  }
  const reserved = reservedNamePart(name);
  if (reserved !== undefined) {
    return `the column name ${
      shown(name)
    } uses "${reserved}", which cannot name an attribute; rename the column.`;
  }
  return undefined;
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
