/**
 * A CSV header matched to a template: which column each header position holds (names compared by
 * {@link columnKey}, aliases and prefix patterns too), with every problem of the header itself (a missing
 * required column, an unknown or doubled one, a file read with the wrong separator). `binding.ts` checks
 * the rows against the result. Pure: no I/O.
 *
 * @example
 * ```ts
 * import { bindHeader } from "./header_binding.ts";
 * import type { CsvTemplate } from "./types.ts";
 * const template: CsvTemplate = {
 *   name: "demo", summary: "", usage: "", sample: [],
 *   columns: [{ name: "guid", kind: "guid", required: true, description: "Entity GUID" }],
 * };
 * const { binding, problems } = bindHeader(template, { line: 1, cells: ["GUID"] }, "demo.csv");
 * console.log(binding.positions.get("guid"), problems.length); // 0 0
 * ```
 *
 * @module
 */
import { closestName } from "../core/suggest.ts";
import { type CsvDelimiter, delimiterName } from "./delimiter.ts";
import { columnKey, shown } from "./problems.ts";
import type { ColumnPattern, ColumnSpec, CsvProblem, CsvRow, CsvTemplate } from "./types.ts";

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
  const names = header.cells.map((cell) => cell.trim());
  const line = header.line;
  const bound: BoundHeader = { names, file, line, slots: [], positions: new Map<string, number>() };
  const binding: HeaderBinding = {
    template,
    file,
    headerLine: line,
    names,
    slots: bound.slots,
    positions: bound.positions,
    delimiter,
  };
  const separator = wrongSeparatorProblem(template, names, file, line, delimiter);
  if (separator) {
    bound.slots.push({ type: "ignored", reason: "unknown" });
    return { binding, problems: [separator] };
  }
  const problems: CsvProblem[] = [];
  const columns = new HeaderColumns(template, bound, problems);
  names.forEach((name, index) => columns.bind(name, index));
  problems.push(...missingColumnProblems(template, bound.positions, file, line));
  return { binding, problems };
}

/**
 * A header of one column that holds another separator than the file was read with: the file is separated
 * by that character (a `;` file read as commas), which `--delimiter` or detection would read right.
 */
function wrongSeparatorProblem(
  template: CsvTemplate,
  names: string[],
  file: string,
  line: number,
  delimiter: CsvDelimiter,
): CsvProblem | undefined {
  const only = names.length === 1 ? names[0] : undefined;
  const other = only === undefined
    ? undefined
    : [",", ";", "\t", "|"].find((c) => c !== delimiter && only.includes(c));
  if (other === undefined || template.columns.length <= 1) return undefined;
  const separator = other === "\t" ? "tabs" : `'${other}'`;
  const option = other === "\t" ? "tab" : delimiterName(other as CsvDelimiter);
  return {
    file,
    line,
    message: `the header is one column ${shown(only!)}: the file seems to use ${separator} to separate ` +
      `fields, but it was read with ${delimiterName(delimiter)}s; give --delimiter=${option}, or leave ` +
      "--delimiter out to have the separator detected from the header.",
  };
}

/** A header being bound: its names, and the slots and positions filled in as they are. */
interface BoundHeader {
  names: readonly string[];
  file: string;
  line: number;
  slots: HeaderSlot[];
  positions: Map<string, number>;
}

/** Binds the header's names one by one to the template's columns and patterns, noting each problem. */
class HeaderColumns {
  readonly #template: CsvTemplate;
  readonly #binding: BoundHeader;
  readonly #problems: CsvProblem[];
  readonly #byKey: Map<string, ColumnSpec>;
  readonly #patternNames = new Set<string>();

  constructor(template: CsvTemplate, binding: BoundHeader, problems: CsvProblem[]) {
    this.#template = template;
    this.#binding = binding;
    this.#problems = problems;
    this.#byKey = lookup(template);
  }

  bind(name: string, index: number): void {
    const { slots, positions, names, file, line } = this.#binding;
    const key = columnKey(name);
    const at = { file, line, column: index + 1, columnName: name };
    if (key === "") {
      slots.push({ type: "ignored", reason: "unnamed" });
      return;
    }
    const spec = this.#byKey.get(key);
    if (spec) {
      const first = positions.get(spec.name);
      if (first === undefined) {
        positions.set(spec.name, index);
        slots.push({ type: "column", spec });
      } else {
        slots.push({ type: "ignored", reason: "duplicate" });
        this.#problems.push({
          ...at,
          message: `the column ${spec.name} is already in the header as field ${first + 1} ` +
            `(${shown(names[first])}); remove one of them.`,
        });
      }
      return;
    }
    if (this.#bindPattern(name, key, at)) return;
    if (REJECT_KEYS.has(key)) {
      slots.push({ type: "ignored", reason: "reject" });
      return;
    }
    slots.push({ type: "ignored", reason: "unknown" });
    if (this.#template.strictColumns === false) return;
    const candidates = this.#template.columns.flatMap((column) => [column.name, ...(column.aliases ?? [])]);
    const close = closestName(name, candidates);
    const suggestion = close ? ` Did you mean "${this.#byKey.get(columnKey(close))?.name ?? close}"?` : "";
    this.#problems.push({
      ...at,
      message: `not a column of template ${this.#template.name}.${suggestion} Known columns: ${
        knownNames(this.#template).join(", ")
      }.`,
    });
  }

  /** A name of one of the template's column patterns (e.g. `attr.<name>`): true when it is one. */
  #bindPattern(name: string, key: string, at: Omit<CsvProblem, "message">): boolean {
    const lower = name.toLowerCase();
    const pattern = (this.#template.patterns ?? []).find((candidate) =>
      lower.startsWith(candidate.prefix.toLowerCase()) && lower.length > candidate.prefix.length
    );
    if (!pattern) return false;
    const slots = this.#binding.slots;
    const problem = patternNameProblem(pattern, name);
    if (problem) {
      slots.push({ type: "ignored", reason: "unknown" });
      this.#problems.push({ ...at, message: problem });
    } else if (this.#patternNames.has(key)) {
      slots.push({ type: "ignored", reason: "duplicate" });
      this.#problems.push({ ...at, message: "this column is already in the header; remove one of them." });
    } else {
      this.#patternNames.add(key);
      slots.push({ type: "pattern", pattern, name });
    }
    return true;
  }
}

/** Required columns the header lacks, and `oneOf` groups of which it has none. */
function missingColumnProblems(
  template: CsvTemplate,
  positions: ReadonlyMap<string, number>,
  file: string,
  line: number,
): CsvProblem[] {
  const problems: CsvProblem[] = [];
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
  return problems;
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
