/**
 * State of the emulated workflow API (contract
 * `rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Workflow/preview/2023-10-01-preview/purviewWorkflow.json`)
 * in the emulator's shared SQLite database: workflows, user requests, workflow runs and workflow tasks, one
 * row each in `workflow_items` (the object as JSON, keyed by kind and id, kept in the order written), so
 * they survive a restart on a data file. A data reset (`data_reset.ts`) empties the table.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { WorkflowStore } from "./store.ts";
 * const entities = EntityStore.open();
 * const workflows = new WorkflowStore(entities.database);
 * console.log(workflows.list("workflow").length); // 0
 * entities.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";

/** What the table holds. */
export type WorkflowItemKind = "workflow" | "request" | "run" | "task";

const TABLE = "workflow_items";

/** Workflows, requests, runs and tasks of one database. */
export class WorkflowStore {
  readonly #get: StatementSync;
  readonly #list: StatementSync;
  readonly #insert: StatementSync;
  readonly #update: StatementSync;
  readonly #remove: StatementSync;

  constructor(db: DatabaseSync) {
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${TABLE} (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL,
        id TEXT NOT NULL, json TEXT NOT NULL, UNIQUE (kind, id))`,
    );
    this.#get = db.prepare(`SELECT json FROM ${TABLE} WHERE kind = ? AND id = ?`);
    this.#list = db.prepare(`SELECT json FROM ${TABLE} WHERE kind = ? ORDER BY seq`);
    this.#insert = db.prepare(`INSERT INTO ${TABLE} (kind, id, json) VALUES (?, ?, ?)`);
    this.#update = db.prepare(`UPDATE ${TABLE} SET json = ? WHERE kind = ? AND id = ?`);
    this.#remove = db.prepare(`DELETE FROM ${TABLE} WHERE kind = ? AND id = ?`);
  }

  /** One item, or undefined. Ids compare case-insensitively, as GUIDs do. */
  get<T>(kind: WorkflowItemKind, id: string): T | undefined {
    const row = this.#get.get(kind, id.toLowerCase()) as { json: string } | undefined;
    return row ? JSON.parse(row.json) as T : undefined;
  }

  /** Every item of a kind, oldest first. */
  list<T>(kind: WorkflowItemKind): T[] {
    return this.#list.all(kind).map((row) => JSON.parse((row as { json: string }).json) as T);
  }

  /** Stores an item under its id: a new one is added at the end, an existing one replaced in place. */
  put(kind: WorkflowItemKind, id: string, value: unknown): void {
    const key = id.toLowerCase();
    const json = JSON.stringify(value);
    if (Number(this.#update.run(json, kind, key).changes) === 0) this.#insert.run(kind, key, json);
  }

  /** Removes an item; true when there was one. */
  remove(kind: WorkflowItemKind, id: string): boolean {
    return Number(this.#remove.run(kind, id.toLowerCase()).changes) > 0;
  }
}
