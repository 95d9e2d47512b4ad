/**
 * The built-in sample catalog (`--seed`) over real HTTP: three hops of column-level lineage from a SQL
 * table to a Power BI dataset, a glossary with categories and assigned terms, business metadata values, a
 * collection tree and two unified-catalog domains with terms, data products, critical data elements,
 * objectives and key results. And the seed file's checks: every mistake is named with its place.
 */
import assert from "node:assert/strict";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { readSeedAreas } from "../../../lib/emulator/seed_areas.ts";
import { call, withEmulator } from "./emulator_test_helpers.ts";

const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const POWER_BI_DATASET = "ca7a1000-0000-4000-8000-000000000081";
const UC = "/datagovernance/catalog";
const ONE_DATASET = { qualifiedName: "seed://one", name: "one" };

Deno.test("the seed's lineage runs three process hops from Orders to the Power BI dataset", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const lineage = await call(
      emulator,
      "GET",
      `/datamap/api/atlas/v2/lineage/${ORDERS}?direction=OUTPUT&depth=6`,
    );
    assert.equal(lineage.status, 200);
    const nodes = lineage.body.guidEntityMap as Record<string, { typeName: string }>;
    assert.ok(POWER_BI_DATASET in nodes, "the Power BI dataset is downstream of Orders");
    const processes = Object.values(nodes).filter((node) =>
      ["adf_copy_activity", "adf_executeDataFlow_activity", "Process"].includes(node.typeName)
    );
    assert.equal(processes.length, 3);
    assert.equal(Object.keys(nodes).length, 7);
    const copy = await call(
      emulator,
      "GET",
      "/datamap/api/atlas/v2/entity/guid/ca7a1000-0000-4000-8000-000000000092",
    );
    const mapping = JSON.parse(copy.body.entity.attributes.columnMapping);
    assert.deepEqual(mapping[0].ColumnMapping[0], { Source: "OrderId", Sink: "OrderId" });
  });
});

Deno.test("the seed's glossary, business metadata and collection tree are loaded", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const glossaries = await call(emulator, "GET", "/datamap/api/atlas/v2/glossary");
    assert.deepEqual(glossaries.body.map((g: { name: string }) => g.name), ["Glossary", "Retail Glossary"]);
    const [account, retail] = glossaries.body;
    assert.equal(account.terms, undefined, "the account's default glossary stays as a new account has it");
    assert.equal(retail.terms.length, 8);
    assert.equal(retail.categories.length, 3);
    const customers = await call(emulator, "GET", `/datamap/api/atlas/v2/entity/guid/${CUSTOMERS}`);
    assert.equal(customers.body.entity.businessAttributes.Compliance.dataResidency, "EU");
    assert.deepEqual(
      customers.body.entity.meanings.map((m: { displayText: string }) => m.displayText),
      ["Customer"],
    );
    const path = await call(
      emulator,
      "GET",
      "/account/collections/sales-insights/getCollectionPath?api-version=2019-11-01-preview",
    );
    assert.deepEqual(path.body.parentFriendlyNameChain.length, 2);
  });
});

Deno.test("the seed's unified catalog has two domains with terms, products, CDEs, objectives and key results", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const list = async (path: string) =>
      (await call(emulator, "GET", `${UC}/${path}`)).body.value as unknown[];
    assert.equal((await list("businessdomains")).length, 2);
    assert.equal((await list("terms")).length, 5);
    assert.equal((await list("dataProducts")).length, 2);
    assert.equal((await list("criticalDataElements")).length, 3);
    const objectives = await list("objectives") as Array<{ id: string }>;
    assert.equal(objectives.length, 2);
    assert.equal((await list(`objectives/${objectives[0].id}/keyResults`)).length > 0, true);
  });
});

Deno.test("a seed file's mistakes are named with their place", () => {
  assert.throws(
    () => readSeedAreas({ entities: [], glosary: {} }, "s.json"),
    /s\.json: "glosary" is not a seed section/,
  );
  assert.throws(
    () =>
      readSeedAreas(
        { glossary: { categories: [{ name: "A" }], terms: [{ name: "t", categories: ["B"] }] } },
        "s",
      ),
    /glossary\.terms\[0\]\.categories\[0\] names 'B', which glossary\.categories does not define/,
  );
  assert.throws(
    () => readSeedAreas({ collections: [{ name: "x" }] }, "s"),
    /collections\[0\]\.parentCollection must be/,
  );
  assert.throws(
    () => readSeedAreas({ unifiedCatalog: { domains: {}, terms: [] } }, "s"),
    /unifiedCatalog\.domains must be an array/,
  );
  assert.throws(
    () => readSeedAreas({ unifiedCatalog: { relationships: [{ from: "domains", id: "x" }] } }, "s"),
    /unifiedCatalog\.relationships\[0\]\.from 'domains' is not one of/,
  );
});

Deno.test("a seed file with other sections needs an entity, which tells its first use", async () => {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(file, JSON.stringify({ entities: [], glossary: { terms: [] } }));
    await assert.rejects(
      () => startEmulator({ seed: file }),
      /"glossary" need at least one entity in "entities"; the emulator seeds on first use only/,
    );
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("an entry the emulator refuses stops the start with the entry's place", async () => {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  try {
    const seed = {
      entities: [{
        guid: "0e0e0e0e-0000-4000-8000-000000000001",
        typeName: "DataSet",
        attributes: ONE_DATASET,
      }],
      unifiedCatalog: { domains: [{ name: "Sales" }], terms: [{ name: "Orphan", domain: "not-a-domain" }] },
    };
    await Deno.writeTextFile(file, JSON.stringify(seed));
    await assert.rejects(
      () => startEmulator({ seed: file }),
      (error: Error) => {
        assert.match(
          error.message,
          new RegExp(`seed file ${file}: unifiedCatalog\\.terms\\[0\\] was refused`),
        );
        return true;
      },
    );
  } finally {
    await Deno.remove(file);
  }
});
