/**
 * Checked rows of a lineage CSV (the cells are checked by the lineage templates in
 * `lib/templates/csv/lineage_templates.ts`) turned into the processes an import records: one per
 * (source_entity_guid, target_entity_guid, process_name), every line of the group included wherever it is
 * in the file, its column rows merged into one column mapping.
 *
 * Grouping across a whole file holds one entry per process until the file is read: memory grows with the
 * number of processes (and their column pairs), not with the rows' text, which is never kept.
 *
 * @example
 * ```ts
 * import { groupLineageRows } from "./lineage_csv_rows.ts";
 * import type { CheckedRow } from "../csv/types.ts";
 * declare const rows: AsyncIterable<CheckedRow>;
 * for await (const unit of groupLineageRows(rows)) console.log(unit.lines, unit.item.columnMappings.length);
 * ```
 *
 * @module
 */
import type { CellValue, CheckedRow, ImportUnit } from "../csv/types.ts";
import type { ColumnMappingEntry } from "../lineage/column_mapping_shape.ts";
import { metadataColumnMapping } from "../lineage/column_mapping_rows.ts";

/** One process to record: what the rows of its group say, first non-empty value of each field. */
export interface LineageProcessItem {
  sourceGuid: string;
  targetGuid: string;
  processName?: string;
  relationshipType?: string;
  description?: string;
  confidenceScore?: number;
  owner?: string;
  metadata?: Record<string, unknown>;
  /** Entity type of the process (`process_type`); the builder's default when absent. */
  processType?: string;
  /** Line of the row that gave `processType`. */
  processTypeLine?: number;
  /** Column pairs in file order, each with its line. */
  columnMappings: Array<{ source: string; target: string; line?: number }>;
  /** Mappings given whole (`metadata.columnMapping`), with their lines; their shape passed the row check. */
  mappingEntries?: Array<{ entries: ColumnMappingEntry[]; line: number }>;
}

const text = (value: CellValue): string | undefined => {
  if (value === undefined || value === null) return undefined;
  const trimmed = String(value).trim();
  return trimmed === "" ? undefined : trimmed;
};

const TEXT_FIELDS = [
  ["relationshipType", "relationship_type"],
  ["description", "description"],
  ["owner", "owner"],
] as const;

/** The key of a row's process: its ends (GUIDs in lower case) and process name. */
export function lineageGroupKey(row: CheckedRow): string {
  return JSON.stringify([
    String(row.values.source_entity_guid ?? "").toLowerCase(),
    String(row.values.target_entity_guid ?? "").toLowerCase(),
    text(row.values.process_name) ?? "",
  ]);
}

/**
 * Groups checked rows into processes, in the order each process first appears. The rows must have passed
 * a lineage template (both GUIDs present). Yields once every row is read.
 */
export async function* groupLineageRows(
  rows: AsyncIterable<CheckedRow>,
): AsyncGenerator<ImportUnit<LineageProcessItem>> {
  const groups = new Map<string, ImportUnit<LineageProcessItem>>();
  for await (const row of rows) {
    const key = lineageGroupKey(row);
    let unit = groups.get(key);
    if (!unit) {
      unit = {
        lines: [],
        item: {
          sourceGuid: String(row.values.source_entity_guid).toLowerCase(),
          targetGuid: String(row.values.target_entity_guid).toLowerCase(),
          columnMappings: [],
        },
      };
      const processName = text(row.values.process_name);
      if (processName !== undefined) unit.item.processName = processName;
      groups.set(key, unit);
    }
    const item = unit.item;
    // Fields stay absent until a row gives them, so items compare and print without empty keys.
    for (const [field, column] of TEXT_FIELDS) {
      const value = item[field] === undefined ? text(row.values[column]) : undefined;
      if (value !== undefined) item[field] = value;
    }
    const processType = item.processType === undefined ? text(row.values.process_type) : undefined;
    if (processType !== undefined) {
      item.processType = processType;
      item.processTypeLine = row.line;
    }
    const given = metadataColumnMapping(row.values.metadata);
    if (given && "entries" in given) {
      (item.mappingEntries ??= []).push({ entries: given.entries, line: row.line });
    }
    if (item.confidenceScore === undefined && typeof row.values.confidence_score === "number") {
      item.confidenceScore = row.values.confidence_score;
    }
    const metadata = row.values.metadata;
    if (item.metadata === undefined && metadata && typeof metadata === "object" && !Array.isArray(metadata)) {
      item.metadata = metadata as Record<string, unknown>;
    }
    const source = text(row.values.source_column);
    const target = text(row.values.target_column);
    // A pair given twice (possible with an empty process name) is merged by the lineage builder.
    if (source !== undefined && target !== undefined) {
      item.columnMappings.push({ source, target, line: row.line });
    }
    unit.lines.push(row.line);
  }
  yield* groups.values();
}
