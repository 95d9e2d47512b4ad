/**
 * Persistence of the data quality area in the emulator's shared SQLite database, in one table of its own,
 * `dq_documents`: one row per stored document (a rule, a run, an outcome, an alert, a schedule, a data
 * source, ...), kept as JSON in the wire shape. A document is named by its kind, its scope (the path
 * segments that own it, e.g. `domain/product/asset` for a rule, `domain` for an alert, empty for an
 * integration runtime) and its id, so the same id under another asset is another document. Rows keep their
 * insertion order, which is the order lists answer in.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { QualityStore } from "./store.ts";
 * const db = new DatabaseSync(":memory:");
 * const store = new QualityStore(db);
 * store.put("alert", "sales", "a1", { id: "a1", name: "late" });
 * console.log(store.list("alert", "sales").length); // 1
 * db.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";

/** A stored JSON document. */
export type Doc = Record<string, unknown>;

/** The table a data reset empties (see `data_reset.ts`). */
export const QUALITY_TABLE = "dq_documents";

/** Documents of the data quality area, by kind, scope and id. */
export class QualityStore {
  readonly #s: Record<string, StatementSync>;

  constructor(db: DatabaseSync) {
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${QUALITY_TABLE} (kind TEXT NOT NULL, scope TEXT NOT NULL, id TEXT NOT NULL,
       json TEXT NOT NULL, PRIMARY KEY (kind, scope, id))`,
    );
    this.#s = {
      get: db.prepare(`SELECT json FROM ${QUALITY_TABLE} WHERE kind = ? AND scope = ? AND id = ?`),
      list: db.prepare(`SELECT json FROM ${QUALITY_TABLE} WHERE kind = ? AND scope = ? ORDER BY rowid`),
      listUnder: db.prepare(
        `SELECT json FROM ${QUALITY_TABLE} WHERE kind = ? AND (scope = ? OR scope LIKE ? ESCAPE '\\')
         ORDER BY rowid`,
      ),
      put: db.prepare(
        `INSERT INTO ${QUALITY_TABLE} (kind, scope, id, json) VALUES (?, ?, ?, ?)
         ON CONFLICT(kind, scope, id) DO UPDATE SET json = excluded.json`,
      ),
      remove: db.prepare(`DELETE FROM ${QUALITY_TABLE} WHERE kind = ? AND scope = ? AND id = ?`),
      removeScope: db.prepare(`DELETE FROM ${QUALITY_TABLE} WHERE kind = ? AND scope = ?`),
    };
  }

  /** The document, or undefined. */
  get(kind: string, scope: string, id: string): Doc | undefined {
    const row = this.#s.get.get(kind, scope, id) as { json: string } | undefined;
    return row ? JSON.parse(row.json) as Doc : undefined;
  }

  /** The documents of a kind in exactly this scope, oldest first. */
  list(kind: string, scope: string): Doc[] {
    return this.#s.list.all(kind, scope).map((row) => JSON.parse(String(row.json)) as Doc);
  }

  /** The documents of a kind in this scope and every scope below it (`scope/...`), oldest first. */
  listUnder(kind: string, scope: string): Doc[] {
    const escaped = scope.replace(/[\\%_]/g, (c) => `\\${c}`);
    return this.#s.listUnder.all(kind, scope, `${escaped}/%`).map((row) =>
      JSON.parse(String(row.json)) as Doc
    );
  }

  /** Stores (creates or replaces) a document. */
  put(kind: string, scope: string, id: string, doc: Doc): void {
    this.#s.put.run(kind, scope, id, JSON.stringify(doc));
  }

  /** Removes a document; true when there was one. */
  remove(kind: string, scope: string, id: string): boolean {
    return Number(this.#s.remove.run(kind, scope, id).changes) > 0;
  }

  /** Removes every document of a kind in exactly this scope; the number removed. */
  removeScope(kind: string, scope: string): number {
    return Number(this.#s.removeScope.run(kind, scope).changes);
  }
}
