/**
 * The entity side of checking a lineage CSV: which processes the file describes, which entities it names,
 * and the rows naming entities that cannot be used (missing, deleted or, with validation, not a data set),
 * each placed at its line and column. Streamed: the file is read again instead of keeping rows, and
 * memory grows with the number of distinct entities and processes only.
 *
 * @example
 * ```ts
 * import { scanLineageEntities } from "./lineage_csv_entities.ts";
 * import { LineageEndChecker } from "./lineage_end_checker.ts";
 * import { lineageTable } from "../templates/csv/lineage_templates.ts";
 * import type { CatalogClient } from "../catalog/client.ts";
 * declare const catalog: CatalogClient;
 * const scan = await scanLineageEntities("lineage.csv", lineageTable, {
 *   checker: new LineageEndChecker(catalog, true),
 * });
 * console.log(scan.processes, scan.entities, scan.problemCount);
 * ```
 *
 * @module
 */
import { checkedRows } from "../csv/check.ts";
import type { CsvDelimiter } from "../csv/delimiter.ts";
import { columnKey } from "../csv/problems.ts";
import { readCsvHeaderPositions } from "../templates/template_choice.ts";
import type { CsvProblem, CsvTemplate } from "../csv/types.ts";
import { type EndProblem, LineageEndChecker } from "./lineage_end_checker.ts";
import { lineageGroupKey } from "./lineage_csv_rows.ts";

/** Entities read at once. */
const CONCURRENCY = 4;
const END_COLUMNS = ["source_entity_guid", "target_entity_guid"] as const;

/** What a scan found. */
export interface LineageEntityScan {
  rows: number;
  /** Processes the file describes: distinct (source, target, process name). */
  processes: number;
  /** Distinct entities the file names. */
  entities: number;
  /** Entities checked in the catalog (0 without a checker). */
  entitiesChecked: number;
  /** Rows naming an unusable entity, by line (at most `maxProblems`). */
  problems: CsvProblem[];
  problemCount: number;
}

/** Options of {@link scanLineageEntities}. */
export interface ScanOptions {
  /** How the file is named in problems. */
  displayName?: string;
  /** Reads the entities; without one only the counts are made. */
  checker?: LineageEndChecker;
  /** Which end problems are reported (default all). */
  keep?: (problem: EndProblem) => boolean;
  /** Added to each problem's message, e.g. why it stops the command. */
  explain?: (problem: EndProblem) => string;
  maxProblems?: number;
  signal?: AbortSignal;
  /** The field separator (the one the file's check used); detected from the header line when absent. */
  delimiter?: CsvDelimiter;
}

/**
 * Counts the processes and entities of a file that passed `template`, and with a checker reports every
 * row naming an entity the checker finds unusable.
 */
export async function scanLineageEntities(
  path: string,
  template: CsvTemplate,
  options: ScanOptions = {},
): Promise<LineageEntityScan> {
  const file = options.displayName ?? path;
  const read = { displayName: file, signal: options.signal, delimiter: options.delimiter };
  const groups = new Set<string>();
  const guids = new Set<string>();
  let rows = 0;
  for await (const row of checkedRows(path, template, read)) {
    rows++;
    groups.add(lineageGroupKey(row));
    for (const column of END_COLUMNS) guids.add(String(row.values[column]).toLowerCase());
  }
  const scan: LineageEntityScan = {
    rows,
    processes: groups.size,
    entities: guids.size,
    entitiesChecked: 0,
    problems: [],
    problemCount: 0,
  };
  groups.clear();
  const checker = options.checker;
  if (!checker) return scan;

  const bad = new Map<string, EndProblem>();
  const pending = [...guids];
  const worker = async () => {
    for (let guid = pending.pop(); guid !== undefined; guid = pending.pop()) {
      const result = await checker.check(guid, options.signal);
      if ("problem" in result && (options.keep?.(result.problem) ?? true)) bad.set(guid, result.problem);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, guids.size) }, worker));
  scan.entitiesChecked = guids.size;
  if (bad.size === 0) return scan;

  const positions = await readCsvHeaderPositions(path, file, options);
  const max = options.maxProblems ?? 1000;
  for await (const row of checkedRows(path, template, read)) {
    for (const column of END_COLUMNS) {
      const guid = String(row.values[column]).toLowerCase();
      const problem = bad.get(guid);
      if (!problem) continue;
      scan.problemCount++;
      if (scan.problems.length >= max) continue;
      const index = positions.get(columnKey(column));
      scan.problems.push({
        file,
        line: row.line,
        ...(index === undefined ? {} : { column: index + 1, columnName: column }),
        message: `${guid} ${problem.message}${options.explain?.(problem) ?? ""}`,
      });
    }
  }
  return scan;
}
