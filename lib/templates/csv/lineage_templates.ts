/**
 * CSV templates of lineage files: table level, column level (source_column and
 * target_column added), a basic file (the two entities and the process name) and a richer column-level
 * sample. The rules are those `lineage import` and `lineage_csv process` enforce: both ends are entity
 * GUIDs and differ, confidence_score is a number from 0 to 1, metadata is a JSON object, and a column
 * file's source_column and target_column are given together — a row with both empty is table-level
 * lineage inside a column file.
 *
 * Column files add an optional `process_type` (the process's entity type, Process by default): Purview keeps
 * a column mapping only on a type with a `columnMapping` attribute. A mapping may also be given whole, as
 * `metadata` `{"columnMapping": …}` in Purview's own shape; its shape is checked with the row
 * (`lib/lineage/column_mapping_rows.ts`).
 *
 * The samples name entities of the emulator's seed catalog (the orders files of the data lake, the Orders
 * table, the monthly revenue and customer 360 data sets), so a sample imports cleanly into
 * `govcat emulator --seed`; for a real catalog, put GUIDs of its data sets in their place.
 *
 * @example
 * ```ts
 * import { lineageColumn } from "./lineage_templates.ts";
 * console.log(lineageColumn.columns.length); // 11
 * ```
 *
 * @module
 */
import type { CheckedRow, ColumnSpec, CsvTemplate } from "../../csv/types.ts";
import { cellText, jsonObjectProblem, type RowProblem } from "./rules.ts";
import { mappingShapeProblems } from "../../lineage/column_mapping_rows.ts";

/** Data sets of the emulator's seed: a data lake file, a SQL table, two derived data sets. */
const RAW = "ca7a1000-0000-4000-8000-000000000052";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const REVENUE = "ca7a1000-0000-4000-8000-000000000060";
const CUSTOMER_360 = "ca7a1000-0000-4000-8000-000000000061";

const sourceGuid: ColumnSpec = {
  name: "source_entity_guid",
  kind: "guid",
  required: true,
  description: "GUID of the data set the data comes from",
  example: ORDERS,
};
const targetGuid: ColumnSpec = {
  name: "target_entity_guid",
  kind: "guid",
  required: true,
  description: "GUID of the data set the data goes to; not the source",
  example: REVENUE,
};
const processName: ColumnSpec = {
  name: "process_name",
  kind: "text",
  description: "Name of the process that moves the data; rows with the same source, target and process " +
    "name make one process (named after its ends when empty)",
  example: "monthly_revenue",
};

/** The table-level columns, in the order of the template's header. */
const TABLE_COLUMNS: readonly ColumnSpec[] = [
  sourceGuid,
  targetGuid,
  {
    name: "relationship_type",
    kind: "text",
    description: "Kind of lineage, e.g. transformation, copy, derived; stored when the process type has it",
    example: "transformation",
  },
  processName,
  {
    name: "description",
    kind: "text",
    description: "What the process does",
    example: "Sums order totals per month",
  },
  {
    name: "confidence_score",
    kind: "score",
    description: "How sure the lineage is, a number from 0 to 1; stored when the process type has it",
    example: "0.95",
  },
  { name: "owner", kind: "text", description: "Who owns the process", example: "finance" },
  {
    name: "metadata",
    kind: "json",
    description:
      'Further properties as a JSON object, e.g. {"pipeline":"nightly"}; each is stored when the ' +
      "process type has an attribute of that name",
    example: '{"pipeline":"nightly"}',
  },
];

const COLUMN_COLUMNS: readonly ColumnSpec[] = [
  {
    name: "source_column",
    kind: "text",
    requiredColumn: true,
    description: "Column of the source data set; with target_column, or both empty for table-level lineage",
    example: "OrderTotal",
  },
  {
    name: "target_column",
    kind: "text",
    requiredColumn: true,
    description: "Column of the target data set the source column feeds",
    example: "revenue",
  },
];

const processType: ColumnSpec = {
  name: "process_type",
  kind: "text",
  description: "Entity type of the process (default Process); column lineage needs a type with a " +
    "columnMapping attribute",
  example: "Process",
};

function lineageRowProblems(row: CheckedRow): RowProblem[] {
  const problems: RowProblem[] = jsonObjectProblem(row, "metadata", '{"pipeline":"nightly"}');
  problems.push(...mappingShapeProblems(row.values.metadata));
  const source = cellText(row, "source_entity_guid");
  if (source !== undefined && source.toLowerCase() === cellText(row, "target_entity_guid")?.toLowerCase()) {
    problems.push(["target_entity_guid", "is the same entity as source_entity_guid"]);
  }
  return problems;
}

function columnRowProblems(row: CheckedRow): RowProblem[] {
  const problems = lineageRowProblems(row);
  const sourceColumn = cellText(row, "source_column");
  const targetColumn = cellText(row, "target_column");
  if (sourceColumn !== undefined && targetColumn === undefined) {
    problems.push(["target_column", "is required when source_column is given (or leave both empty)"]);
  } else if (sourceColumn === undefined && targetColumn !== undefined) {
    problems.push(["source_column", "is required when target_column is given (or leave both empty)"]);
  }
  return problems;
}

const USAGE = "govcat lineage_csv process <csv_file> (or govcat lineage import <file>); check it first " +
  "with govcat lineage_csv validate <csv_file>";

export const lineageTable: CsvTemplate = {
  name: "lineage-table",
  summary: "Table-level lineage: source and target entity GUIDs with the process between them",
  usage: USAGE,
  columns: TABLE_COLUMNS,
  checkRow: lineageRowProblems,
  sample: [
    [RAW, ORDERS, "copy", "load_orders", "Loads the orders files into SalesDb", "1", "data-engineering", ""],
    [
      ORDERS,
      REVENUE,
      "transformation",
      "monthly_revenue",
      "Sums order totals per month",
      "0.95",
      "finance",
      '{"pipeline":"nightly"}',
    ],
  ],
};

export const lineageColumn: CsvTemplate = {
  name: "lineage-column",
  summary: "Column-level lineage: table-level columns plus the source and target column of each mapping",
  usage: USAGE,
  columns: [...TABLE_COLUMNS, ...COLUMN_COLUMNS, processType],
  unique: [["source_entity_guid", "target_entity_guid", "process_name", "source_column", "target_column"]],
  checkRow: columnRowProblems,
  sample: [
    [
      ORDERS,
      REVENUE,
      "transformation",
      "monthly_revenue",
      "Sums order totals per month",
      "0.95",
      "finance",
      "",
      "OrderTotal",
      "revenue",
      "",
    ],
    [ORDERS, REVENUE, "transformation", "monthly_revenue", "", "", "", "", "OrderId", "order_count", ""],
  ],
};

export const lineageBasic: CsvTemplate = {
  name: "lineage-basic",
  summary: "The least a lineage file needs: source and target entity GUIDs and a process name",
  usage: USAGE,
  columns: [sourceGuid, targetGuid, processName],
  checkRow: lineageRowProblems,
  sample: [
    [RAW, ORDERS, "load_orders"],
    [ORDERS, REVENUE, "monthly_revenue"],
  ],
};

export const lineageColumnSample: CsvTemplate = {
  name: "lineage-column-sample",
  summary: "Column-level lineage with a fuller sample: a pipeline of three steps, several columns each",
  usage: USAGE,
  columns: lineageColumn.columns,
  unique: lineageColumn.unique,
  checkRow: columnRowProblems,
  sample: [
    [
      RAW,
      ORDERS,
      "copy",
      "load_orders",
      "Loads the orders files into SalesDb",
      "1",
      "data-engineering",
      '{"schedule":"hourly"}',
      "order_id",
      "OrderId",
      "",
    ],
    [RAW, ORDERS, "copy", "load_orders", "", "", "", "", "customer", "CustomerId", ""],
    [RAW, ORDERS, "copy", "load_orders", "", "", "", "", "total", "OrderTotal", ""],
    [
      ORDERS,
      REVENUE,
      "transformation",
      "monthly_revenue",
      "Sums order totals per month",
      "0.95",
      "finance",
      '{"pipeline":"nightly","tool":"dbt"}',
      "OrderTotal",
      "revenue",
      "",
    ],
    [ORDERS, REVENUE, "transformation", "monthly_revenue", "", "", "", "", "OrderId", "order_count", ""],
    [
      REVENUE,
      CUSTOMER_360,
      "derived",
      "customer_value",
      "Adds revenue to the customer profile",
      "0.8",
      "marketing",
      "",
      "revenue",
      "lifetime_revenue",
      "",
    ],
  ],
};

/** The lineage templates, in the order `templates list` shows them. */
export const LINEAGE_TEMPLATES: readonly CsvTemplate[] = [
  lineageTable,
  lineageColumn,
  lineageBasic,
  lineageColumnSample,
];

/** Names of the lineage templates. */
export const LINEAGE_TEMPLATE_NAMES = [
  "lineage-table",
  "lineage-column",
  "lineage-basic",
  "lineage-column-sample",
] as const;
