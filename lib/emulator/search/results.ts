/**
 * Turning matches into a search answer: choosing one page in order without sorting every match, facet
 * counts over all matches, and the contract's result items with `@search.highlights`.
 *
 * @example
 * ```ts
 * import { topOf } from "./results.ts";
 * console.log(topOf([5, 1, 4, 2, 3], 2, (a, b) => a - b)); // [1, 2]
 * ```
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";
import type { IndexEntry } from "./search_index.ts";
import type { SearchDocument } from "./document.ts";
import { highlight } from "./tokens.ts";

/** A facet request (`SearchFacetItem`). */
export interface FacetRequest {
  facet: string;
  count?: number;
  sort?: { count?: "asc" | "desc"; value?: "asc" | "desc" };
}

/** Facet name → values with their counts (`SearchFacetResultValue`). */
export type FacetCounts = Record<string, Array<{ count: number; value: string }>>;

/** A scored match. */
export interface Hit {
  entry: IndexEntry;
  score: number;
}

const DEFAULT_FACET_COUNT = 10;

// The contract's facets, plus collectionId: the service's own portal facets by collection.
const FACET_VALUES: Record<string, (d: SearchDocument) => readonly string[]> = {
  assetType: (d) => d.assetType,
  classification: (d) => d.classification,
  label: (d) => d.label,
  entityType: (d) => [d.entityType],
  term: (d) => d.term.map((t) => t.name),
  contactId: (d) => d.contact.map((c) => c.id),
  contactType: (d) => d.contact.map((c) => c.contactType),
  collectionId: (d) => (d.collectionId === undefined ? [] : [d.collectionId]),
  glossaryType: (d) => (d.glossaryType === undefined ? [] : [d.glossaryType]),
  termStatus: (d) => (d.termStatus === undefined ? [] : [d.termStatus]),
  termTemplate: (d) => d.termTemplate ?? [],
};

/** The facets a request may ask for. */
export const FACET_NAMES: readonly string[] = Object.keys(FACET_VALUES);

/**
 * The first `count` items of `items` in `compare` order. Keeps a heap of the best `count` seen, so a page of
 * 50 out of 100,000 matches costs about one comparison per match instead of a full sort.
 */
export function topOf<T>(items: T[], count: number, compare: (a: T, b: T) => number): T[] {
  if (count <= 0) return [];
  if (count * 4 >= items.length) return items.slice().sort(compare).slice(0, count);
  // heap[0] is the worst item kept: compare(heap[0], x) >= 0 for every other x in the heap.
  const heap: T[] = [];
  const worse = (i: number, j: number) => compare(heap[i], heap[j]) > 0;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j], heap[i]]);
  for (const item of items) {
    if (heap.length < count) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (!worse(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (compare(item, heap[0]) < 0) {
      heap[0] = item;
      for (let i = 0;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let largest = i;
        if (left < heap.length && worse(left, largest)) largest = left;
        if (right < heap.length && worse(right, largest)) largest = right;
        if (largest === i) break;
        swap(i, largest);
        i = largest;
      }
    }
  }
  return heap.sort(compare);
}

/** Checks a facet request; an unknown facet name is a 400 naming the allowed ones. */
export function validateFacet(facet: FacetRequest, index: number): FacetRequest {
  if (!FACET_VALUES[facet.facet]) {
    throw EmulatorError.invalidParameters(
      `facets[${index}].facet must be one of ${FACET_NAMES.join(", ")}`,
      `facets[${index}].facet`,
    );
  }
  return facet;
}

/** Counts of each requested facet's values over every hit (not only the page). */
export function facetCounts(hits: readonly Hit[], facets: readonly FacetRequest[]): FacetCounts {
  const out: FacetCounts = {};
  for (const facet of facets) {
    const valuesOf = FACET_VALUES[facet.facet];
    const counts = new Map<string, number>();
    for (const { entry } of hits) {
      const values = valuesOf(entry.document);
      // A value listed twice on one entity (two contacts of one type) counts the entity once.
      for (const value of values.length > 1 ? new Set(values) : values) {
        counts.set(value, (counts.get(value) ?? 0) + 1);
      }
    }
    const byValue = facet.sort?.value;
    const countOrder = facet.sort?.count === "asc" ? 1 : -1;
    const entries = [...counts].map(([value, count]) => ({ count, value }));
    entries.sort((a, b) =>
      byValue
        ? a.value.localeCompare(b.value) * (byValue === "desc" ? -1 : 1)
        : (a.count - b.count) * countOrder || a.value.localeCompare(b.value)
    );
    const count = facet.count && facet.count > 0 ? facet.count : DEFAULT_FACET_COUNT;
    out[facet.facet] = entries.slice(0, count);
  }
  return out;
}

/** The fields every search and suggest item carries (`SearchResultValue` without score and highlights). */
export function documentFields(d: SearchDocument): Record<string, unknown> {
  if (d.glossaryRecord) return glossaryFields(d);
  const item: Record<string, unknown> = {
    objectType: d.objectType,
    id: d.id,
    qualifiedName: d.qualifiedName,
    name: d.name,
    description: d.description,
    owner: d.owner,
    entityType: d.entityType,
    collectionId: d.collectionId,
    classification: d.classification,
    label: d.label,
    assetType: d.assetType,
    term: d.term,
    contact: d.contact,
    createTime: d.createTime,
    updateTime: d.updateTime,
  };
  if (d.glossaryType) item.glossaryType = d.glossaryType;
  if (d.glossary) item.glossary = d.glossary;
  if (d.termStatus) item.termStatus = d.termStatus;
  return item;
}

/**
 * A glossary or term of the glossary API as the contract's Discovery_Query_GlossaryTerm example returns
 * it: no asset fields (asset type, labels, owner...), the glossary's fields instead; `entityType` is kept
 * because filters name it.
 */
function glossaryFields(d: SearchDocument): Record<string, unknown> {
  const item: Record<string, unknown> = {
    objectType: d.objectType,
    glossaryType: d.glossaryType,
    id: d.id,
    name: d.name,
    qualifiedName: d.qualifiedName,
    entityType: d.entityType,
  };
  if (d.glossary) item.glossary = d.glossary;
  if (d.description) item.description = d.description;
  if (d.longDescription) item.longDescription = d.longDescription;
  if (d.termStatus) item.termStatus = d.termStatus;
  if (d.termTemplate && d.termTemplate.length > 0) item.termTemplate = d.termTemplate;
  if (d.classification.length > 0) item.classification = d.classification;
  item.createTime = d.createTime;
  item.updateTime = d.updateTime;
  return item;
}

/** One search hit as the contract shapes it; `words` are the query's words, for highlights. */
export function resultItem(hit: Hit, words: readonly string[]): Record<string, unknown> {
  const item: Record<string, unknown> = { "@search.score": hit.score };
  const highlights: Record<string, string[]> = {};
  for (const field of ["name", "qualifiedName", "description"] as const) {
    const text = hit.entry.document[field];
    const marked = text ? highlight(text, words) : undefined;
    if (marked) highlights[field] = [marked];
  }
  if (Object.keys(highlights).length > 0) item["@search.highlights"] = highlights;
  return Object.assign(item, documentFields(hit.entry.document));
}
