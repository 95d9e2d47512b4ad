/**
 * Every `client.types` method over real HTTP against the emulator: list and headers (with category
 * filters), read by category and by any category (name and guid), create, update, delete in bulk and by
 * name, and the typed errors of refusals.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import type { AtlasTypesDef } from "../../../lib/catalog/types_definitions.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { BadRequestError, ConflictError, NotFoundError, UsageError } from "../../../lib/core/errors.ts";
import { businessMetadataTemplate } from "../../../lib/templates/business_metadata_sets.ts";

async function withClient(test: (client: CatalogClient) => Promise<void>) {
  const emulator = await startEmulator();
  const client = CatalogClient.fromConfig(
    loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url }),
    { retryBaseMs: 5 },
  );
  try {
    await test(client);
  } finally {
    await emulator.close();
  }
}

const STEWARDSHIP: AtlasTypesDef = {
  businessMetadataDefs: [{
    name: "Stewardship",
    description: "Who looks after the data",
    attributeDefs: [{
      name: "steward",
      typeName: "string",
      isOptional: true,
      cardinality: "SINGLE",
      options: { applicableEntityTypes: '["DataSet"]', maxStrLength: "100" },
    }],
  }],
};

Deno.test("types list and headers, with and without a category filter", async () => {
  await withClient(async (client) => {
    const all = await client.types.list();
    assert.ok((all.entityDefs ?? []).some((d) => d.name === "DataSet"), "built-in entity types are listed");
    assert.ok((all.classificationDefs ?? []).some((d) => d.name === "MICROSOFT.PERSONAL.EMAIL"));

    const entities = await client.types.list({ type: "ENTITY" });
    assert.ok((entities.entityDefs ?? []).length > 0);
    assert.equal((entities.classificationDefs ?? []).length, 0, "only the asked category");

    const headers = await client.types.listHeaders();
    const dataSet = headers.find((h) => h.name === "DataSet");
    assert.equal(dataSet?.category, "ENTITY");
    assert.match(dataSet?.guid ?? "", /^[0-9a-f-]{36}$/);

    const classifications = await client.types.listHeaders({
      type: "CLASSIFICATION",
      includeTermTemplate: false,
    });
    assert.ok(classifications.length > 0 && classifications.every((h) => h.category === "CLASSIFICATION"));
  });
});

Deno.test("types get by category and by any category, by name and by guid", async () => {
  await withClient(async (client) => {
    const byName = await client.types.get("entity", { name: "azure_sql_table" });
    assert.equal(byName.name, "azure_sql_table");
    assert.equal(byName.category, "ENTITY");
    assert.deepEqual(byName.superTypes, ["DataSet"]);

    const byGuid = await client.types.get("entity", { guid: byName.guid });
    assert.equal(byGuid.name, "azure_sql_table");

    const classification = await client.types.get("classification", { name: "MICROSOFT.PERSONAL.EMAIL" });
    assert.equal(classification.category, "CLASSIFICATION");
    const relationship = await client.types.get("relationship", { name: "dataset_process_inputs" });
    assert.equal(relationship.category, "RELATIONSHIP");
    assert.equal(relationship.endDef1?.type, "Process");

    const any = await client.types.getAny({ name: "DataSet" });
    assert.equal(any.category, "ENTITY");
    assert.equal((await client.types.getAny({ guid: any.guid })).name, "DataSet");

    await assert.rejects(() => client.types.get("entity", {}), UsageError);
    await assert.rejects(() => client.types.getAny({ name: "a", guid: "b" }), UsageError);
  });
});

Deno.test("types create, read, update and delete business metadata and other definitions", async () => {
  await withClient(async (client) => {
    const created = await client.types.create(STEWARDSHIP);
    const def = created.businessMetadataDefs?.[0];
    assert.equal(def?.name, "Stewardship");
    assert.equal(def?.category, "BUSINESS_METADATA");
    assert.match(def?.guid ?? "", /^[0-9a-f-]{36}$/);

    const byName = await client.types.get("businessmetadata", { name: "Stewardship" });
    assert.equal(byName.guid, def?.guid);
    const byGuid = await client.types.get("businessmetadata", { guid: def!.guid });
    assert.equal(byGuid.name, "Stewardship");

    const changed = structuredClone(STEWARDSHIP);
    changed.businessMetadataDefs![0].attributeDefs!.push({
      name: "reviewedOn",
      typeName: "date",
      isOptional: true,
      cardinality: "SINGLE",
      options: { applicableEntityTypes: '["DataSet"]' },
    });
    const updated = await client.types.update(changed);
    assert.deepEqual(updated.businessMetadataDefs?.[0].attributeDefs?.map((a) => a.name), [
      "steward",
      "reviewedOn",
    ]);
    const reread = await client.types.get("businessmetadata", { name: "Stewardship" });
    assert.equal(reread.attributeDefs?.length, 2);

    // Every shipped template is a payload the service accepts.
    for (const name of ["universal", "governance", "privacy", "quality", "data-product"]) {
      const payload = businessMetadataTemplate(name)!;
      const answer = await client.types.create(payload);
      assert.equal(answer.businessMetadataDefs?.length, 1, name);
    }

    await client.types.create({
      enumDefs: [{
        name: "Tier",
        elementDefs: [{ value: "gold", ordinal: 0 }, { value: "silver", ordinal: 1 }],
      }],
    });
    assert.equal((await client.types.get("enum", { name: "Tier" })).elementDefs?.length, 2);
    await client.types.delete("Tier");
    await assert.rejects(() => client.types.get("enum", { name: "Tier" }), NotFoundError);

    await client.types.deleteMany({ businessMetadataDefs: [{ name: "Stewardship" }] });
    await assert.rejects(() => client.types.get("businessmetadata", { name: "Stewardship" }), NotFoundError);
  });
});

Deno.test("types errors: unknown names are 404 with a code, duplicates and bad definitions are refused", async () => {
  await withClient(async (client) => {
    await assert.rejects(
      () => client.types.get("businessmetadata", { name: "NoSuchGroup" }),
      (e: unknown) => {
        assert.ok(e instanceof NotFoundError, String(e));
        assert.equal(e.status, 404);
        assert.match(e.code ?? "", /^ATLAS-404-/);
        return true;
      },
    );
    await assert.rejects(
      () => client.types.getAny({ guid: "00000000-0000-4000-8000-00000000dead" }),
      NotFoundError,
    );
    await assert.rejects(() => client.types.delete("NoSuchType"), NotFoundError);

    await client.types.create(STEWARDSHIP);
    await assert.rejects(() => client.types.create(STEWARDSHIP), (e: unknown) => {
      assert.ok(e instanceof ConflictError || e instanceof BadRequestError, String(e));
      return true;
    }, "a definition that exists already");
    await assert.rejects(
      () =>
        client.types.create({
          businessMetadataDefs: [{
            name: "Broken",
            attributeDefs: [{ name: "x", typeName: "no_such_type" }],
          }],
        }),
      (e: unknown) => {
        assert.ok(e instanceof BadRequestError || e instanceof NotFoundError, String(e));
        assert.ok(e.status === 400 || e.status === 404);
        return true;
      },
      "an attribute of an unknown type",
    );
  });
});
