/**
 * An inverted index from tokens to the documents holding them: for each token the document slots and the
 * token's weight in each (field weight × occurrences), plus a sorted vocabulary for prefix lookups.
 *
 * Postings only grow: a document that changes gets a new slot from {@link SearchIndex}, and the old slot
 * is skipped by readers until the next compaction. Removing a document from every posting list would cost
 * as much as the longest list (a token such as `mssql` in every SQL asset); appending and skipping costs
 * nothing. The live document frequency of each token is kept exact, for scoring.
 *
 * @example
 * ```ts
 * import { TermPostings } from "./search_postings.ts";
 * const postings = new TermPostings();
 * postings.add(0, ["sales", "salesdb"], [3, 3]);
 * console.log(postings.withPrefix("sal")); // ["sales", "salesdb"]
 * ```
 *
 * @module
 */

/** The documents one token occurs in. `slots` ascend; `weights[i]` belongs to `slots[i]`. */
export interface Posting {
  slots: number[];
  weights: number[];
  /** Live documents holding the token (slots of replaced or removed documents are not counted). */
  documentFrequency: number;
}

// New tokens wait in a small unsorted list and are merged into the sorted vocabulary in one go, so a run
// of writes does not re-sort the vocabulary once per new token.
const MAX_UNSORTED_TOKENS = 1024;

/** Tokens → documents, with prefix lookup. */
export class TermPostings {
  #postings = new Map<string, Posting>();
  #sorted: string[] = [];
  #unsorted: string[] = [];

  /** Number of distinct tokens ever added since the last {@link clear}. */
  get vocabularySize(): number {
    return this.#postings.size;
  }

  /** Records that the document in `slot` holds `tokens` (distinct) with these weights. */
  add(slot: number, tokens: readonly string[], weights: readonly number[]): void {
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      let posting = this.#postings.get(token);
      if (!posting) {
        posting = { slots: [], weights: [], documentFrequency: 0 };
        this.#postings.set(token, posting);
        this.#unsorted.push(token);
      }
      posting.slots.push(slot);
      posting.weights.push(weights[i]);
      posting.documentFrequency += 1;
    }
  }

  /** Records that a document holding `tokens` is gone; its slots stay until {@link clear}. */
  remove(tokens: readonly string[]): void {
    for (const token of tokens) {
      const posting = this.#postings.get(token);
      if (posting) posting.documentFrequency -= 1;
    }
  }

  /** The posting of one token, if any document ever held it. */
  get(token: string): Posting | undefined {
    return this.#postings.get(token);
  }

  /** Live documents holding `token`. */
  documentFrequency(token: string): number {
    return this.#postings.get(token)?.documentFrequency ?? 0;
  }

  /** Tokens starting with `prefix` that some live document holds, `prefix` itself included. */
  withPrefix(prefix: string): string[] {
    if (this.#unsorted.length > MAX_UNSORTED_TOKENS) this.#mergeUnsorted();
    const found: string[] = [];
    for (let i = lowerBound(this.#sorted, prefix); i < this.#sorted.length; i++) {
      const token = this.#sorted[i];
      if (!token.startsWith(prefix)) break;
      if (this.documentFrequency(token) > 0) found.push(token);
    }
    for (const token of this.#unsorted) {
      if (token.startsWith(prefix) && this.documentFrequency(token) > 0) found.push(token);
    }
    return found;
  }

  /** Forgets everything (before a rebuild or compaction). */
  clear(): void {
    this.#postings = new Map();
    this.#sorted = [];
    this.#unsorted = [];
  }

  #mergeUnsorted(): void {
    // Plain code-unit order, the order `startsWith` ranges need; localeCompare would not group prefixes.
    this.#sorted = this.#sorted.concat(this.#unsorted).sort();
    this.#unsorted = [];
  }
}

function lowerBound(sorted: string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
