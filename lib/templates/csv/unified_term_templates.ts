/**
 * CSV templates of unified catalog terms, all read by `uc term import-csv`: bulk creation (name,
 * description, status, acronym, owner_id, resource_name, resource_url), every column a term file may hold,
 * bulk update by term id, and multi-value cells.
 *
 * Columns and their meaning, for the import that reads them:
 * - `name`, `description`; `status` DRAFT, PUBLISHED or EXPIRED in any case (a new term is DRAFT when
 *   it is empty).
 * - `acronym`: acronyms, several separated by `;` (`acronyms`).
 * - `owner_id`: owners as Entra ID object IDs (GUIDs, never e-mail addresses), `;`-separated
 *   (`contacts.owner`).
 * - `resource_name` / `resource_url`: resource links, `;`-separated, in pairs (`resources`).
 * - `synonyms`: names of other terms of the same domain (rows of the file or terms already there) that
 *   mean the same; each becomes a `Synonym` relationship once both terms exist.
 * - `contacts`: the term's experts as Entra ID object IDs (GUIDs), `;`-separated (`contacts.expert`).
 * - `term_id` (bulk update, and optional in the all-fields file): the id (GUID) of an existing term; the
 *   row changes only the fields it gives instead of creating a term. Without it, a row creates the term
 *   of its name, or updates the term of that name the domain has already.
 *
 * @example
 * ```ts
 * import { unifiedTermBulk } from "./unified_term_templates.ts";
 * console.log(unifiedTermBulk.usage); // "govcat uc term import-csv --csv-file <file> --domain-id <id>"
 * ```
 *
 * @module
 */
import { ENTITY_STATUSES } from "../../catalog/unified_enums.ts";
import type { CheckedRow, ColumnSpec, CsvTemplate } from "../../csv/types.ts";
import { cellText, cellValues, rowObjectIdProblems, type RowProblem } from "./rules.ts";

const OWNER_A = "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f";
const OWNER_B = "0d9e8f7a-6b5c-4d3e-9f1a-2b3c4d5e6f70";
const IMPORT_USAGE = "govcat uc term import-csv --csv-file <file> --domain-id <id>";

const name = (required: boolean): ColumnSpec => ({
  name: "name",
  kind: "text",
  required,
  description: "Name of the term, unique in its governance domain",
  example: "Customer Lifetime Value",
});
const description: ColumnSpec = {
  name: "description",
  kind: "text",
  description: "Definition of the term",
  example: "Net revenue a customer brings over the whole relationship",
};
const status: ColumnSpec = {
  name: "status",
  kind: "enum",
  values: ENTITY_STATUSES,
  description: `${ENTITY_STATUSES.join(", ")} in any letter case; DRAFT when empty`,
  example: "DRAFT",
};
const acronym: ColumnSpec = {
  name: "acronym",
  kind: "text",
  multi: true,
  description: "Acronyms of the term, several separated by ';'",
  example: "CLV",
};
const ownerId: ColumnSpec = {
  name: "owner_id",
  kind: "text",
  multi: true,
  description: "Owners as Entra ID object IDs (GUIDs, not e-mail addresses), several separated by ';'",
  example: OWNER_A,
};
const resourceName: ColumnSpec = {
  name: "resource_name",
  kind: "text",
  multi: true,
  description: "Names of resource links, ';'-separated, one per resource_url",
  example: "Metric definition",
};
const resourceUrl: ColumnSpec = {
  name: "resource_url",
  kind: "url",
  multi: true,
  description: "URLs of resource links, ';'-separated, one per resource_name",
  example: "https://contoso.sharepoint.com/sites/finance/clv",
};
const synonyms: ColumnSpec = {
  name: "synonyms",
  kind: "text",
  multi: true,
  description: "Names of other terms of the domain that mean the same, ';'-separated (Synonym relationships)",
  example: "Customer Value",
};
const contacts: ColumnSpec = {
  name: "contacts",
  kind: "text",
  multi: true,
  description: "Experts of the term as Entra ID object IDs (GUIDs, not e-mail addresses), ';'-separated",
  example: OWNER_B,
};

function termRowProblems(row: CheckedRow): RowProblem[] {
  const problems = rowObjectIdProblems(row, ["owner_id", "contacts"]);
  const names = cellValues(row.values.resource_name).length;
  const urls = cellValues(row.values.resource_url).length;
  if (names !== urls) {
    problems.push([
      names > urls ? "resource_url" : "resource_name",
      `${urls} resource_url value(s) for ${names} resource_name value(s); give them in pairs`,
    ]);
  }
  return problems;
}

export const unifiedTermBulk: CsvTemplate = {
  name: "uc-term-bulk",
  summary: "Unified catalog terms to create in one governance domain",
  usage: IMPORT_USAGE,
  columns: [name(true), description, status, acronym, ownerId, resourceName, resourceUrl],
  unique: [["name"]],
  checkRow: termRowProblems,
  sample: [
    [
      "Customer Lifetime Value",
      "Net revenue a customer brings over the whole relationship",
      "DRAFT",
      "CLV",
      OWNER_A,
      "Metric definition",
      "https://contoso.sharepoint.com/sites/finance/clv",
    ],
    ["Churn Rate", "Share of customers lost in a period", "PUBLISHED", "", `${OWNER_A};${OWNER_B}`, "", ""],
  ],
};

const termId = (required: boolean): ColumnSpec => ({
  name: "term_id",
  kind: "guid",
  required,
  description: required
    ? "Id of the term to change (see `govcat uc term list`)"
    : "Id of an existing term to change instead of creating one; empty creates (or updates by name)",
  example: "5e6f7081-92a3-44b5-86c7-d8e9f0a1b2c3",
});

export const unifiedTermAllFields: CsvTemplate = {
  name: "uc-term-all-fields",
  summary: "Unified catalog terms with every column a term file may hold: synonyms, experts, and term_id " +
    "for rows that change an existing term",
  usage: IMPORT_USAGE,
  columns: [
    termId(false),
    {
      ...name(false),
      requiredColumn: true,
      description: "Name of the term, unique in its governance " +
        "domain; required unless term_id names the term",
    },
    description,
    status,
    acronym,
    ownerId,
    resourceName,
    resourceUrl,
    synonyms,
    contacts,
  ],
  unique: [["name"], ["term_id"]],
  checkRow: (row) => {
    const problems = termRowProblems(row);
    if (cellText(row, "term_id") === undefined && cellText(row, "name") === undefined) {
      problems.push(["name", "a value is required when term_id is empty (the name of the term to create)"]);
    }
    return problems;
  },
  sample: [
    [
      "",
      "Customer Lifetime Value",
      "Net revenue a customer brings over the whole relationship",
      "DRAFT",
      "CLV;LTV",
      OWNER_A,
      "Metric definition;Finance wiki",
      "https://contoso.sharepoint.com/sites/finance/clv;https://wiki.contoso.example/finance",
      "Customer Value",
      OWNER_B,
    ],
    [
      "",
      "Customer Value",
      "Another name for customer lifetime value",
      "DRAFT",
      "",
      OWNER_A,
      "",
      "",
      "",
      "",
    ],
  ],
};

export const unifiedTermBulkUpdate: CsvTemplate = {
  name: "uc-term-bulk-update",
  summary: "Changes to existing unified catalog terms, each found by its term_id",
  usage: IMPORT_USAGE,
  columns: [
    termId(true),
    { ...name(false), description: "New name of the term; empty leaves it" },
    { ...description, description: "New definition of the term; empty leaves it" },
    {
      ...status,
      description: `New status: ${ENTITY_STATUSES.join(", ")} in any letter case; empty leaves it`,
    },
  ],
  unique: [["term_id"]],
  sample: [
    [
      "5e6f7081-92a3-44b5-86c7-d8e9f0a1b2c3",
      "",
      "Net revenue over the whole customer relationship",
      "PUBLISHED",
    ],
    ["6f708192-a3b4-45c6-97d8-e9f0a1b2c3d4", "Churn Rate (monthly)", "", ""],
  ],
};

export const unifiedTermMultiValue: CsvTemplate = {
  name: "uc-term-multi-value",
  summary: "Unified catalog terms with several synonyms and contacts per cell, separated by ';'",
  usage: IMPORT_USAGE,
  columns: [name(true), status, synonyms, contacts],
  unique: [["name"]],
  checkRow: termRowProblems,
  sample: [
    ["Revenue", "PUBLISHED", "Turnover;Sales", `${OWNER_A};${OWNER_B}`],
    ["Turnover", "DRAFT", "", OWNER_A],
    ["Sales", "DRAFT", "", ""],
  ],
};

/** The unified catalog term templates, in the order `templates list` shows them. */
export const UNIFIED_TERM_TEMPLATES: readonly CsvTemplate[] = [
  unifiedTermBulk,
  unifiedTermAllFields,
  unifiedTermBulkUpdate,
  unifiedTermMultiValue,
];
