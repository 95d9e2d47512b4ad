/**
 * Every `client.entity` method over real HTTP against the emulator: reads, partial updates, deletes,
 * classifications, labels, business metadata (per entity and by CSV import), moves between collections,
 * and the mapping of the service's errors to typed errors.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import type { AtlasEntity } from "../../../lib/catalog/atlas_model.ts";
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

const SERVER = "mssql://api-test.database.windows.net/SalesDb/dbo";

function table(name: string, extra: Partial<AtlasEntity> = {}): AtlasEntity {
  return {
    typeName: "azure_sql_table",
    attributes: { qualifiedName: `${SERVER}/${name}`, name, description: `The ${name} table` },
    ...extra,
  };
}

/** Creates tables and returns their guids, in order. */
async function createTables(client: CatalogClient, ...names: string[]): Promise<string[]> {
  const result = await client.entity.createOrUpdateMany(names.map((name) => table(name)));
  const created = result.mutatedEntities?.CREATE ?? [];
  return names.map((name) => {
    const header = created.find((h) => h.attributes?.qualifiedName === `${SERVER}/${name}`);
    assert.ok(header?.guid, `${name} was created`);
    return header.guid;
  });
}

const UNKNOWN_GUID = "00000000-0000-4000-8000-00000000dead";

Deno.test("entity reads: get, header, by unique attribute, many by guid and by qualified name", async () => {
  await withClient(async (client) => {
    const [customers, orders] = await createTables(client, "Customers", "Orders");

    const one = await client.entity.get(customers, { ignoreRelationships: true });
    assert.equal(one.entity.guid, customers);
    assert.equal(one.entity.attributes?.name, "Customers");

    const header = await client.entity.getHeader(orders);
    assert.equal(header.guid, orders);
    assert.equal(header.typeName, "azure_sql_table");
    assert.equal(header.attributes?.qualifiedName, `${SERVER}/Orders`);
    assert.equal(header.status, "ACTIVE");

    const byName = await client.entity.getByUniqueAttribute("azure_sql_table", `${SERVER}/Orders`);
    assert.equal(byName.entity.guid, orders);

    const many = await client.entity.getMany([customers, orders], { minExtInfo: true });
    assert.deepEqual(many.entities.map((e) => e.guid).sort(), [customers, orders].sort());

    const byNames = await client.entity.listByUniqueAttributes("azure_sql_table", [
      `${SERVER}/Customers`,
      `${SERVER}/Orders`,
    ]);
    assert.deepEqual(byNames.entities.map((e) => e.guid).sort(), [customers, orders].sort());
  });
});

Deno.test("entity partial updates: one attribute by guid, attributes by unique attribute", async () => {
  await withClient(async (client) => {
    const [guid] = await createTables(client, "Invoices");

    const text = await client.entity.partialUpdateAttribute(guid, "description", "Invoices per customer");
    assert.ok(JSON.stringify(text.mutatedEntities).includes(guid), "the answer names the entity");
    assert.equal((await client.entity.get(guid)).entity.attributes?.description, "Invoices per customer");

    await client.entity.partialUpdateAttribute(guid, "owner", "finance-data");
    assert.equal((await client.entity.get(guid)).entity.attributes?.owner, "finance-data");

    const result = await client.entity.partialUpdateByUniqueAttribute(
      "azure_sql_table",
      `${SERVER}/Invoices`,
      {
        entity: { typeName: "azure_sql_table", attributes: { description: "All invoices" } },
      },
    );
    assert.ok(JSON.stringify(result).includes(guid));
    const after = (await client.entity.get(guid)).entity.attributes;
    assert.equal(after?.description, "All invoices");
    assert.equal(after?.owner, "finance-data", "other attributes stay");
  });
});

Deno.test("entity classifications by guid, by unique attribute and in bulk", async () => {
  await withClient(async (client) => {
    const [customers, orders] = await createTables(client, "Customers", "Orders");
    const email = "MICROSOFT.PERSONAL.EMAIL";
    const name = "MICROSOFT.PERSONAL.NAME";

    await client.entity.classify("add", { guid: customers }, [{ typeName: email }]);
    const listed = await client.entity.getClassifications(customers);
    assert.deepEqual(listed.list?.map((c) => c.typeName), [email]);
    assert.equal(listed.totalCount, 1);
    assert.equal((await client.entity.getClassification(customers, email)).typeName, email);

    await client.entity.classify("update", { guid: customers }, [{ typeName: email, propagate: false }]);
    await client.entity.removeClassification({ guid: customers }, email);
    assert.deepEqual((await client.entity.getClassifications(customers)).list ?? [], []);

    const qualifiedName = `${SERVER}/Customers`;
    const byName = { typeName: "azure_sql_table", qualifiedName };
    await client.entity.classify("add", byName, [{ typeName: name }]);
    await client.entity.classify("update", byName, [{ typeName: name }]);
    assert.deepEqual((await client.entity.getHeader(customers)).classificationNames, [name]);
    await client.entity.removeClassification(byName, name);
    assert.deepEqual((await client.entity.getClassifications(customers)).list ?? [], []);

    await client.entity.addClassificationToEntities({ typeName: email }, [customers, orders]);
    for (const guid of [customers, orders]) {
      assert.deepEqual((await client.entity.getClassifications(guid)).list?.map((c) => c.typeName), [email]);
    }

    const lines = await client.entity.setClassifications({
      [orders]: {
        typeName: "azure_sql_table",
        attributes: { qualifiedName: `${SERVER}/Orders` },
        classifications: [{ typeName: name }],
      },
    });
    assert.ok(Array.isArray(lines) && lines.length >= 1, "one line per change");
    assert.ok(
      (await client.entity.getClassifications(orders)).list?.some((c) => c.typeName === name),
      "the set classification is on the entity",
    );
  });
});

Deno.test("entity labels: append, replace, remove, by guid and by unique attribute", async () => {
  await withClient(async (client) => {
    const [guid] = await createTables(client, "Products");
    const labelsOf = async () => ((await client.entity.get(guid)).entity.labels ?? []).toSorted();

    await client.entity.label("add", { guid }, ["finance", "gold"]);
    assert.deepEqual(await labelsOf(), ["finance", "gold"]);
    await client.entity.label("set", { guid }, ["silver"]);
    assert.deepEqual(await labelsOf(), ["silver"]);
    await client.entity.label("remove", { guid }, ["silver"]);
    assert.deepEqual(await labelsOf(), []);

    const qualifiedName = `${SERVER}/Products`;
    const byName = { typeName: "azure_sql_table", qualifiedName };
    await client.entity.label("add", byName, ["a", "b"]);
    assert.deepEqual(await labelsOf(), ["a", "b"]);
    await client.entity.label("set", byName, ["c", "a"]);
    assert.deepEqual(await labelsOf(), ["a", "c"]);
    await client.entity.label("remove", byName, ["a"]);
    assert.deepEqual(await labelsOf(), ["c"]);
  });
});

Deno.test("entity business metadata: groups, attributes, overwrite, CSV import and its template", async () => {
  await withClient(async (client) => {
    await client.types.create({
      businessMetadataDefs: [{
        name: "ApiGovernance",
        attributeDefs: [
          {
            name: "dataOwner",
            typeName: "string",
            isOptional: true,
            cardinality: "SINGLE",
            options: { applicableEntityTypes: '["DataSet"]', maxStrLength: "100" },
          },
          {
            name: "retentionDays",
            typeName: "int",
            isOptional: true,
            cardinality: "SINGLE",
            options: { applicableEntityTypes: '["DataSet"]' },
          },
        ],
      }],
    });
    const [guid] = await createTables(client, "Ledger");
    const bmOf = async () => (await client.entity.get(guid)).entity.businessAttributes ?? {};

    await client.entity.addOrUpdateBusinessMetadata(guid, { ApiGovernance: { dataOwner: "finance" } });
    assert.deepEqual(await bmOf(), { ApiGovernance: { dataOwner: "finance" } });

    await client.entity.addOrUpdateBusinessMetadataAttributes(guid, "ApiGovernance", { retentionDays: 30 });
    assert.deepEqual(await bmOf(), { ApiGovernance: { dataOwner: "finance", retentionDays: 30 } });

    await client.entity.addOrUpdateBusinessMetadata(guid, { ApiGovernance: { retentionDays: 90 } }, {
      isOverwrite: true,
    });
    assert.deepEqual(await bmOf(), { ApiGovernance: { retentionDays: 90 } }, "overwrite replaces");

    await client.entity.removeBusinessMetadataAttributes(guid, "ApiGovernance", { retentionDays: null });
    assert.deepEqual((await bmOf()).ApiGovernance ?? {}, {});

    await client.entity.addOrUpdateBusinessMetadata(guid, { ApiGovernance: { dataOwner: "sales" } });
    await client.entity.removeBusinessMetadata(guid, { ApiGovernance: { dataOwner: "sales" } });
    assert.deepEqual((await bmOf()).ApiGovernance ?? {}, {});

    const template = await client.entity.getBusinessMetadataTemplate();
    assert.match(
      template,
      /^EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue/,
    );

    const csv = "EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue\n" +
      `azure_sql_table,${SERVER}/Ledger,ApiGovernance.dataOwner,treasury\n`;
    const imported = await client.entity.importBusinessMetadata(csv, "bm.csv");
    assert.equal(imported.successImportInfoList?.length, 1, JSON.stringify(imported));
    assert.deepEqual((await bmOf()).ApiGovernance, { dataOwner: "treasury" });

    const bytes = new TextEncoder().encode(
      "EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue\n" +
        `azure_sql_table,${SERVER}/Nowhere,ApiGovernance.dataOwner,x\n`,
    );
    const failed = await client.entity.importBusinessMetadata(bytes, "bm.csv");
    assert.equal(failed.failedImportInfoList?.length, 1, "an unknown entity is a failed row");
  });
});

Deno.test("entity deletes and moves: by unique attribute, many, one (soft delete), move to collection", async () => {
  await withClient(async (client) => {
    const [a, b, c, d] = await createTables(client, "A", "B", "C", "D");

    const moved = await client.entity.moveToCollection("finance", [a, b]);
    assert.ok(JSON.stringify(moved).includes(a));
    assert.equal((await client.entity.get(a)).entity.collectionId, "finance");

    const byName = await client.entity.deleteByUniqueAttribute("azure_sql_table", `${SERVER}/A`);
    assert.equal(byName.mutatedEntities?.DELETE?.[0].guid, a);
    const many = await client.entity.deleteMany([b, c]);
    assert.deepEqual(many.mutatedEntities?.DELETE?.map((h) => h.guid).sort(), [b, c].sort());
    const one = await client.entity.delete(d);
    assert.equal(one.mutatedEntities?.DELETE?.[0].guid, d);
    assert.equal((await client.entity.get(d)).entity.status, "DELETED", "a deleted entity is kept, marked");
  });
});

Deno.test("entity errors map to typed errors: 404 with the service's code, 400 for bad input", async () => {
  await withClient(async (client) => {
    const [guid] = await createTables(client, "Errors");
    const notFound = [
      () => client.entity.get(UNKNOWN_GUID),
      () => client.entity.getHeader(UNKNOWN_GUID),
      () => client.entity.getClassifications(UNKNOWN_GUID),
      () => client.entity.label("add", { guid: UNKNOWN_GUID }, ["x"]),
      () => client.entity.addOrUpdateBusinessMetadata(UNKNOWN_GUID, { ApiGovernance: { dataOwner: "x" } }),
      () => client.entity.partialUpdateAttribute(UNKNOWN_GUID, "description", "x"),
      () => client.entity.getByUniqueAttribute("azure_sql_table", `${SERVER}/Missing`),
    ];
    for (const call of notFound) {
      await assert.rejects(call, (e: unknown) => {
        assert.ok(e instanceof NotFoundError, String(e));
        assert.equal(e.status, 404);
        assert.match(e.code ?? "", /^ATLAS-404-/);
        assert.match(e.hint ?? "", /search/);
        return true;
      });
    }
    await assert.rejects(
      () => client.entity.getClassification(guid, "MICROSOFT.PERSONAL.EMAIL"),
      (e: unknown) => e instanceof NotFoundError && e.status === 404,
    );
    await assert.rejects(() => client.entity.label("add", { guid }, ["has space"]), (e: unknown) => {
      assert.ok(e instanceof BadRequestError, String(e));
      assert.equal(e.status, 400);
      return true;
    });
    await client.entity.classify("add", { guid }, [{ typeName: "MICROSOFT.PERSONAL.EMAIL" }]);
    await assert.rejects(
      () => client.entity.classify("add", { guid }, [{ typeName: "MICROSOFT.PERSONAL.EMAIL" }]),
      (e: unknown) => e instanceof BadRequestError && e.status === 400,
      "a classification the entity carries already",
    );
  });
});
