/**
 * How often each record was written, for tests that must tell a row applied once from a row applied twice
 * (a lost answer sent again, a resumed batch sent again) where the record itself does not show it: glossary
 * terms, term assignments, collections and unified catalog entities (entities show it in their version).
 *
 * Counts live in a temporary table of the emulator's own connection, so a write counts only when its
 * transaction commits (a batch the service refuses as a whole counts nothing), and the data file never holds
 * them (nor does a reset have to empty them: they are not catalog data). `GET /_emulator/writes?kind=…`
 * answers them (see `admin.ts`).
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { countWrite, writeCounts } from "./write_counts.ts";
 * const db = new DatabaseSync(":memory:");
 * countWrite(db, "collection", "finance");
 * countWrite(db, "collection", "finance");
 * console.log(writeCounts(db, "collection")); // { finance: 2 }
 * db.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";

/** The kinds of record counted. */
export type WriteKind = "glossary-term" | "term-assignment" | "collection" | `uc-${string}`;

interface Statements {
  bump: StatementSync;
  read: StatementSync;
  clear: StatementSync;
}

const statements = new WeakMap<DatabaseSync, Statements>();

function statementsOf(db: DatabaseSync): Statements {
  let found = statements.get(db);
  if (!found) {
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS emulator_write_counts (
      kind TEXT NOT NULL, id TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (kind, id))`);
    found = {
      bump: db.prepare(
        `INSERT INTO temp.emulator_write_counts (kind, id, count) VALUES (?, ?, 1)
         ON CONFLICT(kind, id) DO UPDATE SET count = count + 1`,
      ),
      read: db.prepare("SELECT id, count FROM temp.emulator_write_counts WHERE kind = ? ORDER BY id"),
      clear: db.prepare("DELETE FROM temp.emulator_write_counts"),
    };
    statements.set(db, found);
  }
  return found;
}

/**
 * Creates the counts' table: called by the stores when they open, outside any transaction (a table created
 * inside one would go with its rollback).
 */
export function trackWrites(db: DatabaseSync): void {
  statementsOf(db);
}

/** Counts one write of the record `id` of `kind` (undone with the transaction it is part of). */
export function countWrite(db: DatabaseSync, kind: WriteKind, id: string): void {
  statementsOf(db).bump.run(kind, id);
}

/** Writes of each record of `kind` since the start or the last {@link clearWriteCounts}, by id. */
export function writeCounts(db: DatabaseSync, kind: string): Record<string, number> {
  const rows = statementsOf(db).read.all(kind) as Array<{ id: string; count: number }>;
  return Object.fromEntries(rows.map((row) => [row.id, Number(row.count)]));
}

/** Forgets every count. */
export function clearWriteCounts(db: DatabaseSync): void {
  statementsOf(db).clear.run();
}
