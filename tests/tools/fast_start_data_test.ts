import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config/config.ts";
import { FAST_START_DATA, fastToolListing } from "../../lib/mcp/fast_start.ts";
import { fastStartDataText, generateFastStartData } from "../../tools/fast_start_data.ts";
import { createToolServices, toolListing, toolSelection } from "../../lib/mcp/server.ts";

const REGENERATE = "deno run -A tools/fast_start_data.ts (or deno task docs)";

Deno.test("fast_start_data.json is what the live server answers (initialize, versions, tool list)", async () => {
  const live = fastStartDataText(await generateFastStartData());
  assert.equal(
    fastStartDataText(FAST_START_DATA),
    live,
    `lib/generated/fast_start_data.json is stale; regenerate it: ${REGENERATE}`,
  );
});

const SETTINGS: Array<Record<string, string>> = [
  {},
  { CATALOG_MCP_READ_ONLY: "true" },
  { CATALOG_MCP_TOOLS: "get_entity,search_entities,invoke_operation" },
  { CATALOG_MCP_TOOLS: "-delete_entity,-get_entity" },
  { CATALOG_MCP_READ_ONLY: "true", CATALOG_MCP_TOOLS: "invoke_operation,create_entity,get_entity" },
];

for (const settings of SETTINGS) {
  Deno.test(`the fast listing selects as the live server does: ${JSON.stringify(settings)}`, () => {
    const config = loadConfig({ CATALOG_ACCOUNT_NAME: "contoso", ...settings });
    const services = createToolServices({ config });
    const live = JSON.parse(JSON.stringify(toolSelection(services).enabled.map(toolListing)));
    const fast = fastToolListing({ readOnly: config.mcpReadOnly, toolsSpec: config.mcpTools });
    assert.ok(fast.length > 0);
    assert.deepEqual(fast, live);
  });
}

Deno.test("the fast listing refuses an unknown tool name with the live server's error", () => {
  const config = loadConfig({ CATALOG_ACCOUNT_NAME: "contoso", CATALOG_MCP_TOOLS: "get_entty" });
  const services = createToolServices({ config });
  let liveError: Error | undefined;
  try {
    toolSelection(services);
  } catch (error) {
    liveError = error as Error;
  }
  assert.match(liveError?.message ?? "", /unknown tool "get_entty"/);
  assert.throws(
    () => fastToolListing({ readOnly: false, toolsSpec: config.mcpTools }),
    (error: Error) => error.constructor === liveError!.constructor && error.message === liveError!.message,
  );
});
