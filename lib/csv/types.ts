/**
 * The shapes shared by the bulk CSV engine: column specifications and templates (what a file must hold),
 * rows as read and as checked, problems with their place in the file, and the import plug-in contract
 * (how checked rows become catalog calls). Each import (entities, glossary terms, lineage, collections,
 * unified catalog terms) is one {@link BulkImport} value; the engine (`engine.ts`) does the rest.
 *
 * @module
 */
import type { CsvDelimiter } from "./delimiter.ts";

/** How a cell's text is checked and converted. */
export type ColumnKind =
  | "text"
  | "guid"
  | "integer"
  | "boolean"
  /** A number from 0 to 1 (lineage confidence). */
  | "score"
  /** One of `values`, matched without regard to letter case; the canonical spelling is kept. */
  | "enum"
  /** A JSON value (object, array, …). */
  | "json"
  | "email"
  | "url";

/** One column a template knows. */
export interface ColumnSpec {
  /** The name in the header, as users write it (`qualifiedName`, `source_entity_guid`). */
  name: string;
  /** Other header spellings accepted for the same column (`Nick Name` for `nickname`). */
  aliases?: readonly string[];
  kind: ColumnKind;
  /** The column must be in the header. */
  requiredColumn?: boolean;
  /** Every row needs a non-empty cell (implies `requiredColumn`). */
  required?: boolean;
  /** Allowed values of an `enum` column. */
  values?: readonly string[];
  /** The cell holds several values separated by `;` (tags, synonyms, contacts); each one is checked. */
  multi?: boolean;
  /** What the column means and holds, for templates, `--help` and error hints. */
  description: string;
  /** A value for sample files. */
  example?: string;
}

/** Columns matched by a prefix instead of a fixed name (`attr.<name>`, `bm.<group>.<attribute>`). */
export interface ColumnPattern {
  /** Prefix of the header name, e.g. `attr.`. */
  prefix: string;
  kind: ColumnKind;
  description: string;
  /**
   * How many `.`-separated parts the name after the prefix has at least (`bm.<group>.<attribute>`: 2);
   * 1 when absent.
   */
  nameParts?: number;
  /** The form of the name, for messages (`bm.<group>.<attribute>`); `<prefix><name>` when absent. */
  nameForm?: string;
}

/** A cell's value after checking: text, a number, a boolean, a list (multi), or parsed JSON. */
export type CellValue = string | number | boolean | string[] | unknown;

/** A data row of a file as read: its first physical line (1-based) and its raw cells. */
export interface CsvRow {
  line: number;
  cells: string[];
}

/** A data row after checking: values by canonical column name; empty cells are absent. */
export interface CheckedRow {
  line: number;
  /** The raw cells, kept for the reject file. */
  cells: string[];
  /** Values of template columns by `ColumnSpec.name`. */
  values: Record<string, CellValue>;
  /** Values of pattern columns by their full header name (`attr.retention_days`). */
  extras: Record<string, CellValue>;
}

/** A problem found in a file. */
export interface CsvProblem {
  file: string;
  /** 1-based physical line. */
  line: number;
  /** 1-based field position in the row, when the problem is one cell's. */
  column?: number;
  /** The header name of that column. */
  columnName?: string;
  message: string;
}

/** What a CSV file must hold for one import or check. */
export interface CsvTemplate {
  /** Stable name users pass to `--template` (`entity-bulk-update`, `lineage-column`). */
  name: string;
  summary: string;
  /** The command the file is for, e.g. `govcat entity bulk-import --csv-file <file>`. */
  usage: string;
  columns: readonly ColumnSpec[];
  patterns?: readonly ColumnPattern[];
  /** Refuse header names that are neither columns nor patterns (default true). */
  strictColumns?: boolean;
  /**
   * Groups of columns whose combined values must not repeat within a file (compared without letter case),
   * e.g. `[["typeName", "qualifiedName"]]`. Rows with an empty value in the group are not compared.
   */
  unique?: readonly (readonly string[])[];
  /** At least one column of each group must be in the header (e.g. `guid` or `qualifiedName`). */
  oneOf?: readonly (readonly string[])[];
  /**
   * The field separators a file may use; any when absent. A file the service's own import reads (glossary
   * terms, business metadata) is uploaded as it is, and that import reads commas only.
   */
  delimiters?: readonly CsvDelimiter[];
  /** Checks across cells of one row; returns problems as `[column name or undefined, message]`. */
  checkRow?(row: CheckedRow): Array<[string | undefined, string]>;
  /** Rows of the sample file `templates` writes; they must pass this template and import cleanly. */
  sample: readonly (readonly string[])[];
}

/**
 * Outcome of one unit, as the import's `send` reports it. A unit of several rows written once (a
 * collection's role members) may say how many of its rows needed no change: `unchanged` of its rows count
 * as skipped, the rest under its status.
 */
export type UnitOutcome =
  | { status: "created" | "updated" | "skipped"; unchanged?: number }
  | { status: "rejected"; reason: string; httpStatus?: number; code?: string };

/** Import work: one or more input lines that become one item sent to the catalog. */
export interface ImportUnit<Item> {
  /** The input lines this unit came from (usually one). */
  lines: number[];
  item: Item;
}

/** What a dry run would do with a unit. */
export type PlannedAction = "create" | "update" | "skip" | "reject";

/** One field a planned row would change: its value now (`null` when absent) and the value it would get. */
export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
}

/** What a unit would do (`--plan`), field by field, and every field its plan read with its value then. */
export interface UnitDiff {
  action: "create" | "update" | "unchanged" | "skip" | "reject";
  /** What names the unit's item in the catalog (`azure_sql_table mssql://…`, a GUID). */
  target: string;
  changes: FieldChange[];
  /** Why the unit is rejected or skipped. */
  reason?: string;
  /**
   * Every field the plan read, with its value at plan time (`null` when absent; `guid` is the item's GUID,
   * `null` when there is none): applying the plan re-reads them and refuses when one differs.
   */
  read: Record<string, unknown>;
}

/** Everything the engine needs of one kind of import. */
export interface BulkImport<Item> {
  /** Operation id (`entity.bulk-import`); recorded in the checkpoint so a resume uses the same import. */
  id: string;
  template: CsvTemplate;
  /** Turns checked rows into units. The default is one unit per row through `toItem`. */
  units?(rows: AsyncIterable<CheckedRow>): AsyncIterable<ImportUnit<Item>>;
  toItem?(row: CheckedRow): Item;
  /**
   * Sends a batch and reports one outcome per unit, in order. Throws when the whole batch failed (the
   * engine then splits it to find the bad units, or stops when the service cannot be reached).
   */
  send(units: ImportUnit<Item>[], signal: AbortSignal): Promise<UnitOutcome[]>;
  /** Which units are already in the catalog: used by `--skip-existing` and dry runs. */
  existing?(units: ImportUnit<Item>[], signal: AbortSignal): Promise<boolean[]>;
  /**
   * Which units the catalog already holds exactly as they would be written: asked, instead of sending
   * again, for batches an earlier run may have applied (resume) and after an answer was lost. Without it
   * such units are sent again, which the import must tolerate.
   */
  applied?(units: ImportUnit<Item>[], signal: AbortSignal): Promise<boolean[]>;
  /**
   * What a dry run would do with each unit, when `existing` cannot tell (an update of entities that may
   * be missing); a planned "reject" says why in `describe`.
   */
  plan?(units: ImportUnit<Item>[], signal: AbortSignal): Promise<PlannedAction[]>;
  /** What each unit would change, field by field (`--plan`, `--apply-plan`); without it no plan is offered. */
  diff?(units: ImportUnit<Item>[], signal: AbortSignal): Promise<UnitDiff[]>;
  /** A short description of a unit for dry-run previews. */
  describe(unit: ImportUnit<Item>): Record<string, unknown>;
  /** Units must be sent one batch at a time, in file order (parents before children). */
  sequential?: boolean;
  /** Registers for throttling notices (a 429 seen by the HTTP core); returns the unsubscribe function. */
  onThrottle?(listener: (delayMs: number) => void): () => void;
}
