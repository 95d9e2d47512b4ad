/**
 * Search latency on a catalog of 100,000 entities, through HTTP on 127.0.0.1, next to a health-check
 * round trip on the same emulator (the floor: HTTP, routing and fault bookkeeping with no work), so the
 * figures read as a ratio rather than as this machine's speed.
 *
 * Setup: an in-memory emulator loaded through the bulk entity API (`POST /atlas/v2/entity/bulk`, 1,000
 * entities a request) with an Azure SQL estate — 20 servers, 100 databases, 200 schemas, 10,000 tables
 * and 89,680 columns — with descriptions, labels on tables and classifications on some columns. One
 * search before the benches builds the index, so the benches measure searching, not indexing.
 *
 * Run: `deno task bench tests/lib/emulator/search/bench.ts`
 */
import { startEmulator } from "../../../../lib/emulator/mod.ts";
import { reportFigure } from "../../../support/bench_figures.ts";
import {
  COLLECTIONS,
  COLUMNS,
  KINDS,
  LABELS,
  pick,
  sentence,
  SUBJECTS,
} from "../../../support/catalog_vocabulary.ts";

const TOTAL = 100_000;
const SERVERS = 20;
const DATABASES_PER_SERVER = 5;
const SCHEMAS_PER_DATABASE = 2;
const TABLES = 10_000;
const BATCH = 1_000;

type Entity = Record<string, unknown>;

/** The whole estate, parents before children, in batches the bulk API takes. */
function* estateBatches(): Generator<Entity[]> {
  const servers: Entity[] = [];
  const databases: Entity[] = [];
  const schemas: string[] = [];
  for (let s = 0; s < SERVERS; s++) {
    const server = `mssql://sql-${s}.database.windows.net`;
    servers.push(entity("azure_sql_server", server, `sql-${s}`, s));
    for (let d = 0; d < DATABASES_PER_SERVER; d++) {
      const database = `${server}/${pick(SUBJECTS, s + d)}Db${d}`;
      databases.push({
        ...entity("azure_sql_db", database, `${pick(SUBJECTS, s + d)}Db${d}`, d),
        relationshipAttributes: { server: reference("azure_sql_server", server) },
      });
      for (let c = 0; c < SCHEMAS_PER_DATABASE; c++) schemas.push(`${database}/${c === 0 ? "dbo" : "sales"}`);
    }
  }
  yield servers;
  yield databases;
  yield schemas.map((qn, i) => ({
    ...entity("azure_sql_schema", qn, qn.slice(qn.lastIndexOf("/") + 1), i),
    relationshipAttributes: { db: reference("azure_sql_db", qn.slice(0, qn.lastIndexOf("/"))) },
  }));

  const columnsTotal = TOTAL - servers.length - databases.length - schemas.length - TABLES;
  let batch: Entity[] = [];
  let columnsLeft = columnsTotal;
  for (let t = 0; t < TABLES; t++) {
    const schema = pick(schemas, t);
    const name = `${pick(SUBJECTS, t)}${pick(KINDS, Math.floor(t / SUBJECTS.length))}${t}`;
    const table = `${schema}/${name}`;
    batch.push({
      ...entity("azure_sql_table", table, name, t),
      labels: t % 3 === 0 ? [pick(LABELS, t)] : [],
      relationshipAttributes: { dbSchema: reference("azure_sql_schema", schema) },
    });
    const columns = Math.min(columnsLeft, Math.ceil(columnsLeft / (TABLES - t)));
    columnsLeft -= columns;
    for (let c = 0; c < columns; c++) {
      const [column, classification] = COLUMNS[c % COLUMNS.length];
      batch.push({
        ...entity(
          "azure_sql_column",
          `${table}#${pick(SUBJECTS, t)}${column}`,
          `${pick(SUBJECTS, t)}${column}`,
          c,
        ),
        classifications: classification && t % 2 === 0 ? [{ typeName: classification }] : [],
        relationshipAttributes: { table: reference("azure_sql_table", table) },
      });
    }
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

function entity(typeName: string, qualifiedName: string, name: string, i: number): Entity {
  return {
    typeName,
    attributes: { qualifiedName, name, description: sentence(i) },
    collectionId: pick(COLLECTIONS, i),
  };
}

function reference(typeName: string, qualifiedName: string): Entity {
  return { typeName, uniqueAttributes: { qualifiedName } };
}

const emulator = await startEmulator();
const api = `${emulator.url}/datamap/api`;

async function post(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${api}${path}?api-version=2023-09-01`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

const loadStarted = performance.now();
for (const batch of estateBatches()) await post("/atlas/v2/entity/bulk", { entities: batch });
const loadMs = performance.now() - loadStarted;
const indexStarted = performance.now();
await post("/search/query", { keywords: "warm-up", limit: 1 });
const indexMs = performance.now() - indexStarted;
console.error(
  `search bench: loaded ${emulator.entityCount()} entities in ${Math.round(loadMs)} ms, ` +
    `index built by the first search in ${Math.round(indexMs)} ms`,
);

const KEYWORD = { keywords: "customer history", limit: 25 };
const PREFIX = { keywords: "invo", limit: 25 };
const FILTER_FACET = {
  keywords: "email",
  limit: 25,
  filter: { and: [{ entityType: "azure_sql_column" }, { collectionId: "sales" }] },
  facets: [{ facet: "classification" }, { facet: "entityType" }, { facet: "label" }],
};
const EVERYTHING_FILTER_FACET = {
  keywords: "*",
  limit: 50,
  filter: { and: [{ entityType: "azure_sql_table" }, { not: { label: "Deprecated" } }] },
  facets: [{ facet: "label" }, { facet: "collectionId" }],
};
const SCHEMA_PATH =
  "/azure_sql_server#sql-0.database.windows.net/azure_sql_db#CustomerDb0/azure_sql_schema#dbo";

// Deno.bench reports the mean, p75 and p99 but no median; each bench also records its own round trips
// so p50 and p99 (and their ratio to the floor) are printed when the run ends.
const samples = new Map<string, number[]>();

function bench(name: string, run: () => Promise<unknown>, baseline = false): void {
  const times: number[] = [];
  samples.set(name, times);
  Deno.bench(name, { group: "search", baseline }, async () => {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  });
}

bench("GET /_emulator/health (floor)", async () => {
  await (await fetch(`${emulator.url}/_emulator/health`)).text();
}, true);
bench("query: two keywords", () => post("/search/query", KEYWORD));
bench("query: keyword prefix", () => post("/search/query", PREFIX));
bench("query: keyword + filter + 3 facets", () => post("/search/query", FILTER_FACET));
bench("query: * + filter (10,000 tables) + 2 facets", () => post("/search/query", EVERYTHING_FILTER_FACET));
bench("suggest: prefix", () => post("/search/suggest", { keywords: "cust", limit: 10 }));
bench("autocomplete: prefix", () => post("/search/autocomplete", { keywords: "inv", limit: 10 }));
bench("browse: a schema's tables by path", () => post("/browse", { path: SCHEMA_PATH, limit: 50 }));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))];
}

globalThis.addEventListener("unload", () => {
  emulator.close();
  const measured = [...samples].filter(([, times]) => times.length > 0);
  if (measured.length === 0) return;
  const median = (times: number[]) => percentile(times.toSorted((a, b) => a - b), 0.5);
  const floor = samples.get("GET /_emulator/health (floor)")!;
  const lines = measured.map(([name, times]) => {
    const sorted = times.toSorted((a, b) => a - b);
    const p50 = percentile(sorted, 0.5);
    const ratio = floor.length > 0 ? `  p50 ${(p50 / median(floor)).toFixed(1).padStart(6)}x floor` : "";
    return `${name.padEnd(46)} p50 ${p50.toFixed(3).padStart(8)} ms  ` +
      `p99 ${percentile(sorted, 0.99).toFixed(3).padStart(8)} ms${ratio}`;
  });
  console.error(["", "search bench, own round-trip timings:", ...lines].join("\n"));
  if (floor.length === 0) return;
  for (const [name, times] of measured) {
    if (times === floor) continue;
    const sorted = times.toSorted((a, b) => a - b);
    reportFigure({
      id: `emulator.search.${name.replace(/[^a-z0-9]+/gi, "-").replace(/-$/, "").toLowerCase()}`,
      section: "emulator",
      name: `${name}, p50 with ${TOTAL.toLocaleString("en-US")} entities`,
      value: percentile(sorted, 0.5),
      unit: "ms",
      baseline: { name: "GET /_emulator/health, p50", value: median(floor) },
      note: `p99 ${percentile(sorted, 0.99).toFixed(3)} ms over ${times.length} round trips`,
      // The first query is the headline figure; the others support it.
      detail: name !== "query: two keywords",
    });
  }
});
