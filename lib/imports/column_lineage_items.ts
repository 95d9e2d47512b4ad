/**
 * What the column lineage check needs from one process of a lineage CSV (`LineageProcessItem`, the rows of
 * one source, target and process name): whether it records column lineage, its process type, its mappings
 * given whole, the request the check is asked, and an issue written as a reject reason.
 *
 * @example
 * ```ts
 * import { hasColumnLineage } from "./column_lineage_items.ts";
 * console.log(hasColumnLineage({ sourceGuid: "a", targetGuid: "b", columnMappings: [] })); // false
 * ```
 *
 * @module
 */
import { DEFAULT_PROCESS_TYPE, type LineageEnd } from "../catalog/lineage_builder.ts";
import type { LineageProcessItem } from "./lineage_csv_rows.ts";
import type { ColumnLineageIssue, ColumnLineageRequest } from "../lineage/column_mapping_check.ts";

/** Whether the rows of `item` record column lineage (pairs, or a mapping given whole). */
export function hasColumnLineage(item: LineageProcessItem): boolean {
  return item.columnMappings.length > 0 || (item.mappingEntries?.length ?? 0) > 0;
}

/** The entity type the process of `item` is written with. */
export const processTypeOf = (item: LineageProcessItem): string => item.processType ?? DEFAULT_PROCESS_TYPE;

/** The mappings `item`'s rows gave whole, in file order. */
export const entriesOf = (item: LineageProcessItem) => item.mappingEntries?.flatMap((given) => given.entries);

/** What the column lineage check is asked about one process. */
export function columnRequest(
  item: LineageProcessItem,
  source: LineageEnd,
  target: LineageEnd,
): ColumnLineageRequest {
  return {
    processType: processTypeOf(item),
    processTypeLine: item.processTypeLine,
    source,
    target,
    pairs: item.columnMappings,
    entries: item.mappingEntries,
  };
}

/** An issue as a reject reason: the line and column first, so the row is found without the file. */
export function describeIssue(issue: ColumnLineageIssue): string {
  return `${issue.line === undefined ? "" : `line ${issue.line}, `}${issue.field}: ${issue.message}`;
}
