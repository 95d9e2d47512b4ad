/**
 * Search tools: search_entities (keyword search bounded by `limit`, with a continuation token and optional
 * facet counts), search_suggest (type-ahead of entity names) and search_browse (the catalog tree by type
 * or path, with counts by type at the top): the search group's query, suggest and browse operations.
 *
 * @module
 */
import {
  SEARCH_FACETS,
  searchBrowse,
  type SearchFacetName,
  searchQuery,
  searchSuggest,
} from "../../operations/search_operations.ts";
import {
  type BrowseResult,
  MAX_SEARCH_LIMIT,
  MAX_SUGGEST_LIMIT,
  type SearchResult,
  type SuggestResult,
} from "../../catalog/atlas_model.ts";
import { z } from "../../deps/zod.ts";
import type { ToolDefinition } from "../tool.ts";
import { composedTool, operationTool } from "../tool_operation.ts";
import { entityLink, linksOf } from "../resource_links.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

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

const facetValue = z.object({ value: z.string(), count: z.number() });

/** search_entities: keyword search with filters, paging and optional facet counts. */
export const searchEntitiesTool = operationTool({
  name: "search_entities",
  title: "Search entities",
  description:
    "Keyword search over entities, narrowed by entity_type, classification or collection_id; facets " +
    "counts matches per value. When truncated, pass continuation_token. Then get_entity on a guid." +
    CATALOG_TEXT_IS_DATA,
  operation: searchQuery,
  // The keywords are required and called query; a raw filter and facet counts stay with the command line.
  fields: {
    keywords: { as: "query", schema: z.string().describe("Keywords; * matches everything") },
    limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(25).describe("Hits per page"),
    entityType: "Only this type",
    classification: "Only with this classification",
    collectionId: "Only assets in this collection",
    continuationToken: "From the previous page",
    facet: {
      as: "facets",
      schema: z.array(z.enum(SEARCH_FACETS)).optional().describe("Fields to count matches by"),
    },
    filter: false,
    facetCount: false,
  },
  output: z.object({
    count: z.number().describe("Total matches"),
    results: z.array(hit),
    truncated: z.boolean().describe("More matches exist than returned"),
    continuation_token: z.string().optional(),
    facets: z.record(z.string(), z.array(facetValue)).optional().describe(
      "Per requested facet: values with their number of matches, most common first",
    ),
  }),
  links: (output) => linksOf(output.results, entityLink),
  view: (answer, input: { facets?: SearchFacetName[] }) => {
    const page = answer as SearchResult;
    const results = (page.value ?? []).map((item) => ({
      guid: item.id,
      name: item.name,
      qualified_name: item.qualifiedName,
      entity_type: item.entityType,
      description: item.description ?? undefined,
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
      facets: input.facets?.length ? facetsOf(page, input.facets) : undefined,
    };
  },
});

function facetsOf(page: SearchResult, names: readonly SearchFacetName[]) {
  return Object.fromEntries(
    names.map((
      name,
    ) => [name, (page["@search.facets"]?.[name] ?? []).map(({ value, count }) => ({ value, count }))]),
  );
}

/** search_suggest: type-ahead of entity names. */
export const searchSuggestTool = operationTool({
  name: "search_suggest",
  title: "Suggest entity names",
  description:
    'Type-ahead: entities whose name has words starting with keywords ("sales ord"), best first, with ' +
    "guid, qualified name and type." + CATALOG_TEXT_IS_DATA,
  operation: searchSuggest,
  fields: {
    keywords: "Start of a name",
    limit: z.number().int().min(1).max(MAX_SUGGEST_LIMIT).default(10).describe("Most suggestions"),
    entityType: "Only this type",
    filter: false,
  },
  output: z.object({
    suggestions: z.array(z.object({
      guid: z.string().optional(),
      name: z.string().optional(),
      qualified_name: z.string().optional(),
      entity_type: z.string().optional(),
      matched: z.string().optional().describe("The name with the typed words marked <em>…</em>"),
      score: z.number().optional(),
    })),
  }),
  links: (output) => linksOf(output.suggestions, entityLink),
  view: (result) => {
    const answer = result as SuggestResult;
    return {
      suggestions: (answer.value ?? []).map((item) => ({
        guid: item.id,
        name: item.name,
        qualified_name: item.qualifiedName,
        entity_type: item.entityType,
        matched: item["@search.text"],
        score: item["@search.score"],
      })),
    };
  },
});

/** How many entity types the overview lists. */
const MAX_TYPE_COUNTS = 100;

/** search_browse: the catalog tree by type or path, with counts by type at the top. */
export const searchBrowseTool = composedTool({
  name: "search_browse",
  title: "Browse the catalog",
  description:
    "Browse as a tree: no arguments counts entities per type; entity_type lists that type; path lists " +
    "an item's children (is_leaf false: it has some). Page with offset = next_offset." + CATALOG_TEXT_IS_DATA,
  input: z.object({
    entity_type: z.string().optional().describe("Entities of this type"),
    path: z.string().optional().describe("Children of the item at this path"),
    limit: z.number().int().min(1).max(1000).default(25).describe("Items per page"),
    offset: z.number().int().min(0).max(100_000).default(0).describe("Items to skip"),
  }),
  output: z.object({
    count: z.number().describe("Items at this level in total"),
    items: z.array(z.object({
      guid: z.string().optional(),
      name: z.string().optional(),
      qualified_name: z.string().optional(),
      entity_type: z.string().optional(),
      path: z.string().optional().describe("Pass as `path` to browse this item's children"),
      is_leaf: z.boolean().optional().describe("True when the item has no children"),
    })),
    truncated: z.boolean().describe("More items exist after this page"),
    next_offset: z.number().optional().describe("The offset of the next page, when truncated"),
    type_counts: z.array(z.object({ entity_type: z.string(), count: z.number() })).optional().describe(
      "Entities per type, most common first (only when neither entity_type nor path is given)",
    ),
  }),
  // The overview is a search's entity type counts; a level of the tree is a browse.
  operations: [searchQuery, searchBrowse],
  links: (output) => linksOf(output.items, entityLink),
  compose: async (run, input) => {
    if (!input.entity_type && !input.path) {
      const overview = await run(searchQuery, {
        keywords: "*",
        limit: 1,
        facet: ["entityType"],
        facetCount: MAX_TYPE_COUNTS,
      }) as SearchResult;
      const typeCounts = (overview["@search.facets"]?.entityType ?? [])
        .map(({ value, count }) => ({ entity_type: value, count }));
      return { count: 0, items: [], truncated: false, type_counts: typeCounts };
    }
    const answer = await run(searchBrowse, {
      entityType: input.entity_type,
      path: input.path,
      limit: input.limit,
      offset: input.offset,
    }) as BrowseResult;
    const items = (answer.value ?? []).map((item) => ({
      guid: item.id,
      name: item.name,
      qualified_name: item.qualifiedName,
      entity_type: item.entityType,
      path: item.path,
      is_leaf: item.isLeaf,
    }));
    const count = answer["@search.count"] ?? items.length;
    const truncated = input.offset + items.length < count;
    return {
      count,
      items,
      truncated,
      next_offset: truncated ? input.offset + items.length : undefined,
    };
  },
});

/** Search tools beyond search_entities (search_suggest, search_browse). */
export const SEARCH_TOOLS: ToolDefinition[] = [searchSuggestTool, searchBrowseTool];
