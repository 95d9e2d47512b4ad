/**
 * Which entities name a given entity among their lineage ends, so a lineage request finds a data set's
 * producers and consumers without reading every stored process. The `lineage_references` table holds, for
 * every entity whose JSON has `inputs` or `outputs` (in its attributes or relationship attributes), each
 * guid and qualified name found under them: the object ids by guid and by unique attributes. It answers a
 * superset (the lineage graph re-reads each candidate process and keeps only the edges that really resolve
 * to the data set), so it needs no type system and no resolution of its own.
 *
 * Why persistent SQLite triggers: every entity write in the emulator (creates, updates, soft deletes,
 * purges, a reset, a seed, a bulk load) ends in an INSERT, UPDATE or DELETE on `entities`, from many
 * modules. Triggers stored in the data file see all of them, also from a connection that never loaded this
 * module, and a rolled-back transaction rolls the index back with it. The table and its triggers are made
 * on the first lineage request of a database that lacks them, filled from the stored entities once, and
 * kept in the file from then on. The relationship instances that are lineage edges need no index here:
 * the `relationships` table is already indexed by both ends.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { LineageReferences } from "./references.ts";
 * const store = EntityStore.open();
 * const references = LineageReferences.for(store.database);
 * console.log(references.entitiesNaming("some-guid", "some://name")); // []
 * store.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";

/** The index table; derived from `entities`, so a data reset empties it through the triggers. */
export const LINEAGE_REFERENCES_TABLE = "lineage_references";

// The JSON paths that hold lineage ends, as the lineage graph reads them.
const PATHS = [
  "$.attributes.inputs",
  "$.attributes.outputs",
  "$.relationshipAttributes.inputs",
  "$.relationshipAttributes.outputs",
];
const TRIGGERS = ["insert", "update", "delete"].map((event) => `${LINEAGE_REFERENCES_TABLE}_${event}`);

// A cheap test before walking the JSON: most entities (tables, columns) have no lineage ends at all.
const holdsEnds = (row: string) =>
  `(instr(${row}.json, '"inputs"') > 0 OR instr(${row}.json, '"outputs"') > 0)`;

/**
 * Rows `(entity_guid, reference)` for the entity rows `source` yields (`e` its alias). One pass over the
 * source, walking the four paths of each row: the source is read once, which matters for the fill.
 */
function referenceRows(source: string): string {
  const paths = PATHS.map((path) => `('${path}')`).join(", ");
  return `SELECT DISTINCT e.guid AS entity_guid, t.value AS reference
    FROM ${source}, (VALUES ${paths}) AS p, json_tree(e.json, p.column1) AS t
    WHERE t.key IN ('guid', 'qualifiedName') AND t.type = 'text'`;
}

const INSTALL = [
  `CREATE TABLE ${LINEAGE_REFERENCES_TABLE} (entity_guid TEXT NOT NULL, reference TEXT NOT NULL)`,
  // Filled before its indexes are made: sorting once is cheaper than growing two indexes row by row.
  `INSERT INTO ${LINEAGE_REFERENCES_TABLE} (entity_guid, reference)
     ${referenceRows(`(SELECT guid, json FROM entities WHERE ${holdsEnds("entities")}) AS e`)}`,
  `CREATE INDEX ${LINEAGE_REFERENCES_TABLE}_reference ON ${LINEAGE_REFERENCES_TABLE} (reference)`,
  `CREATE INDEX ${LINEAGE_REFERENCES_TABLE}_entity ON ${LINEAGE_REFERENCES_TABLE} (entity_guid)`,
  // Qualified-name references resolve among ACTIVE entities of any type (a reference may name a super type).
  `CREATE INDEX IF NOT EXISTS entities_active_qualified_name ON entities (qualified_name) WHERE status = 'ACTIVE'`,
  `CREATE TRIGGER ${TRIGGERS[0]} AFTER INSERT ON entities WHEN ${holdsEnds("NEW")} BEGIN
     INSERT INTO ${LINEAGE_REFERENCES_TABLE} (entity_guid, reference)
       ${referenceRows("(SELECT NEW.guid AS guid, NEW.json AS json) AS e")};
   END`,
  `CREATE TRIGGER ${TRIGGERS[1]} AFTER UPDATE ON entities BEGIN
     DELETE FROM ${LINEAGE_REFERENCES_TABLE} WHERE entity_guid = OLD.guid;
     INSERT INTO ${LINEAGE_REFERENCES_TABLE} (entity_guid, reference)
       ${referenceRows(`(SELECT NEW.guid AS guid, NEW.json AS json WHERE ${holdsEnds("NEW")}) AS e`)};
   END`,
  `CREATE TRIGGER ${TRIGGERS[2]} AFTER DELETE ON entities BEGIN
     DELETE FROM ${LINEAGE_REFERENCES_TABLE} WHERE entity_guid = OLD.guid;
   END`,
];

const opened = new WeakMap<DatabaseSync, LineageReferences>();

/** The lineage reference index of one database. */
export class LineageReferences {
  readonly #naming: StatementSync;

  private constructor(database: DatabaseSync) {
    this.#naming = database.prepare(
      `SELECT DISTINCT entity_guid FROM ${LINEAGE_REFERENCES_TABLE} WHERE reference IN (?, ?)`,
    );
  }

  /** The index of `database`, made (and filled from the stored entities) when the data file lacks it. */
  static for(database: DatabaseSync): LineageReferences {
    let references = opened.get(database);
    if (!references) {
      install(database);
      references = new LineageReferences(database);
      opened.set(database, references);
    }
    return references;
  }

  /**
   * Guids of the entities (any status, any type) holding a lineage end with this guid or this qualified
   * name: every process that may have an edge to the entity, and maybe a few that do not.
   */
  entitiesNaming(guid: string, qualifiedName: string): string[] {
    return this.#naming.all(guid, qualifiedName).map((row) =>
      String((row as { entity_guid: string }).entity_guid)
    );
  }
}

/** Makes the table, its indexes and triggers, and fills it, unless all of them are there already. */
function install(database: DatabaseSync): void {
  const present = database.prepare(
    "SELECT COUNT(*) AS n FROM sqlite_master WHERE (type = 'trigger' AND name IN (?, ?, ?)) OR (type = 'table' AND name = ?)",
  ).get(...TRIGGERS, LINEAGE_REFERENCES_TABLE) as { n: number };
  if (Number(present.n) === TRIGGERS.length + 1) return;
  database.exec("BEGIN IMMEDIATE");
  try {
    // A partial install (a file edited by hand, say) is rebuilt whole, so the index matches the entities.
    for (const trigger of TRIGGERS) database.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
    database.exec(`DROP TABLE IF EXISTS ${LINEAGE_REFERENCES_TABLE}`);
    for (const statement of INSTALL) database.exec(statement);
    database.exec("COMMIT");
  } catch (error) {
    database.exec("ROLLBACK");
    throw error;
  }
}
