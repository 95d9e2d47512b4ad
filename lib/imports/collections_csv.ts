/**
 * The CSV layout of collections: the columns of the export (which the import reads as the
 * collections-export template), a checked import row as a collection, and the guard against CSV injection: a cell that starts
 * with `=`, `+`, `-` or `@` (or a tab or carriage return) is written with a leading `'` so a spreadsheet
 * shows it as text instead of running it as a formula, and the import takes that `'` off again.
 *
 * @example
 * ```ts
 * import { guardCell, unguardCell } from "./collections_csv.ts";
 * guardCell("=HYPERLINK(\"http://x\")"); // "'=HYPERLINK(\"http://x\")"
 * unguardCell(guardCell("-finance")); // "-finance"
 * unguardCell(guardCell("'=x")); // "'=x" (written "''=x")
 * guardCell("Finance"); // "Finance"
 * ```
 *
 * @module
 */
import { cellText } from "../csv/templates/rules.ts";
import type { CheckedRow } from "../csv/types.ts";

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

/**
 * Text that gets a `'` on export: a formula start, after any `'`s of its own, so that text which already
 * starts with `'=` is written `''=` and reads back as it was.
 */
const GUARDED = /^'*[=+\-@\t\r]/;

/** A cell as written to a file: text a spreadsheet would run as a formula gets a leading `'`. */
export function guardCell(value: string): string {
  return GUARDED.test(value) ? `'${value}` : value;
}

/** A cell as read from a file: the `'` {@link guardCell} added is taken off. */
export function unguardCell(value: string): string {
  return value.startsWith("'") && GUARDED.test(value.slice(1)) ? value.slice(1) : value;
}

/** One row of the file, its cells unguarded; empty cells are undefined. */
export interface CollectionRow {
  line: number;
  name: string;
  /** Lower-case name: collection names are compared without regard to case. */
  key: string;
  friendlyName?: string;
  description?: string;
  /** Lower-case parent name, when the row gives one. */
  parent?: string;
}

/** The row a checked line of either collections template describes. */
export function collectionFromRow(row: CheckedRow): CollectionRow {
  const cell = (column: string) => {
    const value = cellText(row, column);
    return value === undefined ? undefined : unguardCell(value);
  };
  const name = cell("collection_name")!;
  return {
    line: row.line,
    name,
    key: name.toLowerCase(),
    friendlyName: cell("friendly_name"),
    description: cell("description"),
    parent: cell("parent_collection")?.toLowerCase(),
  };
}
