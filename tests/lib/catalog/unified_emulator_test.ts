/**
 * The 48 unified catalog operations through `UnifiedCatalogClient` against the emulator
 * (`/datagovernance/catalog`): each kind's create, get, update, delete and list, the searches, facets,
 * the term hierarchy, policies and relationships.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config/config.ts";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { NotFoundError } from "../../../lib/core/errors.ts";
import { UnifiedCatalogClient } from "../../../lib/catalog/unified_api.ts";

const OWNER = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";

async function withClient(test: (client: UnifiedCatalogClient) => Promise<void>) {
  const emulator = await startEmulator({ seed: true });
  try {
    const url = emulator.url;
    const config = loadConfig({
      CATALOG_ACCOUNT_NAME: "emulator",
      CATALOG_ENDPOINT: url,
      CATALOG_UNIFIED_ENDPOINT: url,
    });
    await test(UnifiedCatalogClient.fromConfig(config, { retryBaseMs: 1 }));
  } finally {
    await emulator.close();
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

Deno.test("unified emulator: domains create, get, update, list and delete", async () => {
  await withClient(async (client) => {
    const domain = await client.domains.create({ name: "Finance", type: "functionalunit", status: "draft" });
    assert.equal(domain.type, "FunctionalUnit");
    assert.equal((await client.domains.get(domain.id)).name, "Finance");
    const updated = await client.domains.update(domain.id, { description: "Money" }, { merge: true });
    assert.equal(updated.description, "Money");
    assert.equal(updated.name, "Finance");
    assert.ok((await collect(client.domains.list())).some((each) => each.id === domain.id));
    await client.domains.delete(domain.id);
    await assert.rejects(client.domains.get(domain.id), NotFoundError);
  });
});

Deno.test("unified emulator: terms CRUD, query, count, facets and hierarchy", async () => {
  await withClient(async (client) => {
    const domain = await client.domains.create({ name: "Sales", type: "LineOfBusiness" });
    const parent = await client.terms.create({
      name: "Revenue",
      status: "published",
      domain: domain.id,
      contacts: { owner: [{ id: OWNER }] },
    });
    assert.equal(parent.status, "PUBLISHED");
    const child = await client.terms.create({
      name: "Net revenue",
      status: "Draft",
      domain: domain.id,
      parentId: parent.id,
    });
    assert.equal((await client.terms.get(child.id)).parentId, parent.id);
    const renamed = await client.terms.update(child.id, { name: "Net revenue (EUR)" }, { merge: true });
    assert.equal(renamed.name, "Net revenue (EUR)");
    const listed = await collect(client.terms.list({ domainId: domain.id }));
    assert.deepEqual(listed.map((term) => term.id).sort(), [parent.id, child.id].sort());
    const found = await client.terms.query({ domainIds: [domain.id], status: "published" });
    assert.deepEqual(found.value.map((term) => term.id), [parent.id]);
    assert.equal((await client.terms.count({ nameKeyword: "Revenue" })).count >= 1, true);
    const facets = await client.terms.facets({ domainIds: [domain.id], facets: [{ name: "status" }] });
    assert.ok(facets.facets?.status, `facets answer: ${JSON.stringify(facets)}`);
    const hierarchy = await client.terms.hierarchy(child.id);
    assert.ok(
      JSON.stringify(hierarchy).includes(parent.id),
      `hierarchy answer: ${JSON.stringify(hierarchy)}`,
    );
    await client.terms.delete(child.id);
    await assert.rejects(client.terms.get(child.id), NotFoundError);
  });
});

Deno.test("unified emulator: term relationships, and the generic list of related entities", async () => {
  await withClient(async (client) => {
    const domain = await client.domains.create({ name: "Ops", type: "Project" });
    const one = await client.terms.create({ name: "Customer", status: "draft", domain: domain.id });
    const two = await client.terms.create({ name: "Client", status: "draft", domain: domain.id });
    const link = await client.terms.createRelationship(one.id, {
      entityId: two.id,
      relationshipType: "synonym",
    }, {
      entityType: "term",
    });
    assert.equal(link.entityId, two.id);
    const related = await collect(client.relationships.list("terms", one.id, { entityType: "TERM" }));
    assert.deepEqual(related.map((each) => [each.entityId, each.relationshipType]), [[two.id, "Synonym"]]);
    await client.terms.deleteRelationship(one.id, {
      entityId: two.id,
      entityType: "TERM",
      relationshipType: "Synonym",
    });
    assert.deepEqual(await client.terms.listRelationships(one.id), []);
  });
});

Deno.test("unified emulator: data products CRUD, query, count, facets and relationships", async () => {
  await withClient(async (client) => {
    const domain = await client.domains.create({ name: "Retail", type: "DataDomain" });
    const product = await client.dataProducts.create({
      name: "Orders",
      type: "analytical",
      status: "draft",
      domain: domain.id,
      updateFrequency: "daily",
      audience: ["dataanalyst"],
      contacts: { owner: [{ id: OWNER }] },
    });
    assert.equal(product.type, "Analytical");
    assert.equal((await client.dataProducts.get(product.id)).updateFrequency, "Daily");
    const updated = await client.dataProducts.update(product.id, { businessUse: "Reporting" }, {
      merge: true,
    });
    assert.equal(updated.businessUse, "Reporting");
    assert.ok(
      (await collect(client.dataProducts.list({ domainId: domain.id }))).some((p) => p.id === product.id),
    );
    assert.equal((await client.dataProducts.query({ nameKeyword: "Orders" })).value[0]?.id, product.id);
    assert.equal((await client.dataProducts.count({ nameKeyword: "Orders" })).count, 1);
    assert.ok((await client.dataProducts.facets({ facets: [{ name: "type" }] })).facets);
    const term = await client.terms.create({ name: "Order", status: "draft", domain: domain.id });
    await client.dataProducts.createRelationship(product.id, {
      entityId: term.id,
      relationshipType: "Related",
    }, {
      entityType: "TERM",
    });
    assert.deepEqual((await client.dataProducts.listRelationships(product.id)).map((l) => l.entityId), [
      term.id,
    ]);
    await client.dataProducts.deleteRelationship(product.id, { entityId: term.id, entityType: "TERM" });
    await client.dataProducts.delete(product.id);
    await assert.rejects(client.dataProducts.get(product.id), NotFoundError);
  });
});

Deno.test("unified emulator: critical data elements CRUD, query, count and facets", async () => {
  await withClient(async (client) => {
    const domain = await client.domains.create({ name: "Customers", type: "Regulatory" });
    const cde = await client.criticalDataElements.create({
      name: "Customer id",
      status: "draft",
      dataType: "number",
      domain: domain.id,
    });
    assert.equal(cde.dataType, "NUMBER");
    assert.equal((await client.criticalDataElements.get(cde.id)).name, "Customer id");
    const updated = await client.criticalDataElements.update(cde.id, { status: "published" }, {
      merge: true,
    });
    assert.equal(updated.status, "PUBLISHED");
    assert.ok((await collect(client.criticalDataElements.list())).some((each) => each.id === cde.id));
    // The seed's published critical data elements are in domains of their own.
    const published = await client.criticalDataElements.query({
      status: "Published",
      domainIds: [domain.id],
    });
    assert.deepEqual(published.value.map((each) => each.id), [cde.id]);
    assert.equal((await client.criticalDataElements.count({ nameKeyword: "Customer id" })).count, 1);
    assert.ok((await client.criticalDataElements.facets({ facets: [{ name: "status" }] })).facets);
    await client.criticalDataElements.delete(cde.id);
    await assert.rejects(client.criticalDataElements.get(cde.id), NotFoundError);
  });
});

Deno.test("unified emulator: objectives and their key results", async () => {
  await withClient(async (client) => {
    const domain = await client.domains.create({ name: "Strategy", type: "FunctionalUnit" });
    const objective = await client.objectives.create({
      definition: "Trusted data",
      status: "draft",
      domain: domain.id,
    });
    assert.equal((await client.objectives.get(objective.id)).definition, "Trusted data");
    const updated = await client.objectives.update(objective.id, { status: "published" }, { merge: true });
    assert.equal(updated.status, "Published");
    assert.ok((await collect(client.objectives.list())).some((each) => each.id === objective.id));
    assert.ok((await client.objectives.facets({ facets: [{ name: "status" }] })).facets);

    const keyResult = await client.keyResults.create(objective.id, {
      definition: "90% of terms owned",
      domainId: domain.id,
      status: "ontrack",
      progress: 40,
      goal: 90,
      max: 100,
    });
    assert.equal(keyResult.status, "OnTrack");
    assert.equal((await client.keyResults.get(objective.id, keyResult.id)).goal, 90);
    const moved = await client.keyResults.update(objective.id, keyResult.id, { progress: 60 }, {
      merge: true,
    });
    assert.equal(moved.progress, 60);
    assert.deepEqual((await collect(client.keyResults.list(objective.id))).map((each) => each.id), [
      keyResult.id,
    ]);
    await client.keyResults.delete(objective.id, keyResult.id);
    await assert.rejects(client.keyResults.get(objective.id, keyResult.id), NotFoundError);
    await client.objectives.delete(objective.id);
    await assert.rejects(client.objectives.get(objective.id), NotFoundError);
  });
});

Deno.test("unified emulator: policies list, get, update and delete", async () => {
  await withClient(async (client) => {
    const domain = await client.domains.create({ name: "Policy domain", type: "DataDomain" });
    const policies = await collect(client.policies.list());
    assert.ok(policies.length > 0, "the emulator has a policy (one per domain, as the service does)");
    const policy = policies.find((each) => JSON.stringify(each).includes(domain.id)) ?? policies[0];
    assert.equal((await client.policies.get(policy.id)).id, policy.id);
    const updated = await client.policies.update(policy.id, { ...policy, description: "reviewed" });
    assert.equal(updated.id, policy.id);
    await client.policies.delete(policy.id);
    await assert.rejects(client.policies.get(policy.id), NotFoundError);
  });
});
