/**
 * End-to-end tests of `govcat uc data-asset` and `uc data-column` as real subprocesses against a seeded
 * emulator: a data asset made from a Data Map table, related to a data product and seen from the product,
 * its columns ingested and queried, the duplicate-name count of objectives, refusals before anything is
 * sent, and the map of the 19 operations of 2026-03-20-preview to registered `uc` operations.
 */
import assert from "node:assert/strict";
import { createOperationRegistry } from "../../lib/operations/mod.ts";
import { unifiedOperationFor } from "../../lib/operations/unified_operations.ts";
import { UNIFIED_CATALOG_2026_OPERATIONS } from "../../lib/catalog/unified_operations.ts";
import { assertRefusedLocally, type CliSetup, withCliSetup } from "../support/cli_harness.ts";

const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const CUSTOMER_ID = "ca7a1000-0000-4000-8000-000000000011";
const FULL_NAME = "ca7a1000-0000-4000-8000-000000000012";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const ORDER_ID = "ca7a1000-0000-4000-8000-000000000021";

// deno-lint-ignore no-explicit-any
async function ok(setup: CliSetup, ...args: string[]): Promise<any> {
  const result = await setup.govcat("uc", ...args);
  assert.equal(result.code, 0, `uc ${args.join(" ")}: ${result.stderr}`);
  return result.json;
}

Deno.test("every one of the 19 unified catalog 2026 operations is reachable through a registered uc operation", () => {
  const registry = createOperationRegistry();
  assert.equal(UNIFIED_CATALOG_2026_OPERATIONS.length, 19);
  const missing: string[] = [];
  for (const api of UNIFIED_CATALOG_2026_OPERATIONS) {
    const name = api.name
      .replace(/\.listRelationships$/, ".relationships")
      .replace(/\.createRelationship$/, ".relate")
      .replace(/\.deleteRelationship$/, ".delete-relationship");
    const id = unifiedOperationFor(name);
    const operation = id ? registry.get(id) : undefined;
    if (!operation) missing.push(`${api.name} -> ${id}`);
    else if (api.method === "DELETE") assert.ok(operation.annotations.destructive, id);
  }
  assert.deepEqual(missing, []);
});

Deno.test("uc data-asset: made from a Data Map table, related to a data product, seen from the product", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-uc-asset-" }, async (setup) => {
    const domain = await ok(setup, "domain", "create", "--name=Sales");
    const product = await ok(
      setup,
      "dataproduct",
      "create",
      "--name=Customer 360",
      `--domain-id=${domain.id}`,
    );
    const asset = await ok(setup, "data-asset", "create", `--source-asset-id=${CUSTOMERS}`);
    assert.equal(asset.name, "Customers");
    assert.equal(asset.type, "AzureSqlTable");

    const link = await ok(
      setup,
      "data-asset",
      "relate",
      `--data-asset-id=${asset.id}`,
      "--entity-type=dataproduct",
      `--entity-id=${product.id}`,
    );
    assert.equal(link.relationshipType, "Related");
    const fromProduct = await ok(setup, "dataproduct", "get", `--data-product-id=${product.id}`);
    assert.equal(fromProduct.additionalProperties.assetCount, 1);
    const links = await ok(
      setup,
      "dataAsset",
      "relationships",
      `--data-asset-id=${asset.id}`,
      "--entity-type=DATAPRODUCT",
    );
    assert.deepEqual(links.map((l: { entityId: string }) => l.entityId), [product.id]);

    const ingested = await ok(
      setup,
      "data-column",
      "ingest",
      `--asset-id=${CUSTOMERS}`,
      `--column-id=${CUSTOMER_ID}`,
      `--column-id=${FULL_NAME}`,
    );
    assert.equal(ingested.length, 2);
    await ok(setup, "data-column", "ingest", `--asset-id=${ORDERS}`, `--column-id=${ORDER_ID}`);
    const columns = await ok(
      setup,
      "data-column",
      "query",
      `--asset-id=${CUSTOMERS}`,
      "--include-column-details",
      "--including-orphans",
    );
    assert.deepEqual(columns.map((c: { columnDetails: { name: string } }) => c.columnDetails.name), [
      "CustomerId",
      "FullName",
    ]);
    const read = await ok(setup, "data-asset", "get", `--data-asset-id=${asset.id}`, "--include-lineage");
    assert.deepEqual(read.schema.map((c: { name: string }) => c.name), ["CustomerId", "FullName"]);

    const listed = await ok(setup, "data-asset", "list");
    assert.deepEqual(listed.map((a: { id: string }) => a.id), [asset.id]);
    const found = await ok(setup, "data-asset", "query", "--keyword=cust", "--asset-type=azure_sql_table");
    assert.equal(found.length, 1);

    const owner = "11111111-2222-4333-8444-555555555555";
    const updated = await ok(
      setup,
      "data-asset",
      "update",
      "--confirm",
      `--data-asset-id=${asset.id}`,
      `--owner-id=${owner}`,
    );
    assert.equal(updated.contacts.owner[0].id, owner);
    assert.equal(updated.source.assetId, CUSTOMERS, "the source read back is sent again");

    await ok(
      setup,
      "data-asset",
      "delete-relationship",
      "--confirm",
      `--data-asset-id=${asset.id}`,
      "--entity-type=DATAPRODUCT",
      `--entity-id=${product.id}`,
    );
    const deleted = await ok(setup, "data-asset", "delete", "--confirm", `--data-asset-id=${asset.id}`);
    assert.deepEqual(deleted, { deleted: true, kind: "data asset", id: asset.id });
  });
});

Deno.test("uc data-asset: refusals before anything is sent; duplicate counts of objectives", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-uc-asset-" }, async (setup) => {
    await assertRefusedLocally(setup, /--source-asset-id/, ["uc", "data-asset", "create"]);
    await assertRefusedLocally(setup, /must be a GUID/, [
      "uc",
      "data-asset",
      "create",
      "--source-asset-id=abc",
    ]);
    await assertRefusedLocally(setup, /--entity-type is required/, [
      "uc",
      "data-asset",
      "relationships",
      `--data-asset-id=${CUSTOMERS}`,
      "--entity-type=NOPE",
    ]);
    await assertRefusedLocally(setup, /--asset-id/, [
      "uc",
      "data-column",
      "ingest",
      `--column-id=${FULL_NAME}`,
    ]);
    await assertRefusedLocally(setup, /confirm/i, [
      "uc",
      "data-asset",
      "delete",
      `--data-asset-id=${CUSTOMERS}`,
    ]);

    const unknown = await setup.govcat(
      "uc",
      "data-asset",
      "create",
      `--source-asset-id=${crypto.randomUUID()}`,
    );
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /does not name an active Data Map asset/);

    const domain = await ok(setup, "domain", "create", "--name=Sales");
    await ok(setup, "objective", "create", "--definition=Grow revenue", `--domain-id=${domain.id}`);
    await ok(setup, "objective", "create", "--definition=Grow revenue abroad", `--domain-id=${domain.id}`);
    const count = await ok(setup, "objective", "count", "--keyword=grow REVENUE");
    assert.deepEqual(count, { count: 1 }, "the duplicate check compares whole definitions");
  });
});
