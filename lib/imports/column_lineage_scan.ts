/**
 * The column lineage side of checking a lineage CSV (`lineage validate`, `lineage_csv validate`): every
 * process the file describes with column rows (or a mapping given whole in `metadata`) is checked as the
 * imports check it before writing (`column_mapping_check.ts`), and each problem is placed at its row's
 * line and the CSV column it is about. Runs after the entity scan, so the ends are known to exist; reads
 * schemas in bulk, once per end.
 *
 * @example
 * ```ts
 * import { scanColumnLineage } from "./column_lineage_scan.ts";
 * import { LineageEndChecker } from "./lineage_end_checker.ts";
 * import { lineageColumn } from "../templates/csv/lineage_templates.ts";
 * import type { CatalogClient } from "../catalog/client.ts";
 * declare const catalog: CatalogClient;
 * const scan = await scanColumnLineage("lineage.csv", lineageColumn, {
 *   ends: new LineageEndChecker(catalog, true),
 * });
 * console.log(scan.problemCount, scan.unchecked);
 * ```
 *
 * @module
 */
import { checkedRows } from "../csv/check.ts";
import type { CsvDelimiter } from "../csv/delimiter.ts";
import { columnKey } from "../csv/problems.ts";
import { readCsvHeaderPositions } from "../templates/template_choice.ts";
import type { CsvProblem, CsvTemplate, ImportUnit } from "../csv/types.ts";
import type { LineageEndChecker } from "./lineage_end_checker.ts";
import { columnRequest, hasColumnLineage } from "./column_lineage_items.ts";
import { groupLineageRows, type LineageProcessItem } from "./lineage_csv_rows.ts";
import { ColumnLineageChecker } from "../lineage/column_mapping_check.ts";

/** What a column lineage scan found. */
export interface ColumnLineageScan {
  /** Processes with column lineage that were checked. */
  processesChecked: number;
  problems: CsvProblem[];
  problemCount: number;
  /** GUIDs of ends the catalog relates no columns to: their column names could not be checked. */
  unchecked: string[];
}

/** Options of {@link scanColumnLineage}. */
export interface ColumnScanOptions {
  /** Reads the ends (shared with the entity scan, so each end is read once). */
  ends: LineageEndChecker;
  displayName?: string;
  delimiter?: CsvDelimiter;
  signal?: AbortSignal;
  maxProblems?: number;
}

/** Checks the column lineage of every process of a file that passed `template` and the entity scan. */
export async function scanColumnLineage(
  path: string,
  template: CsvTemplate,
  options: ColumnScanOptions,
): Promise<ColumnLineageScan> {
  const file = options.displayName ?? path;
  const read = { displayName: file, signal: options.signal, delimiter: options.delimiter };
  const units: ImportUnit<LineageProcessItem>[] = [];
  for await (const unit of groupLineageRows(checkedRows(path, template, read))) {
    if (hasColumnLineage(unit.item)) units.push(unit);
  }
  const scan: ColumnLineageScan = {
    processesChecked: units.length,
    problems: [],
    problemCount: 0,
    unchecked: [],
  };
  if (units.length === 0) return scan;

  const columns = new ColumnLineageChecker(options.ends.catalog);
  await columns.load(units.flatMap(({ item }) => [item.sourceGuid, item.targetGuid]), options.signal);
  const positions = await readCsvHeaderPositions(path, file, options);
  const unchecked = new Set<string>();
  const max = options.maxProblems ?? 1000;
  for (const { item, lines } of units) {
    const ends = await options.ends.ends(item, options.signal);
    if ("reason" in ends) continue; // Reported by the entity scan.
    const result = await columns.check(columnRequest(item, ends.source, ends.target), options.signal);
    result.unchecked.forEach((guid) => unchecked.add(guid));
    for (const issue of result.issues) {
      scan.problemCount++;
      if (scan.problems.length >= max) continue;
      const index = positions.get(columnKey(issue.field));
      scan.problems.push({
        file,
        line: issue.line ?? lines[0],
        ...(index === undefined ? {} : { column: index + 1, columnName: issue.field }),
        message: issue.message,
      });
    }
  }
  scan.problems.sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
  scan.unchecked = [...unchecked].sort();
  return scan;
}
