/**
 * Persistence of relationship instances (`AtlasRelationship`) in the emulator's shared SQLite database, one
 * row per relationship in the `relationships` table, indexed by both ends so lineage and deletes can find an
 * entity's relationships.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { RelationshipStore } from "./store.ts";
 * const db = new DatabaseSync(":memory:");
 * const relationships = new RelationshipStore(db);
 * console.log(relationships.get("nope")); // undefined
 * db.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { newRecordFields } from "../entity/model.ts";
import type { AtlasTypeDef } from "../types/model.ts";

/** `AtlasObjectId` as stored on a relationship end: always resolved to a guid. */
export interface RelationshipEnd {
  guid: string;
  typeName: string;
  uniqueAttributes?: Record<string, unknown>;
}

/** An `AtlasRelationship` as stored and returned. */
export interface AtlasRelationship {
  guid: string;
  typeName: string;
  end1: RelationshipEnd;
  end2: RelationshipEnd;
  attributes: Record<string, unknown>;
  label: string;
  status: "ACTIVE" | "DELETED";
  createdBy: string;
  updatedBy: string;
  createTime: number;
  updateTime: number;
  version: number;
  [field: string]: unknown;
}

/**
 * A new ACTIVE instance of the relationship type `def` between two ends, as `POST /relationship` and
 * entity writes with `relationshipAttributes` make one; `label` defaults to the type's.
 */
export function newRelationship(
  def: Pick<AtlasTypeDef, "name" | "relationshipLabel">,
  end1: RelationshipEnd,
  end2: RelationshipEnd,
  now: number,
  attributes: Record<string, unknown>,
  label?: string,
): AtlasRelationship {
  return {
    typeName: def.name,
    attributes,
    guid: crypto.randomUUID(),
    end1,
    end2,
    label: label ?? def.relationshipLabel ?? `r:${def.name}`,
    ...newRecordFields(now),
  };
}

/** Relationship instances in one database. */
export class RelationshipStore {
  readonly #byGuid: StatementSync;
  readonly #byEnds: StatementSync;
  readonly #byEntity: StatementSync;
  readonly #typeNames: StatementSync;
  readonly #upsert: StatementSync;
  readonly #remove: StatementSync;

  constructor(database: DatabaseSync) {
    database.exec(`CREATE TABLE IF NOT EXISTS relationships (
      guid TEXT PRIMARY KEY,
      type_name TEXT NOT NULL,
      end1_guid TEXT NOT NULL,
      end2_guid TEXT NOT NULL,
      json TEXT NOT NULL
    )`);
    database.exec("CREATE INDEX IF NOT EXISTS relationships_end1 ON relationships (end1_guid)");
    database.exec("CREATE INDEX IF NOT EXISTS relationships_end2 ON relationships (end2_guid)");
    this.#byGuid = database.prepare("SELECT json FROM relationships WHERE guid = ?");
    this.#byEnds = database.prepare(
      "SELECT json FROM relationships WHERE type_name = ? AND end1_guid = ? AND end2_guid = ?",
    );
    this.#byEntity = database.prepare(
      "SELECT json FROM relationships WHERE end1_guid = ? OR end2_guid = ? ORDER BY rowid",
    );
    this.#typeNames = database.prepare("SELECT DISTINCT type_name FROM relationships");
    this.#upsert = database.prepare(
      `INSERT INTO relationships (guid, type_name, end1_guid, end2_guid, json) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(guid) DO UPDATE SET type_name = excluded.type_name, end1_guid = excluded.end1_guid,
         end2_guid = excluded.end2_guid, json = excluded.json`,
    );
    this.#remove = database.prepare("DELETE FROM relationships WHERE guid = ?");
  }

  /** The relationship with this guid, if any. */
  get(guid: string): AtlasRelationship | undefined {
    return parseRow(this.#byGuid.get(guid));
  }

  /** The relationship of this type between these two entities, if any. */
  findByEnds(typeName: string, end1Guid: string, end2Guid: string): AtlasRelationship | undefined {
    return parseRow(this.#byEnds.get(typeName, end1Guid, end2Guid));
  }

  /** Every relationship with the entity at either end, oldest first. */
  listForEntity(guid: string): AtlasRelationship[] {
    return this.#byEntity.all(guid, guid).map((row) => parseRow(row)!);
  }

  /** Names of the relationship types that have at least one instance. */
  typeNamesInUse(): Set<string> {
    return new Set(this.#typeNames.all().map((row) => String((row as { type_name: string }).type_name)));
  }

  /** Inserts or replaces the relationship with this guid. */
  put(relationship: AtlasRelationship): void {
    this.#upsert.run(
      relationship.guid,
      relationship.typeName,
      relationship.end1.guid,
      relationship.end2.guid,
      JSON.stringify(relationship),
    );
  }

  /** Removes the relationship; false when there was none. */
  delete(guid: string): boolean {
    return Number(this.#remove.run(guid).changes) > 0;
  }
}

function parseRow(row: unknown): AtlasRelationship | undefined {
  if (!row) return undefined;
  return JSON.parse((row as { json: string }).json) as AtlasRelationship;
}
