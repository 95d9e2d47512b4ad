/**
 * Persistence of catalog entities in SQLite (`node:sqlite`, built into Deno). One row per entity, keyed by
 * guid, with `(type_name, qualified_name)` unique as the service's unique-attribute lookup requires; the
 * entity itself is kept as JSON so fields the emulator does not model yet survive a round trip.
 *
 * @example
 * ```ts
 * import { EntityStore } from "./store.ts";
 * const store = EntityStore.open(); // in-memory
 * console.log(store.count()); // 0
 * store.close();
 * ```
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { AtlasEntity } from "./entity_model.ts";

const SCHEMA_VERSION = 1;

/** Entities persisted in one SQLite database (a file, or memory when no file is given). */
export class EntityStore {
  /** The database file, or `:memory:`. */
  readonly location: string;
  readonly #db: DatabaseSync;
  readonly #statements: {
    count: StatementSync;
    byGuid: StatementSync;
    byUnique: StatementSync;
    all: StatementSync;
    upsert: StatementSync;
    remove: StatementSync;
  };
  #closed = false;

  private constructor(location: string) {
    this.location = location;
    this.#db = new DatabaseSync(location);
    migrate(this.#db);
    this.#statements = {
      count: this.#db.prepare("SELECT COUNT(*) AS n FROM entities"),
      byGuid: this.#db.prepare("SELECT json FROM entities WHERE guid = ?"),
      byUnique: this.#db.prepare("SELECT json FROM entities WHERE type_name = ? AND qualified_name = ?"),
      all: this.#db.prepare("SELECT json FROM entities ORDER BY rowid"),
      upsert: this.#db.prepare(
        `INSERT INTO entities (guid, type_name, qualified_name, json) VALUES (?, ?, ?, ?)
         ON CONFLICT(guid) DO UPDATE SET type_name = excluded.type_name,
           qualified_name = excluded.qualified_name, json = excluded.json`,
      ),
      remove: this.#db.prepare("DELETE FROM entities WHERE guid = ?"),
    };
  }

  /** Opens (and creates when missing) the store; no `dataFile` means a fresh in-memory database. */
  static open(dataFile?: string): EntityStore {
    return new EntityStore(dataFile ?? ":memory:");
  }

  /** Number of stored entities. */
  count(): number {
    const row = this.#statements.count.get() as { n: number } | undefined;
    return Number(row?.n ?? 0);
  }

  /** The entity with this guid, if any. */
  get(guid: string): AtlasEntity | undefined {
    return parseRow(this.#statements.byGuid.get(guid));
  }

  /** The entity with this type and qualified name, if any. */
  findByQualifiedName(typeName: string, qualifiedName: string): AtlasEntity | undefined {
    return parseRow(this.#statements.byUnique.get(typeName, qualifiedName));
  }

  /** Every entity, oldest first. */
  list(): AtlasEntity[] {
    return this.#statements.all.all().map((row) => parseRow(row)!);
  }

  /** Inserts or replaces the entity with this guid. A type + qualified name used by another guid throws. */
  put(entity: AtlasEntity): void {
    const qualifiedName = String(entity.attributes.qualifiedName);
    this.#statements.upsert.run(entity.guid, entity.typeName, qualifiedName, JSON.stringify(entity));
  }

  /** Removes the entity; false when there was none. */
  delete(guid: string): boolean {
    return Number(this.#statements.remove.run(guid).changes) > 0;
  }

  /** Removes every entity. */
  clear(): void {
    this.#db.exec("DELETE FROM entities");
  }

  /** Runs `work` atomically: every write inside it lands, or none does. */
  transaction<T>(work: () => T): T {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      this.#db.exec("COMMIT");
      return result;
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  /** Closes the database; safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
}

function migrate(db: DatabaseSync): void {
  db.exec(`CREATE TABLE IF NOT EXISTS entities (
    guid TEXT PRIMARY KEY,
    type_name TEXT NOT NULL,
    qualified_name TEXT NOT NULL,
    json TEXT NOT NULL,
    UNIQUE (type_name, qualified_name)
  )`);
  const row = db.prepare("PRAGMA user_version").get() as { user_version: number } | undefined;
  const version = Number(row?.user_version ?? 0);
  if (version > SCHEMA_VERSION) {
    throw new Error(
      `Emulator data file has schema version ${version}, newer than this govcat understands (${SCHEMA_VERSION})`,
    );
  }
  if (version < SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
}

function parseRow(row: unknown): AtlasEntity | undefined {
  if (!row) return undefined;
  return JSON.parse((row as { json: string }).json) as AtlasEntity;
}
