/**
 * End-to-end tests of `govcat uc` happy paths against the emulator, and the map of the 48 unified catalog
 * API operations to registered `uc` operations.
 */
import assert from "node:assert/strict";
import { createOperationRegistry } from "../../lib/operations/mod.ts";
import { unifiedOperationFor } from "../../lib/operations/unified_operations.ts";
import { UNIFIED_CATALOG_OPERATIONS } from "../../lib/catalog/unified_operations.ts";
import { ok, OWNER, withUc } from "./cli_unified_support_test.ts";

Deno.test("every one of the 48 unified catalog operations is reachable through a registered uc operation", () => {
  const registry = createOperationRegistry();
  assert.equal(UNIFIED_CATALOG_OPERATIONS.length, 48);
  const missing: string[] = [];
  for (const api of UNIFIED_CATALOG_OPERATIONS) {
    const id = unifiedOperationFor(api.name);
    const operation = id ? registry.get(id) : undefined;
    if (!operation || operation.group !== "uc") {
      missing.push(`${api.name} -> ${id}`);
      continue;
    }
    // A GET (or a search POST) never maps to an operation that claims to write, nor a write to a read.
    const reads = api.method === "GET" || /\.(query|count|facets)$/.test(api.name);
    assert.equal(operation.annotations.readOnly, reads, `${api.name} -> ${id}`);
    if (api.method === "DELETE") assert.ok(operation.annotations.destructive, id);
  }
  assert.deepEqual(missing, []);
  // Every uc operation id is `uc.<command with dashes>`.
  for (const op of registry.inGroup("uc")) assert.equal(op.id, `uc.${op.command.replace(/ /g, "-")}`);
});

Deno.test("uc term: create, get, update, list, query, count, facets, hierarchy, relationships, delete", async () => {
  await withUc(async (setup) => {
    const domain = await ok(setup, "domain", "create", "--name=Finance", "--type=functionalunit");
    const root = await ok(
      setup,
      "term",
      "create",
      "--name=Revenue",
      `--domain-id=${domain.id}`,
      "--status=published",
      `--owner-id=${OWNER}`,
      "--acronym=REV",
      "--acronym=RV",
      "--resource-name=Wiki",
      "--resource-url=https://wiki.example/revenue",
      "--description=Money in",
    );
    assert.equal(root.status, "PUBLISHED");
    assert.deepEqual(root.acronyms, ["REV", "RV"]);
    assert.equal(root.contacts.owner[0].id, OWNER);

    const child = await ok(
      setup,
      "term",
      "create",
      "--name=Net revenue",
      `--domain-id=${domain.id}`,
      `--parent-id=${root.id}`,
    );
    assert.equal(child.status, "DRAFT");
    // Relationships are made by create and update.
    const synonym = await ok(
      setup,
      "term",
      "create",
      "--name=Income",
      `--domain-id=${domain.id}`,
      "--status=Published",
      `--synonym=${root.id}`,
    );
    assert.equal(synonym.relationships.length, 1);
    const updated = await ok(
      setup,
      "term",
      "update",
      "--confirm",
      `--term-id=${child.id}`,
      `--related=${synonym.id}`,
    );
    assert.equal(updated.relationships[0].entityId, synonym.id);
    const renamed = await ok(
      setup,
      "term",
      "update",
      "--confirm",
      `--term-id=${child.id}`,
      "--description=After costs",
    );
    assert.equal(renamed.description, "After costs");
    assert.equal(renamed.name, "Net revenue", "merge keeps the fields not given");

    assert.equal((await ok(setup, "term", "get", `--term-id=${root.id}`)).name, "Revenue");
    const listed = await ok(setup, "term", "list", `--domain-id=${domain.id}`);
    assert.equal(listed.length, 3);
    const page = await ok(setup, "term", "list", `--domain-id=${domain.id}`, "--top=1");
    assert.equal(page.value.length, 1);
    const query = await ok(setup, "term", "query", `--domain-id=${domain.id}`, "--status=PUBLISHED");
    assert.deepEqual(query.value.map((t: { name: string }) => t.name).sort(), ["Income", "Revenue"]);
    const byKeyword = await ok(setup, "term", "query", "--keyword=net");
    assert.deepEqual(byKeyword.value.map((t: { id: string }) => t.id), [child.id]);
    const queryFile = await setup.file("query.json", { ids: [root.id] });
    assert.equal((await ok(setup, "term", "query", `--payload-file=${queryFile}`)).value.length, 1);
    assert.equal((await ok(setup, "term", "count", `--domain-id=${domain.id}`)).count, 3);
    const facets = await ok(setup, "term", "facets", `--domain-id=${domain.id}`, "--output", "json");
    assert.ok(facets.facets, JSON.stringify(facets));

    const tree = await ok(setup, "term", "hierarchy", `--domain-id=${domain.id}`, "--include-draft");
    const rootNode = tree.value.find((n: { id: string }) => n.id === root.id);
    assert.equal(rootNode.children[0].id, child.id);
    const published = await ok(setup, "term", "hierarchy", `--domain-id=${domain.id}`);
    assert.equal(published.value.find((n: { id: string }) => n.id === root.id).children.length, 0);
    const own = await ok(setup, "term", "hierarchy", `--term-id=${child.id}`, "--max-depth=1");
    assert.ok(JSON.stringify(own).includes(root.id), JSON.stringify(own));

    const links = await ok(setup, "term", "relationships", `--term-id=${synonym.id}`, "--entity-type=term");
    assert.ok(links.some((l: { entityId: string }) => l.entityId === root.id), JSON.stringify(links));
    const onlySynonyms = await ok(
      setup,
      "term",
      "relationships",
      `--term-id=${synonym.id}`,
      "--relationship-type=synonym",
    );
    assert.ok(onlySynonyms.every((l: { relationshipType: string }) => l.relationshipType === "Synonym"));
    await ok(
      setup,
      "term",
      "delete-relationship",
      `--term-id=${synonym.id}`,
      `--entity-id=${root.id}`,
      "--confirm",
    );
    const after = await ok(setup, "term", "relationships", `--term-id=${synonym.id}`);
    assert.ok(!after.some((l: { entityId: string }) => l.entityId === root.id), JSON.stringify(after));

    const gone = await ok(setup, "term", "delete", `--term-id=${synonym.id}`, "--confirm");
    assert.deepEqual(gone, { deleted: true, kind: "term", id: synonym.id });
    assert.equal((await ok(setup, "term", "list", `--domain-id=${domain.id}`)).length, 2);
  });
});

Deno.test("uc domain, dataproduct, cde: create, get, update, list, query, count, facets, delete", async () => {
  await withUc(async (setup) => {
    const domain = await ok(
      setup,
      "domain",
      "create",
      "--name=Sales",
      "--type=LineOfBusiness",
      "--status=draft",
    );
    assert.equal((await ok(setup, "domain", "get", `--domain-id=${domain.id}`)).name, "Sales");
    const domainUpdated = await ok(
      setup,
      "domain",
      "update",
      "--confirm",
      `--domain-id=${domain.id}`,
      "--description=All sales",
    );
    assert.equal(domainUpdated.description, "All sales");
    assert.equal(domainUpdated.type, "LineOfBusiness");
    assert.ok((await ok(setup, "domain", "list")).some((d: { id: string }) => d.id === domain.id));
    const spare = await ok(setup, "domain", "create", "--name=Spare");
    await ok(setup, "domain", "delete", `--domain-id=${spare.id}`, "--confirm");

    const product = await ok(
      setup,
      "dataproduct",
      "create",
      "--name=Orders",
      `--domain-id=${domain.id}`,
      "--type=analytical",
      "--update-frequency=daily",
      "--audience=dataanalyst",
      `--owner-id=${OWNER}`,
    );
    assert.equal(product.type, "Analytical");
    assert.equal((await ok(setup, "dataproduct", "get", `--data-product-id=${product.id}`)).name, "Orders");
    const productFile = await setup.file("product.json", { businessUse: "Reporting" });
    const productUpdated = await ok(
      setup,
      "dataproduct",
      "update",
      "--confirm",
      `--data-product-id=${product.id}`,
      "--status=published",
      "--description=Every order",
    );
    assert.equal(productUpdated.status, "PUBLISHED");
    assert.equal(productUpdated.name, "Orders");
    assert.equal((await ok(setup, "dataproduct", "list", `--domain-id=${domain.id}`)).length, 1);
    assert.equal((await ok(setup, "dataproduct", "query", "--keyword=ord")).value.length, 1);
    assert.equal((await ok(setup, "dataproduct", "count", `--domain-id=${domain.id}`)).count, 1);
    assert.ok((await ok(setup, "dataproduct", "facets", `--domain-id=${domain.id}`)).facets);
    const fromFile = await ok(
      setup,
      "dataproduct",
      "create",
      `--payload-file=${productFile}`,
      "--name=Invoices",
      `--domain-id=${domain.id}`,
    );
    assert.equal(fromFile.businessUse, "Reporting");
    await ok(setup, "dataproduct", "delete", `--data-product-id=${fromFile.id}`, "--confirm");

    const cde = await ok(
      setup,
      "cde",
      "create",
      "--name=Order id",
      `--domain-id=${domain.id}`,
      "--data-type=text",
    );
    assert.equal(cde.dataType, "TEXT");
    assert.equal((await ok(setup, "cde", "get", `--cde-id=${cde.id}`)).name, "Order id");
    assert.equal(
      (await ok(setup, "cde", "update", "--confirm", `--cde-id=${cde.id}`, "--data-type=number")).dataType,
      "NUMBER",
    );
    assert.equal((await ok(setup, "cde", "list", `--domain-id=${domain.id}`)).length, 1);
    assert.equal((await ok(setup, "cde", "query", `--domain-id=${domain.id}`)).value.length, 1);
    assert.equal((await ok(setup, "cde", "count")).count, 1);
    assert.ok((await ok(setup, "cde", "facets")).facets);
    await ok(setup, "cde", "delete", `--cde-id=${cde.id}`, "--confirm");
    assert.equal((await ok(setup, "cde", "list")).length, 0);
  });
});

Deno.test("uc objective, keyresult, policy: every command", async () => {
  await withUc(async (setup) => {
    const domain = await ok(setup, "domain", "create", "--name=Quality");
    const objective = await ok(
      setup,
      "objective",
      "create",
      "--definition=Fewer bad rows",
      `--domain-id=${domain.id}`,
      "--status=draft",
      "--target-date=2030-01-01T00:00:00Z",
    );
    assert.equal(objective.status, "Draft");
    assert.equal(
      (await ok(setup, "objective", "get", `--objective-id=${objective.id}`)).definition,
      "Fewer bad rows",
    );
    const published = await ok(
      setup,
      "objective",
      "update",
      "--confirm",
      `--objective-id=${objective.id}`,
      "--status=PUBLISHED",
    );
    assert.equal(published.status, "Published");
    assert.equal((await ok(setup, "objective", "list", `--domain-id=${domain.id}`)).length, 1);
    assert.equal((await ok(setup, "objective", "query", "--status=published")).value.length, 1);
    assert.equal((await ok(setup, "objective", "count")).count, 1);
    assert.ok((await ok(setup, "objective", "facets", "--output=json")).facets);

    const keyResult = await ok(
      setup,
      "keyresult",
      "create",
      `--objective-id=${objective.id}`,
      `--domain-id=${domain.id}`,
      "--status=ontrack",
      "--definition=Rows checked",
      "--goal=100",
      "--progress=10",
    );
    assert.equal(keyResult.status, "OnTrack");
    const ids = [`--objective-id=${objective.id}`, `--key-result-id=${keyResult.id}`];
    assert.equal((await ok(setup, "keyresult", "get", ...ids)).goal, 100);
    const moved = await ok(
      setup,
      "keyresult",
      "update",
      "--confirm",
      ...ids,
      "--progress=50",
      "--status=behind",
    );
    assert.equal(moved.progress, 50);
    assert.equal(moved.goal, 100);
    assert.equal((await ok(setup, "keyresult", "list", `--objective-id=${objective.id}`)).length, 1);
    await ok(setup, "keyresult", "delete", ...ids, "--confirm");
    assert.equal((await ok(setup, "keyresult", "list", `--objective-id=${objective.id}`)).length, 0);
    await ok(setup, "objective", "delete", `--objective-id=${objective.id}`, "--confirm");

    const policies = await ok(setup, "policy", "list");
    assert.ok(policies.length >= 1, JSON.stringify(policies));
    const policy = await ok(setup, "policy", "get", `--policy-id=${policies[0].id}`);
    assert.equal(policy.id, policies[0].id);
    const edited = await setup.file("policy.json", { ...policy, systemData: undefined });
    const replaced = await ok(
      setup,
      "policy",
      "update",
      "--confirm",
      `--policy-id=${policy.id}`,
      `--payload-file=${edited}`,
    );
    assert.equal(replaced.id, policy.id);
    const deleted = await ok(setup, "policy", "delete", `--policy-id=${policy.id}`, "--confirm");
    assert.equal(deleted.deleted, true);
  });
});
