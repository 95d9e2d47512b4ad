/**
 * tools/list is what every session pays in context before its first word: served to a real SDK
 * client it stays within its budget, and the shorter output schemas it lists still hold what the tools
 * return: the SDK client checks every structuredContent against the listed schema on callTool, so each
 * call below fails if a listed schema is stricter than the answer.
 */
import assert from "node:assert/strict";
import { TOOLS_LIST_BUDGET_BYTES } from "../../../lib/mcp/listed_schema.ts";
import { ALL_TOOLS } from "../../../lib/mcp/tools/mod.ts";
import { startHarness } from "../../support/mcp_harness.ts";

const SEEDED_TABLE = "ca7a1000-0000-4000-8000-000000000010";
const OTHER_TABLE = "ca7a1000-0000-4000-8000-000000000020";

Deno.test("tools/list as an SDK client receives it is within its budget and lists every tool", async () => {
  const harness = await startHarness();
  try {
    const { tools } = await harness.client.listTools();
    assert.equal(tools.length, ALL_TOOLS.length);
    const bytes = new TextEncoder().encode(JSON.stringify({ tools })).length;
    assert.ok(
      bytes <= TOOLS_LIST_BUDGET_BYTES,
      `tools/list is ${bytes} bytes, over ${TOOLS_LIST_BUDGET_BYTES}`,
    );
    for (const tool of tools) {
      // A field may be called "description"; prose is a string under that key.
      const prose = JSON.stringify(tool.outputSchema).match(/"description":"/g);
      assert.equal(prose, null, `${tool.name}: no prose in the output schema`);
      assert.ok(Object.keys(tool.outputSchema?.properties ?? {}).length > 0, `${tool.name}: output fields`);
    }
  } finally {
    await harness.close();
  }
});

/**
 * The original set of 39 tools must list in 40 KB. The tools added since
 * (collection roles, workflows, data quality, unified catalog data assets, lineage impact) are counted in
 * the budget above.
 */
const ADDED_SINCE_FIRST_SET = new Set([
  "list_collection_roles",
  "set_collection_role",
  "list_my_approvals",
  "decide_approval",
  "get_data_quality",
  "uc_list_data_assets",
  "uc_get_data_asset",
  "analyze_lineage_impact",
]);

Deno.test("tools/list: the original 39 tools list in 40 KB", async () => {
  const harness = await startHarness();
  try {
    const { tools } = await harness.client.listTools();
    const measured = tools.filter((tool) => !ADDED_SINCE_FIRST_SET.has(tool.name));
    assert.equal(measured.length, 39);
    const bytes = new TextEncoder().encode(JSON.stringify({ tools: measured })).length;
    assert.ok(bytes <= 40_000, `the 39 tools list in ${bytes} bytes, over 40,000`);
  } finally {
    await harness.close();
  }
});

/** Calls the SDK client validates against the listed output schemas: reads, a write, nested answers. */
const CALLS: Array<[string, Record<string, unknown>]> = [
  ["get_entity", { guid: SEEDED_TABLE }],
  ["get_entity", { guid: SEEDED_TABLE, view: "full" }],
  ["search_entities", { query: "*", limit: 3, facets: ["entityType"] }],
  ["search_browse", {}],
  ["create_lineage", { source_guids: [SEEDED_TABLE], target_guids: [OTHER_TABLE], process_name: "copy" }],
  ["get_lineage", { guid: SEEDED_TABLE }],
  ["list_collections", {}],
  ["get_glossary_terms", {}],
  ["uc_list_domains", {}],
  ["list_typedefs", { category: "entity", limit: 5 }],
  ["get_account_properties", {}],
  ["list_available_operations", {}],
  ["list_available_operations", { category: "glossary" }],
  ["batch_create_entities", {
    entities: [
      { type_name: "DataSet", qualified_name: "ds://size/a", name: "a" },
      { type_name: "NoSuchType", qualified_name: "ds://size/b", name: "b" },
    ],
    detail: "full",
  }],
];

Deno.test("the listed output schemas hold what the tools return (the SDK client validates each call)", async (t) => {
  const harness = await startHarness();
  try {
    // listTools gives the client the schemas it validates callTool answers against.
    const { tools } = await harness.client.listTools();
    for (const [name, args] of CALLS) {
      await t.step(`${name} ${JSON.stringify(args).slice(0, 60)}`, async () => {
        assert.ok(tools.find((tool) => tool.name === name)?.outputSchema, `${name} lists an output schema`);
        const result = await harness.client.callTool({ name, arguments: args });
        assert.notEqual(result.isError, true, JSON.stringify(result.content).slice(0, 400));
        assert.ok(result.structuredContent, `${name}: structured content the client has validated`);
      });
    }
  } finally {
    await harness.close();
  }
});
