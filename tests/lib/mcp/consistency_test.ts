/**
 * The rules the tool server shares with the command line, through a real MCP client against the seeded
 * emulator: enum values in any letter case.
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
