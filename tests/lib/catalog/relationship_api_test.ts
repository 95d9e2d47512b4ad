/**
 * Every `client.relationships` method over real HTTP against the emulator: create, get (with and without
 * extended info), update, delete, and the typed errors of refusals.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";
import { BadRequestError, NotFoundError } from "../../../lib/core/errors.ts";

async function withClient(test: (client: CatalogClient, emulator: RunningEmulator) => Promise<void>) {
  const emulator = await startEmulator();
  const client = CatalogClient.fromConfig(
    loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url }),
    { retryBaseMs: 5 },
  );
  try {
    await test(client, emulator);
  } finally {
    await emulator.close();
  }
}

/** A process and a data set it reads, as guids. */
async function processAndInput(client: CatalogClient): Promise<{ process: string; dataSet: string }> {
  const result = await client.entity.createOrUpdateMany([
    { typeName: "Process", attributes: { qualifiedName: "process://api-test/load", name: "load" } },
    { typeName: "DataSet", attributes: { qualifiedName: "dataset://api-test/raw", name: "raw" } },
  ]);
  const created = result.mutatedEntities?.CREATE ?? [];
  const guidOf = (typeName: string) => created.find((h) => h.typeName === typeName)?.guid;
  return { process: guidOf("Process")!, dataSet: guidOf("DataSet")! };
}

Deno.test("relationships: create, get, get with extended info, update and delete", async () => {
  await withClient(async (client, emulator) => {
    await client.types.create({
      relationshipDefs: [{
        name: "api_test_feeds",
        relationshipCategory: "ASSOCIATION",
        endDef1: { type: "DataSet", name: "feeds", cardinality: "SET" },
        endDef2: { type: "Process", name: "fedBy", cardinality: "SET" },
        attributeDefs: [{ name: "note", typeName: "string", isOptional: true, cardinality: "SINGLE" }],
      }],
    });
    const { process, dataSet } = await processAndInput(client);

    const created = await client.relationships.create({
      typeName: "dataset_process_inputs",
      end1: { guid: process, typeName: "Process" },
      end2: { guid: dataSet, typeName: "DataSet" },
    });
    assert.match(created.guid ?? "", /^[0-9a-f-]{36}$/);
    assert.equal(created.status, "ACTIVE");
    assert.equal(created.end1?.guid, process);

    const plain = await client.relationships.get(created.guid!);
    assert.equal(plain.relationship?.typeName, "dataset_process_inputs");
    const extended = await client.relationships.get(created.guid!, { extendedInfo: true });
    assert.ok(extended.referredEntities?.[process], "extended info carries the ends' headers");
    assert.ok(extended.referredEntities?.[dataSet]);

    const withNote = await client.relationships.create({
      typeName: "api_test_feeds",
      end1: { guid: dataSet },
      end2: { guid: process },
      attributes: { note: "nightly" },
    });
    const updated = await client.relationships.update({ ...withNote, attributes: { note: "hourly" } });
    assert.equal(updated.attributes?.note, "hourly");
    assert.equal((await client.relationships.get(withNote.guid!)).relationship?.attributes?.note, "hourly");

    const before = emulator.faults.stats().total;
    await client.relationships.delete(created.guid!);
    assert.equal(emulator.faults.stats().total, before + 1, "one DELETE");
    const after = await client.relationships.get(created.guid!).catch((e) => e);
    assert.ok(
      after instanceof NotFoundError || after.relationship?.status === "DELETED",
      "a deleted relationship is gone or marked DELETED",
    );
  });
});

Deno.test("relationship errors: unknown guid is 404 with a code, bad ends or type are refused", async () => {
  await withClient(async (client) => {
    const unknown = "00000000-0000-4000-8000-00000000dead";
    await assert.rejects(() => client.relationships.get(unknown), (e: unknown) => {
      assert.ok(e instanceof NotFoundError, String(e));
      assert.equal(e.status, 404);
      assert.match(e.code ?? "", /^ATLAS-404-/);
      return true;
    });
    await assert.rejects(() => client.relationships.delete(unknown), NotFoundError);

    const { process, dataSet } = await processAndInput(client);
    await assert.rejects(
      () =>
        client.relationships.create({
          typeName: "no_such_relationship",
          end1: { guid: process },
          end2: { guid: dataSet },
        }),
      (e: unknown) => (e instanceof NotFoundError || e instanceof BadRequestError) && e.code !== undefined,
      "an unknown relationship type",
    );
    await assert.rejects(
      () =>
        client.relationships.create({
          typeName: "dataset_process_inputs",
          end1: { guid: unknown },
          end2: { guid: dataSet },
        }),
      (e: unknown) => e instanceof NotFoundError || e instanceof BadRequestError,
      "an end that does not exist",
    );
    await assert.rejects(
      () =>
        client.relationships.create({
          typeName: "dataset_process_inputs",
          end1: { guid: dataSet },
          end2: { guid: process },
        }),
      (e: unknown) => e instanceof BadRequestError && e.status === 400,
      "ends of the wrong types",
    );
  });
});
