/**
 * The emulator's search index: every ACTIVE entity, and every glossary and term of the glossary API (see
 * `search_glossary.ts`), as a {@link SearchDocument} in a numbered slot, and two inverted indexes over the
 * slots — one over every searchable field, weighted by field, for queries; one over names only, for
 * suggest and autocomplete.
 *
 * The index follows the store through {@link StoreChangeFeed}: {@link SearchIndex.refresh}, called at the
 * start of every search, drains the trigger-fed log of changed guids and re-reads just those records
 * (a changed record moves to a new slot; a deleted one leaves its slot empty). Every write through any
 * route is therefore visible to the next search, and a search with nothing to catch up costs one
 * `SELECT count(*)` on an empty table. A large batch of changes (a seed, a bulk load, a reset) rebuilds the
 * index in one pass instead, and empty slots are compacted away once they outnumber the live ones.
 *
 * @example
 * ```ts
 * import { EntityStore } from "./store.ts";
 * import { SearchIndex } from "./search_index.ts";
 * const store = EntityStore.open();
 * const index = SearchIndex.of(store).refresh();
 * console.log(index.size); // 0
 * store.close();
 * ```
 *
 * @module
 */
import { GlossaryStore } from "./glossary_store.ts";
import { type StoreChange, StoreChangeFeed } from "./search_changes.ts";
import { type SearchDocument, toSearchDocument } from "./search_document.ts";
import { glossaryDocument, termDocument } from "./search_glossary.ts";
import { TermPostings } from "./search_postings.ts";
import { textTokens } from "./search_tokens.ts";
import type { EntityStore } from "./store.ts";

/**
 * How much a token counts in each field: a name says what an asset is; qualified names and descriptions
 * mention many things; tags are chosen words; business metadata values are often codes and people.
 */
export const FIELD_WEIGHTS = {
  name: 3,
  qualifiedName: 1,
  description: 1,
  tag: 1.5,
  businessMetadata: 0.5,
} as const;

/** One live document of the index. */
export interface IndexEntry {
  slot: number;
  document: SearchDocument;
  /** The name in lower case: the tie-breaker of every ordering. */
  nameKey: string;
  /** Distinct tokens of all searchable fields (what the slot is posted under). */
  tokens: string[];
  weights: number[];
  /** Distinct tokens of the name and display name. */
  nameTokens: string[];
}

// Above this many changes since the last search, re-reading every entity beats one lookup per guid.
const MIN_CHANGES_FOR_REBUILD = 2000;

const indexes = new WeakMap<EntityStore, SearchIndex>();

/** The inverted index over one store's entities. */
export class SearchIndex {
  /** Tokens of every searchable field, weighted by {@link FIELD_WEIGHTS}. */
  readonly tokens: TermPostings = new TermPostings();
  /** Tokens of names only (suggest, autocomplete). */
  readonly nameTokens: TermPostings = new TermPostings();
  readonly #store: EntityStore;
  #feed: StoreChangeFeed | undefined;
  #entries: Array<IndexEntry | undefined> = [];
  #slotByGuid = new Map<string, number>();
  #slotsByType = new Map<string, number[]>();
  #generation = 0;

  private constructor(store: EntityStore) {
    this.#store = store;
  }

  /** The index of `store`, created (empty, filled on the first refresh) on first use. */
  static of(store: EntityStore): SearchIndex {
    let index = indexes.get(store);
    if (!index) {
      index = new SearchIndex(store);
      indexes.set(store, index);
    }
    return index;
  }

  /** Number of live documents (ACTIVE entities, glossaries and terms). */
  get size(): number {
    return this.#slotByGuid.size;
  }

  /** Changes whenever the indexed content does; derived data (browse paths) is cached per generation. */
  get generation(): number {
    return this.#generation;
  }

  /** Slots by number; an empty slot held a document that changed or was deleted. */
  get entries(): ReadonlyArray<IndexEntry | undefined> {
    return this.#entries;
  }

  /**
   * Slots of documents of this entity type (any case), in slot order; like postings, it may hold slots
   * that are empty now. Lets a `*` search filtered by type visit that type only.
   */
  slotsOfType(entityType: string): readonly number[] {
    return this.#slotsByType.get(entityType.toLowerCase()) ?? [];
  }

  /** The live document of an entity (if it is ACTIVE), glossary or term. */
  byGuid(guid: string): IndexEntry | undefined {
    const slot = this.#slotByGuid.get(guid);
    return slot === undefined ? undefined : this.#entries[slot];
  }

  /** Catches up with every write since the last call. */
  refresh(): this {
    if (!this.#feed) {
      // Recording starts before the first full read; both happen in this one synchronous step.
      this.#feed = new StoreChangeFeed(this.#store.database);
      this.#rebuild();
      this.#feed.take(0);
      return this;
    }
    const changed = this.#feed.take(Math.max(MIN_CHANGES_FOR_REBUILD, this.size >> 3));
    if (changed === undefined) {
      this.#rebuild();
      return this;
    }
    if (changed.length === 0) return this;
    const glossaries = GlossaryStore.for(this.#store.database);
    for (const change of changed) {
      this.#remove(change.guid);
      const document = documentOf(this.#store, glossaries, change);
      if (document) this.#add(document);
    }
    this.#generation += 1;
    if (this.#entries.length > 2 * this.size + 1024) this.#compact();
    return this;
  }

  #rebuild(): void {
    this.#clear();
    for (const entity of this.#store.list()) {
      if (entity.status !== "DELETED") this.#add(toSearchDocument(entity));
    }
    const glossaries = GlossaryStore.for(this.#store.database);
    const names = new Map<string, string>();
    for (const glossary of glossaries.glossaries()) {
      names.set(glossary.guid, glossary.name);
      this.#add(glossaryDocument(glossary));
    }
    for (const term of glossaries.allTerms()) {
      this.#add(termDocument(term, names.get(term.glossaryGuid) ?? ""));
    }
    this.#generation += 1;
  }

  // Renumbers the live documents from 0, dropping the empty slots from every posting list.
  #compact(): void {
    const live = this.#entries.filter((entry): entry is IndexEntry => entry !== undefined);
    this.#clear();
    for (const entry of live) this.#post({ ...entry, slot: this.#entries.length });
  }

  #clear(): void {
    this.#entries = [];
    this.#slotByGuid = new Map();
    this.#slotsByType = new Map();
    this.tokens.clear();
    this.nameTokens.clear();
  }

  #add(document: SearchDocument): void {
    const weighted = weightedTokens(document);
    this.#post({
      slot: this.#entries.length,
      document,
      nameKey: document.name.toLowerCase(),
      tokens: [...weighted.keys()],
      weights: [...weighted.values()],
      nameTokens: [...new Set(nameTexts(document).flatMap(textTokens))],
    });
  }

  #post(entry: IndexEntry): void {
    this.#entries.push(entry);
    this.#slotByGuid.set(entry.document.id, entry.slot);
    const type = entry.document.entityType.toLowerCase();
    const ofType = this.#slotsByType.get(type);
    if (ofType) ofType.push(entry.slot);
    else this.#slotsByType.set(type, [entry.slot]);
    this.tokens.add(entry.slot, entry.tokens, entry.weights);
    this.nameTokens.add(entry.slot, entry.nameTokens, entry.nameTokens.map(() => 1));
  }

  #remove(guid: string): void {
    const slot = this.#slotByGuid.get(guid);
    if (slot === undefined) return;
    const entry = this.#entries[slot]!;
    this.tokens.remove(entry.tokens);
    this.nameTokens.remove(entry.nameTokens);
    this.#entries[slot] = undefined;
    this.#slotByGuid.delete(guid);
  }
}

/** The current document of a changed record; undefined when it is gone (or a soft-deleted entity). */
function documentOf(
  store: EntityStore,
  glossaries: GlossaryStore,
  change: StoreChange,
): SearchDocument | undefined {
  if (change.kind === "entity") {
    const entity = store.get(change.guid);
    return entity && entity.status !== "DELETED" ? toSearchDocument(entity) : undefined;
  }
  if (change.kind === "glossary") {
    const glossary = glossaries.glossary(change.guid);
    return glossary && glossaryDocument(glossary);
  }
  const term = glossaries.term(change.guid);
  return term && termDocument(term, glossaries.glossary(term.glossaryGuid)?.name ?? "");
}

/** The name and, when it differs, the display name of a document. */
export function nameTexts(document: SearchDocument): string[] {
  const names = [document.name];
  if (document.displayName && document.displayName !== document.name) names.push(document.displayName);
  return names;
}

/** Every searchable text of a document with its field weight. */
export function searchableTexts(document: SearchDocument): Array<[text: string, weight: number]> {
  const texts: Array<[string, number]> = nameTexts(document).map((name) => [name, FIELD_WEIGHTS.name]);
  texts.push([document.qualifiedName, FIELD_WEIGHTS.qualifiedName]);
  if (document.description) texts.push([document.description, FIELD_WEIGHTS.description]);
  if (document.longDescription) texts.push([document.longDescription, FIELD_WEIGHTS.description]);
  for (const tag of [...document.classification, ...document.label, ...document.term.map((t) => t.name)]) {
    texts.push([tag, FIELD_WEIGHTS.tag]);
  }
  for (const value of Object.values(document.businessAttributes)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string" && item !== "") texts.push([item, FIELD_WEIGHTS.businessMetadata]);
    }
  }
  return texts;
}

// Token → summed weight over every occurrence in every field (term frequency, weighted by field).
function weightedTokens(document: SearchDocument): Map<string, number> {
  const weights = new Map<string, number>();
  for (const [text, weight] of searchableTexts(document)) {
    for (const token of textTokens(text)) weights.set(token, (weights.get(token) ?? 0) + weight);
  }
  return weights;
}
