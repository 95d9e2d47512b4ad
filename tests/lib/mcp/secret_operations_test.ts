/**
 * Operations whose answer holds credentials (the account's access keys) never reach a model: the MCP
 * server neither lists nor runs them, in read-only mode or not, while the command line still does.
 */
import assert from "node:assert/strict";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import { startHarness } from "../../support/mcp_harness.ts";

Deno.test("MCP: account.list-keys and account.regenerate-key are neither listed nor run, and no key is sent", async () => {
  const secretOps = createOperationRegistry().all().filter((op) => op.annotations.returnsSecrets).map((op) =>
    op.id
  );
  assert.deepEqual(secretOps.sort(), [
    "account.list-keys",
    "account.regenerate-key",
    "scan.list-integration-runtime-auth-keys",
    "scan.regenerate-integration-runtime-auth-key",
  ]);
  const h = await startHarness();
  try {
    const listed = await h.client.callTool({ name: "list_available_operations", arguments: {} });
    const text = JSON.stringify(listed.structuredContent);
    assert.ok(text.includes("account.get"), "the account group is listed");
    for (const id of secretOps) assert.ok(!text.includes(`"${id}"`), `${id} is not listed`);

    for (
      const [operation, args] of [["account.list-keys", {}], ["account.regenerate-key", {
        keyType: "primary",
        confirm: true,
      }]] as const
    ) {
      const result = await h.client.callTool({
        name: "invoke_operation",
        arguments: { operation, arguments: args },
      });
      assert.equal(result.isError, true, operation);
      const said = JSON.stringify(result.content);
      assert.match(said, /not offered over MCP/);
      assert.doesNotMatch(said, /SharedAccessKey|Endpoint=sb:/, "no key in the answer");
    }
  } finally {
    await h.close();
  }
});

Deno.test("docs/mcp-server.md names every operation that is not offered over MCP because it answers credentials", () => {
  const page = Deno.readTextFileSync(new URL("../../../docs/mcp-server.md", import.meta.url));
  const section = /Operations whose answer holds credentials \(([^)]*)\)/.exec(page.replace(/\s+/g, " "));
  assert.ok(section, "docs/mcp-server.md says which operations answer credentials");
  const named = [...section[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort();
  const secret = createOperationRegistry().all().filter((op) => op.annotations.returnsSecrets)
    .map((op) => `${op.group} ${op.command}`).sort();
  assert.deepEqual(named, secret);
});
