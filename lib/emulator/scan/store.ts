/**
 * Persistence of the scanning API in the emulator's shared SQLite database, in a table of its own
 * (`scan_resources`): data sources, their scans, scan triggers, filters and runs, classification rules and
 * their versions, key vault connections, credentials, scan rulesets, integration runtimes, managed virtual
 * networks and their private endpoints, one row each, stored as the JSON the API answers. Rows are keyed by kind, the lower-case name of their
 * parent (the data source, or data source and scan) and their own lower-case name: the service looks
 * names up without regard to case and answers them as they were first written.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { ScanStore } from "./store.ts";
 * const entities = EntityStore.open();
 * const scans = ScanStore.open(entities);
 * scans.put("datasource", "", "sales-sql", { kind: "AzureSqlDatabase" }, Date.now());
 * console.log(scans.list("datasource", "").length); // 1
 * entities.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { EntityStore } from "../store.ts";

/** What a row holds. */
export type ScanResourceKind =
  | "datasource"
  | "scan"
  | "trigger"
  | "run"
  | "rule"
  | "ruleversion"
  | "keyvault"
  | "credential"
  | "ruleset"
  | "filter"
  | "runtime"
  | "vnet"
  | "endpoint";

/** One stored resource: its JSON body and when it was created and last written. */
export interface StoredScanResource {
  name: string;
  body: Record<string, unknown>;
  createdAt: number;
  modifiedAt: number;
}

interface Row {
  name: string;
  body: string;
  created_at: number;
  modified_at: number;
}

const TABLE = "scan_resources";

/** The scanning API's resources of the emulated account. */
export class ScanStore {
  readonly #statements: {
    get: StatementSync;
    list: StatementSync;
    upsert: StatementSync;
    remove: StatementSync;
    removeUnder: StatementSync;
  };

  private constructor(db: DatabaseSync) {
    this.#statements = {
      get: db.prepare(`SELECT * FROM ${TABLE} WHERE kind = ? AND parent = ? AND key = ?`),
      list: db.prepare(`SELECT * FROM ${TABLE} WHERE kind = ? AND parent = ? ORDER BY seq`),
      upsert: db.prepare(
        `INSERT INTO ${TABLE} (kind, parent, key, name, body, created_at, modified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(kind, parent, key) DO UPDATE SET body = excluded.body, modified_at = excluded.modified_at`,
      ),
      remove: db.prepare(`DELETE FROM ${TABLE} WHERE kind = ? AND parent = ? AND key = ?`),
      removeUnder: db.prepare(`DELETE FROM ${TABLE} WHERE parent = ? OR parent LIKE ? ESCAPE '\\'`),
    };
  }

  /** Opens the scanning resources of the store's database, creating the table on first use. */
  static open(entities: EntityStore): ScanStore {
    const db = entities.database;
    db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL,
      parent TEXT NOT NULL,
      key TEXT NOT NULL,
      name TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      modified_at INTEGER NOT NULL,
      UNIQUE (kind, parent, key)
    )`);
    return new ScanStore(db);
  }

  /** One resource, by kind, parent key and name (any case). */
  get(kind: ScanResourceKind, parent: string, name: string): StoredScanResource | undefined {
    const row = this.#statements.get.get(kind, parent, name.toLowerCase()) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  /** Every resource of a kind under a parent, oldest first. */
  list(kind: ScanResourceKind, parent: string): StoredScanResource[] {
    return (this.#statements.list.all(kind, parent) as unknown as Row[]).map(fromRow);
  }

  /** Creates or replaces a resource; the first write's name and creation time are kept. */
  put(
    kind: ScanResourceKind,
    parent: string,
    name: string,
    body: Record<string, unknown>,
    now: number,
  ): StoredScanResource {
    this.#statements.upsert.run(kind, parent, name.toLowerCase(), name, JSON.stringify(body), now, now);
    return this.get(kind, parent, name)!;
  }

  /** Removes a resource and everything stored under it; false when there was none. */
  delete(kind: ScanResourceKind, parent: string, name: string): boolean {
    const removed = Number(this.#statements.remove.run(kind, parent, name.toLowerCase()).changes) > 0;
    if (removed && (kind === "datasource" || kind === "scan")) {
      const key = childParent(parent, name);
      this.#statements.removeUnder.run(key, `${key.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`);
    }
    return removed;
  }
}

/** The parent key of the resources under `name` (itself under `parent`). */
export function childParent(parent: string, name: string): string {
  return parent === "" ? name.toLowerCase() : `${parent}/${name.toLowerCase()}`;
}

function fromRow(row: Row): StoredScanResource {
  return {
    name: row.name,
    body: JSON.parse(row.body) as Record<string, unknown>,
    createdAt: Number(row.created_at),
    modifiedAt: Number(row.modified_at),
  };
}
