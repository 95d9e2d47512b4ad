/**
 * `POST /search/suggest` and `POST /search/autocomplete`: type-ahead over entity names.
 *
 * Suggest returns the entities whose name (or display name) has every typed word as a word or the start of
 * one, best first, each with `@search.text`: the name with the matching words in `<em>`. Autocomplete
 * returns completions of the last typed word taken from the names of the entities that match the words
 * before it (and the filter), the most common first, each as `text` and the whole query with it
 * (`queryPlusText`).
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { SearchIndex } from "./search_index.ts";
 * import { autocomplete, suggest } from "./suggest.ts";
 * const store = EntityStore.open();
 * const index = SearchIndex.of(store);
 * console.log(suggest(index, { keywords: "cust" }, Date.now()).value); // []
 * console.log(autocomplete(index, { keywords: "cust" }, Date.now()).value); // []
 * store.close();
 * ```
 *
 * @module
 */
import { compileFilter } from "./filter.ts";
import type { IndexEntry, SearchIndex } from "./search_index.ts";
import { matchKeywords } from "./match.ts";
import { documentFields, type Hit, topOf } from "./results.ts";
import { highlight, keywordTerms } from "./tokens.ts";

/** Largest `limit` of suggest and autocomplete. */
export const MAX_SUGGEST_LIMIT = 100;
/** Longest `keywords` of suggest and autocomplete. */
export const MAX_SUGGEST_KEYWORDS = 100;
/** Suggestions when the request sets no limit (contract default). */
export const DEFAULT_SUGGEST_LIMIT = 5;
/** Completions when the request sets no limit (contract default). */
export const DEFAULT_AUTOCOMPLETE_LIMIT = 50;

/** A validated suggest or autocomplete request (`SuggestOptions`, `AutoCompleteOptions`). */
export interface TypeAheadRequest {
  keywords: string;
  limit?: number;
  filter?: unknown;
}

/** One completion (`AutoCompleteResultValue`). */
export interface Completion {
  text: string;
  queryPlusText: string;
}

/** Entities whose names start with what was typed (`SuggestResult`). */
export function suggest(
  index: SearchIndex,
  request: TypeAheadRequest,
  now: number,
): { value: Array<Record<string, unknown>> } {
  const filter = compileFilter(request.filter, now);
  const terms = keywordTerms(request.keywords);
  index.refresh();
  if (terms.length === 0) return { value: [] };
  const hits: Hit[] = [];
  for (const [slot, score] of matchKeywords(index, "nameTokens", terms)) {
    const entry = index.entry(slot)!;
    if (filter(entry.document)) hits.push({ entry, score: Math.round(score * 10_000) / 10_000 });
  }
  const words = terms.flatMap((term) => term.parts);
  const best = topOf(hits, request.limit ?? DEFAULT_SUGGEST_LIMIT, bySuggestion);
  return { value: best.map((hit) => suggestion(hit, words)) };
}

// Best score first; among equals the shorter name, which the typed words cover more of.
function bySuggestion(a: Hit, b: Hit): number {
  if (a.score !== b.score) return b.score - a.score;
  const x = a.entry.nameKey;
  const y = b.entry.nameKey;
  if (x.length !== y.length) return x.length - y.length;
  if (x !== y) return x < y ? -1 : 1;
  return a.entry.document.id < b.entry.document.id ? -1 : 1;
}

function suggestion(hit: Hit, words: string[]): Record<string, unknown> {
  const d = hit.entry.document;
  const text = highlight(d.name, words, "chunk") ??
    (d.displayName ? highlight(d.displayName, words, "chunk") : undefined) ?? d.name;
  const item: Record<string, unknown> = { "@search.score": hit.score, "@search.text": text };
  // The contract types these fields as strings: leave out what the entity does not have...
  for (const [field, value] of Object.entries(documentFields(d))) {
    if (value !== null && value !== undefined) item[field] = value;
  }
  // ...but an asset's owner and description, which the service sends as null when the asset has none
  // (Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Catalog/tests/SessionRecords/CatalogClientTest/Suggest.json).
  if (!d.glossaryRecord) {
    item.owner ??= null;
    item.description ??= null;
  }
  return item;
}

const LAST_WORD = /[\p{L}\p{N}]+$/u;

/** Completions of the last typed word (`AutoCompleteResult`). */
export function autocomplete(
  index: SearchIndex,
  request: TypeAheadRequest,
  now: number,
): { value: Completion[] } {
  const filter = compileFilter(request.filter, now);
  index.refresh();
  const typed = request.keywords.trim();
  const last = LAST_WORD.exec(typed);
  if (!last) return { value: [] };
  const prefix = last[0].toLowerCase();
  const head = typed.slice(0, last.index);
  const headTerms = keywordTerms(head);
  const candidates = headTerms.length > 0 ? matchKeywords(index, "nameTokens", headTerms) : undefined;
  if (candidates?.size === 0) return { value: [] };

  const unfiltered = request.filter === undefined || request.filter === null;
  // Many completions share documents; the filter runs once per document.
  const verdicts = new Map<number, boolean>();
  const admitted = (slot: number): boolean => {
    if (candidates && !candidates.has(slot)) return false;
    let verdict = verdicts.get(slot);
    if (verdict === undefined) {
      const entry: IndexEntry | undefined = index.entry(slot);
      verdict = entry !== undefined && filter(entry.document);
      verdicts.set(slot, verdict);
    }
    return verdict;
  };
  const counted: Array<{ token: string; count: number }> = [];
  for (const token of index.nameTokens.withPrefix(prefix)) {
    let count = 0;
    if (unfiltered && !candidates) {
      count = index.nameTokens.documentFrequency(token);
    } else {
      for (const slot of index.nameTokens.get(token)!.slots) if (admitted(slot)) count += 1;
    }
    if (count > 0) counted.push({ token, count });
  }
  const best = topOf(
    counted,
    request.limit ?? DEFAULT_AUTOCOMPLETE_LIMIT,
    (a, b) => b.count - a.count || a.token.length - b.token.length || (a.token < b.token ? -1 : 1),
  );
  return { value: best.map(({ token }) => ({ text: token, queryPlusText: head + token })) };
}
