/**
 * Tells the search index which entities changed, whatever wrote them. SQLite triggers on the `entities`
 * table append the guid of every inserted, updated or deleted row to a change log; the index drains the
 * log before each search and re-reads only those entities.
 *
 * Why triggers: every entity write in the emulator (creates, updates, soft deletes, classifications,
 * labels, business metadata, term assignments, collection moves, a reset) ends in one of the store's SQL
 * statements, but they come from many modules owned by different people. A trigger sees all of them
 * without any module having to remember to notify search, and a rolled-back transaction rolls back its log
 * rows too, so the index never sees a write that did not happen. The triggers and the log are TEMP:
 * they live in this connection only and never reach the data file.
 *
 * @example
 * ```ts
 * import { EntityStore } from "./store.ts";
 * import { StoreChangeFeed } from "./search_changes.ts";
 * const store = EntityStore.open();
 * const feed = new StoreChangeFeed(store.database);
 * console.log(feed.take(100)); // [] — nothing written yet
 * store.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";

const LOG_TABLE = "govcat_search_changes";

// The log has no unique key on purpose: an `INSERT OR IGNORE` inside a trigger takes the conflict policy
// of the outer statement, and the store's upsert would then fail on a repeated guid. Duplicates are
// dropped when the log is read.
const INSTALL = [
  `CREATE TEMP TABLE IF NOT EXISTS ${LOG_TABLE} (guid TEXT NOT NULL)`,
  `CREATE TEMP TRIGGER IF NOT EXISTS ${LOG_TABLE}_insert AFTER INSERT ON main.entities
   BEGIN INSERT INTO ${LOG_TABLE} (guid) VALUES (NEW.guid); END`,
  `CREATE TEMP TRIGGER IF NOT EXISTS ${LOG_TABLE}_update AFTER UPDATE ON main.entities
   BEGIN INSERT INTO ${LOG_TABLE} (guid) VALUES (OLD.guid); INSERT INTO ${LOG_TABLE} (guid) VALUES (NEW.guid); END`,
  `CREATE TEMP TRIGGER IF NOT EXISTS ${LOG_TABLE}_delete AFTER DELETE ON main.entities
   BEGIN INSERT INTO ${LOG_TABLE} (guid) VALUES (OLD.guid); END`,
];

/** The entities changed since the last {@link StoreChangeFeed.take}, read from the trigger-fed log. */
export class StoreChangeFeed {
  readonly #count: StatementSync;
  readonly #guids: StatementSync;
  readonly #clear: StatementSync;

  /** Installs the triggers (once per connection); changes are recorded from now on. */
  constructor(database: DatabaseSync) {
    for (const statement of INSTALL) database.exec(statement);
    this.#count = database.prepare(`SELECT count(*) AS n FROM ${LOG_TABLE}`);
    this.#guids = database.prepare(`SELECT DISTINCT guid FROM ${LOG_TABLE}`);
    this.#clear = database.prepare(`DELETE FROM ${LOG_TABLE}`);
  }

  /**
   * The guids written since the last call, and empties the log. More than `atMost` changes gives
   * `undefined` instead: re-reading everything is then cheaper than one lookup per guid.
   */
  take(atMost: number): string[] | undefined {
    const pending = Number((this.#count.get() as { n: number } | undefined)?.n ?? 0);
    if (pending === 0) return [];
    const guids = pending > atMost
      ? undefined
      : this.#guids.all().map((row) => String((row as { guid: string }).guid));
    this.#clear.run();
    return guids;
  }
}
