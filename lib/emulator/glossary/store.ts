/**
 * Persistence of the classic glossary in the emulator's shared SQLite database: glossaries, categories and
 * terms (one row each, the object kept as JSON beside the columns that are queried or must be unique), the
 * relations between them (term to term, term to category, term to entity), and CSV import operations.
 *
 * Names are unique where the service makes them unique: glossaries by name, terms by name within their
 * glossary, categories by name among the children of one parent. A write that breaks this raises the
 * service's 409 for the kind of object.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { GlossaryStore } from "./store.ts";
 * const db = new DatabaseSync(":memory:");
 * const glossary = GlossaryStore.for(db);
 * console.log(glossary.glossaries().length); // 0
 * db.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import {
  categoryExists,
  glossaryExists,
  type ImportRecord,
  type StoredCategory,
  type StoredGlossary,
  type StoredRelation,
  type StoredTerm,
  termExists,
} from "./model.ts";
import { countWrite, trackWrites } from "../write_counts.ts";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS glossary_glossaries (
    guid TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, json TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS glossary_categories (
    guid TEXT PRIMARY KEY, glossary_guid TEXT NOT NULL, parent_guid TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL, json TEXT NOT NULL, UNIQUE (glossary_guid, parent_guid, name))`,
  `CREATE TABLE IF NOT EXISTS glossary_terms (
    guid TEXT PRIMARY KEY, glossary_guid TEXT NOT NULL, name TEXT NOT NULL, json TEXT NOT NULL,
    UNIQUE (glossary_guid, name))`,
  `CREATE TABLE IF NOT EXISTS glossary_relations (
    guid TEXT PRIMARY KEY, kind TEXT NOT NULL, end1 TEXT NOT NULL, end2 TEXT NOT NULL, json TEXT NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS glossary_relations_end1 ON glossary_relations (end1)",
  "CREATE INDEX IF NOT EXISTS glossary_relations_end2 ON glossary_relations (end2)",
  `CREATE TABLE IF NOT EXISTS glossary_imports (
    id TEXT PRIMARY KEY, status TEXT NOT NULL, json TEXT NOT NULL)`,
];

/** Statements by name, prepared once per database. */
type Statements = Record<string, StatementSync>;

// glossaryArea is built once per API prefix; both must share one store (and its prepared statements).
const stores = new WeakMap<DatabaseSync, GlossaryStore>();

/** Glossary objects and their relations in one database. */
export class GlossaryStore {
  readonly #sql: Statements;
  readonly #db: DatabaseSync;

  private constructor(db: DatabaseSync) {
    this.#db = db;
    trackWrites(db);
    for (const statement of SCHEMA) db.exec(statement);
    const prepare = (text: string) => db.prepare(text);
    this.#sql = {
      glossary: prepare("SELECT json FROM glossary_glossaries WHERE guid = ?"),
      glossaries: prepare("SELECT json FROM glossary_glossaries ORDER BY rowid"),
      putGlossary: prepare(
        `INSERT INTO glossary_glossaries (guid, name, json) VALUES (?, ?, ?)
         ON CONFLICT(guid) DO UPDATE SET name = excluded.name, json = excluded.json`,
      ),
      deleteGlossary: prepare("DELETE FROM glossary_glossaries WHERE guid = ?"),
      category: prepare("SELECT json FROM glossary_categories WHERE guid = ?"),
      categories: prepare("SELECT json FROM glossary_categories WHERE glossary_guid = ? ORDER BY rowid"),
      children: prepare("SELECT json FROM glossary_categories WHERE parent_guid = ? ORDER BY rowid"),
      putCategory: prepare(
        `INSERT INTO glossary_categories (guid, glossary_guid, parent_guid, name, json) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(guid) DO UPDATE SET glossary_guid = excluded.glossary_guid,
           parent_guid = excluded.parent_guid, name = excluded.name, json = excluded.json`,
      ),
      deleteCategory: prepare("DELETE FROM glossary_categories WHERE guid = ?"),
      term: prepare("SELECT json FROM glossary_terms WHERE guid = ?"),
      termByName: prepare("SELECT json FROM glossary_terms WHERE glossary_guid = ? AND name = ?"),
      terms: prepare("SELECT json FROM glossary_terms WHERE glossary_guid = ? ORDER BY rowid"),
      allTerms: prepare("SELECT json FROM glossary_terms ORDER BY rowid"),
      putTerm: prepare(
        `INSERT INTO glossary_terms (guid, glossary_guid, name, json) VALUES (?, ?, ?, ?)
         ON CONFLICT(guid) DO UPDATE SET glossary_guid = excluded.glossary_guid, name = excluded.name,
           json = excluded.json`,
      ),
      deleteTerm: prepare("DELETE FROM glossary_terms WHERE guid = ?"),
      relation: prepare("SELECT json FROM glossary_relations WHERE guid = ?"),
      relationsFrom: prepare("SELECT json FROM glossary_relations WHERE end1 = ? ORDER BY rowid"),
      relationsTo: prepare("SELECT json FROM glossary_relations WHERE end2 = ? ORDER BY rowid"),
      putRelation: prepare(
        `INSERT INTO glossary_relations (guid, kind, end1, end2, json) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(guid) DO UPDATE SET kind = excluded.kind, end1 = excluded.end1, end2 = excluded.end2,
           json = excluded.json`,
      ),
      deleteRelation: prepare("DELETE FROM glossary_relations WHERE guid = ?"),
      importRecord: prepare("SELECT json FROM glossary_imports WHERE id = ?"),
      unfinishedImports: prepare(
        "SELECT json FROM glossary_imports WHERE status IN ('NotStarted', 'Running') ORDER BY rowid",
      ),
      putImport: prepare(
        `INSERT INTO glossary_imports (id, status, json) VALUES (?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET status = excluded.status, json = excluded.json`,
      ),
    };
  }

  /** The glossary store of a database, created (tables included) on first use. */
  static for(db: DatabaseSync): GlossaryStore {
    let store = stores.get(db);
    if (!store) {
      store = new GlossaryStore(db);
      stores.set(db, store);
    }
    return store;
  }

  // ---- Glossaries ---------------------------------------------------------------------------------------

  glossary(guid: string): StoredGlossary | undefined {
    return one(this.#sql.glossary, guid);
  }

  /** Every glossary, oldest first. */
  glossaries(): StoredGlossary[] {
    return all(this.#sql.glossaries);
  }

  /** Inserts or replaces a glossary; a name another glossary has is the service's 409. */
  putGlossary(glossary: StoredGlossary): void {
    unique(
      () => this.#sql.putGlossary.run(glossary.guid, glossary.name, JSON.stringify(glossary)),
      () => glossaryExists(glossary.name),
    );
  }

  deleteGlossary(guid: string): void {
    this.#sql.deleteGlossary.run(guid);
  }

  // ---- Categories ---------------------------------------------------------------------------------------

  category(guid: string): StoredCategory | undefined {
    return one(this.#sql.category, guid);
  }

  /** The categories of a glossary, oldest first. */
  categories(glossaryGuid: string): StoredCategory[] {
    return all(this.#sql.categories, glossaryGuid);
  }

  /** The direct children of a category. */
  children(categoryGuid: string): StoredCategory[] {
    return all(this.#sql.children, categoryGuid);
  }

  /** Inserts or replaces a category; a sibling of the same name is the service's 409. */
  putCategory(category: StoredCategory, qualifiedName: () => string): void {
    unique(
      () =>
        this.#sql.putCategory.run(
          category.guid,
          category.glossaryGuid,
          category.parentGuid ?? "",
          category.name,
          JSON.stringify(category),
        ),
      () => categoryExists(qualifiedName()),
    );
  }

  deleteCategory(guid: string): void {
    this.#sql.deleteCategory.run(guid);
  }

  // ---- Terms --------------------------------------------------------------------------------------------

  term(guid: string): StoredTerm | undefined {
    return one(this.#sql.term, guid);
  }

  termByName(glossaryGuid: string, name: string): StoredTerm | undefined {
    return one(this.#sql.termByName, glossaryGuid, name);
  }

  /** The terms of a glossary, oldest first. */
  terms(glossaryGuid: string): StoredTerm[] {
    return all(this.#sql.terms, glossaryGuid);
  }

  /** Every term of every glossary, oldest first. */
  allTerms(): StoredTerm[] {
    return all(this.#sql.allTerms);
  }

  /** Inserts or replaces a term; a name another term of the glossary has is the service's 409. */
  putTerm(term: StoredTerm, qualifiedName: () => string): void {
    unique(
      () => this.#sql.putTerm.run(term.guid, term.glossaryGuid, term.name, JSON.stringify(term)),
      () => termExists(qualifiedName()),
    );
    countWrite(this.#db, "glossary-term", term.guid);
  }

  deleteTerm(guid: string): void {
    this.#sql.deleteTerm.run(guid);
  }

  // ---- Relations ----------------------------------------------------------------------------------------

  relation(guid: string): StoredRelation | undefined {
    return one(this.#sql.relation, guid);
  }

  /** Relations with `guid` at either end, of the given kinds (all kinds when none are given). */
  relationsOf(guid: string, ...kinds: string[]): StoredRelation[] {
    const found = [
      ...all<StoredRelation>(this.#sql.relationsFrom, guid),
      ...all<StoredRelation>(this.#sql.relationsTo, guid),
    ];
    return kinds.length === 0 ? found : found.filter((r) => kinds.includes(r.kind));
  }

  putRelation(relation: StoredRelation): void {
    this.#sql.putRelation.run(
      relation.guid,
      relation.kind,
      relation.end1,
      relation.end2,
      JSON.stringify(relation),
    );
  }

  deleteRelation(guid: string): void {
    this.#sql.deleteRelation.run(guid);
  }

  // ---- CSV imports --------------------------------------------------------------------------------------

  importRecord(id: string): ImportRecord | undefined {
    return one(this.#sql.importRecord, id);
  }

  /** Imports that have not finished, oldest first. */
  unfinishedImports(): ImportRecord[] {
    return all(this.#sql.unfinishedImports);
  }

  putImport(record: ImportRecord): void {
    this.#sql.putImport.run(record.operation.id, record.operation.status, JSON.stringify(record));
  }
}

function one<T>(statement: StatementSync, ...params: string[]): T | undefined {
  const row = statement.get(...params) as { json: string } | undefined;
  return row ? JSON.parse(row.json) as T : undefined;
}

function all<T>(statement: StatementSync, ...params: string[]): T[] {
  return (statement.all(...params) as Array<{ json: string }>).map((row) => JSON.parse(row.json) as T);
}

/** Runs a write, turning SQLite's unique-constraint failure into the service's conflict. */
function unique(write: () => unknown, conflict: () => Error): void {
  try {
    write();
  } catch (error) {
    if (/UNIQUE constraint failed/i.test(String((error as Error)?.message))) throw conflict();
    throw error;
  }
}
