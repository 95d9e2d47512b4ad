/**
 * Persistence of caller-made type definitions in the emulator's shared SQLite database (`typedefs` table):
 * created definitions, updated built-ins, and tombstones of deleted built-ins (rows of category
 * {@link DELETED_CATEGORY}). Untouched built-ins are code and never stored.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { TypeDefStore } from "./store.ts";
 * const db = new DatabaseSync(":memory:");
 * const store = new TypeDefStore(db);
 * console.log(store.all().defs.length); // 0
 * db.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { AtlasTypeDef } from "./model.ts";

/** The category of a row that records the deletion of a built-in definition. */
export const DELETED_CATEGORY = "DELETED";

/** Stored type definitions, one row per name. */
export class TypeDefStore {
  readonly #db: DatabaseSync;
  readonly #all: StatementSync;
  readonly #upsert: StatementSync;
  readonly #remove: StatementSync;

  constructor(database: DatabaseSync) {
    this.#db = database;
    database.exec(`CREATE TABLE IF NOT EXISTS typedefs (
      name TEXT PRIMARY KEY,
      guid TEXT NOT NULL UNIQUE,
      category TEXT NOT NULL,
      json TEXT NOT NULL
    )`);
    this.#all = database.prepare("SELECT name, category, json FROM typedefs ORDER BY rowid");
    this.#upsert = database.prepare(
      `INSERT INTO typedefs (name, guid, category, json) VALUES (?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET guid = excluded.guid, category = excluded.category, json = excluded.json`,
    );
    this.#remove = database.prepare("DELETE FROM typedefs WHERE name = ?");
  }

  /** Every stored definition, oldest first, and the names of the deleted built-ins. */
  all(): { defs: AtlasTypeDef[]; deleted: string[] } {
    const defs: AtlasTypeDef[] = [];
    const deleted: string[] = [];
    for (const row of this.#all.all() as Array<{ name: string; category: string; json: string }>) {
      if (row.category === DELETED_CATEGORY) deleted.push(row.name);
      else defs.push(JSON.parse(row.json) as AtlasTypeDef);
    }
    return { defs, deleted };
  }

  /**
   * Writes the given definitions, removes the named ones and records the deletion of the named built-ins,
   * all or nothing.
   */
  write(changes: { put?: AtlasTypeDef[]; remove?: string[]; tombstones?: AtlasTypeDef[] }): void {
    // The entity store may hold a transaction open on this connection; nest inside it with a savepoint.
    this.#db.exec("SAVEPOINT typedef_write");
    try {
      for (const def of changes.put ?? []) {
        this.#upsert.run(def.name, def.guid, def.category, JSON.stringify(def));
      }
      for (const name of changes.remove ?? []) this.#remove.run(name);
      for (const def of changes.tombstones ?? []) {
        this.#upsert.run(
          def.name,
          def.guid,
          DELETED_CATEGORY,
          JSON.stringify({ name: def.name, deleted: true }),
        );
      }
      this.#db.exec("RELEASE typedef_write");
    } catch (error) {
      this.#db.exec("ROLLBACK TO typedef_write");
      this.#db.exec("RELEASE typedef_write");
      throw error;
    }
  }
}
