/**
 * The CSV layout of collections: the columns of the export (which the import reads as the
 * collections-export template) and a checked import row as a collection. The guard against CSV injection
 * (`lib/csv/cell_guard.ts`) is added by the export and taken off by the reader, as for every CSV.
 *
 * @module
 */
import { cellText } from "../templates/csv/rules.ts";
import type { CheckedRow } from "../csv/types.ts";

/** One row of the file (its cells unguarded as read); empty cells are undefined. */
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
  const cell = (column: string) => cellText(row, column);
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
