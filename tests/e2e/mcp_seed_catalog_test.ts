/**
 * The sample catalog from an assistant's side: `govcat serve --emulator` as a subprocess and a real SDK
 * client walking each of the five prompts (tests/support/prompt_walks.ts). Every tool call a prompt leads
 * to finds real content: lineage three hops deep with column mappings, two governance domains with terms,
 * glossary terms assigned to assets, business metadata definitions carried by assets.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { startServe } from "../support/serve_process.ts";
import { type PromptWalk, walkEveryPrompt, type WalkStep } from "../support/prompt_walks.ts";

type Json = Record<string, unknown>;

function step(walk: PromptWalk, tool: string, nth = 0): Json {
  const found = walk.steps.filter((s: WalkStep) => s.tool === tool)[nth];
  assert.ok(found, `${walk.prompt}: no ${tool} call`);
  return found.answer;
}

const names = (items: unknown) => (items as Array<{ name: string }>).map((item) => item.name);

Deno.test("every prompt has real content to show on the seeded catalog, over serve --emulator", async () => {
  const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
  const server = await startServe(["--emulator", "--transport=http", "--port=0"]);
  const client = new Client({ name: "seed-walk", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const walks = await walkEveryPrompt(client);
    assert.equal(walks.length, 5);
    for (const walk of walks) {
      assert.ok(walk.text.length > 0, walk.prompt);
      for (const s of walk.steps) {
        assert.equal(s.isError, false, `${walk.prompt}: ${s.tool} ${JSON.stringify(s.answer)}`);
      }
    }
    const [register, domainTerm, cleanupDefinition, explore, cleanupAsset] = walks;

    assert.ok(names(step(register, "get_glossary_terms").terms).includes("Customer"));
    assert.equal(step(register, "search_entities", 1).count, 1, "the upstream CustomerSales is found");

    const domains = step(domainTerm, "uc_list_domains");
    assert.equal(domains.count, 2);
    assert.deepEqual(names(domains.domains), ["Retail Sales", "Corporate Finance"]);
    assert.equal((step(domainTerm, "uc_list_terms").terms as unknown[]).length, 3);
    assert.ok(Number(step(domainTerm, "search_entities").count) > 0);

    assert.deepEqual(names(step(cleanupDefinition, "uc_list_custom_metadata_defs").definitions), [
      "DataStewardship",
      "Compliance",
    ]);
    assert.equal((step(cleanupDefinition, "uc_cleanup_metadata_definition").assets as unknown[]).length, 4);

    assert.ok((step(explore, "search_suggest").suggestions as unknown[]).length > 0);
    const orders = step(explore, "get_entity").entity as { terms: Array<{ name: string }> };
    assert.deepEqual(names(orders.terms), ["Order"]);
    const lineage = step(explore, "get_lineage") as {
      nodes: Array<{ type_name: string; kind: string; column_mappings?: unknown[] }>;
    };
    assert.ok(lineage.nodes.length >= 4, `${lineage.nodes.length} nodes`);
    const processes = lineage.nodes.filter((node) => node.kind === "process");
    assert.equal(processes.length, 3, "three hops: to the lake, to the curated table, to Power BI");
    assert.ok(
      processes.every((process) => (process.column_mappings ?? []).length > 0),
      "column-level lineage",
    );
    assert.ok(
      lineage.nodes.some((node) => node.type_name === "powerbi_dataset"),
      "the Power BI dataset at the end",
    );
    assert.equal((step(explore, "get_glossary_terms").terms as unknown[]).length, 8);

    const invoices = step(cleanupAsset, "get_entity").entity as { businessAttributes?: Json };
    assert.deepEqual(invoices.businessAttributes?.Compliance, { gdprRelevant: false, dataResidency: "US" });
  } finally {
    await client.close();
    await server.stop();
  }
});
