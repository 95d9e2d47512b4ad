/**
 * Search operations (`govcat search …`): `query` (with repeatable `--facet`), `suggest`,
 * `autocomplete`, `browse`, and `navigate` (data-map API 2024-03-01-preview).
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import {
  MAX_BROWSE_LIMIT,
  MAX_BROWSE_OFFSET,
  MAX_SEARCH_LIMIT,
  MAX_SUGGEST_KEYWORDS,
  MAX_SUGGEST_LIMIT,
  type SearchFilter,
} from "../catalog/atlas_model.ts";
import { MAX_NAVIGATE_PAGE_SIZE } from "../catalog/navigate_types.ts";
import { defineOperation, type Operation, READ } from "./types.ts";

/** The facets the discovery contract defines (`SearchFacetResultValue`). */
export const SEARCH_FACETS = [
  "entityType",
  "assetType",
  "classification",
  "term",
  "label",
  "contactId",
  "contactType",
  "glossaryType",
  "termStatus",
  "termTemplate",
] as const;

/** Most values one facet may count (`--facet-count`). */
export const MAX_FACET_VALUES = 1000;

/** One of {@link SEARCH_FACETS}. */
export type SearchFacetName = typeof SEARCH_FACETS[number];

const entityTypeFilter = z.string().optional().describe("Only entities of this type, e.g. azure_sql_table");
const rawFilter = z.record(z.string(), z.unknown()).optional().describe("A raw search filter object (JSON)");

/** `{and: [...]}` of the clauses given, the clause itself when there is one, nothing when none. */
function combined(clauses: SearchFilter[]): SearchFilter | undefined {
  return clauses.length === 0 ? undefined : clauses.length === 1 ? clauses[0] : { and: clauses };
}

/** `search query` (alias `search`): one page of keyword search, with filters and facets. */
export const searchQuery = defineOperation({
  id: "search.query",
  group: "search",
  command: "query",
  aliases: ["search"],
  summary: "Search entities by keywords, with type, classification and collection filters",
  description: "Matches every keyword (or the start of a word) in names, qualified names, descriptions, " +
    "classifications, labels, terms and business metadata. --facet (repeatable) adds counts of each " +
    "value of that field over all matches, e.g. --facet=entityType --facet=classification.",
  input: z.object({
    keywords: z.string().default("*").describe("Keywords; * matches everything"),
    limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(50).describe(
      "Results per page, at most 1000",
    ),
    continuationToken: z.string().optional().describe("Token from the previous page"),
    entityType: entityTypeFilter,
    classification: z.string().optional().describe("Only entities with this classification"),
    collectionId: z.string().optional().describe("Only entities in this collection"),
    filter: rawFilter,
    facet: z.array(z.enum(SEARCH_FACETS)).optional().describe(
      "Count matches by this field, e.g. entityType",
    ),
    facetCount: z.number().int().min(1).max(MAX_FACET_VALUES).optional().describe(
      `Values counted per --facet, most common first (1-${MAX_FACET_VALUES}; default: the service's)`,
    ),
  }),
  annotations: READ,
  run: (ctx, input) => {
    const clauses: SearchFilter[] = [];
    if (input.entityType) clauses.push({ entityType: input.entityType });
    if (input.classification) clauses.push({ classification: input.classification });
    if (input.collectionId) clauses.push({ collectionId: input.collectionId });
    if (input.filter) clauses.push(input.filter);
    const counted = input.facetCount === undefined
      ? {}
      : { count: input.facetCount, sort: { count: "desc" as const } };
    const facets = input.facet?.length
      ? [...new Set(input.facet)].map((facet) => ({ facet, ...counted }))
      : undefined;
    return ctx.catalog().search.query(
      {
        keywords: input.keywords,
        limit: input.limit,
        continuationToken: input.continuationToken,
        filter: combined(clauses),
        facets,
      },
      ctx.signal,
    );
  },
});

const typeAheadInput = (defaultLimit: number) =>
  z.object({
    keywords: z.string().min(1).max(MAX_SUGGEST_KEYWORDS).describe(
      "What was typed so far (1-100 characters)",
    ),
    limit: z.number().int().min(1).max(MAX_SUGGEST_LIMIT).optional().describe(
      `How many to return, 1-100 (service default ${defaultLimit})`,
    ),
    entityType: entityTypeFilter,
    filter: rawFilter,
  });

function typeAheadFilter(input: { entityType?: string; filter?: SearchFilter }): SearchFilter | undefined {
  return combined([
    ...(input.entityType ? [{ entityType: input.entityType }] : []),
    ...(input.filter ? [input.filter] : []),
  ]);
}

/** `search suggest`: entities whose names start with the typed keywords. */
export const searchSuggest = defineOperation({
  id: "search.suggest",
  group: "search",
  command: "suggest",
  summary: "Suggest entities whose names start with the typed keywords",
  description: "Each suggestion is a search item plus @search.text, the name with the match in <em>.",
  input: typeAheadInput(5),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().search.suggest({
      keywords: input.keywords,
      limit: input.limit,
      filter: typeAheadFilter(input),
    }, ctx.signal),
});

/** `search autocomplete`: completions of the last typed word. */
export const searchAutocomplete = defineOperation({
  id: "search.autocomplete",
  group: "search",
  command: "autocomplete",
  summary: "Complete the last typed word from the names in the catalog",
  description: "Each completion has text (the completed word) and queryPlusText (the whole query with it).",
  input: typeAheadInput(50),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().search.autocomplete({
      keywords: input.keywords,
      limit: input.limit,
      filter: typeAheadFilter(input),
    }, ctx.signal),
});

/** `search browse`: one level of the catalog tree, by entity type or by path. */
export const searchBrowse = defineOperation({
  id: "search.browse",
  group: "search",
  command: "browse",
  summary: "Browse the catalog tree: every entity of a type, or the children of a path",
  description: "Start with --entity-type (e.g. azure_sql_server); each item's path, passed as --path, " +
    "lists that item's children. isLeaf is true when an item has none.",
  input: z.object({
    entityType: z.string().optional().describe("Browse every entity of this type"),
    path: z.string().optional().describe(
      "Browse the children of the entity at this path (from an item's path)",
    ),
    limit: z.number().int().min(1).max(MAX_BROWSE_LIMIT).optional().describe("Items per page, 1-10000"),
    offset: z.number().int().min(0).max(MAX_BROWSE_OFFSET).optional().describe("Items to skip, 0-100000"),
  }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().search.browse({
      entityType: input.entityType,
      path: input.path,
      limit: input.limit,
      offset: input.offset,
    }, ctx.signal),
});

/** The path one level below `path`: `item` appended with one `/`. */
export function childPath(path: string, item: string): string {
  return `${path.replace(/\/+$/, "")}/${item}`;
}

/** `search navigate`: one level of the asset-type tree (data-map API 2024-03-01-preview). */
export const searchNavigate = defineOperation({
  id: "search.navigate",
  group: "search",
  command: "navigate",
  aliases: ["navigation"],
  summary: "Walk the catalog by asset type, one level at a time",
  description: "Start at --path=/ (the entity types of the top-level assets); each item's fullPath, " +
    "passed as --path, lists the level below it (assets, then their children grouped by type). " +
    "isLeafNode is true when nothing is below an item. Sent with api-version 2024-03-01-preview.",
  input: z.object({
    path: z.string().default("/").describe("Level to list: / for the top, then names joined by /"),
    includeNextLevelAssetCount: z.boolean().optional().describe("Count what is below each item"),
    navigationMode: z.enum(["assetType", "azureResourceHierarchy"]).optional().describe(
      "assetType (the default) or azureResourceHierarchy",
    ),
    maxPageSize: z.number().int().min(1).max(MAX_NAVIGATE_PAGE_SIZE).optional().describe(
      "Items per page, 1-10000",
    ),
    continuationToken: z.string().min(1).optional().describe("The previous page's continuationToken"),
  }),
  annotations: READ,
  run: async (ctx, input) => {
    const result = await ctx.catalog().search.navigate(
      {
        navigationMode: input.navigationMode,
        itemPath: { path: input.path },
        includeNextLevelAssetCount: input.includeNextLevelAssetCount,
      },
      { maxPageSize: input.maxPageSize, continuationToken: input.continuationToken },
      ctx.signal,
    );
    const items = (result.items ?? []).map((item) => ({
      ...item,
      fullPath: childPath(input.path, item.itemPath.path),
    }));
    return { ...result, items };
  },
});

/** Search operations beyond `query` (suggest, autocomplete, browse, navigate). */
export const SEARCH_OPERATIONS: Operation[] = [
  searchSuggest,
  searchAutocomplete,
  searchBrowse,
  searchNavigate,
];
