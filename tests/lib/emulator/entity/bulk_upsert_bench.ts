/**
 * The emulator's entity bulk upsert rate (`POST /datamap/api/atlas/v2/entity/bulk`, 1,000 entities a
 * request, through HTTP on 127.0.0.1), creating new entities and then updating the same ones, next to a
 * baseline measured in the same run: a bare loopback server that does the least any HTTP catalog on
 * SQLite must do with the same requests — parse the JSON, find each entity by type and qualified name,
 * upsert its JSON into an in-memory SQLite table shaped like the emulator's (one transaction a request)
 * and answer with guid assignments. The ratio is what the emulator's catalog logic costs on top: type
 * checks, references, audit fields, the search index.
 *
 * Batches go to the baseline and to the emulator in turn, so a slow moment of the machine hits both.
 * Supporting figure: the same entities created one per request (`POST /atlas/v2/entity`).
 *
 * GOVCAT_BENCH_QUICK=1 upserts 10,000 entities instead of 50,000.
 *
 * Run: `deno task bench tests/lib/emulator/entity/bulk_upsert_bench.ts`
 */
import { DatabaseSync } from "node:sqlite";
import { startEmulator } from "../../../../lib/emulator/mod.ts";
import { QUICK, reportFigure } from "../../../support/bench_figures.ts";
import { postJson } from "../../../support/bench_http.ts";

const ENTITIES = QUICK ? 10_000 : 50_000;
const BATCH = 1_000;
const SINGLE = QUICK ? 300 : 1_000;

type Entity = { typeName: string; attributes: Record<string, unknown> };

function entity(i: number, round: number): Entity {
  return {
    typeName: "DataSet",
    attributes: {
      qualifiedName: `ds://upsert-bench/${i}`,
      name: `Dataset ${i}`,
      description: `Round ${round}: sales data set ${i} for region ${i % 17}`,
      owner: `team-${i % 7}`,
    },
  };
}

/** The baseline catalog: JSON in, SQLite upsert by unique attribute, guid assignments out. */
function startBaseline(): { url: string; close: () => Promise<void> } {
  const db = new DatabaseSync(":memory:");
  db.exec(`CREATE TABLE entities (guid TEXT PRIMARY KEY, type_name TEXT NOT NULL,
    qualified_name TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'ACTIVE', json TEXT NOT NULL)`);
  db.exec(`CREATE UNIQUE INDEX entities_active_unique ON entities (type_name, qualified_name)
    WHERE status = 'ACTIVE'`);
  const find = db.prepare(
    "SELECT guid FROM entities WHERE type_name = ? AND qualified_name = ? AND status = 'ACTIVE'",
  );
  const upsert = db.prepare(
    `INSERT INTO entities (guid, type_name, qualified_name, status, json) VALUES (?, ?, ?, 'ACTIVE', ?)
     ON CONFLICT(guid) DO UPDATE SET json = excluded.json`,
  );
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const { entities } = await request.json() as { entities: Entity[] };
    const created: unknown[] = [];
    const updated: unknown[] = [];
    const guidAssignments: Record<string, string> = {};
    db.exec("BEGIN IMMEDIATE");
    try {
      for (const [index, entity] of entities.entries()) {
        const qualifiedName = String(entity.attributes.qualifiedName);
        const found = find.get(entity.typeName, qualifiedName) as { guid: string } | undefined;
        const guid = found?.guid ?? crypto.randomUUID();
        upsert.run(guid, entity.typeName, qualifiedName, JSON.stringify({ ...entity, guid }));
        (found ? updated : created).push({ typeName: entity.typeName, guid, attributes: { qualifiedName } });
        if (!found) guidAssignments[String(-(index + 1))] = guid;
      }
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
    return Response.json({ mutatedEntities: { CREATE: created, UPDATE: updated }, guidAssignments });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    close: async () => {
      await server.shutdown();
      db.close();
    },
  };
}

const emulator = await startEmulator({ seed: false });
const baseline = startBaseline();
const bulkPath = "/datamap/api/atlas/v2/entity/bulk?api-version=2023-09-01";

/** Sends every entity of `round` in batches, alternating targets; returns entities/s for each. */
async function upsertRound(round: number): Promise<{ emulator: number; baseline: number }> {
  let emulatorMs = 0;
  let baselineMs = 0;
  for (let start = 0; start < ENTITIES; start += BATCH) {
    const body = { entities: Array.from({ length: BATCH }, (_, k) => entity(start + k, round)) };
    let started = performance.now();
    await postJson(`${baseline.url}${bulkPath}`, body);
    baselineMs += performance.now() - started;
    started = performance.now();
    await postJson(`${emulator.url}${bulkPath}`, body);
    emulatorMs += performance.now() - started;
  }
  return { emulator: ENTITIES / (emulatorMs / 1000), baseline: ENTITIES / (baselineMs / 1000) };
}

try {
  // Warm-up on other qualified names: compiles both paths before anything is timed.
  await postJson(`${baseline.url}${bulkPath}`, { entities: [entity(-1, 0)] });
  await postJson(`${emulator.url}${bulkPath}`, { entities: [entity(-1, 0)] });

  const create = await upsertRound(1);
  const update = await upsertRound(2);
  if (emulator.entityCount() !== ENTITIES + 1) {
    throw new Error(`the emulator holds ${emulator.entityCount()} entities, not ${ENTITIES + 1}`);
  }
  console.log("");
  for (
    const [id, label, rates] of [["create", "new entities", create], ["update", "existing", update]] as const
  ) {
    reportFigure({
      id: `emulator.bulk-upsert.${id}`,
      section: "emulator",
      name: `entity bulk upsert (${label}), ${BATCH.toLocaleString("en-US")} a request`,
      value: rates.emulator,
      unit: "entities/s",
      baseline: { name: "HTTP + JSON + SQLite upsert, no catalog logic", value: rates.baseline },
      ratioLabel: "% of the baseline's rate",
      note:
        `${ENTITIES.toLocaleString("en-US")} entities; ${(1_000_000 / rates.emulator).toFixed(1)} µs an ` +
        `entity against ${(1_000_000 / rates.baseline).toFixed(1)} µs`,
    });
  }

  const started = performance.now();
  for (let i = 0; i < SINGLE; i++) {
    await postJson(`${emulator.url}/datamap/api/atlas/v2/entity?api-version=2023-09-01`, {
      entity: entity(ENTITIES + i, 1),
    });
  }
  const singleRate = SINGLE / ((performance.now() - started) / 1000);
  reportFigure({
    id: "emulator.single-create",
    section: "emulator",
    name: "entity create, one a request (POST /atlas/v2/entity)",
    value: singleRate,
    unit: "entities/s",
    baseline: { name: "bulk create", value: create.emulator },
    ratioLabel: "% of the bulk rate",
    note: `${SINGLE.toLocaleString("en-US")} entities, one after another`,
    detail: true,
  });
} finally {
  await baseline.close();
  await emulator.close();
}
