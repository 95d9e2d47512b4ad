/**
 * CSV templates of entity files: bulk import and bulk update with any attribute
 * (`attr.<name>`) and business metadata (`bm.<group>.<attribute>`) columns, data sets, entities created
 * with classifications, and tables.
 *
 * Owners are Entra ID object IDs (GUIDs), several separated by `;`: Purview contacts take object IDs, not
 * e-mail addresses. A collection is named by its short name (`finance`), not its friendly name.
 *
 * @example
 * ```ts
 * import { ENTITY_TEMPLATES } from "./entity_templates.ts";
 * console.log(ENTITY_TEMPLATES.map((t) => t.name)); // ["entity-bulk-import", "entity-bulk-update", …]
 * ```
 *
 * @module
 */
import type { ColumnPattern, ColumnSpec, CsvTemplate } from "../../csv/types.ts";
import { cellText, rowObjectIdProblems } from "./rules.ts";

const OWNER_A = "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f";
const OWNER_B = "0d9e8f7a-6b5c-4d3e-9f1a-2b3c4d5e6f70";
const SQL = "mssql://contoso-sql.database.windows.net/sales/dbo";
/** Entities of the emulator's seed, so the update sample applies as it is. */
const SEED_CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const SEED_ORDERS_NAME = "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Orders";

const typeName: ColumnSpec = {
  name: "typeName",
  kind: "text",
  required: true,
  description: "Type of the entity, e.g. azure_sql_table, DataSet, Process (see `govcat types list`)",
  example: "azure_sql_table",
};
const qualifiedName: ColumnSpec = {
  name: "qualifiedName",
  kind: "text",
  required: true,
  description: "Unique name of the entity within its type, usually a URL-like path to the asset",
  example: `${SQL}/customers`,
};
const name = (required: boolean): ColumnSpec => ({
  name: "name",
  kind: "text",
  required,
  description: "Name of the asset as the catalog shows it",
  example: "customers",
});
const description: ColumnSpec = {
  name: "description",
  kind: "text",
  description: "What the asset holds or does",
  example: "One row per customer",
};

/** The descriptive columns bulk import and bulk update share. */
const DESCRIPTIVE_COLUMNS: readonly ColumnSpec[] = [
  {
    name: "displayName",
    kind: "text",
    description: "Name shown instead of the technical name",
    example: "Customers",
  },
  description,
  {
    name: "owner",
    kind: "text",
    multi: true,
    description: "Owners as Entra ID object IDs (GUIDs, not e-mail addresses), several separated by ';'",
    example: OWNER_A,
  },
  {
    name: "source",
    kind: "text",
    description: "System the data comes from",
    example: "CRM export",
  },
  {
    name: "collection",
    kind: "text",
    description: "Collection to put the entity in, by its short name (e.g. finance), not its friendly name",
    example: "finance",
  },
];

const ENTITY_PATTERNS: readonly ColumnPattern[] = [
  {
    prefix: "attr.",
    kind: "text",
    description: "attr.<attribute>: any attribute of the type; a cell holding a JSON object or array " +
      "({…}, […]) is sent as that value, anything else as text the catalog converts to the attribute's type",
  },
  {
    prefix: "bm.",
    kind: "text",
    nameParts: 2,
    nameForm: "bm.<group>.<attribute>",
    description: "bm.<group>.<attribute>: a business metadata attribute, e.g. bm.Governance.dataOwner",
  },
];

const OWNER_COLUMNS = ["owner"];
const entityRowProblems = (row: Parameters<NonNullable<CsvTemplate["checkRow"]>>[0]) =>
  rowObjectIdProblems(row, OWNER_COLUMNS);

export const entityBulkImport: CsvTemplate = {
  name: "entity-bulk-import",
  summary: "Entities to create or update, by type and qualified name, with any attribute and business " +
    "metadata",
  usage: "govcat entity bulk-import --csv-file <file>",
  columns: [typeName, qualifiedName, name(false), ...DESCRIPTIVE_COLUMNS],
  patterns: ENTITY_PATTERNS,
  unique: [["typeName", "qualifiedName"]],
  checkRow: entityRowProblems,
  sample: [
    [
      "azure_sql_table",
      `${SQL}/customers`,
      "customers",
      "Customers",
      "One row per customer",
      OWNER_A,
      "CRM",
      "",
    ],
    [
      "azure_sql_table",
      `${SQL}/orders`,
      "orders",
      "Orders",
      "One row per order line",
      `${OWNER_A};${OWNER_B}`,
      "Shop system",
      "",
    ],
    [
      "DataSet",
      "https://contoso.example/datasets/churn-scores",
      "churn-scores",
      "",
      "Monthly churn",
      "",
      "",
      "",
    ],
  ],
};

export const entityBulkUpdate: CsvTemplate = {
  name: "entity-bulk-update",
  summary: "Changes to existing entities, each found by guid or by typeName and qualifiedName; empty " +
    "cells leave values as they are",
  usage: "govcat entity bulk-update-csv --csv-file <file>",
  columns: [
    {
      name: "guid",
      kind: "guid",
      description: "GUID of the entity; when empty, typeName and qualifiedName find it",
      example: "1b2c3d4e-5f60-4718-9a0b-c1d2e3f4a5b6",
    },
    { ...typeName, required: false, description: `${typeName.description}; needed when guid is empty` },
    {
      ...qualifiedName,
      required: false,
      description: `${qualifiedName.description}; needed when guid is empty`,
    },
    ...DESCRIPTIVE_COLUMNS,
  ],
  patterns: ENTITY_PATTERNS,
  oneOf: [["guid", "qualifiedName"]],
  unique: [["guid"], ["typeName", "qualifiedName"]],
  checkRow: (row) => {
    const problems = entityRowProblems(row);
    if (cellText(row, "guid") === undefined) {
      const missing = ["typeName", "qualifiedName"].filter((column) => cellText(row, column) === undefined);
      if (missing.length > 0) {
        problems.push([
          missing[0],
          `the row has no guid, so it needs typeName and qualifiedName to find the entity (${
            missing.join(" and ")
          } ${missing.length > 1 ? "are" : "is"} empty)`,
        ]);
      }
    }
    return problems;
  },
  sample: [
    [
      SEED_CUSTOMERS,
      "",
      "",
      "Customers (CRM)",
      "Customer master data",
      OWNER_A,
      "",
      "",
    ],
    [
      "",
      "azure_sql_table",
      SEED_ORDERS_NAME,
      "",
      "Orders, one row per order line",
      OWNER_B,
      "Shop system",
      "",
    ],
  ],
};

export const entityDataset: CsvTemplate = {
  name: "entity-dataset",
  summary: "Data sets to register: name, owner's e-mail, source system, tags, location and format",
  usage: "govcat entity bulk-import --csv-file <file>",
  columns: [
    { ...name(true), description: "Name of the data set", example: "sales-orders" },
    { ...description, example: "Daily extract of confirmed orders" },
    {
      name: "owner_email",
      kind: "email",
      description: "E-mail address of the person or team who owns the data set (kept as an attribute)",
      example: "sales-data@contoso.com",
    },
    { name: "source_system", kind: "text", description: "System the data comes from", example: "SAP ERP" },
    {
      name: "tags",
      kind: "text",
      multi: true,
      description: "Keywords, several separated by ';'",
      example: "sales;daily",
    },
    {
      name: "location",
      kind: "text",
      description: "Where the data is stored: a URL or path",
      example: "abfss://raw@contosolake.dfs.core.windows.net/sales/orders/",
    },
    {
      name: "format",
      kind: "text",
      description: "Storage format: parquet, csv, delta, …",
      example: "parquet",
    },
  ],
  sample: [
    [
      "sales-orders",
      "Daily extract of confirmed orders",
      "sales-data@contoso.com",
      "SAP ERP",
      "sales;daily",
      "abfss://raw@contosolake.dfs.core.windows.net/sales/orders/",
      "parquet",
    ],
    [
      "web-sessions",
      "Click-stream sessions of the web shop",
      "web-analytics@contoso.com",
      "Web shop",
      "web;behaviour",
      "abfss://raw@contosolake.dfs.core.windows.net/web/sessions/",
      "delta",
    ],
  ],
};

export const entityClassified: CsvTemplate = {
  name: "entity-classified",
  summary: "Entities to create with classifications",
  usage: "govcat entity bulk-import --csv-file <file>",
  columns: [
    name(true),
    typeName,
    qualifiedName,
    {
      name: "classifications",
      kind: "text",
      multi: true,
      required: true,
      description: "Classification type names, several separated by ';' (see `govcat types list " +
        "--type=classification`)",
      example: "MICROSOFT.PERSONAL.EMAIL",
    },
  ],
  unique: [["typeName", "qualifiedName"]],
  sample: [
    ["customers", "azure_sql_table", `${SQL}/customers`, "MICROSOFT.PERSONAL.EMAIL;MICROSOFT.PERSONAL.NAME"],
    ["payments", "azure_sql_table", `${SQL}/payments`, "MICROSOFT.FINANCIAL.CREDIT_CARD_NUMBER"],
  ],
};

export const entityTable: CsvTemplate = {
  name: "entity-table",
  summary: "Tables to register: name, type, qualified name and description",
  usage: "govcat entity bulk-import --csv-file <file>",
  columns: [name(true), typeName, qualifiedName, description],
  unique: [["typeName", "qualifiedName"]],
  sample: [
    ["customers", "azure_sql_table", `${SQL}/customers`, "One row per customer"],
    ["orders", "azure_sql_table", `${SQL}/orders`, "One row per order line"],
  ],
};

/** The entity templates, in the order `templates list` shows them. */
export const ENTITY_TEMPLATES: readonly CsvTemplate[] = [
  entityBulkImport,
  entityBulkUpdate,
  entityDataset,
  entityClassified,
  entityTable,
];
