/**
 * The collection role tools through a real MCP client over streamable HTTP, against the seeded emulator:
 * list_collection_roles (own holders first, inherited ones marked), set_collection_role (grant, then seen;
 * a repeat changes nothing; revoke), its confirmation rule, its refusal of a principal that is not an
 * object id, and the hints both declare.
 */
import assert from "node:assert/strict";
import { EMULATOR_USER_OBJECT_ID } from "../../../lib/emulator/policy/defaults.ts";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";

const ALICE = "3f10f245-d5c4-4541-98ce-01a4580a30e0";

async function call(h: Harness, name: string, args: Record<string, unknown>) {
  const result = await h.client.callTool({ name, arguments: args });
  return { result, data: result.structuredContent as Record<string, unknown>, json: resultJson(result) };
}

async function withHarness(run: (h: Harness) => Promise<void>): Promise<void> {
  const h = await startHarness();
  try {
    await run(h);
  } finally {
    await h.close();
  }
}

Deno.test("list_collection_roles and set_collection_role declare their hints", async () => {
  await withHarness(async (h) => {
    const { tools } = await h.client.listTools();
    const list = tools.find((tool) => tool.name === "list_collection_roles")!;
    const set = tools.find((tool) => tool.name === "set_collection_role")!;
    assert.equal(list.title, "List collection roles");
    assert.deepEqual(list.annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    assert.equal(set.annotations?.readOnlyHint, false);
    assert.equal(set.annotations?.destructiveHint, true);
    assert.ok(set.outputSchema, "set_collection_role declares its output schema");
  });
});

Deno.test("list_collection_roles: a child's own administrator first, the parent's holders marked inherited", async () => {
  await withHarness(async (h) => {
    await h.catalog.collections.createOrUpdate("team-a", { parentCollection: { referenceName: "sales" } });
    const listed = await call(h, "list_collection_roles", { collection_name: "team-a" });
    assert.ok(!listed.result.isError, JSON.stringify(listed.json));
    assert.equal(listed.data.inherits_from, "sales");
    const holders = listed.data.holders as Record<string, string>[];
    assert.deepEqual(holders[0], {
      role: "collection-admin",
      role_id: "purviewmetadatarole_builtin_collection-administrator",
      principal_id: EMULATOR_USER_OBJECT_ID,
    });
    // The root's creator holds the other three roles there, inherited through sales.
    assert.deepEqual(holders.slice(1).map((holder) => [holder.role, holder.inherited_from]), [
      ["data-reader", "emulator"],
      ["data-curator", "emulator"],
      ["data-source-admin", "emulator"],
    ]);
    assert.equal(listed.data.count, holders.length);
  });
});

Deno.test("set_collection_role: grant is seen, a repeat changes nothing, revoke removes it", async () => {
  await withHarness(async (h) => {
    const grant = { collection_name: "finance", role: "data-reader", principal_id: ALICE, action: "grant" };
    const granted = await call(h, "set_collection_role", { ...grant, confirm: true });
    assert.ok(!granted.result.isError, JSON.stringify(granted.json));
    assert.equal(granted.data.changed, true);
    assert.equal(granted.data.version, 2);
    const seen = await call(h, "list_collection_roles", { collection_name: "finance" });
    assert.deepEqual((seen.data.holders as Record<string, string>[]).find((x) => x.principal_id === ALICE), {
      role: "data-reader",
      role_id: "purviewmetadatarole_builtin_purview-reader",
      principal_id: ALICE,
    });

    const again = await call(h, "set_collection_role", { ...grant, confirm: true });
    assert.equal(again.data.changed, false);
    assert.equal(again.data.version, 2, "nothing written");

    const revoked = await call(h, "set_collection_role", { ...grant, action: "revoke", confirm: true });
    assert.equal(revoked.data.changed, true);
    const after = await call(h, "list_collection_roles", { collection_name: "finance" });
    assert.ok(!(after.data.holders as Record<string, string>[]).some((x) => x.principal_id === ALICE));
  });
});

Deno.test("set_collection_role: refused without confirm, and for a principal that is not an object id", async () => {
  await withHarness(async (h) => {
    const grant = { collection_name: "finance", role: "data-curator", principal_id: ALICE, action: "grant" };
    const unconfirmed = await call(h, "set_collection_role", grant);
    assert.equal(unconfirmed.result.isError, true);
    assert.match(
      String(unconfirmed.json.message),
      /is destructive: refusing to run it without "confirm": true/,
    );
    const notGuid = await call(h, "set_collection_role", {
      ...grant,
      principal_id: "alice@contoso.com",
      confirm: true,
    });
    assert.equal(notGuid.result.isError, true);
    assert.match(JSON.stringify(notGuid.json), /principal_id/);
    const policy = await h.catalog.policies.forCollection("finance");
    assert.equal(policy.version, 1, "nothing was written");
  });
});
