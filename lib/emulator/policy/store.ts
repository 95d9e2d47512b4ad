/**
 * The metadata policies of the emulated account, one per collection, in the emulator's shared SQLite
 * database (table `metadata_policies`, keyed by the collection's name). A policy lives as long as its
 * collection: before every read or write the store is brought in step with the collections table, so a new
 * collection (through the API, the seed, or the root of a new account) has its policy and a deleted one's
 * policy is gone; a collection deleted and made again gets a new policy (the row remembers when its
 * collection was created; within the same millisecond it cannot tell). A collection moved under another
 * parent inherits from the new one: the rules naming the old parent's grants name the new parent's.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { PolicyStore } from "./store.ts";
 * const entities = EntityStore.open();
 * const policies = PolicyStore.open(entities, Date.now);
 * console.log(policies.forCollection("emulator")?.version); // 1
 * entities.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { AttributeRule, DecisionRule, MetadataPolicy } from "../../catalog/policy_types.ts";
import { CollectionStore, type StoredCollection } from "../collections/store.ts";
import { defaultRules } from "./defaults.ts";
import type { EntityStore } from "../store.ts";

/** What a policy holds besides its collection's place in the tree. */
export interface StoredRules {
  description: string;
  decisionRules: DecisionRule[];
  attributeRules: AttributeRule[];
}

interface Row {
  collection_name: string;
  id: string;
  version: number;
  rules: string;
  collection_created_at: number;
  /** The parent the rules name; null for the root. */
  parent_name: string | null;
}

const TABLE = "metadata_policies";

/** The policies of the emulated account. */
export class PolicyStore {
  readonly #collections: CollectionStore;
  readonly #statements: Record<
    "all" | "byId" | "byCollection" | "insert" | "update" | "remove" | "reparent",
    StatementSync
  >;

  private constructor(db: DatabaseSync, collections: CollectionStore) {
    this.#collections = collections;
    this.#statements = {
      all: db.prepare(`SELECT * FROM ${TABLE} ORDER BY rowid`),
      byId: db.prepare(`SELECT * FROM ${TABLE} WHERE id = ?`),
      byCollection: db.prepare(`SELECT * FROM ${TABLE} WHERE collection_name = ?`),
      insert: db.prepare(
        `INSERT INTO ${TABLE} (collection_name, id, version, rules, collection_created_at, parent_name)
         VALUES (?, ?, 1, ?, ?, ?)`,
      ),
      update: db.prepare(`UPDATE ${TABLE} SET version = version + 1, rules = ? WHERE id = ?`),
      remove: db.prepare(`DELETE FROM ${TABLE} WHERE collection_name = ?`),
      reparent: db.prepare(`UPDATE ${TABLE} SET rules = ?, parent_name = ? WHERE collection_name = ?`),
    };
  }

  /** Opens the policies of the store's database, creating the table on first use. */
  static open(entities: EntityStore, now: () => number): PolicyStore {
    const db = entities.database;
    db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (
      collection_name TEXT PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      version INTEGER NOT NULL,
      rules TEXT NOT NULL,
      collection_created_at INTEGER NOT NULL,
      parent_name TEXT
    )`);
    return new PolicyStore(db, CollectionStore.open(entities, now()));
  }

  /** Every policy, the root collection's first. */
  list(): MetadataPolicy[] {
    this.#sync();
    return (this.#statements.all.all() as unknown as Row[]).map((row) => this.#render(row));
  }

  /** The policy with this id, if any. */
  get(id: string): MetadataPolicy | undefined {
    this.#sync();
    const row = this.#statements.byId.get(id.toLowerCase()) as Row | undefined;
    return row ? this.#render(row) : undefined;
  }

  /** The policy of the named collection (any case), if the collection exists. */
  forCollection(name: string): MetadataPolicy | undefined {
    this.#sync();
    const row = this.#statements.byCollection.get(name.toLowerCase()) as Row | undefined;
    return row ? this.#render(row) : undefined;
  }

  /** Replaces a policy's rules and raises its version by one; answers the policy as stored. */
  update(id: string, rules: StoredRules): MetadataPolicy | undefined {
    this.#sync();
    const changed = Number(this.#statements.update.run(JSON.stringify(rules), id.toLowerCase()).changes);
    return changed > 0 ? this.get(id) : undefined;
  }

  /** Brings the policies in step with the collections: one per collection, made with it, gone with it. */
  #sync(): void {
    const collections = new Map(this.#collections.list().map((c) => [c.name, c]));
    const rows = this.#statements.all.all() as unknown as Row[];
    const kept = new Set<string>();
    for (const row of rows) {
      const collection = collections.get(row.collection_name);
      if (collection && Number(row.collection_created_at) === collection.createdAt) {
        kept.add(row.collection_name);
        if (row.parent_name && collection.parent && row.parent_name !== collection.parent) {
          this.#reparent(row, collection.parent);
        }
      } else this.#statements.remove.run(row.collection_name);
    }
    for (const collection of collections.values()) {
      if (!kept.has(collection.name)) this.#create(collection);
    }
  }

  #create(collection: StoredCollection): void {
    const rules: StoredRules = { description: "", ...defaultRules(collection.name, collection.parent) };
    this.#statements.insert.run(
      collection.name,
      crypto.randomUUID(),
      JSON.stringify(rules),
      collection.createdAt,
      collection.parent ?? null,
    );
  }

  /** Points the rules that name the old parent's grants at the new parent's. */
  #reparent(row: Row, parent: string): void {
    const oldSuffix = `:${row.parent_name}`;
    const rename = (value: unknown) =>
      typeof value === "string" && value.endsWith(oldSuffix)
        ? value.slice(0, -oldSuffix.length) + `:${parent}`
        : value;
    const rules = JSON.parse(row.rules) as StoredRules;
    for (const rule of rules.attributeRules) {
      for (const clause of rule.dnfCondition ?? []) {
        for (const matcher of clause) {
          if (matcher.attributeName !== "derived.purview.permission") continue;
          matcher.attributeValueIncludes = rename(matcher.attributeValueIncludes) as string | undefined;
          if (matcher.fromRule !== undefined) matcher.fromRule = rename(matcher.fromRule) as string;
        }
      }
    }
    this.#statements.reparent.run(JSON.stringify(rules), parent, row.collection_name);
  }

  #render(row: Row): MetadataPolicy {
    const rules = JSON.parse(row.rules) as StoredRules;
    const parent = this.#collections.get(row.collection_name)?.parent;
    return {
      name: `policy_${row.collection_name}`,
      id: row.id,
      version: Number(row.version),
      properties: {
        description: rules.description,
        decisionRules: rules.decisionRules,
        attributeRules: rules.attributeRules,
        collection: { type: "CollectionReference", referenceName: row.collection_name },
        ...(parent ? { parentCollectionName: parent } : {}),
      },
    };
  }
}
