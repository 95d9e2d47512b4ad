/**
 * The search engine behind `POST /search/query`: keyword matching and scoring, filtering, ordering, facets
 * and continuation-token paging over the stored entities. It scans every entity on each query, which is
 * plenty for an emulator; the interface ({@link searchEntities}) is what a faster index would keep.
 *
 * Keywords are case-insensitive tokens; an entity matches when every token occurs in its name, display
 * name, qualified name, description, labels, classifications or business metadata values. Matches in the
 * name weigh more than in the qualified name or description, those more than in labels, classifications
 * and business metadata, and earlier matches more than later ones. `*` or no keywords matches everything.
 * Soft-deleted entities never match.
 *
 * @example
 * ```ts
 * import { searchEntities } from "./search.ts";
 * const result = searchEntities([], { keywords: "customers", limit: 10 }, Date.now());
 * console.log(result["@search.count"]); // 0
 * ```
 *
 * @module
 */
import type { AtlasEntity } from "./entity_model.ts";
import { EmulatorError } from "./errors.ts";
import { type SearchDocument, toSearchDocument } from "./search_document.ts";
import { compileFilter } from "./search_filter.ts";

/** The largest page the service returns. */
export const MAX_SEARCH_LIMIT = 1000;
/** The page size when the request sets none. */
export const DEFAULT_SEARCH_LIMIT = 50;
const DEFAULT_FACET_COUNT = 10;

/** A facet request (`SearchFacetItem`). */
export interface FacetRequest {
  facet: string;
  count?: number;
  sort?: { count?: "asc" | "desc"; value?: "asc" | "desc" };
}

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
  "@search.facets"?: Record<string, Array<{ count: number; value: string }>>;
  value: SearchResultItem[];
}

const FACET_VALUES: Record<string, (d: SearchDocument) => string[]> = {
  assetType: (d) => d.assetType,
  classification: (d) => d.classification,
  label: (d) => d.label,
  entityType: (d) => [d.entityType],
  term: (d) => d.term.map((t) => t.name),
  contactId: (d) => d.contact.map((c) => c.id),
  contactType: (d) => d.contact.map((c) => c.contactType),
  glossaryType: () => [],
  termStatus: () => [],
  termTemplate: () => [],
};

const ORDERABLE: Record<string, (d: SearchDocument) => string | number> = {
  name: (d) => d.name.toLowerCase(),
  qualifiedName: (d) => d.qualifiedName.toLowerCase(),
  entityType: (d) => d.entityType,
  createTime: (d) => d.createTime,
  updateTime: (d) => d.updateTime,
};

interface Hit {
  document: SearchDocument;
  score: number;
}

/** Runs one search over `entities`; `now` anchors relative time filters such as LAST_24H. */
export function searchEntities(entities: AtlasEntity[], request: SearchRequest, now: number): SearchResult {
  const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
  const matches = compileFilter(request.filter, now);
  const tokens = keywordTokens(request.keywords);
  const facets = (request.facets ?? []).map(validateFacet);
  const orderby = (request.orderby ?? []).map(validateOrder);

  const hits: Hit[] = [];
  for (const entity of entities) {
    if (entity.status === "DELETED") continue;
    const document = toSearchDocument(entity);
    if (!matches(document)) continue;
    const score = tokens.length === 0 ? 1 : relevance(document, tokens);
    if (score > 0) hits.push({ document, score });
  }
  hits.sort((a, b) => compareHits(a, b, orderby));

  const fingerprint = queryFingerprint(request);
  const offset = request.continuationToken ? readToken(request.continuationToken, fingerprint) : 0;
  const page = hits.slice(offset, offset + limit);
  const result: SearchResult = {
    "@search.count": hits.length,
    "@search.count.approximate": false,
    value: page.map((hit) => resultItem(hit, tokens)),
  };
  if (offset + limit < hits.length) result.continuationToken = writeToken(offset + limit, fingerprint);
  if (facets.length > 0) result["@search.facets"] = facetCounts(hits, facets);
  return result;
}

function keywordTokens(keywords: string | null | undefined): string[] {
  return (keywords ?? "").toLowerCase().split(/\s+/).map((t) => t.replace(/^["']+|["']+$/g, ""))
    .filter((t) => t !== "" && t !== "*");
}

function relevance(document: SearchDocument, tokens: string[]): number {
  const fields: Array<[string | null | undefined, number]> = [
    [document.name, 3],
    [document.displayName, 3],
    [document.qualifiedName, 1],
    [document.description, 1],
    ...document.label.map((label): [string, number] => [label, 0.5]),
    ...document.classification.map((name): [string, number] => [name, 0.5]),
    ...businessText(document).map((text): [string, number] => [text, 0.5]),
  ];
  let score = 0;
  for (const token of tokens) {
    let tokenScore = 0;
    for (const [text, weight] of fields) {
      if (!text) continue;
      const lower = text.toLowerCase();
      const position = lower.indexOf(token);
      if (position < 0) continue;
      tokenScore += weight * (1 + 1 / (1 + position)) + (lower === token ? weight : 0);
    }
    if (tokenScore === 0) return 0;
    score += tokenScore;
  }
  return Math.round(score * 1000) / 1000;
}

function businessText(document: SearchDocument): string[] {
  const texts: string[] = [];
  for (const value of Object.values(document.businessAttributes)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string" && item !== "") texts.push(item);
    }
  }
  return texts;
}

function compareHits(a: Hit, b: Hit, orderby: Array<[string, number]>): number {
  for (const [field, direction] of orderby) {
    const x = ORDERABLE[field](a.document);
    const y = ORDERABLE[field](b.document);
    if (x !== y) return (x < y ? -1 : 1) * direction;
  }
  if (a.score !== b.score) return b.score - a.score;
  const byName = a.document.name.localeCompare(b.document.name);
  return byName !== 0 ? byName : a.document.id.localeCompare(b.document.id);
}

function resultItem(hit: Hit, tokens: string[]): SearchResultItem {
  const d = hit.document;
  const item: SearchResultItem = { "@search.score": hit.score };
  const highlights = highlightsFor(d, tokens);
  if (highlights) item["@search.highlights"] = highlights;
  Object.assign(item, {
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
  });
  return item;
}

function highlightsFor(d: SearchDocument, tokens: string[]): Record<string, string[]> | undefined {
  if (tokens.length === 0) return undefined;
  const pattern = new RegExp(tokens.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "gi");
  const highlights: Record<string, string[]> = {};
  for (const field of ["name", "qualifiedName", "description"] as const) {
    const text = d[field];
    if (text && new RegExp(pattern.source, "i").test(text)) {
      highlights[field] = [text.replace(pattern, (m) => `<em>${m}</em>`)];
    }
  }
  return Object.keys(highlights).length > 0 ? highlights : undefined;
}

function facetCounts(hits: Hit[], facets: FacetRequest[]): NonNullable<SearchResult["@search.facets"]> {
  const out: NonNullable<SearchResult["@search.facets"]> = {};
  for (const facet of facets) {
    const counts = new Map<string, number>();
    for (const { document } of hits) {
      for (const value of new Set(FACET_VALUES[facet.facet](document))) {
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

function validateFacet(facet: FacetRequest, index: number): FacetRequest {
  if (!FACET_VALUES[facet.facet]) {
    throw EmulatorError.invalidParameters(
      `facets[${index}].facet must be one of ${Object.keys(FACET_VALUES).join(", ")}`,
      `facets[${index}].facet`,
    );
  }
  return facet;
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
