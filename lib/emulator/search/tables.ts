/**
 * The search index's tables, kept in the emulator's data file beside the entities they index, so a restart
 * on a large file answers its first search at once instead of re-reading every entity:
 *
 * - `search_documents`: one row per live document (ACTIVE entity, glossary, term) in a numbered slot, with
 *   its search fields as JSON, its lower-cased type and name (for type scans and orderings) and the
 *   references to its container (for browse);
 * - `search_postings`: token → slots, with the token's field-weighted frequency in each (in blocks), for two fields:
 *   every searchable field ({@link ALL_FIELDS}) and names only ({@link NAME_FIELD});
 * - `search_vocabulary`: each token's live document frequency (for scoring and prefix lookups);
 * - `search_state`: the layout version and whether the index is complete;
 * - the change log and its triggers (`changes.ts`).
 *
 * A file written before these tables existed (or by a govcat with another layout) has none or an old set:
 * {@link installSearchTables} creates them (dropping an old layout) and reports that the index must be
 * built once. The tables hold nothing of their own: everything is derived from the entity and glossary
 * tables, which a data reset empties.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { installSearchTables } from "./tables.ts";
 * const store = EntityStore.open();
 * console.log(installSearchTables(store.database)); // false: the index is still to build
 * store.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { CHANGE_LOG_SCHEMA, CHANGE_LOG_TABLE } from "./changes.ts";
import { GlossaryStore } from "../glossary/store.ts";

/** Postings field of every searchable field (queries). */
export const ALL_FIELDS = 0;
/** Postings field of names only (suggest, autocomplete). */
export const NAME_FIELD = 1;

/** Bumped whenever the tables or what is derived into them change: an older layout is rebuilt. */
const LAYOUT = "2";

/** Tables derived from the catalog data and kept in step with it by the change log. */
export const SEARCH_TABLES: readonly string[] = [
  "search_documents",
  "search_postings",
  "search_vocabulary",
  "search_state",
  CHANGE_LOG_TABLE,
];

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS search_documents (
    slot INTEGER PRIMARY KEY AUTOINCREMENT,
    guid TEXT NOT NULL UNIQUE,
    type_key TEXT NOT NULL,
    name_key TEXT NOT NULL,
    document TEXT NOT NULL,
    containers TEXT
  )`,
  "CREATE INDEX IF NOT EXISTS search_documents_type ON search_documents (type_key)",
  // A token's postings in blocks of ascending slots (see `postings.ts`), keyed by each block's first.
  `CREATE TABLE IF NOT EXISTS search_postings (
    field INTEGER NOT NULL,
    token TEXT NOT NULL,
    first_slot INTEGER NOT NULL,
    slots BLOB NOT NULL,
    weights BLOB NOT NULL,
    PRIMARY KEY (field, token, first_slot)
  ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS search_vocabulary (
    field INTEGER NOT NULL,
    token TEXT NOT NULL,
    frequency INTEGER NOT NULL,
    PRIMARY KEY (field, token)
  ) WITHOUT ROWID`,
  "CREATE TABLE IF NOT EXISTS search_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  ...CHANGE_LOG_SCHEMA,
];

/**
 * Creates the index tables and change triggers when missing (the glossary tables too, which the triggers
 * watch). True when the tables hold a complete index of this layout; false when it must be built, which
 * the caller does in the same transaction.
 */
export function installSearchTables(database: DatabaseSync): boolean {
  GlossaryStore.for(database);
  const state = stateOf(database);
  if (state.layout !== undefined && state.layout !== LAYOUT) {
    for (const table of SEARCH_TABLES) database.exec(`DROP TABLE IF EXISTS ${table}`);
  }
  for (const statement of SCHEMA) database.exec(statement);
  if (state.layout !== LAYOUT) {
    database.prepare("INSERT OR REPLACE INTO search_state (key, value) VALUES ('layout', ?)").run(LAYOUT);
  }
  return state.layout === LAYOUT && state.complete === "1";
}

/** Records that the tables now hold a complete index (the caller's transaction commits it). */
export function markSearchTablesComplete(database: DatabaseSync): void {
  database.exec("INSERT OR REPLACE INTO search_state (key, value) VALUES ('complete', '1')");
}

function stateOf(database: DatabaseSync): Record<string, string> {
  const exists = database.prepare(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'search_state'",
  )
    .get();
  if (!exists) return {};
  const rows = database.prepare("SELECT key, value FROM search_state").all() as Array<
    { key: string; value: string }
  >;
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}
