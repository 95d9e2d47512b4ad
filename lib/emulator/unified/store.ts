/**
 * Persistence of the unified catalog in the emulator's shared SQLite database, in two tables of its own:
 * `uc_entities` (one row per domain, term, data product, critical data element, objective, key result or
 * policy, kept as JSON in the wire shape) and `uc_relationships` (one row per relationship, stored once
 * and shown from both sides when both ends are unified catalog entities).
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { Json, Kind } from "./model.ts";
import { countWrite, trackWrites } from "../write_counts.ts";

/** One stored relationship: from `(fromType, fromId)` to `(toType, toId)`. */
export interface StoredRelationship {
  fromType: string;
  fromId: string;
  toType: string;
  toId: string;
  relationshipType: string;
  description?: string;
  createdAt: string;
  createdBy: string;
}

interface RelationshipRow {
  from_type: string;
  from_id: string;
  to_type: string;
  to_id: string;
  relationship_type: string;
  description: string | null;
  created_at: string;
  created_by: string;
}

/** The unified catalog's tables. */
export class UnifiedStore {
  readonly #statements: Record<string, StatementSync>;
  readonly #db: DatabaseSync;

  private constructor(db: DatabaseSync) {
    this.#db = db;
    trackWrites(db);
    this.#statements = {
      byId: db.prepare("SELECT kind, json FROM uc_entities WHERE id = ?"),
      byKind: db.prepare("SELECT json FROM uc_entities WHERE kind = ? ORDER BY rowid"),
      countByDomain: db.prepare("SELECT kind, COUNT(*) AS n FROM uc_entities WHERE domain = ? GROUP BY kind"),
      upsert: db.prepare(
        `INSERT INTO uc_entities (id, kind, domain, parent_id, json) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET domain = excluded.domain, parent_id = excluded.parent_id,
           json = excluded.json`,
      ),
      remove: db.prepare("DELETE FROM uc_entities WHERE id = ?"),
      children: db.prepare("SELECT json FROM uc_entities WHERE kind = ? AND parent_id = ? ORDER BY rowid"),
      relAdd: db.prepare(
        `INSERT INTO uc_relationships (from_type, from_id, to_type, to_id, relationship_type, description,
           created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(from_type, from_id, to_type, to_id, relationship_type) DO UPDATE SET
           description = excluded.description`,
      ),
      relOf: db.prepare(
        "SELECT * FROM uc_relationships WHERE (from_id = ?) OR (to_id = ?) ORDER BY rowid",
      ),
      relRemoveOf: db.prepare("DELETE FROM uc_relationships WHERE from_id = ? OR to_id = ?"),
      relRemove: db.prepare(
        `DELETE FROM uc_relationships WHERE from_type = ? AND from_id = ? AND to_type = ? AND to_id = ?
           AND relationship_type = ?`,
      ),
    };
  }

  /** Opens the tables in `db`, creating them on first use. */
  static open(db: DatabaseSync): UnifiedStore {
    db.exec(`CREATE TABLE IF NOT EXISTS uc_entities (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      domain TEXT,
      parent_id TEXT,
      json TEXT NOT NULL
    )`);
    db.exec("CREATE INDEX IF NOT EXISTS uc_entities_kind ON uc_entities (kind)");
    db.exec(`CREATE TABLE IF NOT EXISTS uc_relationships (
      from_type TEXT NOT NULL,
      from_id TEXT NOT NULL,
      to_type TEXT NOT NULL,
      to_id TEXT NOT NULL,
      relationship_type TEXT NOT NULL,
      description TEXT,
      created_at TEXT NOT NULL,
      created_by TEXT NOT NULL,
      UNIQUE (from_type, from_id, to_type, to_id, relationship_type)
    )`);
    return new UnifiedStore(db);
  }

  /** The entity with this id and its kind, if any. */
  find(id: string): { kind: Kind; entity: Json } | undefined {
    const row = this.#statements.byId.get(id.toLowerCase()) as { kind: Kind; json: string } | undefined;
    return row ? { kind: row.kind, entity: JSON.parse(row.json) } : undefined;
  }

  /** The entity of this kind with this id, if any. */
  get(kind: Kind, id: string): Json | undefined {
    const found = this.find(id);
    return found?.kind === kind ? found.entity : undefined;
  }

  /** Every entity of a kind, oldest first. */
  list(kind: Kind): Json[] {
    return (this.#statements.byKind.all(kind) as { json: string }[]).map((row) => JSON.parse(row.json));
  }

  /** Entities of a kind whose `parent_id` column is `parentId` (child terms, key results). */
  children(kind: Kind, parentId: string): Json[] {
    return (this.#statements.children.all(kind, parentId.toLowerCase()) as { json: string }[])
      .map((row) => JSON.parse(row.json));
  }

  /** How many entities of each kind name this domain. */
  countByDomain(domainId: string): Record<string, number> {
    const counts: Record<string, number> = {};
    for (
      const row of this.#statements.countByDomain.all(domainId.toLowerCase()) as { kind: string; n: number }[]
    ) {
      counts[row.kind] = Number(row.n);
    }
    return counts;
  }

  /** Creates or replaces an entity; `domain` and `parentId` are indexed columns. */
  put(kind: Kind, entity: Json, domain: string | undefined, parentId: string | undefined): void {
    this.#statements.upsert.run(
      String(entity.id).toLowerCase(),
      kind,
      domain?.toLowerCase() ?? null,
      parentId?.toLowerCase() ?? null,
      JSON.stringify(entity),
    );
    countWrite(this.#db, `uc-${kind}`, String(entity.id).toLowerCase());
  }

  /** Removes an entity and every relationship of it. */
  delete(id: string): boolean {
    const key = id.toLowerCase();
    this.#statements.relRemoveOf.run(key, key);
    return Number(this.#statements.remove.run(key).changes) > 0;
  }

  /** Adds (or re-describes) a relationship. */
  addRelationship(relationship: StoredRelationship): void {
    this.#statements.relAdd.run(
      relationship.fromType,
      relationship.fromId.toLowerCase(),
      relationship.toType,
      relationship.toId.toLowerCase(),
      relationship.relationshipType,
      relationship.description ?? null,
      relationship.createdAt,
      relationship.createdBy,
    );
  }

  /** Every relationship with this id at either end. */
  relationshipsOf(id: string): StoredRelationship[] {
    const key = id.toLowerCase();
    return (this.#statements.relOf.all(key, key) as unknown as RelationshipRow[]).map((row) => ({
      fromType: row.from_type,
      fromId: row.from_id,
      toType: row.to_type,
      toId: row.to_id,
      relationshipType: row.relationship_type,
      ...(row.description === null ? {} : { description: row.description }),
      createdAt: row.created_at,
      createdBy: row.created_by,
    }));
  }

  /** Removes one stored relationship; false when there was none. */
  removeRelationship(relationship: StoredRelationship): boolean {
    return Number(
      this.#statements.relRemove.run(
        relationship.fromType,
        relationship.fromId,
        relationship.toType,
        relationship.toId,
        relationship.relationshipType,
      ).changes,
    ) > 0;
  }
}
