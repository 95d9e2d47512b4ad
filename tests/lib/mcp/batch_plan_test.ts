/**
 * `plan: true` of batch_create_entities and batch_update_entities, called by a real SDK client against
 * the seeded emulator: the answer counts what would be created, updated, left unchanged or rejected and
 * lists the first changes (old → new); nothing is written (the emulator's request log says so), and a
 * plan needs no "confirm" although the write it previews does.
 */
import assert from "node:assert/strict";
import { BATCH_PLAN_CHANGES } from "../../../lib/operations/entity_batch_plan.ts";
import { type Harness, startHarness } from "../../support/mcp_harness.ts";

const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const CUSTOMERS_QN = "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Customers";

/** Requests that change the catalog: anything but a GET or a search. */
function writes(harness: Harness): number {
  return harness.emulator.faults.stats().log.filter((entry) =>
    entry.method !== "GET" && !String(entry.path ?? "").includes("/search/") &&
    !String(entry.path ?? "").includes("/bulk/uniqueAttribute")
  ).length;
}

// deno-lint-ignore no-explicit-any
async function call(harness: Harness, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await harness.client.callTool({ name, arguments: args });
  assert.equal(result.isError, undefined, JSON.stringify(result.content));
  return result.structuredContent;
}

Deno.test("batch_update_entities plan: counts and old → new, nothing written, no confirm needed", async () => {
  const harness = await startHarness();
  try {
    const before = writes(harness);
    const current = (await harness.catalog.entity.get(ORDERS)).entity?.attributes?.description;
    const answer = await call(harness, "batch_update_entities", {
      plan: true,
      updates: [
        { guid: ORDERS, attributes: { description: "Orders reviewed" } },
        { guid: CUSTOMERS, attributes: { name: "Customers" } },
        { guid: "00000000-0000-4000-8000-000000000099", attributes: { description: "x" } },
      ],
    });
    assert.equal(writes(harness), before, "a plan writes nothing");
    assert.deepEqual([answer.created, answer.updated], [0, 0]);
    const plan = answer.plan;
    assert.deepEqual([plan.update, plan.unchanged, plan.reject], [1, 1, 1]);
    assert.deepEqual(plan.changes[0], {
      index: 0,
      action: "update",
      target: ORDERS,
      field: "description",
      old: current,
      new: "Orders reviewed",
    });
    assert.equal(plan.changes[1].action, "reject");
    assert.equal((await harness.catalog.entity.get(ORDERS)).entity?.attributes?.description, current);

    // Without plan, the same call is destructive and refused unconfirmed.
    const refused = await harness.client.callTool({
      name: "batch_update_entities",
      arguments: { updates: [{ guid: ORDERS, attributes: { description: "Orders reviewed" } }] },
    });
    assert.equal(refused.isError, true);
  } finally {
    await harness.close();
  }
});

Deno.test("batch_create_entities plan: create, reject (exists) or update with if_exists update, unconfirmed; changes bounded", async () => {
  const harness = await startHarness();
  try {
    const before = writes(harness);
    const fresh = Array.from({ length: BATCH_PLAN_CHANGES + 5 }, (_, i) => ({
      type_name: "azure_sql_table",
      qualified_name: `mssql://contoso-sql.database.windows.net/SalesDb/dbo/Plan${i}`,
      name: `Plan${i}`,
    }));
    const existing = { type_name: "azure_sql_table", qualified_name: CUSTOMERS_QN, name: "Clients" };
    const answer = await call(harness, "batch_create_entities", {
      plan: true,
      entities: [existing, ...fresh],
    });
    assert.deepEqual([answer.plan.create, answer.plan.reject], [fresh.length, 1]);
    assert.match(answer.plan.changes[0].reason, /exists already/);
    assert.equal(answer.plan.changes.length, BATCH_PLAN_CHANGES);
    assert.equal(answer.plan.truncated, true);

    const overwrite = await call(harness, "batch_create_entities", {
      plan: true,
      if_exists: "update",
      entities: [existing],
    });
    assert.deepEqual(overwrite.plan.changes, [{
      index: 0,
      action: "update",
      target: `azure_sql_table ${CUSTOMERS_QN}`,
      field: "name",
      old: "Customers",
      new: "Clients",
    }]);
    assert.equal(writes(harness), before, "a plan writes nothing");
  } finally {
    await harness.close();
  }
});
