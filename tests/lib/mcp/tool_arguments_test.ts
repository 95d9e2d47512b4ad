/**
 * Arguments a tool does not take are refused with an error result naming them, through a real MCP client
 * over streamable HTTP against the seeded emulator, and nothing reaches the catalog; the listed input
 * schemas say so with `additionalProperties: false`.
 */
import assert from "node:assert/strict";
import { unknownArgumentsProblem } from "../../../lib/mcp/tool_arguments.ts";
import { resultJson, startHarness } from "../../support/mcp_harness.ts";

Deno.test("unknownArgumentsProblem names each unknown key, suggests the near one and lists the rest", () => {
  assert.equal(unknownArgumentsProblem(["guid", "min_ext_info"], { guid: "g" }, "get_entity"), undefined);
  assert.equal(
    unknownArgumentsProblem(["guid", "min_ext_info"], { guid: "g", min_ext_inf: true }, "get_entity"),
    'get_entity takes no argument "min_ext_inf" (did you mean "min_ext_info"?). Its arguments: guid, min_ext_info.',
  );
  assert.equal(
    unknownArgumentsProblem(["glossaryGuid"], { "glossary-guid": "g", zzz: 1 }, "glossary.list-terms"),
    'glossary.list-terms takes no arguments "glossary-guid" (did you mean "glossaryGuid"?), "zzz". ' +
      "Its arguments: glossaryGuid.",
  );
  assert.equal(
    unknownArgumentsProblem([], { a: 1 }, "get_account"),
    'get_account takes no argument "a". It takes no arguments.',
  );
});

Deno.test("tools and invoke_operation refuse unknown arguments before calling the catalog", async () => {
  const h = await startHarness();
  try {
    const { tools } = await h.client.listTools();
    for (const tool of tools) {
      assert.equal(
        tool.inputSchema.additionalProperties,
        false,
        `${tool.name} lists its arguments as closed`,
      );
    }
    const before = h.emulator.faults.stats().total;

    const misspelt = await h.client.callTool({
      name: "get_entity",
      arguments: { guid: "00000000-0000-0000-0000-000000000000", ignore_relationship: true },
    });
    assert.equal(misspelt.isError, true);
    const body = resultJson(misspelt);
    assert.equal(body.error, "InvalidArguments");
    assert.match(
      String(body.message),
      /get_entity takes no argument "ignore_relationship" \(did you mean "ignore_relationships"\?\)/,
    );
    assert.match(String(body.hint), /input schema/);

    const invoked = await h.client.callTool({
      name: "invoke_operation",
      arguments: {
        operation: "entity.get",
        arguments: { guid: "00000000-0000-0000-0000-000000000000", minExtinfo: true },
      },
    });
    assert.equal(invoked.isError, true);
    assert.match(
      String(resultJson(invoked).message),
      /entity\.get \(in arguments\) takes no argument "minExtinfo" \(did you mean "minExtInfo"\?\)/,
    );
    assert.equal(h.emulator.faults.stats().total, before, "nothing was sent to the catalog");

    // The same calls with the right names do reach it.
    const right = await h.client.callTool({
      name: "get_entity",
      arguments: { guid: "00000000-0000-0000-0000-000000000000", ignore_relationships: true },
    });
    assert.equal(resultJson(right).error, "NotFoundError");
    assert.ok(h.emulator.faults.stats().total > before);
  } finally {
    await h.close();
  }
});
