/**
 * The entity writes of the `collections` group through the command line, in process, against an
 * emulator: an entity created in a collection lands there (and, written again into another, moves),
 * many are written in one call, entities are moved here by GUID; an unknown collection or entity is
 * refused and nothing is written.
 */
import assert from "node:assert/strict";
import { withCli } from "./cli_in_process.ts";

const QN = "https://exampleaccount.core.windows.net";

Deno.test("collections create-entity and create-entities write entities into the collection", async () => {
  await withCli({}, async ({ govcat, catalog, file }) => {
    await catalog.collections.createOrUpdate("sales", { parentCollection: { referenceName: "emulator" } });
    await catalog.collections.createOrUpdate("finance", { parentCollection: { referenceName: "emulator" } });
    const one = await file("one.json", {
      typeName: "azure_storage_account",
      attributes: { qualifiedName: QN, name: "exampleaccount" },
    });
    const created = await govcat(
      "collections",
      "create-entity",
      "--collection-name=Sales",
      `--payload-file=${one}`,
    );
    assert.equal(created.code, 0, created.stderr);
    const guid = created.json.mutatedEntities.CREATE[0].guid;
    assert.equal((await catalog.entity.get(guid)).entity?.collectionId, "sales");

    const again = await govcat(
      "collections",
      "create-entity",
      "--collection-name=finance",
      `--payload-file=${one}`,
    );
    assert.equal(again.json.mutatedEntities.UPDATE[0].guid, guid, "the same entity, updated");
    assert.equal((await catalog.entity.get(guid)).entity?.collectionId, "finance");

    const many = await file("many.json", {
      entities: ["a", "b"].map((name) => ({
        typeName: "azure_storage_account",
        attributes: { qualifiedName: `https://${name}.core.windows.net`, name },
      })),
    });
    const bulk = await govcat(
      "collections",
      "create-entities",
      "--collection-name=sales",
      `--payload-file=${many}`,
    );
    assert.equal(bulk.code, 0, bulk.stderr);
    for (const header of bulk.json.mutatedEntities.CREATE) {
      assert.equal((await catalog.entity.get(header.guid)).entity?.collectionId, "sales");
    }

    const unknown = await govcat(
      "collections",
      "create-entity",
      "--collection-name=nosuch",
      `--payload-file=${one}`,
    );
    assert.equal(unknown.code, 1, "an unknown collection is refused");
    assert.match(unknown.stderr, /nosuch/);
    assert.equal((await catalog.entity.get(guid)).entity?.collectionId, "finance", "and nothing moved");
    const bad = await govcat(
      "collections",
      "create-entities",
      "--collection-name=sales",
      `--payload-file=${await file("bad.json", [{}])}`,
    );
    assert.equal(bad.code, 2, "an entity without a typeName is refused before anything is sent");
  });
});

Deno.test("collections move-entities-here moves entities by GUID, all or none", async () => {
  await withCli({ seed: true }, async ({ govcat, catalog }) => {
    await catalog.collections.createOrUpdate("archive", { parentCollection: { referenceName: "emulator" } });
    const hits = await catalog.search.query({ keywords: "*", limit: 2 });
    const guids = (hits.value ?? []).map((hit) => String(hit.id));
    assert.equal(guids.length, 2);
    const moved = await govcat(
      "collections",
      "move-entities-here",
      "--collection-name=archive",
      ...guids.map((g) => `--guid=${g}`),
    );
    assert.equal(moved.code, 0, moved.stderr);
    assert.deepEqual(
      moved.json.mutatedEntities.UPDATE.map((h: { guid: string }) => h.guid).sort(),
      [...guids].sort(),
    );
    for (const guid of guids) assert.equal((await catalog.entity.get(guid)).entity?.collectionId, "archive");

    await catalog.collections.createOrUpdate("attic", { parentCollection: { referenceName: "emulator" } });
    const partly = await govcat(
      "collections",
      "move-entities-here",
      "--collection-name=attic",
      `--guid=${guids[0]}`,
      "--guid=00000000-0000-4000-8000-00000000dead",
    );
    assert.equal(partly.code, 1, "an unknown entity is refused");
    assert.equal((await catalog.entity.get(guids[0])).entity?.collectionId, "archive", "and none moves");
  });
});
