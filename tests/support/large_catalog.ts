/**
 * A large emulator data file (the SQLite file of `govcat emulator --data=FILE`) for the benches that need a
 * catalog of 100,000 or 1,000,000 entities: an Azure SQL estate (servers, databases, schemas, tables and
 * columns with names, descriptions, labels on some tables and classifications on some columns) and its
 * lineage (Data Factory copy activities reading two tables each and writing a third, so every table has
 * upstream and downstream and a depth-3 walk both ways from a table reaches a few dozen nodes).
 *
 * The rows are what the emulator stores when the same entities are written through the bulk entity API
 * (object ids resolved to guids, one relationship instance per relationship attribute), but written
 * straight into SQLite in one transaction with prepared statements, so 1,000,000 entities take seconds
 * rather than the minutes the HTTP API would. Guids and timestamps are derived from positions, so a file
 * is the same on every machine.
 *
 * Cache: files live in `<system temp dir>/govcat-large-catalog/v<FORMAT>-<n>.db` and are reused by later
 * runs (a file is written under a temporary name and renamed when complete, so an interrupted run leaves
 * no half file behind). Bump `FORMAT_VERSION` when the layout or the estate changes; delete the directory
 * to reclaim the space (about 210 MB for 100k, 2.1 GB for 1M; 1M takes ~30 s to write). The emulator opens a data file read-write and may add its
 * own tables or indexes to it (schema upgrades); a bench that writes entities should ask for
 * `{ privateCopy: true }` so the cached file stays as generated.
 *
 * @example
 * ```ts
 * import { largeCatalogFile } from "./large_catalog.ts";
 * const catalog = await largeCatalogFile(100_000);
 * console.log(catalog.path, catalog.sampleTableGuid, catalog.counts.tables);
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { CollectionStore } from "../../lib/emulator/collections/store.ts";
import { RelationshipStore } from "../../lib/emulator/relationship/store.ts";
import { EntityStore } from "../../lib/emulator/store.ts";
import { COLLECTIONS, COLUMNS, KINDS, LABELS, pick, sentence, SUBJECTS } from "./catalog_vocabulary.ts";
import { exists } from "./file_exists.ts";

/** Bumped whenever the generated estate or its layout changes, so stale cached files are not reused. */
export const FORMAT_VERSION = 1;

/** What a generated file holds, and a table in the middle of its lineage to ask about. */
export interface LargeCatalog {
  /** The SQLite data file, for `startEmulator({ dataFile })` or `govcat emulator --data=FILE`. */
  path: string;
  /** Entities in the file (all ACTIVE). */
  entityCount: number;
  /** Relationship instances in the file. */
  relationshipCount: number;
  counts: {
    servers: number;
    databases: number;
    schemas: number;
    tables: number;
    columns: number;
    processes: number;
  };
  /** A table with lineage both ways, away from the ends of the chains. */
  sampleTableGuid: string;
  sampleQualifiedName: string;
  sampleTypeName: "azure_sql_table";
  /** A copy activity next to the sample table (one of its producers). */
  sampleProcessGuid: string;
  /** True when this call wrote the file, false when it was reused from the cache. */
  generated: boolean;
  /** How long writing took (0 when reused). */
  generateMs: number;
}

export interface LargeCatalogOptions {
  /** Copy the cached file to a fresh temporary file (removed by the caller) so writes leave the cache alone. */
  privateCopy?: boolean;
  /** Where the cache lives; defaults to `<system temp dir>/govcat-large-catalog`. */
  cacheDir?: string;
}

/** The cached data file of `n` entities (written on first use). `n` must be at least 1,000. */
export async function largeCatalogFile(n: number, options: LargeCatalogOptions = {}): Promise<LargeCatalog> {
  if (!Number.isInteger(n) || n < 1_000) {
    throw new Error(`largeCatalogFile: n must be an integer ≥ 1000, got ${n}`);
  }
  const dir = options.cacheDir ?? join(systemTempDir(), "govcat-large-catalog");
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, `v${FORMAT_VERSION}-${n}.db`);
  const plan = estatePlan(n);
  let generated = false;
  let generateMs = 0;
  if (!(await exists(path))) {
    const started = performance.now();
    const partial = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.partial`;
    try {
      writeEstate(partial, plan);
      await Deno.rename(partial, path);
    } catch (error) {
      await Deno.remove(partial).catch(() => {});
      throw error;
    }
    generated = true;
    generateMs = performance.now() - started;
  }
  let file = path;
  if (options.privateCopy) {
    file = await Deno.makeTempFile({ prefix: "govcat-large-catalog-", suffix: ".db" });
    await Deno.copyFile(path, file);
  }
  const sampleTable = Math.floor(plan.tables / 2);
  return {
    path: file,
    entityCount: n,
    relationshipCount: plan.relationships,
    counts: {
      servers: plan.servers,
      databases: plan.databases,
      schemas: plan.schemas,
      tables: plan.tables,
      columns: plan.columns,
      processes: plan.processes,
    },
    sampleTableGuid: guidOf(plan.tableStart + sampleTable),
    sampleQualifiedName: tableQualifiedName(plan, sampleTable),
    sampleTypeName: "azure_sql_table",
    sampleProcessGuid: guidOf(plan.processStart + sampleTable - LINEAGE_STRIDE),
    generated,
    generateMs,
  };
}

// ---- the estate ------------------------------------------------------------------------------------------

/** Tables a copy activity's output sits after its first input: the hop of the lineage chains. */
const LINEAGE_STRIDE = 50;
const DATABASES_PER_SERVER = 5;
const SCHEMAS_PER_DATABASE = 2;
const CREATED = 1_767_225_600_000; // 2026-01-01T00:00:00Z: fixed, so files are reproducible
const CREATOR = "emulator";

/** How `n` entities split into the estate's kinds; positions are the order rows are written. */
interface EstatePlan {
  servers: number;
  databases: number;
  schemas: number;
  tables: number;
  processes: number;
  columns: number;
  tableStart: number;
  processStart: number;
  columnStart: number;
  relationships: number;
}

function estatePlan(n: number): EstatePlan {
  const servers = Math.max(1, Math.round(n / 5_000));
  const databases = servers * DATABASES_PER_SERVER;
  const schemas = databases * SCHEMAS_PER_DATABASE;
  const tables = Math.floor(n / 10);
  // One copy activity per table whose output position still exists.
  const processes = tables - LINEAGE_STRIDE - 1;
  const columns = n - servers - databases - schemas - tables - processes;
  const tableStart = servers + databases + schemas;
  const processStart = tableStart + tables;
  // Containment: one per database, schema, table and column; lineage: two inputs and one output a process.
  const relationships = databases + schemas + tables + columns + 3 * processes;
  return {
    servers,
    databases,
    schemas,
    tables,
    processes,
    columns,
    tableStart,
    processStart,
    columnStart: processStart + processes,
    relationships,
  };
}

/** Entity guid at a position: deterministic, ascending (cheap B-tree appends), version-4 shaped. */
function guidOf(position: number): string {
  return `00000000-0000-4000-8000-${position.toString(16).padStart(12, "0")}`;
}

/** Relationship guid at a position, distinct from every entity guid. */
function relationshipGuidOf(position: number): string {
  return `00000000-0000-4000-9000-${position.toString(16).padStart(12, "0")}`;
}

const serverQualifiedName = (s: number) => `mssql://sql-${s}.database.windows.net`;
const databaseName = (d: number) => `${pick(SUBJECTS, d)}Db${d}`;
const databaseQualifiedName = (d: number) =>
  `${serverQualifiedName(Math.floor(d / DATABASES_PER_SERVER))}/${databaseName(d)}`;
const schemaName = (
  c: number,
) => (c % SCHEMAS_PER_DATABASE === 0 ? "dbo" : `sales${c % SCHEMAS_PER_DATABASE}`);
const schemaQualifiedName = (c: number) =>
  `${databaseQualifiedName(Math.floor(c / SCHEMAS_PER_DATABASE))}/${schemaName(c)}`;
const tableName = (t: number) => `${pick(SUBJECTS, t)}${pick(KINDS, Math.floor(t / SUBJECTS.length))}${t}`;
function tableQualifiedName(plan: EstatePlan, t: number): string {
  return `${schemaQualifiedName(t % plan.schemas)}/${tableName(t)}`;
}

type Json = Record<string, unknown>;

function entityJson(
  position: number,
  typeName: string,
  qualifiedName: string,
  name: string,
  extra: Json,
): Json {
  return {
    typeName,
    attributes: { qualifiedName, name, description: sentence(position) },
    ...extra,
    guid: guidOf(position),
    status: "ACTIVE",
    createdBy: CREATOR,
    updatedBy: CREATOR,
    createTime: CREATED,
    updateTime: CREATED,
    version: 0,
    lastModifiedTS: "1",
    collectionId: pick(COLLECTIONS, position),
  };
}

function objectId(position: number, typeName: string, qualifiedName: string): Json {
  return { typeName, uniqueAttributes: { qualifiedName }, guid: guidOf(position) };
}

/** Writes the whole estate into a new SQLite file at `file`. */
function writeEstate(file: string, plan: EstatePlan): void {
  // The emulator's own stores create the tables, so the layout is exactly what `--data=FILE` opens.
  const store = EntityStore.open(file);
  try {
    const db = store.database;
    new RelationshipStore(db);
    // A scratch file until renamed: no journal, no fsync.
    db.exec("PRAGMA journal_mode = OFF");
    db.exec("PRAGMA synchronous = OFF");
    const collections = CollectionStore.open(store, CREATED);
    for (const name of COLLECTIONS) {
      collections.put(
        { name, friendlyName: name[0].toUpperCase() + name.slice(1), parent: collections.root().name },
        { by: CREATOR, type: "Application" },
        CREATED,
      );
    }
    const insertEntity = db.prepare(
      "INSERT INTO entities (guid, type_name, qualified_name, status, json) VALUES (?, ?, ?, 'ACTIVE', ?)",
    );
    const insertRelationship = db.prepare(
      "INSERT INTO relationships (guid, type_name, end1_guid, end2_guid, json) VALUES (?, ?, ?, ?, ?)",
    );
    let relationshipPosition = 0;
    const relate = (typeName: string, end1: [number, string], end2: [number, string]) => {
      const guid = relationshipGuidOf(relationshipPosition++);
      const json = {
        typeName,
        attributes: {},
        guid,
        end1: { guid: guidOf(end1[0]), typeName: end1[1] },
        end2: { guid: guidOf(end2[0]), typeName: end2[1] },
        label: `r:${typeName}`,
        status: "ACTIVE",
        createdBy: CREATOR,
        updatedBy: CREATOR,
        createTime: CREATED,
        updateTime: CREATED,
        version: 0,
      };
      insertRelationship.run(guid, typeName, guidOf(end1[0]), guidOf(end2[0]), JSON.stringify(json));
    };
    const put = (json: Json) => {
      const attributes = json.attributes as { qualifiedName: string };
      insertEntity.run(
        json.guid as string,
        json.typeName as string,
        attributes.qualifiedName,
        JSON.stringify(json),
      );
    };

    db.exec("BEGIN");
    let position = 0;
    for (let s = 0; s < plan.servers; s++) {
      put(entityJson(position++, "azure_sql_server", serverQualifiedName(s), `sql-${s}`, {}));
    }
    const serverStart = 0;
    const databaseStart = plan.servers;
    for (let d = 0; d < plan.databases; d++) {
      const server = serverStart + Math.floor(d / DATABASES_PER_SERVER);
      const serverName = serverQualifiedName(Math.floor(d / DATABASES_PER_SERVER));
      put(entityJson(position, "azure_sql_db", databaseQualifiedName(d), databaseName(d), {
        relationshipAttributes: { server: objectId(server, "azure_sql_server", serverName) },
      }));
      relate("azure_sql_server_databases", [server, "azure_sql_server"], [position++, "azure_sql_db"]);
    }
    const schemaStart = databaseStart + plan.databases;
    for (let c = 0; c < plan.schemas; c++) {
      const database = Math.floor(c / SCHEMAS_PER_DATABASE);
      put(entityJson(position, "azure_sql_schema", schemaQualifiedName(c), schemaName(c), {
        relationshipAttributes: {
          db: objectId(databaseStart + database, "azure_sql_db", databaseQualifiedName(database)),
        },
      }));
      relate("azure_sql_db_schemas", [databaseStart + database, "azure_sql_db"], [
        position++,
        "azure_sql_schema",
      ]);
    }
    for (let t = 0; t < plan.tables; t++) {
      const schema = t % plan.schemas;
      put(entityJson(position, "azure_sql_table", tableQualifiedName(plan, t), tableName(t), {
        labels: t % 3 === 0 ? [pick(LABELS, t)] : [],
        relationshipAttributes: {
          dbSchema: objectId(schemaStart + schema, "azure_sql_schema", schemaQualifiedName(schema)),
        },
      }));
      relate("azure_sql_schema_tables", [schemaStart + schema, "azure_sql_schema"], [
        position++,
        "azure_sql_table",
      ]);
    }
    writeProcesses(plan, put, relate);
    position += plan.processes;
    writeColumns(plan, position, put, relate);
    db.exec("COMMIT");
    db.exec("ANALYZE");
  } finally {
    store.close();
  }
}

type Put = (json: Json) => void;
type Relate = (typeName: string, end1: [number, string], end2: [number, string]) => void;

/**
 * Copy activity `k` reads tables `k` and `k + 1` and writes table `k + LINEAGE_STRIDE`: a table is read by
 * two activities and written by one, so each hop up- or downstream widens by one table.
 */
function writeProcesses(plan: EstatePlan, put: Put, relate: Relate): void {
  const table = (t: number) => objectId(plan.tableStart + t, "azure_sql_table", tableQualifiedName(plan, t));
  for (let k = 0; k < plan.processes; k++) {
    const position = plan.processStart + k;
    const pipeline = `adf://factory-${k % 7}/pipelines/${pick(SUBJECTS, k)}Load`;
    put(
      entityJson(
        position,
        "adf_copy_activity",
        `${pipeline}/copy-${k}`,
        `Copy ${tableName(k + LINEAGE_STRIDE)}`,
        {
          relationshipAttributes: { inputs: [table(k), table(k + 1)], outputs: [table(k + LINEAGE_STRIDE)] },
        },
      ),
    );
    relate("dataset_process_inputs", [position, "adf_copy_activity"], [
      plan.tableStart + k,
      "azure_sql_table",
    ]);
    relate("dataset_process_inputs", [position, "adf_copy_activity"], [
      plan.tableStart + k + 1,
      "azure_sql_table",
    ]);
    relate("process_dataset_outputs", [position, "adf_copy_activity"], [
      plan.tableStart + k + LINEAGE_STRIDE,
      "azure_sql_table",
    ]);
  }
}

/** Columns spread evenly over the tables, some classified (on every other table), in table order. */
function writeColumns(plan: EstatePlan, start: number, put: Put, relate: Relate): void {
  let position = start;
  let left = plan.columns;
  for (let t = 0; t < plan.tables; t++) {
    const tableQn = tableQualifiedName(plan, t);
    const count = Math.min(left, Math.ceil(left / (plan.tables - t)));
    left -= count;
    for (let c = 0; c < count; c++) {
      const [column, classification] = COLUMNS[c % COLUMNS.length];
      const name = `${pick(SUBJECTS, t)}${column}${
        c >= COLUMNS.length ? Math.floor(c / COLUMNS.length) : ""
      }`;
      const guid = guidOf(position);
      put(entityJson(position, "azure_sql_column", `${tableQn}#${name}`, name, {
        classifications: classification && t % 2 === 0
          ? [{ typeName: classification, entityGuid: guid, entityStatus: "ACTIVE" }]
          : [],
        relationshipAttributes: { table: objectId(plan.tableStart + t, "azure_sql_table", tableQn) },
      }));
      relate("azure_sql_table_columns", [plan.tableStart + t, "azure_sql_table"], [
        position++,
        "azure_sql_column",
      ]);
    }
  }
}

function systemTempDir(): string {
  return Deno.env.get("TMPDIR") || Deno.env.get("TEMP") || Deno.env.get("TMP") || "/tmp";
}
