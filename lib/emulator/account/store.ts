/**
 * The emulated account's own settings, kept in the emulator's shared SQLite database (table
 * `account_settings`, one JSON value per key) so they survive a restart on a data file, like the catalog:
 * the friendly name set with `PATCH /account`, the two Atlas Kafka access keys (`listkeys`,
 * `regeneratekeys`) and the resource set rule configuration. A data reset (`data_reset.ts`) empties the
 * table, so the account is a new one again: default friendly name, new keys, no rule.
 *
 * Keys are made on first use from 32 random bytes each, in the connection string form the contract's
 * examples show, and change only when regenerated.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { AccountStore } from "./store.ts";
 * const entities = EntityStore.open();
 * const account = new AccountStore(entities.database);
 * console.log(account.keys().atlasKafkaPrimaryEndpoint.startsWith("Endpoint=sb://")); // true
 * entities.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";

/** The two access keys, as the contract's AccessKeys. */
export interface AccessKeys {
  atlasKafkaPrimaryEndpoint: string;
  atlasKafkaSecondaryEndpoint: string;
}

/** Which key `regeneratekeys` replaces. */
export type KeySlot = "primary" | "secondary";

const TABLE = "account_settings";
const KEY_NAMES: Record<KeySlot, string> = {
  primary: "RootManageSharedAccessKey",
  secondary: "AlternateSharedAccessKey",
};

/** Settings of the emulated account. */
export class AccountStore {
  readonly #get: StatementSync;
  readonly #put: StatementSync;
  readonly #remove: StatementSync;
  readonly #withPrefix: StatementSync;
  readonly #host: string;

  /** `accountName` names the Kafka namespace of the keys' endpoints. */
  constructor(db: DatabaseSync, accountName = "emulator") {
    db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (name TEXT PRIMARY KEY, json TEXT NOT NULL)`);
    this.#get = db.prepare(`SELECT json FROM ${TABLE} WHERE name = ?`);
    this.#put = db.prepare(
      `INSERT INTO ${TABLE} (name, json) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET json = excluded.json`,
    );
    this.#remove = db.prepare(`DELETE FROM ${TABLE} WHERE name = ?`);
    this.#withPrefix = db.prepare(
      `SELECT json FROM ${TABLE} WHERE substr(name, 1, length(?)) = ? ORDER BY name`,
    );
    this.#host = `atlas-${accountName}.servicebus.emulator.local`;
  }

  /** A stored setting, or undefined. */
  get<T>(name: string): T | undefined {
    const row = this.#get.get(name) as { json: string } | undefined;
    return row ? JSON.parse(row.json) as T : undefined;
  }

  /** Stores a setting. */
  put(name: string, value: unknown): void {
    this.#put.run(name, JSON.stringify(value));
  }

  /** Removes a setting; true when there was one. */
  remove(name: string): boolean {
    return Number(this.#remove.run(name).changes) > 0;
  }

  /** Every setting whose name starts with `prefix`, in name order. */
  list<T>(prefix: string): T[] {
    const rows = this.#withPrefix.all(prefix, prefix) as { json: string }[];
    return rows.map((row) => JSON.parse(row.json) as T);
  }

  /** The access keys, made on first use. */
  keys(): AccessKeys {
    const stored = this.get<AccessKeys>("accessKeys");
    if (stored) return stored;
    const keys = {
      atlasKafkaPrimaryEndpoint: this.#connectionString("primary"),
      atlasKafkaSecondaryEndpoint: this.#connectionString("secondary"),
    };
    this.put("accessKeys", keys);
    return keys;
  }

  /** Replaces one key with a new random one; the other stays. Returns both. */
  regenerate(slot: KeySlot): AccessKeys {
    const keys = { ...this.keys() };
    if (slot === "primary") keys.atlasKafkaPrimaryEndpoint = this.#connectionString("primary");
    else keys.atlasKafkaSecondaryEndpoint = this.#connectionString("secondary");
    this.put("accessKeys", keys);
    return keys;
  }

  #connectionString(slot: KeySlot): string {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const key = btoa(String.fromCharCode(...bytes));
    return `Endpoint=sb://${this.#host}/;SharedAccessKeyName=${KEY_NAMES[slot]};SharedAccessKey=${key}`;
  }
}
