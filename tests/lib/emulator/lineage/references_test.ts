/**
 * The lineage reference index (lib/emulator/lineage/references.ts) follows every write: processes created,
 * changed, deleted and purged; relationship instances added and removed; a reset; and a data file
 * reopened, including one written before the index existed. Each test asks from the data set's side
 * (upstream of an output, downstream of an input), the side the index serves, and names its ends in the
 * legacy `attributes.inputs`/`outputs`, which make no relationship instances, so only the index can find
 * the process.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { LINEAGE_REFERENCES_TABLE, LineageReferences } from "../../../../lib/emulator/lineage/references.ts";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { EntityStore } from "../../../../lib/emulator/store.ts";
import { API_VERSION, call, DATAMAP, ok, withEmulator } from "../emulator_test_helpers.ts";

const byGuid = (guid: string) => ({ guid, typeName: "DataSet" });
const byName = (name: string) => ({
  typeName: "DataSet",
  uniqueAttributes: { qualifiedName: `ds://${name}` },
});

async function createDatasets(
  emulator: RunningEmulator,
  ...names: string[]
): Promise<Record<string, string>> {
  const created = await ok(emulator, "POST", `${DATAMAP}/atlas/v2/entity/bulk?${API_VERSION}`, {
    entities: names.map((name) => ({
      typeName: "DataSet",
      attributes: { qualifiedName: `ds://${name}`, name },
    })),
  });
  const guids: Record<string, string> = {};
  for (const header of created.body.mutatedEntities.CREATE) {
    guids[String(header.attributes.qualifiedName).slice("ds://".length)] = header.guid;
  }
  return guids;
}

async function putProcess(
  emulator: RunningEmulator,
  name: string,
  ends: { inputs: unknown[]; outputs: unknown[] },
): Promise<string> {
  const reply = await ok(emulator, "POST", `${DATAMAP}/atlas/v2/entity?${API_VERSION}`, {
    entity: { typeName: "Process", attributes: { qualifiedName: `process://${name}`, name, ...ends } },
  });
  const headers = [
    ...(reply.body.mutatedEntities.CREATE ?? []),
    ...(reply.body.mutatedEntities.UPDATE ?? []),
  ];
  return headers[0].guid;
}

/** The processes next to `guid` on one side: its producers (INPUT) or consumers (OUTPUT), by name. */
async function neighbours(emulator: RunningEmulator, guid: string, direction: "INPUT" | "OUTPUT") {
  const reply = await ok(
    emulator,
    "GET",
    `${DATAMAP}/atlas/v2/lineage/${guid}?direction=${direction}&depth=1&${API_VERSION}`,
  );
  const names = reply.body.relations
    .flatMap((
      relation: { fromEntityId: string; toEntityId: string },
    ) => [relation.fromEntityId, relation.toEntityId])
    .filter((id: string) => id !== guid)
    .map((id: string) => reply.body.guidEntityMap[id].attributes.name);
  return [...new Set(names)].sort();
}

Deno.test("lineage index: a process created, changed and deleted through the API shows from its data sets", async () => {
  await withEmulator({}, async (emulator) => {
    const ds = await createDatasets(emulator, "a", "b", "c");
    // Asked once first, so the index exists before the process is written: its triggers must follow.
    assert.deepEqual(await neighbours(emulator, ds.b, "INPUT"), []);
    const process = await putProcess(emulator, "copy", { inputs: [byGuid(ds.a)], outputs: [byGuid(ds.b)] });
    assert.deepEqual(await neighbours(emulator, ds.b, "INPUT"), ["a", "copy"]);
    assert.deepEqual(await neighbours(emulator, ds.a, "OUTPUT"), ["b", "copy"]);

    // The same process (same qualified name) now writes c instead of b.
    await putProcess(emulator, "copy", { inputs: [byGuid(ds.a)], outputs: [byGuid(ds.c)] });
    assert.deepEqual(await neighbours(emulator, ds.b, "INPUT"), []);
    assert.deepEqual(await neighbours(emulator, ds.c, "INPUT"), ["a", "copy"]);

    await ok(emulator, "DELETE", `${DATAMAP}/atlas/v2/entity/guid/${process}?${API_VERSION}`);
    assert.deepEqual(await neighbours(emulator, ds.c, "INPUT"), []);
    assert.deepEqual(await neighbours(emulator, ds.a, "OUTPUT"), []);
  });
});

Deno.test("lineage index: a process naming a data set before it exists finds it once it is created", async () => {
  await withEmulator({}, async (emulator) => {
    const ds = await createDatasets(emulator, "source");
    assert.deepEqual(await neighbours(emulator, ds.source, "OUTPUT"), []);
    await putProcess(emulator, "early", { inputs: [byGuid(ds.source)], outputs: [byName("later")] });
    const later = await createDatasets(emulator, "later");
    assert.deepEqual(await neighbours(emulator, later.later, "INPUT"), ["early", "source"]);
  });
});

Deno.test("lineage index: relationship instances added and removed show from the data set", async () => {
  await withEmulator({}, async (emulator) => {
    const ds = await createDatasets(emulator, "in", "out");
    const process = await putProcess(emulator, "job", { inputs: [], outputs: [byGuid(ds.out)] });
    assert.deepEqual(await neighbours(emulator, ds.in, "OUTPUT"), []);
    const created = await ok(emulator, "POST", `${DATAMAP}/atlas/v2/relationship?${API_VERSION}`, {
      typeName: "dataset_process_inputs",
      end1: { guid: process, typeName: "Process" },
      end2: { guid: ds.in, typeName: "DataSet" },
    });
    assert.deepEqual(await neighbours(emulator, ds.in, "OUTPUT"), ["job", "out"]);
    await ok(emulator, "DELETE", `${DATAMAP}/atlas/v2/relationship/guid/${created.body.guid}?${API_VERSION}`);
    assert.deepEqual(await neighbours(emulator, ds.in, "OUTPUT"), []);
  });
});

Deno.test("lineage index: a data file reopened keeps answering, and a reset empties the index", async () => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-lineage-index-" });
  const dataFile = `${dir}/catalog.db`;
  try {
    let ds: Record<string, string> = {};
    await withEmulator({ dataFile }, async (emulator) => {
      ds = await createDatasets(emulator, "x", "y");
      // Asked once, so the index is made before the process is written: the write goes through a trigger.
      assert.deepEqual(await neighbours(emulator, ds.y, "INPUT"), []);
      await putProcess(emulator, "load", { inputs: [byName("x")], outputs: [byName("y")] });
    });
    await withEmulator({ dataFile }, async (emulator) => {
      assert.deepEqual(await neighbours(emulator, ds.y, "INPUT"), ["load", "x"]);
      assert.deepEqual(await neighbours(emulator, ds.x, "OUTPUT"), ["load", "y"]);
      await ok(emulator, "POST", "/_emulator/reset?data=true");
    });
    const db = new DatabaseSync(dataFile);
    try {
      const rows = db.prepare(`SELECT COUNT(*) AS n FROM ${LINEAGE_REFERENCES_TABLE}`).get() as { n: number };
      assert.equal(Number(rows.n), 0);
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lineage index: a data file written without the index is indexed on its first lineage request", async () => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-lineage-index-" });
  const dataFile = `${dir}/catalog.db`;
  try {
    let ds: Record<string, string> = {};
    await withEmulator({ dataFile }, async (emulator) => {
      ds = await createDatasets(emulator, "p", "q");
      await putProcess(emulator, "move", { inputs: [byGuid(ds.p)], outputs: [byGuid(ds.q)] });
    });
    // As an older govcat leaves a file: no index table, no triggers.
    const db = new DatabaseSync(dataFile);
    db.exec(`DROP TABLE IF EXISTS ${LINEAGE_REFERENCES_TABLE}`);
    for (const event of ["insert", "update", "delete"]) {
      db.exec(`DROP TRIGGER IF EXISTS ${LINEAGE_REFERENCES_TABLE}_${event}`);
    }
    db.close();
    await withEmulator({ dataFile }, async (emulator) => {
      assert.deepEqual(await neighbours(emulator, ds.q, "INPUT"), ["move", "p"]);
      const missing = await call(
        emulator,
        "GET",
        `${DATAMAP}/atlas/v2/lineage/${ds.p}?direction=OUTPUT&depth=1`,
      );
      assert.equal(missing.status, 200);
      assert.equal(missing.body.relations.length, 2);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lineage index: a purged process leaves no references behind", () => {
  const store = EntityStore.open();
  try {
    const references = LineageReferences.for(store.database);
    const process = {
      guid: "p1",
      typeName: "Process",
      attributes: {
        qualifiedName: "process://p1",
        name: "p1",
        inputs: [byGuid("d1")],
        outputs: [byName("d2")],
      },
      status: "ACTIVE" as const,
      createTime: 0,
      updateTime: 0,
      createdBy: "test",
      updatedBy: "test",
      version: 0,
      lastModifiedTS: "1",
    };
    store.put(process);
    assert.deepEqual(references.entitiesNaming("d1", "ds://none"), ["p1"]);
    assert.deepEqual(references.entitiesNaming("none", "ds://d2"), ["p1"]);
    assert.ok(store.delete("p1"));
    assert.deepEqual(references.entitiesNaming("d1", "ds://d2"), []);
  } finally {
    store.close();
  }
});
