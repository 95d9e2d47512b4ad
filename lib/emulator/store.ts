/**
 * Persistence of catalog entities in SQLite (`node:sqlite`, built into Deno). One row per entity, keyed by
 * guid; the entity itself is kept as JSON so fields the emulator does not model yet survive a round trip.
 *
 * Deletes are soft, as on the service: a deleted entity keeps its row with `status = DELETED`, is still
 * readable by guid, and no longer counts for the unique-attribute lookup. So `(type_name, qualified_name)`
 * is unique among ACTIVE rows only, and the same qualified name can be created again after a delete.
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
import type { AtlasEntity } from "./entity/model.ts";
import { EmulatorError } from "./errors.ts";

/**
 * Version 1: `UNIQUE (type_name, qualified_name)` over every row (hard deletes).
 * Version 2: a `status` column and uniqueness over ACTIVE rows only (soft deletes).
 */
const SCHEMA_VERSION = 2;

/** Entities persisted in one SQLite database (a file, or memory when no file is given). */
export class EntityStore {
  /** The database file, or `:memory:`. */
  readonly location: string;
  readonly #db: DatabaseSync;
  readonly #statements: {
    count: StatementSync;
    countAll: StatementSync;
    byGuid: StatementSync;
    byUnique: StatementSync;
    active: StatementSync;
    all: StatementSync;
    upsert: StatementSync;
    remove: StatementSync;
  };
  #closed = false;

  private constructor(location: string) {
    this.location = location;
    this.#db = new DatabaseSync(location);
    // Searches write to the file too (they catch the index up), so a second process on the same data file
    // makes a request wait for its lock for a while rather than fail at once with SQLITE_BUSY.
    this.#db.exec("PRAGMA busy_timeout = 5000");
    migrate(this.#db);
    this.#statements = {
      count: this.#db.prepare("SELECT COUNT(*) AS n FROM entities WHERE status = 'ACTIVE'"),
      countAll: this.#db.prepare("SELECT COUNT(*) AS n FROM entities"),
      byGuid: this.#db.prepare("SELECT json FROM entities WHERE guid = ?"),
      byUnique: this.#db.prepare(
        "SELECT json FROM entities WHERE type_name = ? AND qualified_name = ? AND status = 'ACTIVE'",
      ),
      active: this.#db.prepare("SELECT json FROM entities WHERE status = 'ACTIVE' ORDER BY rowid"),
      all: this.#db.prepare("SELECT json FROM entities ORDER BY rowid"),
      upsert: this.#db.prepare(
        `INSERT INTO entities (guid, type_name, qualified_name, status, json) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(guid) DO UPDATE SET type_name = excluded.type_name,
           qualified_name = excluded.qualified_name, status = excluded.status, json = excluded.json`,
      ),
      remove: this.#db.prepare("DELETE FROM entities WHERE guid = ?"),
    };
  }

  /** The SQLite database, shared with other stores of the same emulator (type definitions, relationships). */
  get database(): DatabaseSync {
    return this.#db;
  }

  /** Opens (and creates when missing) the store; no `dataFile` means a fresh in-memory database. */
  static open(dataFile?: string): EntityStore {
    return new EntityStore(dataFile ?? ":memory:");
  }

  /** Number of ACTIVE entities (what the catalog shows); soft-deleted ones are left out. */
  count(): number {
    const row = this.#statements.count.get() as { n: number } | undefined;
    return Number(row?.n ?? 0);
  }

  /** Number of rows, soft-deleted entities included. */
  countAll(): number {
    const row = this.#statements.countAll.get() as { n: number } | undefined;
    return Number(row?.n ?? 0);
  }

  /** The entity with this guid, if any, whatever its status (the service still serves deleted ones). */
  get(guid: string): AtlasEntity | undefined {
    return parseRow(this.#statements.byGuid.get(guid));
  }

  /** The ACTIVE entity with this type and qualified name, if any. */
  findByQualifiedName(typeName: string, qualifiedName: string): AtlasEntity | undefined {
    return parseRow(this.#statements.byUnique.get(typeName, qualifiedName));
  }

  /** Every ACTIVE entity, oldest first. */
  list(): AtlasEntity[] {
    return this.#statements.active.all().map((row) => parseRow(row)!);
  }

  /** Every ACTIVE entity, oldest first, parsed one at a time as the caller walks them. */
  *iterateActive(): Generator<AtlasEntity> {
    for (const row of this.#statements.active.iterate()) yield parseRow(row)!;
  }

  /** Every entity, soft-deleted ones included, oldest first. */
  listAll(): AtlasEntity[] {
    return this.#statements.all.all().map((row) => parseRow(row)!);
  }

  /**
   * Inserts or replaces the entity with this guid. An ACTIVE entity whose type + qualified name another
   * ACTIVE entity already uses raises the service's 409.
   */
  put(entity: AtlasEntity): void {
    const qualifiedName = String(entity.attributes.qualifiedName);
    const status = entity.status === "DELETED" ? "DELETED" : "ACTIVE";
    try {
      this.#statements.upsert.run(
        entity.guid,
        entity.typeName,
        qualifiedName,
        status,
        JSON.stringify(entity),
      );
    } catch (error) {
      if (!/UNIQUE constraint failed/i.test(String((error as Error)?.message))) throw error;
      throw new EmulatorError(
        409,
        "ATLAS-409-00-003",
        `failed to update entity: ${entity.typeName} with qualifiedName ${qualifiedName} already exists`,
      );
    }
  }

  /** Removes the row for good (a purge, not the service's delete); false when there was none. */
  delete(guid: string): boolean {
    return Number(this.#statements.remove.run(guid).changes) > 0;
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

const CREATE_TABLE = `CREATE TABLE entities (
  guid TEXT PRIMARY KEY,
  type_name TEXT NOT NULL,
  qualified_name TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'ACTIVE',
  json TEXT NOT NULL
)`;
const CREATE_UNIQUE_INDEX = `CREATE UNIQUE INDEX IF NOT EXISTS entities_active_unique
  ON entities (type_name, qualified_name) WHERE status = 'ACTIVE'`;

function migrate(db: DatabaseSync): void {
  const row = db.prepare("PRAGMA user_version").get() as { user_version: number } | undefined;
  const version = Number(row?.user_version ?? 0);
  if (version > SCHEMA_VERSION) {
    throw new Error(
      `Emulator data file has schema version ${version}, newer than this govcat understands (${SCHEMA_VERSION})`,
    );
  }
  // The columns tell the layout apart, so a file is migrated correctly whatever user_version says.
  const columns = (db.prepare("PRAGMA table_info(entities)").all() as Array<{ name: string }>)
    .map((column) => column.name);
  db.exec("BEGIN IMMEDIATE");
  try {
    if (columns.length === 0) {
      db.exec(CREATE_TABLE);
    } else if (!columns.includes("status")) {
      // Version 1 had a table-level UNIQUE constraint, which SQLite can only drop by rebuilding the table.
      db.exec("ALTER TABLE entities RENAME TO entities_v1");
      db.exec(CREATE_TABLE);
      db.exec(`INSERT INTO entities (guid, type_name, qualified_name, status, json)
        SELECT guid, type_name, qualified_name,
          CASE WHEN json_extract(json, '$.status') = 'DELETED' THEN 'DELETED' ELSE 'ACTIVE' END, json
        FROM entities_v1 ORDER BY rowid`);
      db.exec("DROP TABLE entities_v1");
    }
    db.exec(CREATE_UNIQUE_INDEX);
    if (version < SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

function parseRow(row: unknown): AtlasEntity | undefined {
  if (!row) return undefined;
  return JSON.parse((row as { json: string }).json) as AtlasEntity;
}
