/**
 * The term calls of `client.glossary` over real HTTP against the emulator: terms one and many, lists,
 * related terms, updates, and assignments to entities (with the relationship GUID looked up when missing).
 */
import assert from "node:assert/strict";
import { BadRequestError, ConflictError, NotFoundError } from "../../../lib/core/errors.ts";
import { withClient } from "../../support/glossary_client.ts";

const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

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
