/**
 * Every `client.glossary` method over real HTTP against the emulator: glossaries, categories, terms,
 * assignments (with the relationship GUID looked up when missing), the CSV import polled to the end, and
 * the typed errors of refusals.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import type { ImportCsvOperation } from "../../../lib/catalog/glossary_types.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";
import { BadRequestError, ConflictError, NotFoundError, TimeoutError } from "../../../lib/core/errors.ts";
import { json, startLocalServer } from "../../support/local_server.ts";

const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
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

Deno.test("glossary client: glossaries — create, list, get, detailed, update, partial update, delete", async () => {
  await withClient(async (client) => {
    const api = client.glossary;
    const finance = await api.create({ name: "Finance", usage: "Reporting" });
    await api.create({ name: "Banking" });
    assert.equal(finance.qualifiedName, "Finance");
    // Beside the glossary "Glossary" every new account has and the seed's "Retail Glossary".
    assert.deepEqual((await api.list({ limit: 1, sort: "DESC" })).map((g) => g.name), ["Retail Glossary"]);
    assert.deepEqual((await api.list({ offset: 1 })).map((g) => g.name), [
      "Finance",
      "Glossary",
      "Retail Glossary",
    ]);
    assert.equal((await api.get(finance.guid!)).usage, "Reporting");
    assert.deepEqual((await api.getDetailed(finance.guid!)).termInfo, {});
    const updated = await api.update(finance.guid!, { name: "Finance", language: "en" });
    assert.equal(updated.language, "en");
    assert.equal(updated.usage, undefined);
    assert.equal((await api.partialUpdate(finance.guid!, { usage: "Audit" })).usage, "Audit");
    await assert.rejects(api.create({ name: "Banking" }), ConflictError);
    await api.delete(finance.guid!);
    await assert.rejects(api.get(finance.guid!), NotFoundError);
  });
});

Deno.test("glossary client: categories — one and many, read, related, terms, headers, update, delete", async () => {
  await withClient(async (client) => {
    const api = client.glossary;
    // The glossary every new account has.
    const glossaryGuid = (await api.list()).find((g) => g.name === "Glossary")!.guid!;
    const term = await api.createTerm({ name: "Revenue", anchor: { glossaryGuid } });
    const top = await api.createCategory({ name: "Finance", anchor: { glossaryGuid } });
    const [child, other] = await api.createCategories([
      { name: "KPIs", anchor: { glossaryGuid }, parentCategory: { categoryGuid: top.guid } },
      { name: "Tax", anchor: { glossaryGuid }, terms: [{ termGuid: term.guid }] },
    ]);
    assert.equal(child.qualifiedName, "KPIs.Finance@Glossary");
    assert.equal((await api.getCategory(top.guid!)).childrenCategories?.[0].categoryGuid, child.guid);
    assert.equal((await api.getCategoryRelated(child.guid!)).parent[0].categoryGuid, top.guid);
    assert.deepEqual((await api.getCategoryTerms(other.guid!)).map((t) => t.termGuid), [term.guid]);
    assert.deepEqual((await api.listCategories(glossaryGuid, { sort: "DESC" })).map((c) => c.name), [
      "Tax",
      "KPIs",
      "Finance",
    ]);
    assert.equal((await api.listCategoryHeaders(glossaryGuid, { limit: 1 }))[0].displayText, "Finance");
    const renamed = await api.updateCategory(other.guid!, {
      name: "Taxes",
      terms: [{ termGuid: term.guid }],
    });
    assert.equal(renamed.name, "Taxes");
    assert.equal(renamed.terms?.length, 1);
    assert.equal(
      (await api.partialUpdateCategory(other.guid!, { shortDescription: "s" })).shortDescription,
      "s",
    );
    await api.deleteCategory(other.guid!);
    await assert.rejects(api.getCategory(other.guid!), NotFoundError);
    await assert.rejects(api.createCategory({ name: "No anchor" }), BadRequestError);
  });
});

Deno.test("glossary client: terms — create, bulk, read, lists, related, update, partial, delete", async () => {
  await withClient(async (client) => {
    const api = client.glossary;
    const glossaryGuid = (await api.create({ name: "Finance" })).guid!;
    const revenue = await api.createTerm({ name: "Revenue", anchor: { glossaryGuid }, status: "Approved" });
    const [income, child] = await api.createTerms([
      { name: "Income", anchor: { glossaryGuid }, synonyms: [{ termGuid: revenue.guid }] },
      { name: "Net revenue", anchor: { glossaryGuid }, hierarchyInfo: [{ guid: revenue.guid }] },
    ], { includeTermHierarchy: true });
    assert.equal(child.hierarchyInfo?.[0].guid, revenue.guid);
    assert.equal((await api.getTerm(revenue.guid!)).synonyms?.[0].termGuid, income.guid);
    assert.equal((await api.getTerm(child.guid!, { includeTermHierarchy: true })).hierarchyInfo?.length, 1);
    assert.deepEqual(Object.keys(await api.getRelatedTerms(income.guid!)), ["synonyms"]);
    assert.deepEqual((await api.listTerms(glossaryGuid, { limit: 2, extInfo: true })).map((t) => t.name), [
      "Income",
      "Net revenue",
    ]);
    assert.deepEqual((await api.listTermHeaders(glossaryGuid, { offset: 2 })).map((h) => h.displayText), [
      "Revenue",
    ]);
    const updated = await api.updateTerm(income.guid!, { name: "Income", longDescription: "All income" });
    assert.equal(updated.synonyms, undefined, "a full update without synonyms removes them");
    assert.equal((await api.partialUpdateTerm(income.guid!, { status: "Alert" })).status, "Alert");
    await assert.rejects(api.createTerm({ name: "Revenue", anchor: { glossaryGuid } }), ConflictError);
    await api.deleteTerm(income.guid!);
    await assert.rejects(api.getTerm(income.guid!, AbortSignal.timeout(5000)), NotFoundError);
  });
});

Deno.test("glossary client: assign, list assigned entities, remove with and without relationship guids", async () => {
  await withClient(async (client) => {
    const api = client.glossary;
    const glossaryGuid = (await api.create({ name: "Finance" })).guid!;
    const term = (await api.createTerm({ name: "Revenue", anchor: { glossaryGuid } })).guid!;
    await api.assignTermToEntities(term, [{ guid: CUSTOMERS }, { guid: ORDERS }]);
    await api.assignTermToEntities(term, [{ guid: CUSTOMERS }]);
    const assigned = await api.getTermAssignedEntities(term, { sort: "ASC" });
    assert.deepEqual(assigned.map((e) => e.displayText), ["Customers", "Orders"]);
    // Beside the seed's term Customer.
    const meanings = (await client.entity.getHeader(CUSTOMERS)).meaningNames ?? [];
    assert.deepEqual(meanings.toSorted(), ["Customer", "Revenue"]);
    await assert.rejects(api.assignTermToEntities(term, [{ guid: UNKNOWN }]), NotFoundError);
    await assert.rejects(api.deleteTerm(term), BadRequestError);

    const removal = await api.removeTermFromEntities(term, [{ guid: CUSTOMERS }, { guid: UNKNOWN }]);
    assert.deepEqual(removal.removed.map((r) => r.guid), [CUSTOMERS]);
    assert.match(String(removal.removed[0].relationshipGuid), /^[0-9a-f-]{36}$/);
    assert.deepEqual(removal.notAssigned, [UNKNOWN]);
    // GUIDs are matched in any letter case; the service's spelling is sent.
    const upper = await api.removeTermFromEntities(term, [{ guid: ORDERS.toUpperCase() }]);
    assert.deepEqual(upper.removed.map((r) => r.guid), [ORDERS]);
    assert.deepEqual(upper.notAssigned, []);
    await api.assignTermToEntities(term, [{ guid: ORDERS }]);
    const orders = (await api.getTermAssignedEntities(term))[0];
    const direct = await api.removeTermFromEntities(term, [orders]);
    assert.deepEqual(direct, { removed: [orders], notAssigned: [] });
    assert.deepEqual(await api.getTermAssignedEntities(term), []);
  });
});

Deno.test("glossary client: the CSV import, polled to the end with progress, and its failures", async () => {
  await withClient(async (client, emulator) => {
    const api = client.glossary;
    const glossaryGuid = (await api.create({ name: "Finance" })).guid!;
    const seen: ImportCsvOperation[] = [];
    const done = await api.importTermsAndWait(
      glossaryGuid,
      new TextEncoder().encode("Name,Status,Definition\nRevenue,Approved,Money in\nCost,,\n"),
      "terms.csv",
      { pollMs: 30, onProgress: (op) => seen.push(op) },
    );
    assert.equal(done.status, "Succeeded");
    assert.equal(done.properties?.importedTerms, "2");
    assert.equal(seen[0].status, "Running", "the 202 body, as the service answers");
    assert.ok(seen.length >= 2);
    assert.equal((await api.getImportStatus(done.id)).status, "Succeeded");
    assert.equal((await api.listTermHeaders(glossaryGuid)).length, 2);
    const requests = emulator.faults.stats().log.filter((r) => r.path.includes("/terms/import"));
    assert.ok(requests.every((r) => r.path.startsWith("/catalog/api/glossary/")), "the catalog API's paths");

    const failed = await api.importTermsAndWait(glossaryGuid, "Name,Status\nX,Bogus\n", "terms.csv", {
      pollMs: 30,
    });
    assert.equal(failed.status, "Failed");
    assert.match(String(failed.error?.errorMessage), /line 2/);

    const started = await api.importTerms(glossaryGuid, "Name\nLate\n", "late.csv");
    assert.equal(started.status, "Running");
    await assert.rejects(
      api.importTermsAndWait(glossaryGuid, "Name\nSlow\n", "slow.csv", { pollMs: 20, timeoutMs: 30 }),
      (error: unknown) =>
        error instanceof TimeoutError && /read-terms-import --operation-id=/.test(String(error.hint)),
    );
    await assert.rejects(api.getImportStatus(UNKNOWN), NotFoundError);
    await assert.rejects(api.importTerms(glossaryGuid, "Definition\nx\n", "terms.csv"), BadRequestError);
  });
});

/**
 * The two ways the service has named an accepted import (Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/{node,browsers}/purview_catalog_glossary_test/recording_should_work_with_lro_helper.json):
 * the operation in the 202 body, and an Operation-Location whose query is escaped into the path
 * (`…/{id}%3Fapi-version=…`). The client follows either to the end.
 */
Deno.test("glossary client: follows an import named by its 202 body or by an escaped Operation-Location", async () => {
  const id = "e01a8dc9-4e8c-46a3-b8de-44af690609ac";
  const operation = (status: string) => ({
    id,
    status,
    createTime: "2023-03-14T08:03:32.774+0000",
    taskPickUpTime: null,
    lastUpdateTime: "2023-03-14T08:03:32.774+0000",
    properties: { importedTerms: "0", totalTermsDetected: status === "Running" ? "-1" : "0" },
    error: { errorCode: 0, errorMessage: "" },
    progress: { status: null, statistics: null },
  });
  for (const named of ["body", "header"]) {
    let polls = 0;
    const server = startLocalServer((request) => {
      if (request.method === "POST") {
        const location =
          `${server.url}/catalog/api/glossary/terms/import/${id}%3Fapi-version=2022-03-01-preview`;
        const headers = { "operation-location": location };
        return named === "body" ? json(202, operation("Running"), headers) : new Response(null, {
          status: 202,
          headers,
        });
      }
      polls++;
      return json(200, operation(polls < 2 ? "Running" : "Succeeded"));
    });
    try {
      const client = CatalogClient.fromConfig(
        loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: server.url }),
        { retryBaseMs: 5 },
      );
      const done = await client.glossary.importTermsAndWait(UNKNOWN, "Name\nA\n", "terms.csv", { pollMs: 5 });
      assert.equal(done.status, "Succeeded", named);
      const statusReads = server.requests.filter((r) => r.method === "GET");
      assert.ok(statusReads.length >= 1, named);
      assert.ok(statusReads.every((r) => r.path === `/catalog/api/glossary/terms/import/${id}`), named);
    } finally {
      await server.close();
    }
  }
});
