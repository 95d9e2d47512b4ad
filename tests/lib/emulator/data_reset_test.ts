/**
 * `POST /_emulator/reset?data=true` over real HTTP: every kind of catalog data a test can create is gone
 * (entities, relationships, glossary, created and changed types, collections, scanning resources, unified
 * catalog, the search index), what every account has stays (built-in types, the root collection), the
 * answer counts what went, and the emptied catalog takes the same names again.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { WIPED_TABLES } from "../../../lib/emulator/data_reset.ts";
import { SEARCH_TABLES } from "../../../lib/emulator/search/tables.ts";
import type { RunningEmulator } from "../../../lib/emulator/mod.ts";
import { call, DATAMAP, ok, withEmulator } from "./emulator_test_helpers.ts";

const TYPES = `${DATAMAP}/atlas/v2/types`;
const GLOSSARY = `${DATAMAP}/atlas/v2/glossary`;
const ACCOUNT_V = "api-version=2019-11-01-preview";
const SCAN_V = "api-version=2023-09-01";
const UC = "/datagovernance/catalog";
const UC_V = "api-version=2025-09-15-preview";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const ORDER_TOTAL = "ca7a1000-0000-4000-8000-000000000023";
const UNUSED_BUILTIN = "MICROSOFT.PERSONAL.IPADDRESS";

async function searchCount(emulator: RunningEmulator): Promise<number> {
  const reply = await ok(emulator, "POST", `${DATAMAP}/search/query?${SCAN_V}`, { keywords: "*" });
  return reply.body["@search.count"];
}

const CUSTOM_TYPES = {
  entityDefs: [{ name: "reset_asset", superTypes: ["DataSet"] }],
  businessMetadataDefs: [{
    name: "ResetInfo",
    attributeDefs: [{
      name: "owner",
      typeName: "string",
      isOptional: true,
      cardinality: "SINGLE",
      options: { applicableEntityTypes: '["DataSet"]', maxStrLength: "50" },
    }],
  }],
};

/** Fills every area with something a reset must remove; returns what to look up afterwards. */
async function populate(emulator: RunningEmulator) {
  await ok(emulator, "POST", `${TYPES}/typedefs`, CUSTOM_TYPES);
  await ok(emulator, "DELETE", `${TYPES}/typedef/name/${UNUSED_BUILTIN}`);
  const relationship = await ok(emulator, "POST", `${DATAMAP}/atlas/v2/relationship`, {
    typeName: "azure_sql_table_columns",
    end1: { guid: ORDERS },
    end2: { guid: ORDER_TOTAL },
  });
  const glossary = await ok(emulator, "POST", GLOSSARY, { name: "Finance" });
  await ok(emulator, "POST", `${GLOSSARY}/term`, {
    name: "Revenue",
    anchor: { glossaryGuid: glossary.body.guid },
  });
  await ok(emulator, "PATCH", `/account?${ACCOUNT_V}`, { friendlyName: "Renamed account" });
  await ok(emulator, "PUT", `/account/collections/reset-team?${ACCOUNT_V}`, {
    parentCollection: { referenceName: "emulator" },
  });
  await ok(emulator, "PUT", `/account/collections/emulator?${ACCOUNT_V}`, {
    friendlyName: "Renamed root",
    description: "changed by a test",
  });
  const source = "/scan/datasources/lake";
  await ok(emulator, "PUT", `${source}?${SCAN_V}`, {
    kind: "AzureStorage",
    properties: { endpoint: "https://lake.blob.core.windows.net/" },
  });
  await ok(emulator, "PUT", `${source}/scans/nightly?${SCAN_V}`, { kind: "AzureStorageMsi" });
  await ok(emulator, "PUT", `${source}/scans/nightly/triggers/default?${SCAN_V}`, {
    properties: { scanLevel: "Full" },
  });
  await ok(emulator, "PUT", `/scan/classificationrules/emp-id?${SCAN_V}`, {
    kind: "Custom",
    properties: { classificationName: "EMP", columnPatterns: [{ kind: "Regex", pattern: "^id$" }] },
  });
  // The policy store makes each collection's policy (the root's, the seed's three, reset-team's).
  await ok(emulator, "GET", "/policyStore/metadataPolicies?api-version=2021-07-01-preview");
  const domain = await ok(emulator, "POST", `${UC}/businessdomains?${UC_V}`, {
    name: "Finance",
    type: "functionalunit",
  });
  await ok(emulator, "PUT", `/workflow/workflows/${RESET_WORKFLOW}?${WORKFLOW_V}`, {
    name: "Term approval",
    isEnabled: true,
    triggers: [{ type: "when_term_creation_is_requested" }],
    actionDag: {
      actions: { Approve: { type: "Approval", inputs: { parameters: { assignedTo: [RESET_WORKFLOW] } } } },
    },
  });
  await ok(emulator, "POST", `/workflow/userrequests?${WORKFLOW_V}`, {
    operations: [{
      type: "CreateTerm",
      payload: { glossaryTerm: { name: "Held", anchor: { glossaryGuid: glossary.body.guid } } },
    }],
  });
  await ok(emulator, "POST", `/purviewdataquality/api/business-domains/finance/alerts`, { name: "late" });
  return { relationship: relationship.body.guid, glossary: glossary.body.guid, domain: domain.body.id };
}

const RESET_WORKFLOW = "00000000-0000-4000-8000-00000000ee01";
const WORKFLOW_V = "api-version=2023-10-01-preview";

Deno.test("reset without data=true keeps the catalog", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const before = emulator.entityCount();
    const reset = await ok(emulator, "POST", "/_emulator/reset");
    assert.deepEqual(reset.body, { status: "reset", dataCleared: false, entityCount: before });
    assert.ok(before > 0);
  });
});

Deno.test("reset with data=true empties every area and keeps what every account has", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const created = await populate(emulator);
    const entities = emulator.entityCount();
    const indexed = await searchCount(emulator);
    assert.equal(
      indexed,
      entities + 12,
      "the seed's entities, its glossary and 8 terms, the default glossary, the test's glossary and its term",
    );

    const reset = await ok(emulator, "POST", "/_emulator/reset?data=true");
    assert.equal(reset.body.status, "reset");
    assert.equal(reset.body.dataCleared, true);
    assert.equal(reset.body.entityCount, 0);
    assert.deepEqual(reset.body.kept, [
      "built-in type definitions (as shipped)",
      "root collection emulator",
      "glossary Glossary",
    ]);
    assert.deepEqual(
      reset.body.cleared,
      {
        entities,
        relationships: 1,
        glossaryRelations: 19,
        glossaryTerms: 9,
        glossaryCategories: 3,
        glossaries: 3,
        glossaryImports: 0,
        glossaryBulkDeletions: 0,
        typeDefs: 5,
        collections: 7,
        dataSources: 1,
        scans: 1,
        scanTriggers: 1,
        scanRuns: 0,
        classificationRules: 1,
        unifiedCatalog: 23,
        unifiedCatalogRelationships: 6,
        accountSettings: 1,
        metadataPolicies: 8,
        workflows: 1,
        workflowRequests: 1,
        workflowRuns: 1,
        workflowTasks: 1,
        dataQuality: 1,
      },
      "the seed's 6 collections and the test's (and their 8 metadata policies, the root's included); the " +
        "seed's glossary with 3 categories and 8 terms (8 categorizations, 11 assignments) and the test's " +
        "term; the seed's 2 business metadata definitions, 2 created types and 1 deleted built-in; the " +
        "seed's unified catalog (2 domains, 5 terms, 2 data products, 3 critical data elements, 2 objectives, " +
        "3 key results, a policy per domain and product, 6 relationships) and the test's domain and policy",
    );

    assert.equal(emulator.entityCount(), 0);
    assert.equal(await searchCount(emulator), 1, "the search index follows: the new default glossary only");
    assert.equal((await call(emulator, "GET", `${DATAMAP}/atlas/v2/entity/guid/${ORDERS}`)).status, 404);
    const relationship = `${DATAMAP}/atlas/v2/relationship/guid/${created.relationship}`;
    assert.equal((await call(emulator, "GET", relationship)).status, 404);
    const glossaries = (await ok(emulator, "GET", GLOSSARY)).body;
    assert.deepEqual(
      glossaries.map((g: { name: string }) => g.name),
      ["Glossary"],
      "a new account's glossary",
    );
    assert.equal((await call(emulator, "GET", `${GLOSSARY}/${created.glossary}`)).status, 404);

    assert.equal((await call(emulator, "GET", `${TYPES}/typedef/name/reset_asset`)).status, 404);
    assert.equal((await call(emulator, "GET", `${TYPES}/typedef/name/ResetInfo`)).status, 404);
    assert.equal((await call(emulator, "GET", `${TYPES}/typedef/name/${UNUSED_BUILTIN}`)).status, 200);
    assert.equal((await call(emulator, "GET", `${TYPES}/typedef/name/azure_sql_table`)).status, 200);

    const collections = await ok(emulator, "GET", `/account/collections?${ACCOUNT_V}`);
    assert.equal(collections.body.count, 1);
    assert.equal(collections.body.value[0].name, "emulator");
    assert.equal(collections.body.value[0].friendlyName, "govcat catalog emulator");
    assert.equal(
      collections.body.value[0].description,
      "The root collection.",
      "the root's own description again",
    );
    const account = await ok(emulator, "GET", `/account?${ACCOUNT_V}`);
    assert.equal(
      account.body.properties.friendlyName,
      "govcat catalog emulator",
      "the account's own name again",
    );

    assert.equal((await ok(emulator, "GET", `/scan/datasources?${SCAN_V}`)).body.count, 0);
    assert.equal((await ok(emulator, "GET", `/scan/classificationrules?${SCAN_V}`)).body.count, 0);
    assert.equal(
      (await call(emulator, "GET", `${UC}/businessdomains/${created.domain}?${UC_V}`)).status,
      404,
    );

    // The emptied catalog takes the same names again.
    await ok(emulator, "POST", `${TYPES}/typedefs`, CUSTOM_TYPES);
    await ok(emulator, "POST", GLOSSARY, { name: "Finance" });
    await ok(emulator, "PUT", `/account/collections/reset-team?${ACCOUNT_V}`, {
      parentCollection: { referenceName: "emulator" },
    });
    await ok(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, {
      entity: { typeName: "reset_asset", attributes: { qualifiedName: "reset://a", name: "a" } },
    });
    assert.equal(await searchCount(emulator), 3, "the new entity and glossary, and the default glossary");
  });
});

/**
 * Tables a reset leaves alone because they hold no catalog data of their own: SQLite's bookkeeping, and
 * whatever is derived from the wiped tables and kept in step with them.
 */
const NOT_CATALOG_DATA = new Set(["sqlite_sequence", "lineage_references", ...SEARCH_TABLES]);

Deno.test("every table the emulator writes is emptied by a reset or derived from one that is", async () => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-reset-" });
  try {
    const dataFile = `${dir}/catalog.db`;
    // Every area used once, so each has created its tables.
    await withEmulator({ seed: true, dataFile }, async (emulator) => {
      await populate(emulator);
      await searchCount(emulator);
    });
    const db = new DatabaseSync(dataFile);
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()
        .map((row) => String(row.name));
      assert.ok(tables.length > WIPED_TABLES.size / 2, tables.join(" "));
      const unaccounted = tables.filter((name) => !WIPED_TABLES.has(name) && !NOT_CATALOG_DATA.has(name));
      assert.deepEqual(unaccounted, [], "a new table holding catalog data must be added to the reset");
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
