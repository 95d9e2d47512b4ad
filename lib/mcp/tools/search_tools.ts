/**
 * search_entities: keyword search bounded by `limit`, with a continuation token for more.
 *
 * @module
 */
import { MAX_SEARCH_LIMIT, type SearchFilter } from "../../catalog/types.ts";
import { z } from "../../deps/zod.ts";
import { defineTool, READ_ONLY, type ToolDefinition } from "../tool.ts";

const hit = z.object({
  guid: z.string().optional(),
  name: z.string().optional(),
  qualified_name: z.string().optional(),
  entity_type: z.string().optional(),
  description: z.string().optional(),
  classifications: z.array(z.string()).optional(),
  collection_id: z.string().optional(),
  score: z.number().optional(),
});

export const searchEntitiesTool = defineTool({
  name: "search_entities",
  title: "Search entities",
  description: "Keyword search over catalog entities (names, qualified names, descriptions, " +
    "classifications, terms). Narrow with entity_type (e.g. azure_sql_table), classification (e.g. " +
    "MICROSOFT.PERSONAL.EMAIL) or collection_id. Returns at most `limit` hits; when `truncated` is true, " +
    "pass `continuation_token` to get the next page. Use get_entity on a hit's guid for full details.",
  input: z.object({
    query: z.string().describe("Keywords; * matches everything"),
    limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(25).describe("Hits per page (1-1000)"),
    entity_type: z.string().optional().describe("Only this type, e.g. azure_sql_table"),
    classification: z.string().optional().describe("Only assets with this classification"),
    collection_id: z.string().optional().describe("Only assets in this collection"),
    continuation_token: z.string().optional().describe("From the previous page's answer"),
  }),
  output: z.object({
    count: z.number().describe("Total matches"),
    results: z.array(hit),
    truncated: z.boolean().describe("More matches exist than returned"),
    continuation_token: z.string().optional(),
  }),
  annotations: READ_ONLY,
  handler: async (ctx, input) => {
    const clauses: SearchFilter[] = [];
    if (input.entity_type) clauses.push({ entityType: input.entity_type });
    if (input.classification) clauses.push({ classification: input.classification });
    if (input.collection_id) clauses.push({ collectionId: input.collection_id });
    const page = await ctx.services.catalog().search.query({
      keywords: input.query,
      limit: input.limit,
      continuationToken: input.continuation_token,
      filter: clauses.length === 0 ? undefined : clauses.length === 1 ? clauses[0] : { and: clauses },
    }, ctx.signal);
    const results = (page.value ?? []).map((item) => ({
      guid: item.id,
      name: item.name,
      qualified_name: item.qualifiedName,
      entity_type: item.entityType,
      description: item.description,
      classifications: Array.isArray(item.classification) ? item.classification.map(String) : undefined,
      collection_id: typeof item.collectionId === "string" ? item.collectionId : undefined,
      score: item["@search.score"],
    }));
    const count = page["@search.count"] ?? results.length;
    return {
      count,
      results,
      truncated: page.continuationToken !== undefined && page.continuationToken !== null,
      continuation_token: page.continuationToken ?? undefined,
    };
  },
});

/** Search tools beyond search_entities (search_suggest, search_browse). */
export const SEARCH_TOOLS: ToolDefinition[] = [];
