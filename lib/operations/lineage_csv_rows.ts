/**
 * Lineage CSV files (spec §2.7) read and checked row by row, with nothing sent to the catalog: the header
 * (required and known columns), every row's GUIDs, confidence score, metadata JSON and column pair, each
 * problem located as `file:line:column`. Then rows are grouped into the processes an import records: one
 * per (source, target, process name), its column rows merged into one column mapping.
 *
 * The row checks are kept apart from reading and from the catalog, so they can move onto the shared
 * streaming CSV engine as they are.
 *
 * @example
 * ```ts
 * import { readLineageCsv } from "./lineage_csv_rows.ts";
 * const { rows, problems } = await readLineageCsv(
 *   "source_entity_guid,target_entity_guid\nnot-a-guid,ca7a1000-0000-4000-8000-000000000060\n",
 * );
 * console.log(rows.length, problems[0].line, problems[0].column); // 0 2 1
 * ```
 *
 * @module
 */
import { parseCsv } from "../deps/csv.ts";
import { didYouMean } from "../suggest.ts";

/** Table-level columns of spec §2.7, in order. */
export const LINEAGE_TABLE_COLUMNS = [
  "source_entity_guid",
  "target_entity_guid",
  "relationship_type",
  "process_name",
  "description",
  "confidence_score",
  "owner",
  "metadata",
] as const;
/** The columns column-level lineage adds. */
export const LINEAGE_COLUMN_COLUMNS = ["source_column", "target_column"] as const;
/** Columns every lineage CSV must have. */
export const REQUIRED_LINEAGE_COLUMNS = ["source_entity_guid", "target_entity_guid"] as const;

const KNOWN_COLUMNS: readonly string[] = [...LINEAGE_TABLE_COLUMNS, ...LINEAGE_COLUMN_COLUMNS];
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One problem of a lineage CSV; `line` and `column` count from 1 (line 1 is the header). */
export interface CsvProblem {
  line: number;
  column?: number;
  message: string;
}

/** One valid row. */
export interface LineageCsvRow {
  /** Line of the file the row starts on. */
  line: number;
  sourceGuid: string;
  targetGuid: string;
  relationshipType?: string;
  processName?: string;
  description?: string;
  confidenceScore?: number;
  owner?: string;
  metadata?: Record<string, unknown>;
  sourceColumn?: string;
  targetColumn?: string;
}

/** Where each known column is in the file (0-based), from the header. */
export type LineageCsvHeader = Map<string, number>;

/** The rows that passed and every problem found, in file order. */
export interface LineageCsvReading {
  rows: LineageCsvRow[];
  problems: CsvProblem[];
  /** Data rows read (valid or not). */
  rowCount: number;
  /** True when the header has source_column and target_column (a column-level file). */
  columnLevel: boolean;
  /** Where each known column is, for locating later problems (entities that do not exist). */
  header: LineageCsvHeader;
}

/** Reads a lineage CSV; a byte-order mark and CRLF line ends are fine. Never throws for bad content. */
export async function readLineageCsv(text: string): Promise<LineageCsvReading> {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = await new Promise((resolve, reject) =>
      parseCsv(
        text,
        { bom: true, relax_column_count: true, skip_empty_lines: true, info: true },
        (error: Error | undefined, parsed: unknown) =>
          error ? reject(error) : resolve(parsed as typeof records),
      )
    );
  } catch (error) {
    const line = Number((error as { lines?: number }).lines) || 1;
    return {
      rows: [],
      problems: [{ line, message: `not valid CSV: ${(error as Error).message}` }],
      rowCount: 0,
      columnLevel: false,
      header: new Map(),
    };
  }
  if (records.length === 0) {
    return {
      rows: [],
      problems: [{
        line: 1,
        message: `the file is empty: a header row naming at least ${
          REQUIRED_LINEAGE_COLUMNS.join(", ")
        } is required`,
      }],
      rowCount: 0,
      columnLevel: false,
      header: new Map(),
    };
  }
  const { header, problems } = readHeader(records[0].record);
  const columnLevel = LINEAGE_COLUMN_COLUMNS.every((name) => header.has(name));
  const rows: LineageCsvRow[] = [];
  const data = records.slice(1);
  if (data.length === 0) problems.push({ line: 2, message: "no data rows after the header" });
  for (const { record, info } of data) {
    // `info.lines` is where the record ends; a quoted field may span lines, so count back to its start.
    const embedded = record.reduce((n, cell) => n + (cell.match(/\r\n|\n|\r/g)?.length ?? 0), 0);
    const line = info.lines - embedded;
    if (record.length !== records[0].record.length) {
      problems.push({
        line,
        message: `has ${record.length} field${record.length === 1 ? "" : "s"}, the header has ${
          records[0].record.length
        }`,
      });
      continue;
    }
    const checked = validateLineageRow(record, header, line);
    problems.push(...checked.problems);
    if (checked.row) rows.push(checked.row);
  }
  return { rows, problems, rowCount: data.length, columnLevel, header };
}

function readHeader(names: string[]): { header: LineageCsvHeader; problems: CsvProblem[] } {
  const header: LineageCsvHeader = new Map();
  const problems: CsvProblem[] = [];
  names.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if (!KNOWN_COLUMNS.includes(name)) {
      problems.push({
        line: 1,
        column: index + 1,
        message: `unknown column "${raw.trim()}".${didYouMean(name, KNOWN_COLUMNS)} Known columns: ${
          KNOWN_COLUMNS.join(", ")
        }`,
      });
    } else if (header.has(name)) {
      problems.push({ line: 1, column: index + 1, message: `column ${name} appears twice` });
    } else {
      header.set(name, index);
    }
  });
  for (const name of REQUIRED_LINEAGE_COLUMNS) {
    if (!header.has(name)) problems.push({ line: 1, message: `required column ${name} is missing` });
  }
  const [source, target] = LINEAGE_COLUMN_COLUMNS.map((name) => header.has(name));
  if (source !== target) {
    problems.push({ line: 1, message: "column-level lineage needs both source_column and target_column" });
  }
  return { header, problems };
}

/**
 * Checks one data row against the header: GUID format of both ends, confidence_score from 0 to 1,
 * metadata a JSON object, and source_column and target_column given together. Pure: no I/O.
 */
export function validateLineageRow(
  record: string[],
  header: LineageCsvHeader,
  line: number,
): { row?: LineageCsvRow; problems: CsvProblem[] } {
  const problems: CsvProblem[] = [];
  const cell = (name: string): string | undefined => {
    const index = header.get(name);
    const value = index === undefined ? undefined : record[index]?.trim();
    return value === "" ? undefined : value;
  };
  const problem = (name: string, message: string) =>
    problems.push({ line, column: (header.get(name) ?? 0) + 1, message: `${name}: ${message}` });

  const guids: Record<string, string> = {};
  for (const name of REQUIRED_LINEAGE_COLUMNS) {
    const value = cell(name);
    if (value === undefined) {
      if (header.has(name)) problem(name, "is required");
    } else if (!GUID.test(value)) problem(name, `"${value}" is not a GUID (8-4-4-4-12 hexadecimal digits)`);
    else guids[name] = value.toLowerCase();
  }
  if (guids.source_entity_guid && guids.source_entity_guid === guids.target_entity_guid) {
    problem("target_entity_guid", "is the same entity as source_entity_guid");
  }

  let confidenceScore: number | undefined;
  const score = cell("confidence_score");
  if (score !== undefined) {
    confidenceScore = Number(score);
    if (!Number.isFinite(confidenceScore) || confidenceScore < 0 || confidenceScore > 1) {
      problem("confidence_score", `"${score}" is not a number from 0 to 1`);
    }
  }

  let metadata: Record<string, unknown> | undefined;
  const metadataText = cell("metadata");
  if (metadataText !== undefined) {
    try {
      const parsed = JSON.parse(metadataText);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        problem("metadata", 'must be a JSON object, e.g. {"pipeline":"nightly"}');
      } else metadata = parsed;
    } catch (error) {
      problem("metadata", `is not valid JSON: ${(error as Error).message}`);
    }
  }

  const sourceColumn = cell("source_column");
  const targetColumn = cell("target_column");
  if ((sourceColumn === undefined) !== (targetColumn === undefined)) {
    problem(
      sourceColumn === undefined ? "source_column" : "target_column",
      "is required when the other column is given",
    );
  }

  if (problems.length > 0 || !guids.source_entity_guid || !guids.target_entity_guid) return { problems };
  return {
    problems,
    row: {
      line,
      sourceGuid: guids.source_entity_guid,
      targetGuid: guids.target_entity_guid,
      relationshipType: cell("relationship_type"),
      processName: cell("process_name"),
      description: cell("description"),
      confidenceScore,
      owner: cell("owner"),
      metadata,
      sourceColumn,
      targetColumn,
    },
  };
}

/** `file:line:column: message`, the way compilers and editors point at a place in a file. */
export function formatCsvProblem(file: string, problem: CsvProblem): string {
  return `${file}:${problem.line}${problem.column ? `:${problem.column}` : ""}: ${problem.message}`;
}

/** The rows one process records. */
export interface LineageCsvGroup {
  sourceGuid: string;
  targetGuid: string;
  processName?: string;
  /** First non-empty value among the group's rows, for each field. */
  relationshipType?: string;
  description?: string;
  confidenceScore?: number;
  owner?: string;
  metadata?: Record<string, unknown>;
  columnMappings: Array<{ source: string; target: string }>;
  /** Lines of the rows in the group. */
  lines: number[];
}

/** Groups rows by (source, target, process name), table and column rows together, in file order. */
export function groupLineageRows(rows: LineageCsvRow[]): LineageCsvGroup[] {
  const groups = new Map<string, LineageCsvGroup>();
  for (const row of rows) {
    const key = JSON.stringify([row.sourceGuid, row.targetGuid, row.processName ?? ""]);
    const group = groups.get(key) ??
      {
        sourceGuid: row.sourceGuid,
        targetGuid: row.targetGuid,
        processName: row.processName,
        columnMappings: [],
        lines: [],
      };
    group.relationshipType ??= row.relationshipType;
    group.description ??= row.description;
    group.confidenceScore ??= row.confidenceScore;
    group.owner ??= row.owner;
    group.metadata ??= row.metadata;
    if (row.sourceColumn && row.targetColumn) {
      group.columnMappings.push({ source: row.sourceColumn, target: row.targetColumn });
    }
    group.lines.push(row.line);
    groups.set(key, group);
  }
  return [...groups.values()];
}
