/**
 * CSV templates of collection files: the file `collections import` reads (collection_name,
 * friendly_name, description, parent_collection) and the file `collections export` writes, which imports
 * again as it is (its extra columns — path, provisioning state, audit — are read and ignored).
 *
 * @example
 * ```ts
 * import { collections } from "./collections_templates.ts";
 * console.log(collections.columns.map((c) => c.name).join(","));
 * // collection_name,friendly_name,description,parent_collection
 * ```
 *
 * @module
 */
import { collectionNameProblem } from "../../catalog/collections_support.ts";
import { shown } from "../../csv/problems.ts";
import type { CheckedRow, ColumnSpec, CsvTemplate } from "../../csv/types.ts";
import { cellText, type RowProblem } from "./rules.ts";

/** Columns of the export, in the order it writes them; the import reads them as this template. */
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

const IMPORT_COLUMN_SPECS: readonly ColumnSpec[] = [
  {
    name: "collection_name",
    kind: "text",
    required: true,
    description: "Short name of the collection: 3 to 36 letters, digits or hyphens; unique in the account",
    example: "finance",
  },
  {
    name: "friendly_name",
    kind: "text",
    description: "Name shown in the portal, unique among the children of one collection; empty leaves it",
    example: "Finance",
  },
  {
    name: "description",
    kind: "text",
    description: "What the collection holds; empty leaves it",
    example: "Finance data assets",
  },
  {
    name: "parent_collection",
    kind: "text",
    description: "Short name of the parent collection, a row of the file or an existing collection; empty " +
      "puts a new collection under the root",
    example: "contoso",
  },
];

const EXPORTED = "written by the export; ignored by the import";
const EXPORT_ONLY_SPECS: Readonly<Record<string, Omit<ColumnSpec, "name" | "kind">>> = {
  path: {
    description: `Names from the root to the collection, '/'-separated: ${EXPORTED}`,
    example: "contoso/finance",
  },
  provisioning_state: { description: `Provisioning state: ${EXPORTED}`, example: "Succeeded" },
  created_at: {
    description: `When the collection was created: ${EXPORTED}`,
    example: "2025-01-06T09:00:00Z",
  },
  created_by: {
    description: `Object ID of who created it: ${EXPORTED}`,
    example: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
  },
  last_modified_at: { description: `When it last changed: ${EXPORTED}`, example: "2025-02-01T08:15:00Z" },
  last_modified_by: {
    description: `Object ID of who last changed it: ${EXPORTED}`,
    example: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
  },
};

function collectionRowProblems(row: CheckedRow): RowProblem[] {
  const problems: RowProblem[] = [];
  // The reader has taken off the "'" the export puts before a cell that looks like a formula.
  const plainName = cellText(row, "collection_name");
  if (plainName !== undefined) {
    const problem = collectionNameProblem(plainName);
    if (problem) {
      problems.push(["collection_name", `${shown(plainName)} is not a valid collection name: ${problem}`]);
    }
  }
  const parent = cellText(row, "parent_collection");
  if (
    plainName !== undefined && parent !== undefined &&
    parent.toLowerCase() === plainName.toLowerCase()
  ) {
    problems.push(["parent_collection", `collection ${shown(plainName)} cannot be its own parent`]);
  }
  return problems;
}

export const collections: CsvTemplate = {
  name: "collections",
  summary: "Collections to create or update, parents before or after their children",
  usage: "govcat collections import --csv-file <file>",
  columns: IMPORT_COLUMN_SPECS,
  unique: [["collection_name"]],
  checkRow: collectionRowProblems,
  sample: [
    ["finance", "Finance", "Finance data assets", ""],
    ["finance-payables", "Payables", "Supplier invoices and payments", "finance"],
    ["finance-receivables", "Receivables", "Customer invoices", "finance"],
  ],
};

const exportColumnNames = [...EXPORT_COLUMNS.base, ...EXPORT_COLUMNS.hierarchy, ...EXPORT_COLUMNS.metadata];

export const collectionsExport: CsvTemplate = {
  name: "collections-export",
  summary: "Collections as `collections export --include-hierarchy --include-metadata` writes them; " +
    "imports again as it is",
  usage: "govcat collections import --csv-file <file>",
  columns: exportColumnNames.map((name): ColumnSpec =>
    IMPORT_COLUMN_SPECS.find((spec) => spec.name === name) ??
      { name, kind: "text", ...EXPORT_ONLY_SPECS[name] }
  ),
  unique: [["collection_name"]],
  checkRow: collectionRowProblems,
  sample: [
    [
      "finance",
      "Finance",
      "emulator",
      "emulator/finance",
      "Finance data assets",
      "Succeeded",
      "2025-01-06T09:00:00Z",
      "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
      "2025-01-06T09:00:00Z",
      "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
    ],
    [
      "finance-payables",
      "Payables",
      "finance",
      "emulator/finance/finance-payables",
      "Supplier invoices and payments",
      "Succeeded",
      "2025-01-07T10:30:00Z",
      "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
      "2025-02-01T08:15:00Z",
      "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
    ],
  ],
};

/** The collection templates, in the order `templates list` shows them. */
export const COLLECTIONS_TEMPLATES: readonly CsvTemplate[] = [collections, collectionsExport];
