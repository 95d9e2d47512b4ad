/**
 * Search operations (`govcat search …`).
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { MAX_SEARCH_LIMIT, type SearchFilter } from "../catalog/types.ts";
import { defineOperation, type Operation, READ } from "./types.ts";

export const searchQuery = defineOperation({
  id: "search.query",
  group: "search",
  command: "query",
  aliases: ["search"],
  summary: "Search entities by keywords, with type, classification and collection filters",
  input: z.object({
    keywords: z.string().default("*").describe("Keywords; * matches everything"),
    limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(50).describe(
      "Results per page, at most 1000",
    ),
    continuationToken: z.string().optional().describe("Token from the previous page"),
    entityType: z.string().optional().describe("Only entities of this type, e.g. azure_sql_table"),
    classification: z.string().optional().describe("Only entities with this classification"),
    collectionId: z.string().optional().describe("Only entities in this collection"),
    filter: z.record(z.string(), z.unknown()).optional().describe("A raw search filter object (JSON)"),
  }),
  annotations: READ,
  run: (ctx, input) => {
    const clauses: SearchFilter[] = [];
    if (input.entityType) clauses.push({ entityType: input.entityType });
    if (input.classification) clauses.push({ classification: input.classification });
    if (input.collectionId) clauses.push({ collectionId: input.collectionId });
    if (input.filter) clauses.push(input.filter);
    const filter = clauses.length === 0 ? undefined : clauses.length === 1 ? clauses[0] : { and: clauses };
    return ctx.catalog().search.query(
      { keywords: input.keywords, limit: input.limit, continuationToken: input.continuationToken, filter },
      ctx.signal,
    );
  },
});

/** Search operations beyond `query` (suggest, autocomplete, browse). */
export const SEARCH_OPERATIONS: Operation[] = [];
