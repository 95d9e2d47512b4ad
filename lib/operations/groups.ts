/**
 * The CLI command groups, in the order `govcat --help` lists them.
 *
 * @module
 */

/** A command group: the first word of a CLI command (`govcat glossary …`). */
export interface OperationGroup {
  /** The group's name as typed, e.g. `glossary`. */
  name: string;
  /** One line for `govcat --help`. */
  summary: string;
}

/** Every group, in the order `govcat --help` lists them. */
export const OPERATION_GROUPS: ReadonlyArray<OperationGroup> = [
  { name: "entity", summary: "Entities, labels, classifications and business metadata (Atlas v2)" },
  { name: "types", summary: "Type definitions, including business metadata definitions" },
  { name: "search", summary: "Search, suggest, autocomplete, browse and navigate" },
  { name: "glossary", summary: "Classic glossary: glossaries, categories, terms, CSV import" },
  { name: "lineage", summary: "Lineage of entities; CSV validate and import" },
  { name: "lineage_csv", summary: "Lineage from CSV: process, validate, samples and templates" },
  { name: "collections", summary: "Collections: create, list, get, delete, path, CSV import/export" },
  { name: "account", summary: "Account properties, keys, resource set rules, domains, contacts, features" },
  { name: "policy", summary: "Collection roles: metadata roles and policies" },
  { name: "domain", summary: "Domain helpers (mapped to collections)" },
  {
    name: "uc",
    summary: "Unified catalog: terms, domains, data products, CDEs, OKRs, policies, data assets and columns",
  },
  { name: "scan", summary: "Data sources, scans and their runs and triggers, classification rules" },
  { name: "workflow", summary: "Workflows, approvals and requests" },
  { name: "quality", summary: "Data quality: rules, runs, scores, observations" },
  { name: "validate", summary: "Validate CSV files against templates before importing" },
  { name: "templates", summary: "CSV and JSON templates for bulk files and payloads: list, show, write" },
  { name: "profile", summary: "Connection profiles" },
  { name: "config", summary: "Settings stored in the active profile" },
];
