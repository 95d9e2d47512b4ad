import assert from "node:assert/strict";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { call, DATAMAP, tableEntity, withEmulator } from "./emulator_test_helpers.ts";

const SEEDED_ENTITIES = 42;

async function withTempFile(suffix: string, test: (path: string) => Promise<void>): Promise<void> {
  const path = await Deno.makeTempFile({ prefix: "govcat-emulator-", suffix });
  try {
    await test(path);
  } finally {
    await Deno.remove(path).catch(() => {});
  }
}

Deno.test("state survives a restart and the seed is applied only on first use", async () => {
  await withTempFile(".db", async (dataFile) => {
    let createdGuid = "";
    await withEmulator({ dataFile, seed: true }, async (emulator) => {
      assert.equal(emulator.entityCount(), SEEDED_ENTITIES);
      assert.equal(emulator.dataLocation, dataFile);
      const created = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, {
        entity: tableEntity("Shipments"),
      });
      createdGuid = created.body.mutatedEntities.CREATE[0].guid;
      const deleted = await call(
        emulator,
        "DELETE",
        `${DATAMAP}/atlas/v2/entity/guid/ca7a1000-0000-4000-8000-000000000030`,
      );
      assert.equal(deleted.status, 200);
    });

    await withEmulator({ dataFile, seed: true }, async (emulator) => {
      assert.equal(emulator.entityCount(), SEEDED_ENTITIES, "one created, one deleted, nothing re-seeded");
      const read = await call(emulator, "GET", `${DATAMAP}/atlas/v2/entity/guid/${createdGuid}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.entity.attributes.name, "Shipments");
      const deletedSeed = await call(
        emulator,
        "GET",
        `${DATAMAP}/atlas/v2/entity/guid/ca7a1000-0000-4000-8000-000000000030`,
      );
      assert.equal(deletedSeed.status, 200, "deletes are soft");
      assert.equal(deletedSeed.body.entity.status, "DELETED");
    });
  });
});

Deno.test("an in-memory emulator starts empty without seed and forgets on close", async () => {
  await withEmulator({}, async (emulator) => {
    assert.equal(emulator.dataLocation, ":memory:");
    assert.equal(emulator.entityCount(), 0);
    await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, { entity: tableEntity("Temp") });
  });
  await withEmulator({}, (emulator) => assert.equal(emulator.entityCount(), 0));
});

Deno.test("a custom seed file is loaded, and a bad one fails the start cleanly", async () => {
  await withTempFile(".json", async (seedFile) => {
    await Deno.writeTextFile(
      seedFile,
      JSON.stringify({
        entities: [{
          guid: "0f0f0f0f-0000-4000-8000-000000000001",
          ...tableEntity("Seeded"),
          collectionId: "sales",
        }],
      }),
    );
    await withEmulator({ seed: seedFile }, async (emulator) => {
      assert.equal(emulator.entityCount(), 1);
      const read = await call(
        emulator,
        "GET",
        `${DATAMAP}/atlas/v2/entity/guid/0f0f0f0f-0000-4000-8000-000000000001`,
      );
      assert.equal(read.body.entity.collectionId, "sales");
      assert.equal(read.body.entity.lastModifiedTS, "1");
    });

    await Deno.writeTextFile(seedFile, JSON.stringify({ entities: [tableEntity("NoGuid")] }));
    await assert.rejects(startEmulator({ seed: seedFile }), /needs a fixed guid/);
    await Deno.writeTextFile(seedFile, "{oops");
    await assert.rejects(startEmulator({ seed: seedFile }), /not valid JSON/);
  });
});
