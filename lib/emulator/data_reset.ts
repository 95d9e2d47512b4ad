/**
 * Empties the emulator's catalog for `POST /_emulator/reset?data=true`, so a test starts from what a new
 * account holds. Everything callers can create goes, in one transaction:
 *
 * - `entities`: entities, soft-deleted ones included, with their classifications, labels, business metadata
 *   values and term assignments;
 * - `relationships`: relationship instances;
 * - `glossaries`, `glossaryTerms`, `glossaryCategories`, `glossaryRelations`, `glossaryImports`,
 *   `glossaryBulkDeletions`: the classic glossary, its CSV import operations and its bulk term deletes;
 * - `typeDefs`: stored type definitions: created ones (business metadata definitions included), changes to
 *   built-ins, deletions of built-ins;
 * - `collections`: every collection but the root;
 * - `dataSources`, `scans`, `scanTriggers`, `scanRuns`, `classificationRules`: the scanning API's resources;
 * - `unifiedCatalog`, `unifiedCatalogRelationships`: unified catalog domains, terms, data products, ... and
 *   the links between them;
 * - `dataQuality`: the data quality area's rules, runs, outcomes, alerts, schedules, data sources, ...;
 * - `accountSettings`: what was set on the account (its friendly name, its access keys, its resource set
 *   rule configuration), so it has a new account's: the default friendly name, new keys, no rule;
 * - `metadataPolicies`: the collections' metadata policies; the root collection's is made again as a new
 *   account has it (its creator in every role) on the next policy request.
 * - `workflows`, `workflowRequests`, `workflowRuns`, `workflowTasks`: the workflow API's state.
 *
 * What stays is what every account has (see {@link KEPT}): the built-in type definitions, as shipped, the
 * root collection, with its original friendly name and description, and the glossary named `Glossary`
 * (a new one, without terms; see `glossary/default.ts`). The search index follows by
 * itself (its triggers see the deletes). Faults, scripts and statistics are the admin route's business.
 *
 * @example
 * ```ts
 * import { EntityStore } from "./store.ts";
 * import { clearCatalogData } from "./data_reset.ts";
 * const store = EntityStore.open();
 * console.log(clearCatalogData(store).cleared.entities); // 0
 * store.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { TypeSystem } from "./area.ts";
import { ROOT_DESCRIPTION, ROOT_FRIENDLY_NAME, ROOT_NAME } from "./collections/store.ts";
import { addDefaultGlossary, DEFAULT_GLOSSARY } from "./glossary/default.ts";
import type { EntityStore } from "./store.ts";
import { TypeRegistry } from "./types/registry.ts";

/** What a data reset removed, by kind, and what it kept. */
export interface DataResetReport {
  /** Number of records removed, by kind (the keys listed in the module's documentation). */
  cleared: Record<string, number>;
  /** What every account has and a reset keeps. */
  kept: string[];
}

/** What a reset keeps: what a new account holds. */
export const KEPT: readonly string[] = [
  "built-in type definitions (as shipped)",
  `root collection ${ROOT_NAME}`,
  `glossary ${DEFAULT_GLOSSARY}`,
];

/** One kind of record: its table and, when the table holds several kinds, which rows. */
interface Wipe {
  key: string;
  table: string;
  where?: string;
}

const WIPES: readonly Wipe[] = [
  { key: "entities", table: "entities" },
  { key: "relationships", table: "relationships" },
  { key: "glossaryRelations", table: "glossary_relations" },
  { key: "glossaryTerms", table: "glossary_terms" },
  { key: "glossaryCategories", table: "glossary_categories" },
  { key: "glossaries", table: "glossary_glossaries" },
  { key: "glossaryImports", table: "glossary_imports" },
  { key: "glossaryBulkDeletions", table: "glossary_bulk_deletions" },
  { key: "typeDefs", table: "typedefs" },
  { key: "collections", table: "account_collections", where: `name <> '${ROOT_NAME}'` },
  { key: "dataSources", table: "scan_resources", where: "kind = 'datasource'" },
  { key: "scans", table: "scan_resources", where: "kind = 'scan'" },
  { key: "scanTriggers", table: "scan_resources", where: "kind = 'trigger'" },
  { key: "scanRuns", table: "scan_resources", where: "kind = 'run'" },
  { key: "classificationRules", table: "scan_resources", where: "kind = 'rule'" },
  { key: "unifiedCatalog", table: "uc_entities" },
  { key: "unifiedCatalogRelationships", table: "uc_relationships" },
  { key: "accountSettings", table: "account_settings" },
  { key: "metadataPolicies", table: "metadata_policies" },
  { key: "workflows", table: "workflow_items", where: "kind = 'workflow'" },
  { key: "workflowRequests", table: "workflow_items", where: "kind = 'request'" },
  { key: "workflowRuns", table: "workflow_items", where: "kind = 'run'" },
  { key: "workflowTasks", table: "workflow_items", where: "kind = 'task'" },
  { key: "dataQuality", table: "dq_documents" },
];

/**
 * Removes every record callers can create (see the module's documentation) and restores the root collection;
 * `types`, when it is the emulator's type registry, re-reads its definitions so the built-ins are back.
 * A table no area has created yet counts 0.
 */
export function clearCatalogData(store: EntityStore, types?: TypeSystem): DataResetReport {
  const db = store.database;
  const cleared: Record<string, number> = {};
  store.transaction(() => {
    const tables = existingTables(db);
    for (const { key, table, where } of WIPES) {
      if (!tables.has(table)) {
        cleared[key] = 0;
        continue;
      }
      const condition = where ? ` WHERE ${where}` : "";
      cleared[key] = Number(db.prepare(`DELETE FROM ${table}${condition}`).run().changes);
    }
    if (tables.has("account_collections")) {
      db.prepare("UPDATE account_collections SET friendly_name = ?, description = ? WHERE name = ?")
        .run(ROOT_FRIENDLY_NAME, ROOT_DESCRIPTION, ROOT_NAME);
    }
    if (tables.has("glossary_glossaries")) addDefaultGlossary(db, Date.now());
  });
  if (types instanceof TypeRegistry) types.reload();
  return { cleared, kept: [...KEPT] };
}

/** The tables a data reset empties (all or some of their rows). */
export const WIPED_TABLES: ReadonlySet<string> = new Set(WIPES.map((wipe) => wipe.table));

function existingTables(db: DatabaseSync): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
  return new Set(rows.map((row) => String((row as { name: string }).name)));
}
