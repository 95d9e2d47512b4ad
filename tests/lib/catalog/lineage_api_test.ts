/**
 * `client.lineage` and the lineage builder over real HTTP against the emulator: reads by GUID, by unique
 * attribute and by page; recording lineage idempotently, with column mappings and extra attributes; and
 * refusing, before any write, lineage whose ends do not exist.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { createLineage, createLineageCache } from "../../../lib/catalog/lineage_builder.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";
import { NotFoundError, UsageError } from "../../../lib/core/errors.ts";

const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const MONTHLY_REVENUE = "ca7a1000-0000-4000-8000-000000000060";
const CUSTOMER_360 = "ca7a1000-0000-4000-8000-000000000061";
const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

async function withClient(test: (client: CatalogClient, emulator: RunningEmulator) => Promise<void>) {
  const emulator = await startEmulator({ seed: true });
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

function writes(emulator: RunningEmulator): string[] {
  return emulator.faults.stats().log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
}

Deno.test("createLineage: one process per lineage; running it again creates nothing", async () => {
  await withClient(async (client, emulator) => {
    const spec = {
      sources: [{ guid: ORDERS }, { guid: CUSTOMERS }],
      targets: [{ guid: MONTHLY_REVENUE }],
      processName: "revenue_rollup",
      description: "Monthly revenue from orders and customers",
    };
    const before = emulator.entityCount();
    const first = await createLineage(client, spec);
    assert.equal(first.created, true);
    assert.match(first.processGuid, /^[0-9a-f-]{36}$/);
    assert.match(first.qualifiedName, /^govcat:\/\/lineage\/revenue-rollup\/[0-9a-f]{24}$/);
    assert.equal(emulator.entityCount(), before + 1);

    // The same ends in another order are the same lineage.
    const second = await createLineage(client, { ...spec, sources: [...spec.sources].reverse() });
    assert.equal(second.created, false);
    assert.equal(second.processGuid, first.processGuid);
    assert.equal(second.qualifiedName, first.qualifiedName);
    assert.equal(emulator.entityCount(), before + 1, "no second process");

    const process = await client.entity.get(first.processGuid);
    assert.equal(process.entity.typeName, "Process");
    assert.equal(process.entity.attributes?.name, "revenue_rollup");
    const inputs = (process.entity.attributes?.inputs as Array<{ guid: string }>).map((i) => i.guid).sort();
    assert.deepEqual(inputs, [CUSTOMERS, ORDERS].sort());

    const renamed = await createLineage(client, { ...spec, processName: "another_process" });
    assert.equal(renamed.created, true, "another process name is another process");
  });
});

Deno.test("createLineage: ends by qualified name, derived name, column mappings on the process", async () => {
  await withClient(async (client) => {
    const customers = await client.entity.get(CUSTOMERS, { minExtInfo: true });
    const customersName = String(customers.entity.attributes?.qualifiedName);
    const result = await createLineage(client, {
      sources: [{ typeName: "azure_sql_table", qualifiedName: customersName }],
      targets: [{ guid: CUSTOMER_360 }],
      columnMappings: [
        { source: "FullName", target: "name" },
        { source: "Email", target: "email", sourceDataset: customersName, targetDataset: CUSTOMER_360 },
        { source: "Email", target: "email" },
      ],
    });
    const process = await client.entity.get(result.processGuid);
    assert.equal(process.entity.attributes?.name, "Customers -> Customer 360");
    const mapping = JSON.parse(String(process.entity.attributes?.columnMapping));
    assert.equal(mapping.length, 1, "one entry per pair of data sets");
    assert.equal(mapping[0].DatasetMapping.Source, customersName);
    assert.deepEqual(mapping[0].ColumnMapping, [
      { Source: "FullName", Sink: "name" },
      { Source: "Email", Sink: "email" },
    ]);

    const lineage = await client.lineage.get(CUSTOMER_360, { direction: "INPUT", depth: 1 });
    const header = lineage.guidEntityMap?.[result.processGuid];
    assert.equal(header?.attributes?.columnMapping, process.entity.attributes?.columnMapping);

    await assert.rejects(
      createLineage(client, {
        sources: [{ guid: CUSTOMERS }],
        targets: [{ guid: CUSTOMER_360 }],
        columnMappings: [{ source: "a", target: "b", sourceDataset: "not-a-source" }],
      }),
      (error) => error instanceof UsageError && /not one of the lineage's sources/.test(error.message),
    );
  });
});

Deno.test("createLineage: missing or deleted ends fail with 404 naming each, before any write", async () => {
  await withClient(async (client, emulator) => {
    await client.entity.delete(CUSTOMER_360);
    emulator.faults.reset();
    await assert.rejects(
      createLineage(client, {
        sources: [{ guid: UNKNOWN }, { guid: ORDERS }],
        targets: [{ guid: CUSTOMER_360 }, { typeName: "DataSet", qualifiedName: "dataset://nowhere" }],
      }),
      (error) => {
        assert.ok(error instanceof NotFoundError);
        assert.equal(error.status, 404);
        assert.match(error.message, new RegExp(`source ${UNKNOWN} not found`));
        assert.match(error.message, new RegExp(`target ${CUSTOMER_360} is deleted`));
        assert.match(error.message, /target DataSet "dataset:\/\/nowhere" not found/);
        return true;
      },
    );
    assert.deepEqual(writes(emulator), [], "nothing was written");
    await assert.rejects(createLineage(client, { sources: [], targets: [{ guid: ORDERS }] }), UsageError);
    await assert.rejects(
      createLineage(client, {
        sources: [{ guid: ORDERS }],
        targets: [{ guid: CUSTOMERS }],
        confidenceScore: 2,
      }),
      UsageError,
    );
  });
});

Deno.test("createLineage: extra attributes are stored where the process type defines them", async () => {
  await withClient(async (client) => {
    const plain = await createLineage(client, {
      sources: [{ guid: ORDERS }],
      targets: [{ guid: MONTHLY_REVENUE }],
      processName: "plain",
      confidenceScore: 0.9,
      owner: "finance-data",
    });
    assert.deepEqual(plain.attributesNotStored, ["confidenceScore"]);

    await client.types.create({
      entityDefs: [{
        category: "ENTITY",
        name: "scored_process",
        superTypes: ["Process"],
        attributeDefs: [
          { name: "confidenceScore", typeName: "double", isOptional: true, cardinality: "SINGLE" },
          { name: "pipeline", typeName: "string", isOptional: true, cardinality: "SINGLE" },
        ],
      }],
    });
    const cache = createLineageCache();
    const scored = await createLineage(client, {
      sources: [{ guid: ORDERS }],
      targets: [{ guid: MONTHLY_REVENUE }],
      processName: "scored",
      processType: "scored_process",
      confidenceScore: 0.75,
      extraAttributes: { pipeline: "adf-nightly", unknownThing: 1, name: "not this" },
    }, { cache });
    assert.deepEqual(scored.attributesNotStored.sort(), ["name", "unknownThing"]);
    const process = await client.entity.get(scored.processGuid);
    assert.equal(process.entity.typeName, "scored_process");
    assert.equal(process.entity.attributes?.confidenceScore, 0.75);
    assert.equal(process.entity.attributes?.pipeline, "adf-nightly");
    assert.equal(process.entity.attributes?.name, "scored");

    const lineage = await client.lineage.get(MONTHLY_REVENUE, { direction: "INPUT", depth: 1 });
    assert.ok(lineage.guidEntityMap?.[scored.processGuid], "a subtype of Process is lineage too");
  });
});

Deno.test("client.lineage: get, getByUniqueAttribute and nextPage send the contract's requests", async () => {
  await withClient(async (client, emulator) => {
    const a = await createLineage(client, {
      sources: [{ guid: CUSTOMERS }],
      targets: [{ guid: CUSTOMER_360 }],
      processName: "a",
    });
    const b = await createLineage(client, {
      sources: [{ guid: CUSTOMERS }],
      targets: [{ guid: MONTHLY_REVENUE }],
      processName: "b",
    });
    emulator.faults.reset();

    const both = await client.lineage.get(CUSTOMERS, { depth: 2, width: 5, includeParent: true });
    assert.equal(both.lineageDirection, "BOTH");
    assert.equal(both.lineageDepth, 2);
    assert.ok(both.guidEntityMap?.[a.processGuid] && both.guidEntityMap?.[b.processGuid]);

    const customers = await client.entity.get(CUSTOMERS, { minExtInfo: true });
    const byName = await client.lineage.getByUniqueAttribute(
      "azure_sql_table",
      String(customers.entity.attributes?.qualifiedName),
      { direction: "OUTPUT", depth: 1 },
    );
    assert.equal(byName.baseEntityGuid, CUSTOMERS);
    // a and b, and the seed's copy of Customers to the raw lake: each an input and an output edge.
    assert.equal(byName.relations?.length, 6);

    // The seed's copy activity, a, b: in the order they were stored.
    const page = await client.lineage.nextPage(CUSTOMERS, { direction: "OUTPUT", offset: 2, limit: 1 });
    assert.equal(page.childrenCount, 3);
    assert.equal(page.lineageWidth, 1);
    assert.ok(page.guidEntityMap?.[b.processGuid], "the third neighbour is on the third page");

    const paths = emulator.faults.stats().log.map((e) => e.path);
    assert.deepEqual(paths, [
      `/datamap/api/atlas/v2/lineage/${CUSTOMERS}`,
      `/datamap/api/atlas/v2/entity/guid/${CUSTOMERS}`,
      "/datamap/api/atlas/v2/lineage/uniqueAttribute/type/azure_sql_table",
      `/datamap/api/lineage/${CUSTOMERS}/next`,
    ]);

    await assert.rejects(client.lineage.get(UNKNOWN), NotFoundError);
    const http = client.http.url({ path: "/datamap/api/lineage/x/next" });
    assert.ok(http.searchParams.has("api-version"));
  });
});
