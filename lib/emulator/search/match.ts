/**
 * Keyword matching over the inverted index: which documents hold every keyword, and how well.
 *
 * Each word of each keyword term is a clause every match must satisfy: the document holds the word as a
 * token, or a token the word is a prefix of (`cust` finds `customers`). A clause scores
 * `idf × tf × (k + 1) / (tf + k)` (BM25's saturation, with `tf` the token's field-weighted frequency); a
 * prefix match takes the idf of every document the prefix reaches and counts half, so whole words rank
 * first. A document's score is the sum over clauses. Clauses are
 * evaluated rarest first, and each later clause only visits the documents still in the running.
 * A term typed with separators inside (`orders.parquet`) must also appear verbatim in one of the texts.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { SearchIndex } from "./search_index.ts";
 * import { matchKeywords } from "./match.ts";
 * import { keywordTerms } from "./tokens.ts";
 * const store = EntityStore.open();
 * const scores = matchKeywords(SearchIndex.of(store).refresh(), "tokens", keywordTerms("customers"));
 * console.log(scores.size); // 0
 * store.close();
 * ```
 *
 * @module
 */
import type { IndexEntry, SearchIndex } from "./search_index.ts";
import { nameTexts, searchableTexts } from "./indexed_document.ts";
import type { TermPostings } from "./postings.ts";
import type { KeywordTerm } from "./tokens.ts";

/** How much less a prefix match counts than the whole word. */
export const PREFIX_MATCH_FACTOR = 0.5;
const SATURATION = 1.2;

/** Which postings to match against: every searchable field, or names only. */
export type MatchField = "tokens" | "nameTokens";

interface Clause {
  word: string;
  tokens: string[];
  cost: number;
}

/**
 * Slot → score of every live document matching all `terms` in `field`. Filters are the caller's: applied
 * to this (already intersected) set they run on the fewest documents. Empty terms match nothing here;
 * callers treat "no keywords" themselves.
 */
export function matchKeywords(
  index: SearchIndex,
  field: MatchField,
  terms: KeywordTerm[],
): Map<number, number> {
  const postings = index[field];
  const clauses: Clause[] = [];
  for (const term of terms) {
    for (const word of term.parts) {
      const tokens = postings.withPrefix(word);
      if (tokens.length === 0) return new Map();
      const cost = tokens.reduce((sum, token) => sum + postings.documentFrequency(token), 0);
      clauses.push({ word, tokens, cost });
    }
  }
  clauses.sort((a, b) => a.cost - b.cost);

  const total = Math.max(1, index.size);
  let running: Map<number, number> | undefined;
  for (const clause of clauses) {
    const scores = clauseScores(postings, clause, total, running);
    if (running) {
      for (const [slot, score] of scores) scores.set(slot, score + running.get(slot)!);
    }
    running = scores;
    if (running.size === 0) return running;
  }
  const matches = running ?? new Map<number, number>();
  for (const term of terms) {
    if (!term.phrase) continue;
    for (const slot of matches.keys()) {
      if (!containsPhrase(index.entry(slot)!, field, term.text)) matches.delete(slot);
    }
  }
  return matches;
}

// Best score of one clause per slot: the exact word or the best of the tokens it prefixes.
function clauseScores(
  postings: TermPostings,
  clause: Clause,
  total: number,
  running: Map<number, number> | undefined,
): Map<number, number> {
  const scores = new Map<number, number>();
  // A prefix is as specific as all the words it starts, together: a rare completion must not outrank the
  // word itself. So prefix matches share the idf of the clause's summed document frequency.
  const prefixWeight = PREFIX_MATCH_FACTOR * inverseDocumentFrequency(Math.min(total, clause.cost), total);
  for (const token of clause.tokens) {
    const posting = postings.get(token)!;
    const weight = token === clause.word
      ? inverseDocumentFrequency(posting.documentFrequency, total)
      : prefixWeight;
    const { slots, weights } = posting;
    const keep = (i: number) => {
      const tf = weights[i];
      const score = weight * (tf * (SATURATION + 1)) / (tf + SATURATION);
      const previous = scores.get(slots[i]);
      if (previous === undefined || score > previous) scores.set(slots[i], score);
    };
    if (running && running.size * Math.log2(slots.length + 1) < slots.length) {
      // Few documents left and a long posting (a common word after a rare one): look each one up.
      for (const slot of running.keys()) {
        const i = indexOfSlot(slots, slot);
        if (i >= 0) keep(i);
      }
      continue;
    }
    for (let i = 0; i < slots.length; i++) {
      // Later clauses only visit the slots every earlier clause let through.
      if (!running || running.has(slots[i])) keep(i);
    }
  }
  return scores;
}

// Posting slots ascend (slots are handed out in order, and compaction keeps the order): binary search.
function indexOfSlot(slots: ArrayLike<number>, slot: number): number {
  let low = 0;
  let high = slots.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (slots[middle] === slot) return middle;
    if (slots[middle] < slot) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

function inverseDocumentFrequency(documentFrequency: number, total: number): number {
  return Math.log(1 + (total - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

function containsPhrase(entry: IndexEntry, field: MatchField, phrase: string): boolean {
  const texts = field === "tokens"
    ? searchableTexts(entry.document).map(([text]) => text)
    : nameTexts(entry.document);
  return texts.some((text) => text.toLowerCase().includes(phrase));
}
