/**
 * search_entities: keyword search bounded by `limit`, with a continuation token for more.
 *
 * @module
 */
import { MAX_SEARCH_LIMIT, type SearchFilter } from "../../catalog/types.ts";
import { z } from "../../deps/zod.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

const hit = z.object({
  guid: z.string().optional(),
  name: z.string().optional(),
  qualifiedName: z.string().optional(),
  entityType: z.string().optional(),
  description: z.string().optional(),
  classifications: z.array(z.string()).optional(),
  collectionId: z.string().optional(),
  score: z.number().optional(),
});

export const searchEntitiesTool = defineTool({
  name: "search_entities",
  title: "Search entities",
  description: "Keyword search over catalog entities (names, qualified names, descriptions, " +
    "classifications, terms). Narrow with entityType (e.g. azure_sql_table), classification (e.g. " +
    "MICROSOFT.PERSONAL.EMAIL) or collectionId. Returns at most `limit` hits; when `truncated` is true, " +
    "pass `continuationToken` to get the next page. Use get_entity on a hit's guid for full details.",
  input: z.object({
    query: z.string().describe("Keywords; * matches everything"),
    limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(25).describe("Hits per page (1-1000)"),
    entityType: z.string().optional(),
    classification: z.string().optional(),
    collectionId: z.string().optional(),
    continuationToken: z.string().optional().describe("From the previous page's answer"),
  }),
  output: z.object({
    count: z.number().describe("Total matches"),
    results: z.array(hit),
    truncated: z.boolean().describe("More matches exist than returned"),
    continuationToken: z.string().optional(),
  }),
  annotations: READ_ONLY,
  handler: async (ctx, input) => {
    const clauses: SearchFilter[] = [];
    if (input.entityType) clauses.push({ entityType: input.entityType });
    if (input.classification) clauses.push({ classification: input.classification });
    if (input.collectionId) clauses.push({ collectionId: input.collectionId });
    const page = await ctx.services.catalog().search.query({
      keywords: input.query,
      limit: input.limit,
      continuationToken: input.continuationToken,
      filter: clauses.length === 0 ? undefined : clauses.length === 1 ? clauses[0] : { and: clauses },
    }, ctx.signal);
    const results = (page.value ?? []).map((item) => ({
      guid: item.id,
      name: item.name,
      qualifiedName: item.qualifiedName,
      entityType: item.entityType,
      description: item.description,
      classifications: Array.isArray(item.classification) ? item.classification.map(String) : undefined,
      collectionId: typeof item.collectionId === "string" ? item.collectionId : undefined,
      score: item["@search.score"],
    }));
    const count = page["@search.count"] ?? results.length;
    return {
      count,
      results,
      truncated: page.continuationToken !== undefined && page.continuationToken !== null,
      continuationToken: page.continuationToken ?? undefined,
    };
  },
});
