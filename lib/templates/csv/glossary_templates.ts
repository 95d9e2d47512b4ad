/**
 * CSV templates of the classic glossary: the term file of `glossary import-terms` and the
 * assignment file of `glossary assign_terms` (term_guid, entity_guid).
 *
 * The term file has the basic columns (name, description, short_description, status, definition,
 * examples) and also takes the columns of the service's own import template (nick_name, acronym, usage,
 * resources, related_terms, synonyms, antonyms, stewards, experts, parent_term_name,
 * term_template_names; header names ignore case, spaces and `_`, so `Nick Name` is nick_name). The
 * service's import (the default mode) reads them all; `--mode=batches` writes the basic columns and
 * nick_name, acronym, usage and resources, and refuses a file holding the others.
 *
 * @example
 * ```ts
 * import { glossaryTerms } from "./glossary_templates.ts";
 * console.log(glossaryTerms.columns.slice(0, 6).map((c) => c.name).join(","));
 * // name,description,short_description,status,definition,examples
 * ```
 *
 * @module
 */
import { TERM_STATUSES } from "../../catalog/glossary_types.ts";
import { shown } from "../../csv/problems.ts";
import type { ColumnSpec, CsvTemplate } from "../../csv/types.ts";
import { cellText } from "./rules.ts";

/** Entities of the emulator's seed catalog (the quick start), so the sample assigns to real assets. */
const SEED_CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const SEED_ORDERS = "ca7a1000-0000-4000-8000-000000000020";

/** Columns of the service's import template that only the service's import (the default mode) reads. */
export const SERVICE_ONLY_TERM_COLUMNS: readonly string[] = [
  "related_terms",
  "synonyms",
  "antonyms",
  "stewards",
  "experts",
  "parent_term_name",
  "term_template_names",
];

/** The term GUID of the assignment sample: the catalog makes term GUIDs, so a real file names its own. */
const SAMPLE_TERM = "3c4d5e6f-7081-4293-a4b5-c6d7e8f90a1b";

const empty = (count: number): string[] => Array.from({ length: count }, () => "");

const serviceColumn = (name: string, description: string, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({
  name,
  kind: "text",
  description: `${description} (the service's import only; --mode=batches refuses it)`,
  ...extra,
});

export const glossaryTerms: CsvTemplate = {
  name: "glossary-terms",
  summary: "Glossary terms to import into one glossary: name, descriptions, status, definition, examples " +
    "(and the service's template columns)",
  usage: "govcat glossary import-terms --csv-file <file> --glossary-guid <guid>",
  // Uploaded to the service's import as it is, which reads commas only.
  delimiters: [","],
  columns: [
    {
      name: "name",
      kind: "text",
      required: true,
      description: "Name of the term, unique in the glossary; it may not contain '@'",
      example: "Customer",
    },
    {
      name: "description",
      kind: "text",
      description: "Description of the term; the definition when the definition column is empty",
      example: "A person or company that buys from us",
    },
    {
      name: "short_description",
      kind: "text",
      description: "One-line summary shown in lists",
      example: "Buyer of our products",
    },
    {
      name: "status",
      kind: "enum",
      values: TERM_STATUSES,
      description: `Life-cycle status: ${TERM_STATUSES.join(", ")} (any letter case)`,
      example: "Draft",
    },
    {
      name: "definition",
      kind: "text",
      description: "Full definition of the term",
      example: "A person or organisation with at least one order or an active contract",
    },
    {
      name: "examples",
      kind: "text",
      multi: true,
      description: "Examples of the term, several separated by ';'",
      example: "Contoso Ltd;Jane Doe",
    },
    {
      name: "nick_name",
      kind: "text",
      description: "Another name the term is known by",
      example: "Client",
    },
    {
      name: "acronym",
      aliases: ["abbreviation"],
      kind: "text",
      description: "Abbreviation of the term",
      example: "CUST",
    },
    {
      name: "usage",
      kind: "text",
      description: "How the term is to be used",
      example: "Use for parties with a signed contract",
    },
    {
      name: "resources",
      kind: "text",
      multi: true,
      description: "Links as <name>:<url>, several separated by ';' (a bare URL names itself)",
      example: "Wiki:https://wiki.contoso.com/customer",
    },
    serviceColumn(
      "related_terms",
      "Names of related terms of the glossary (in the file or already there), ';'-separated",
      { aliases: ["see_also"], multi: true },
    ),
    serviceColumn("synonyms", "Names of terms that mean the same, ';'-separated", { multi: true }),
    serviceColumn("antonyms", "Names of terms that mean the opposite, ';'-separated", { multi: true }),
    serviceColumn("stewards", "Stewards as <e-mail or object ID>:<note>, ';'-separated", { multi: true }),
    serviceColumn("experts", "Experts as <e-mail or object ID>:<note>, ';'-separated", { multi: true }),
    serviceColumn(
      "parent_term_name",
      "Name of the parent term (with --include-term-hierarchy)",
    ),
    serviceColumn("term_template_names", "Term templates of the term, ';'-separated", { multi: true }),
  ],
  unique: [["name"]],
  checkRow: (row) => {
    const name = cellText(row, "name");
    return name?.includes("@")
      ? [["name", `${shown(name)} contains '@', which term names may not hold`]]
      : [];
  },
  sample: [
    [
      "Customer",
      "A person or company that buys from us",
      "Buyer of our products",
      "Approved",
      "A person or organisation with at least one order or an active contract",
      "Contoso Ltd;Jane Doe",
      "Client",
      "CUST",
      "Use for parties with a signed contract",
      "Wiki:https://wiki.contoso.com/customer",
      ...empty(7),
    ],
    [
      "Churn Rate",
      "Share of customers lost in a period",
      "Customers lost per period",
      "Draft",
      "Customers at the start of the period who left during it, divided by customers at the start",
      "2.5% per month",
      "",
      "",
      "",
      "",
      ...empty(7),
    ],
  ],
};

export const glossaryAssignments: CsvTemplate = {
  name: "glossary-assignments",
  summary: "Glossary terms to assign to entities: one term_guid and entity_guid pair per row",
  usage: "govcat glossary assign_terms --csv-file <file>",
  columns: [
    {
      name: "term_guid",
      kind: "guid",
      required: true,
      description: "GUID of the glossary term (see `govcat glossary read-terms-headers`)",
      example: SAMPLE_TERM,
    },
    {
      name: "entity_guid",
      kind: "guid",
      required: true,
      description: "GUID of the entity to tag with the term",
      example: SEED_CUSTOMERS,
    },
  ],
  unique: [["term_guid", "entity_guid"]],
  sample: [
    [SAMPLE_TERM, SEED_CUSTOMERS],
    [SAMPLE_TERM, SEED_ORDERS],
  ],
};

/** The glossary templates, in the order `templates list` shows them. */
export const GLOSSARY_TEMPLATES: readonly CsvTemplate[] = [glossaryTerms, glossaryAssignments];
