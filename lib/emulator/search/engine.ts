/**
 * The search engine behind `POST /search/query`: keyword matching over the inverted index
 * ({@link SearchIndex}), filters, ordering, facets and continuation-token paging.
 *
 * Keywords are split into terms on whitespace and each term into words (see `tokens.ts`); an entity
 * matches when every word is one of its tokens, or the start of one, in its name, display name, qualified
 * name, description, classifications, labels, assigned terms or business metadata values. Scores weigh
 * the field (names most), the term frequency and the word's rarity, count prefix matches half, and double
 * when the name is exactly the keywords. `*` or no keywords matches everything with score 1. Hits are
 * ordered by `orderby`, then score, then name and id, so the order is total and pages never overlap.
 * Soft-deleted entities are not in the index and never match. Glossaries and terms of the glossary API are
 * documents too (see `glossary.ts`).
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { SearchIndex } from "./search_index.ts";
 * import { searchEntities } from "./engine.ts";
 * const store = EntityStore.open();
 * const result = searchEntities(SearchIndex.of(store), { keywords: "customers", limit: 10 }, Date.now());
 * console.log(result["@search.count"]); // 0
 * store.close();
 * ```
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";
import { compileFilter, requiredEntityTypes, type SearchPredicate } from "./filter.ts";
import type { IndexEntry, SearchIndex } from "./search_index.ts";
import { matchKeywords } from "./match.ts";
import {
  type FacetCounts,
  facetCounts,
  type FacetRequest,
  type Hit,
  resultItem,
  topOf,
  validateFacet,
} from "./results.ts";
import { type KeywordTerm, keywordTerms } from "./tokens.ts";

export type { FacetRequest } from "./results.ts";

/** The largest page the service returns. */
export const MAX_SEARCH_LIMIT = 1000;
/** The page size when the request sets none. */
export const DEFAULT_SEARCH_LIMIT = 50;
/** How much an entity whose name is exactly the keywords gains over the same words elsewhere. */
const EXACT_NAME_FACTOR = 2;

/** A validated search request (`QueryOptions`). */
export interface SearchRequest {
  keywords?: string | null;
  limit?: number;
  continuationToken?: string;
  filter?: unknown;
  facets?: FacetRequest[];
  /** `[{name: "ASC"}, {updateTime: "DESC"}]` */
  orderby?: Array<Record<string, string>>;
}

/** One hit (`SearchResultValue`). */
export type SearchResultItem = Record<string, unknown>;

/** The response body (`QueryResult`). */
export interface SearchResult {
  "@search.count": number;
  "@search.count.approximate": boolean;
  continuationToken?: string;
  /** The counts of the facets asked for; null when none were asked. */
  "@search.facets": FacetCounts | null;
  value: SearchResultItem[];
}

const ORDERABLE: Record<string, (e: IndexEntry) => string | number> = {
  name: (e) => e.nameKey,
  qualifiedName: (e) => e.document.qualifiedName.toLowerCase(),
  entityType: (e) => e.document.entityType,
  createTime: (e) => e.document.createTime,
  updateTime: (e) => e.document.updateTime,
};

/** Runs one search; `now` anchors relative time filters such as LAST_24H. */
export function searchEntities(index: SearchIndex, request: SearchRequest, now: number): SearchResult {
  const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
  const filter = compileFilter(request.filter, now);
  const terms = keywordTerms(request.keywords);
  const facets = (request.facets ?? []).map(validateFacet);
  const compare = hitOrder((request.orderby ?? []).map(validateOrder));
  const fingerprint = queryFingerprint(request);
  const offset = request.continuationToken ? readToken(request.continuationToken, fingerprint) : 0;

  const hits = findHits(index.refresh(), terms, filter, requiredEntityTypes(request.filter));
  const words = terms.flatMap((term) => term.parts);
  const page = topOf(hits, offset + limit, compare).slice(offset);
  const result: SearchResult = {
    "@search.count": hits.length,
    "@search.count.approximate": false,
    // The service answers `"@search.facets": null` when the query asks for no facets (Azure/azure-sdk-for-net
    // sdk/purview/Azure.Analytics.Purview.Catalog/tests/SessionRecords/CatalogClientTest/Search.json).
    "@search.facets": facets.length > 0 ? facetCounts(hits, facets) : null,
    value: page.map((hit) => resultItem(hit, words)),
  };
  // Only when more matches follow: the token is "absent if there's no more data" (QueryResult,
  // https://learn.microsoft.com/rest/api/purview/datamapdataplane/discovery/query), as in the recordings above.
  if (offset + limit < hits.length) result.continuationToken = writeToken(offset + limit, fingerprint);
  return result;
}

/**
 * Every live entry matching the keywords and the filter, scored. `types` (from
 * {@link requiredEntityTypes}) narrows a search without keywords to those types. The index must be
 * refreshed.
 */
export function findHits(
  index: SearchIndex,
  terms: KeywordTerm[],
  filter: SearchPredicate,
  types?: string[],
): Hit[] {
  const hits: Hit[] = [];
  if (terms.length === 0) {
    if (types) {
      // A slot has one type, so distinct (lower-cased) types list disjoint slots: none is visited twice.
      for (const type of new Set(types.map((t) => t.toLowerCase()))) {
        for (const slot of index.slotsOfType(type)) {
          const entry = index.entry(slot);
          if (entry !== undefined && filter(entry.document)) hits.push({ entry, score: 1 });
        }
      }
      return hits;
    }
    for (const entry of index.entries()) {
      if (filter(entry.document)) hits.push({ entry, score: 1 });
    }
    return hits;
  }
  const keywords = terms.map((term) => term.text).join(" ");
  for (const [slot, score] of matchKeywords(index, "tokens", terms)) {
    const entry = index.entry(slot)!;
    if (!filter(entry.document)) continue;
    const exact = entry.nameKey === keywords ? EXACT_NAME_FACTOR : 1;
    hits.push({ entry, score: Math.round(score * exact * 10_000) / 10_000 });
  }
  return hits;
}

/** `orderby` fields first, then score (best first), then name and id: a total order. */
function hitOrder(orderby: Array<[field: string, direction: number]>): (a: Hit, b: Hit) => number {
  const byOrderby = orderby.map(([field, direction]) => [ORDERABLE[field], direction] as const);
  return (a, b) => {
    for (const [read, direction] of byOrderby) {
      const x = read(a.entry);
      const y = read(b.entry);
      if (x !== y) return (x < y ? -1 : 1) * direction;
    }
    if (a.score !== b.score) return b.score - a.score;
    if (a.entry.nameKey !== b.entry.nameKey) return a.entry.nameKey < b.entry.nameKey ? -1 : 1;
    const x = a.entry.document.id;
    const y = b.entry.document.id;
    return x === y ? 0 : x < y ? -1 : 1;
  };
}

function validateOrder(order: Record<string, string>, index: number): [string, number] {
  const entries = Object.entries(order);
  const [field, direction] = entries[0] ?? [];
  const dir = String(direction ?? "").toUpperCase();
  if (entries.length !== 1 || !ORDERABLE[field] || (dir !== "ASC" && dir !== "DESC")) {
    throw EmulatorError.invalidParameters(
      `orderby[${index}] must be one {field: "ASC"|"DESC"} with field one of ${
        Object.keys(ORDERABLE).join(", ")
      }`,
      `orderby[${index}]`,
    );
  }
  return [field, dir === "ASC" ? 1 : -1];
}

// The token carries the offset and a fingerprint of the query, so a token is not replayed on another query.
function queryFingerprint(request: SearchRequest): string {
  const text = JSON.stringify([request.keywords ?? null, request.filter ?? null, request.orderby ?? null]);
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0).toString(36);
}

function writeToken(offset: number, fingerprint: string): string {
  return btoa(JSON.stringify({ o: offset, q: fingerprint })).replace(/=+$/, "");
}

function readToken(token: string, fingerprint: string): number {
  try {
    const parsed = JSON.parse(atob(token));
    if (Number.isInteger(parsed.o) && parsed.o >= 0 && parsed.q === fingerprint) return parsed.o;
  } catch {
    // fall through to the error below
  }
  throw EmulatorError.invalidParameters(
    "continuationToken is not valid for this query; send the same keywords, filter and orderby as the first page",
    "continuationToken",
  );
}
