/**
 * Tells the search index which entities and glossary objects changed, whatever wrote them, even another
 * process or an earlier govcat while this emulator was down. SQLite triggers on the `entities`,
 * `glossary_terms` and `glossary_glossaries` tables append the guid (and kind) of every inserted, updated
 * or deleted row to a change log; the index drains the log before each search and re-reads only those
 * records. A renamed glossary also logs its terms, whose qualified names (`term@glossary`) change with it.
 *
 * Why triggers: every entity write in the emulator (creates, updates, soft deletes, classifications,
 * labels, business metadata, term assignments, collection moves, a reset) ends in one of the store's SQL
 * statements, but they come from many modules owned by different people. A trigger sees all of them
 * without any module having to remember to notify search, and a rolled-back transaction rolls back its log
 * rows too, so the index never sees a write that did not happen. The triggers and the log are kept in the
 * data file next to the index they feed (see `tables.ts`): they are plain SQL, so any program that
 * writes the file through SQLite, an older govcat included, logs its changes for the next search.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { installSearchTables } from "./tables.ts";
 * import { StoreChangeFeed } from "./changes.ts";
 * const store = EntityStore.open();
 * installSearchTables(store.database);
 * const feed = new StoreChangeFeed(store.database);
 * console.log(feed.take(100)); // [] — nothing written yet
 * store.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";

/** What a changed record is: an entity, a glossary term or a glossary. */
export type ChangeKind = "entity" | "term" | "glossary";

/** One changed record. */
export interface StoreChange {
  guid: string;
  kind: ChangeKind;
}

/** The change log's table. */
export const CHANGE_LOG_TABLE = "search_changes";

/** The statements creating the log and its triggers (run by `tables.ts`, in its transaction). */
export const CHANGE_LOG_SCHEMA: readonly string[] = [
  // No unique key on purpose: an `INSERT OR IGNORE` inside a trigger takes the conflict policy of the outer
  // statement, and the store's upsert would then fail on a repeated guid. Duplicates are dropped when read.
  `CREATE TABLE IF NOT EXISTS ${CHANGE_LOG_TABLE} (guid TEXT NOT NULL, kind TEXT NOT NULL)`,
  ...rowTriggers("entities", "entity", "entity"),
  ...rowTriggers("glossary_terms", "term", "term"),
  ...rowTriggers("glossary_glossaries", "glossary", "glossary"),
  `CREATE TRIGGER IF NOT EXISTS ${CHANGE_LOG_TABLE}_glossary_terms_renamed AFTER UPDATE ON glossary_glossaries
   BEGIN INSERT INTO ${CHANGE_LOG_TABLE} (guid, kind)
     SELECT guid, 'term' FROM glossary_terms WHERE glossary_guid = NEW.guid; END`,
];

// Insert, update (both guids: a row's guid may change) and delete triggers logging one table's rows.
function rowTriggers(table: string, name: string, kind: ChangeKind): string[] {
  const log = (row: "NEW" | "OLD") =>
    `INSERT INTO ${CHANGE_LOG_TABLE} (guid, kind) VALUES (${row}.guid, '${kind}');`;
  const trigger = (event: string, body: string) =>
    `CREATE TRIGGER IF NOT EXISTS ${CHANGE_LOG_TABLE}_${name}_${event.toLowerCase()} AFTER ${event}
     ON ${table} BEGIN ${body} END`;
  return [
    trigger("INSERT", log("NEW")),
    trigger("UPDATE", `${log("OLD")} ${log("NEW")}`),
    trigger("DELETE", log("OLD")),
  ];
}

/** The records changed since the last {@link StoreChangeFeed.take}, read from the trigger-fed log. */
export class StoreChangeFeed {
  readonly #count: StatementSync;
  readonly #changes: StatementSync;
  readonly #clear: StatementSync;

  /** Reads the log `tables.ts` installed. */
  constructor(database: DatabaseSync) {
    this.#count = database.prepare(`SELECT count(*) AS n FROM ${CHANGE_LOG_TABLE}`);
    this.#changes = database.prepare(`SELECT DISTINCT guid, kind FROM ${CHANGE_LOG_TABLE}`);
    this.#clear = database.prepare(`DELETE FROM ${CHANGE_LOG_TABLE}`);
  }

  /** Number of log rows waiting (a record written twice counts twice). */
  pending(): number {
    return Number((this.#count.get() as { n: number } | undefined)?.n ?? 0);
  }

  /**
   * The records written since the last call, and empties the log. More than `atMost` changes gives
   * `undefined` instead: re-reading everything is then cheaper than one lookup per record.
   */
  take(atMost: number): StoreChange[] | undefined {
    const pending = this.pending();
    if (pending === 0) return [];
    const changes = pending > atMost ? undefined : this.#changes.all().map((row) => {
      const { guid, kind } = row as { guid: string; kind: ChangeKind };
      return { guid: String(guid), kind };
    });
    this.#clear.run();
    return changes;
  }
}
