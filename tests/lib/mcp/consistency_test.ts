/**
 * The rules the tool server shares with the command line, through a real MCP client against the seeded
 * emulator: enum values in any letter case, and the confirmation of destructive calls.
 */
import assert from "node:assert/strict";
import { resultJson, startHarness } from "../../support/mcp_harness.ts";

const CUSTOMERS_GUID = "ca7a1000-0000-4000-8000-000000000010";

Deno.test("MCP: enum values are taken in any letter case, by the curated tools and invoke_operation", async () => {
  const h = await startHarness();
  try {
    const lineage = await h.client.callTool({
      name: "get_lineage",
      arguments: { guid: CUSTOMERS_GUID, depth: 1, direction: "Input" },
    });
    assert.ok(!lineage.isError, JSON.stringify(lineage.content));
    assert.equal((lineage.structuredContent as { direction: string }).direction, "INPUT");

    const term = await h.client.callTool({
      name: "create_glossary_term",
      arguments: { name: "Churn rate", status: "approved" },
    });
    assert.ok(!term.isError, JSON.stringify(term.content));
    const guid = (term.structuredContent as { guid: string }).guid;
    assert.equal((await h.catalog.glossary.getTerm(guid)).status, "Approved");

    const invoked = await h.client.callTool({
      name: "invoke_operation",
      arguments: { operation: "lineage.get", arguments: { guid: CUSTOMERS_GUID, direction: "output" } },
    });
    assert.ok(!invoked.isError, JSON.stringify(invoked.content));
    assert.equal(
      (invoked.structuredContent as { result: { lineageDirection: string } }).result.lineageDirection,
      "OUTPUT",
    );

    const wrong = await h.client.callTool({
      name: "get_lineage",
      arguments: { guid: CUSTOMERS_GUID, direction: "sideways" },
    });
    assert.equal(wrong.isError, true);
    assert.match(String(resultJson(wrong).message), /direction: .*"upstream".*"BOTH"/);
  } finally {
    await h.close();
  }
});

Deno.test('MCP: a destructive call needs "confirm": true, in invoke_operation\'s arguments and in the curated tools', async () => {
  const h = await startHarness();
  try {
    const status = async (guid: string) => (await h.catalog.entity.get(guid)).entity.status;
    const before = h.emulator.faults.stats().total;
    const refused = await h.client.callTool({
      name: "invoke_operation",
      arguments: { operation: "entity.delete", arguments: { guid: CUSTOMERS_GUID } },
    });
    assert.equal(refused.isError, true);
    const body = resultJson(refused);
    assert.equal(body.error, "UsageError");
    assert.match(
      String(body.message),
      /^entity delete guid=ca7a1000-\S+ is destructive: refusing to run it without "confirm": true, .*nothing was sent\.$/,
    );
    assert.match(String(body.hint), /"confirm": true in the arguments/);
    const curated = await h.client.callTool({ name: "delete_entity", arguments: { guid: CUSTOMERS_GUID } });
    assert.equal(curated.isError, true);
    assert.match(String(resultJson(curated).message), /delete_entity .*without "confirm": true/);
    assert.match(String(resultJson(curated).hint), /call delete_entity again with "confirm": true/);
    assert.equal(h.emulator.faults.stats().total, before, "nothing was sent");
    assert.equal(await status(CUSTOMERS_GUID), "ACTIVE");

    const confirmed = await h.client.callTool({
      name: "invoke_operation",
      arguments: { operation: "entity.delete", arguments: { guid: CUSTOMERS_GUID, confirm: true } },
    });
    assert.ok(!confirmed.isError, JSON.stringify(confirmed.content));
    assert.equal(await status(CUSTOMERS_GUID), "DELETED");

    // The operation's input schema says so, for a model reading list_available_operations.
    const listed = resultJson(
      await h.client.callTool({ name: "list_available_operations", arguments: { category: "entity" } }),
    ) as { categories: Array<{ operations: Array<{ name: string; inputSchema: { properties: object } }> }> };
    const del = listed.categories[0].operations.find((op) => op.name === "entity.delete")!;
    assert.ok("confirm" in del.inputSchema.properties);
  } finally {
    await h.close();
  }
});
