/**
 * Each MCP prompt walked as an assistant would walk it on the built-in sample catalog (`--seed`):
 * `prompts/get`, then the read-only tool calls its steps name, stopping before anything that changes the
 * catalog. Every step keeps the tool's structured answer, so a test can check that each shows real content
 * and a person can read the walk as a transcript.
 *
 * @module
 */
import type { McpClient } from "./mcp_harness.ts";

type Json = Record<string, unknown>;

/** One call of a walk: the tool, its arguments, and its structured answer. */
export interface WalkStep {
  tool: string;
  args: Json;
  isError: boolean;
  answer: Json;
}

/** A prompt's walk: its arguments, the prompt's text, and the tool calls made after it. */
export interface PromptWalk {
  prompt: string;
  args: Record<string, string>;
  text: string;
  steps: WalkStep[];
}

/** Seeded entities the walks start from (fixtures/emulator/seed.json). */
export const SEEDED = {
  orders: "ca7a1000-0000-4000-8000-000000000020",
  invoices: "ca7a1000-0000-4000-8000-000000000040",
} as const;

async function run(client: McpClient, steps: WalkStep[], tool: string, args: Json): Promise<Json> {
  const result = await client.callTool({ name: tool, arguments: args });
  const answer = (result.structuredContent ?? {}) as Json;
  steps.push({ tool, args, isError: result.isError === true, answer });
  return answer;
}

async function walk(
  client: McpClient,
  prompt: string,
  args: Record<string, string>,
  calls: (call: (tool: string, args: Json) => Promise<Json>) => Promise<void>,
): Promise<PromptWalk> {
  const got = await client.getPrompt({ name: prompt, arguments: args });
  const text = (got.messages[0].content as { text: string }).text;
  const steps: WalkStep[] = [];
  await calls((tool, toolArgs) => run(client, steps, tool, toolArgs));
  return { prompt, args, text, steps };
}

/** The five prompts walked, in the order prompts/list gives them. */
export async function walkEveryPrompt(client: McpClient): Promise<PromptWalk[]> {
  return [
    await walk(client, "register_asset", {
      asset_name: "CustomerChurn",
      type_name: "azure_sql_table",
      term_name: "Customer",
      upstream: "CustomerSales",
    }, async (call) => {
      await call("search_entities", { query: "CustomerChurn", entity_type: "azure_sql_table" });
      await call("get_typedef", { name: "azure_sql_table" });
      await call("get_glossary_terms", {});
      await call("search_entities", { query: "CustomerSales", entity_type: "azure_sql_table" });
    }),
    await walk(client, "create_domain_term", {
      domain_name: "Retail Sales",
      term_name: "Repeat Customer",
      asset_query: "customer",
    }, async (call) => {
      const { domains } = await call("uc_list_domains", {}) as {
        domains: Array<{ id: string; name: string }>;
      };
      const sales = domains.find((domain) => domain.name === "Retail Sales");
      await call("uc_list_terms", { domain_id: sales?.id ?? "" });
      await call("search_entities", { query: "customer", limit: 10 });
    }),
    await walk(
      client,
      "cleanup_metadata_definition",
      { definition_name: "DataStewardship" },
      async (call) => {
        await call("uc_list_custom_metadata_defs", {});
        await call("uc_cleanup_metadata_definition", { name: "DataStewardship", check_only: true });
      },
    ),
    await walk(client, "explore_asset", { query: "orders" }, async (call) => {
      await call("search_suggest", { keywords: "orders" });
      await call("search_entities", { query: "orders", entity_type: "azure_sql_table" });
      await call("get_entity", { guid: SEEDED.orders });
      await call("get_lineage", { guid: SEEDED.orders, direction: "downstream", depth: 3 });
      await call("get_glossary_terms", {});
    }),
    await walk(
      client,
      "cleanup_asset_metadata",
      { query: "invoices", definition_name: "Compliance" },
      async (call) => {
        await call("uc_list_custom_metadata_defs", {});
        await call("search_entities", { query: "invoices", entity_type: "azure_sql_table" });
        await call("get_entity", { guid: SEEDED.invoices, view: "full" });
      },
    ),
  ];
}
