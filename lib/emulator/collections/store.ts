/**
 * Persistence of the account API's collections in the emulator's shared SQLite database, in a table of
 * their own (`account_collections`). One row per collection, keyed by its lower-case name: the service
 * answers names in lower case (the contract's own example turns `myCollection1` into `mycollection1`) and
 * looks them up without regard to case.
 *
 * The root collection is named after the account and always exists. When the table is first created, every
 * collection the stored entities already name in `collectionId` (the seed's `sales`, `finance`,
 * `marketing`) is created under the root, so seeded assets live in collections that exist.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { CollectionStore } from "./store.ts";
 * const entities = EntityStore.open();
 * const collections = CollectionStore.open(entities, Date.now());
 * console.log(collections.root().name); // "emulator"
 * entities.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { EMULATOR_ACCOUNT_NAME } from "../account/area.ts";
import type { EntityStore } from "../store.ts";
import { countWrite, trackWrites } from "../write_counts.ts";

/** Name of the root collection: the account's name, in lower case like every collection name. */
export const ROOT_NAME = EMULATOR_ACCOUNT_NAME.toLowerCase();

/** Friendly name of the root collection: the account's own friendly name. */
export const ROOT_FRIENDLY_NAME = "govcat catalog emulator";

/**
 * Description of the root collection, as the service gives every account's root (Azure/azure-sdk-for-js
 * `sdk/purview/purview-administration-rest/recordings/node/list_collections/recording_should_list_all_available_collections.json`:
 * `"description": "The root collection."`).
 */
export const ROOT_DESCRIPTION = "The root collection.";

/** Who the emulator records as creator of what it makes by itself (the root, seeded collections). */
const EMULATOR_IDENTITY = { by: "govcat emulator", type: "Application" } as const;
/** Who it records for changes made through the API; the emulator has no signed-in identity. */
export const API_IDENTITY = { by: "emulator-user", type: "User" } as const;

/** One stored collection. `parent` is undefined for the root only. */
export interface StoredCollection {
  /** Lower-case name, unique in the account. */
  name: string;
  friendlyName: string;
  description?: string;
  parent?: string;
  createdAt: number;
  createdBy: string;
  createdByType: string;
  lastModifiedAt: number;
  lastModifiedBy: string;
  lastModifiedByType: string;
}

interface Row {
  name: string;
  friendly_name: string;
  description: string | null;
  parent_name: string | null;
  created_at: number;
  created_by: string;
  created_by_type: string;
  modified_at: number;
  modified_by: string;
  modified_by_type: string;
}

const TABLE = "account_collections";

/** The collections of the emulated account. */
export class CollectionStore {
  readonly #db: DatabaseSync;
  readonly #statements: {
    byName: StatementSync;
    all: StatementSync;
    children: StatementSync;
    upsert: StatementSync;
    remove: StatementSync;
  };

  private constructor(db: DatabaseSync) {
    this.#db = db;
    trackWrites(db);
    this.#statements = {
      byName: db.prepare(`SELECT * FROM ${TABLE} WHERE name = ?`),
      all: db.prepare(`SELECT * FROM ${TABLE} ORDER BY rowid`),
      children: db.prepare(`SELECT * FROM ${TABLE} WHERE parent_name = ? ORDER BY rowid`),
      upsert: db.prepare(
        `INSERT INTO ${TABLE} (name, friendly_name, description, parent_name, created_at, created_by,
           created_by_type, modified_at, modified_by, modified_by_type)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET friendly_name = excluded.friendly_name,
           description = excluded.description, parent_name = excluded.parent_name,
           modified_at = excluded.modified_at, modified_by = excluded.modified_by,
           modified_by_type = excluded.modified_by_type`,
      ),
      remove: db.prepare(`DELETE FROM ${TABLE} WHERE name = ?`),
    };
  }

  /**
   * Opens the collections of the store's database, creating the table, the root and the collections the
   * stored entities name on first use. `now` stamps what is created.
   */
  static open(entities: EntityStore, now: number): CollectionStore {
    const db = entities.database;
    const exists = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?").get(TABLE);
    if (!exists) {
      db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (
        name TEXT PRIMARY KEY,
        friendly_name TEXT NOT NULL,
        description TEXT,
        parent_name TEXT,
        created_at INTEGER NOT NULL,
        created_by TEXT NOT NULL,
        created_by_type TEXT NOT NULL,
        modified_at INTEGER NOT NULL,
        modified_by TEXT NOT NULL,
        modified_by_type TEXT NOT NULL
      )`);
    }
    const store = new CollectionStore(db);
    if (!store.get(ROOT_NAME)) {
      store.put(
        { name: ROOT_NAME, friendlyName: ROOT_FRIENDLY_NAME, description: ROOT_DESCRIPTION },
        EMULATOR_IDENTITY,
        now,
      );
    }
    // Only on the very first start: a collection deleted later must not come back on a restart.
    if (!exists) store.#adoptEntityCollections(entities, now);
    return store;
  }

  /** The root collection. */
  root(): StoredCollection {
    return this.get(ROOT_NAME)!;
  }

  /** The collection with this name (any case), if any. */
  get(name: string): StoredCollection | undefined {
    const row = this.#statements.byName.get(name.toLowerCase()) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  /** Every collection, oldest first (the root first). */
  list(): StoredCollection[] {
    return (this.#statements.all.all() as unknown as Row[]).map(fromRow);
  }

  /** The direct children of a collection, oldest first. */
  children(name: string): StoredCollection[] {
    return (this.#statements.children.all(name.toLowerCase()) as unknown as Row[]).map(fromRow);
  }

  /** The ancestors of a collection, from the root down to its parent (empty for the root). */
  ancestors(name: string): StoredCollection[] {
    const chain: StoredCollection[] = [];
    const seen = new Set<string>();
    let current = this.get(name);
    while (current?.parent && !seen.has(current.parent)) {
      seen.add(current.parent);
      current = this.get(current.parent);
      if (current) chain.unshift(current);
    }
    return chain;
  }

  /**
   * Creates or updates a collection. Creation stamps both the created and modified fields; an update
   * keeps the created ones.
   */
  put(
    fields: { name: string; friendlyName: string; description?: string; parent?: string },
    identity: { by: string; type: string },
    now: number,
  ): StoredCollection {
    const name = fields.name.toLowerCase();
    countWrite(this.#db, "collection", name);
    this.#statements.upsert.run(
      name,
      fields.friendlyName,
      fields.description ?? null,
      fields.parent?.toLowerCase() ?? null,
      now,
      identity.by,
      identity.type,
      now,
      identity.by,
      identity.type,
    );
    return this.get(name)!;
  }

  /** Removes a collection; false when there was none. */
  delete(name: string): boolean {
    return Number(this.#statements.remove.run(name.toLowerCase()).changes) > 0;
  }

  #adoptEntityCollections(entities: EntityStore, now: number): void {
    const named = new Set<string>();
    for (const entity of entities.listAll()) {
      if (typeof entity.collectionId === "string" && entity.collectionId !== "") {
        named.add(entity.collectionId.toLowerCase());
      }
    }
    for (const name of named) {
      if (this.get(name)) continue;
      this.put(
        { name, friendlyName: titleCase(name), parent: ROOT_NAME, description: SEEDED_DESCRIPTION },
        EMULATOR_IDENTITY,
        now,
      );
    }
  }
}

const SEEDED_DESCRIPTION = "Created by the emulator for the assets of its sample catalog";

function titleCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function fromRow(row: Row): StoredCollection {
  return {
    name: row.name,
    friendlyName: row.friendly_name,
    ...(row.description === null ? {} : { description: row.description }),
    ...(row.parent_name === null ? {} : { parent: row.parent_name }),
    createdAt: Number(row.created_at),
    createdBy: row.created_by,
    createdByType: row.created_by_type,
    lastModifiedAt: Number(row.modified_at),
    lastModifiedBy: row.modified_by,
    lastModifiedByType: row.modified_by_type,
  };
}
