/**
 * Search calls: search (`POST /search/query`, one page or every page), suggestions and autocomplete
 * (data-map API), browse (`POST /browse`, which only the catalog API 2023-02-01-preview publishes) and
 * navigate (`POST /navigate`, which only the data-map API 2024-03-01-preview publishes).
 * Inputs the service would refuse are refused here first (a rejected promise with a {@link UsageError}
 * saying the range), before anything is sent.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * async function explore(): Promise<void> {
 *   for await (const hit of client.search.queryAll({ keywords: "customers" }, { maxResults: 200 })) {
 *     console.log(hit.name);
 *   }
 *   const tips = await client.search.suggest({ keywords: "cust", limit: 5 });
 *   const tables = await client.search.browse({ entityType: "azure_sql_table", limit: 20 });
 * }
 * ```
 *
 * @module
 */
import { UsageError } from "../core/errors.ts";
import type { HttpClient } from "../http/client.ts";
import { pageSignature } from "../http/paging_guard.ts";
import {
  MAX_NAVIGATE_PAGE_SIZE,
  NAVIGATE_API_VERSION,
  type NavigationPage,
  type NavigationRequest,
  type NavigationResult,
} from "./navigate_types.ts";
import { DATAMAP_PREFIX } from "./paths.ts";
import {
  type AutoCompleteRequest,
  type AutoCompleteResult,
  type BrowseRequest,
  type BrowseResult,
  MAX_BROWSE_LIMIT,
  MAX_BROWSE_OFFSET,
  MAX_SEARCH_LIMIT,
  MAX_SUGGEST_KEYWORDS,
  MAX_SUGGEST_LIMIT,
  type SearchRequest,
  type SearchResult,
  type SearchResultItem,
  type SuggestRequest,
  type SuggestResult,
} from "./atlas_model.ts";

// Only the catalog API (2023-02-01-preview, under /catalog/api) publishes POST /browse.
const BROWSE_PATH = "/catalog/api/browse";
/** The api-version browse requests carry (the catalog contract's), whatever the data-map version is. */
export const BROWSE_API_VERSION = "2023-02-01-preview";

/** Options of {@link SearchApi.queryAll}. */
export interface QueryAllOptions {
  /** Stop after this many results (default: every match). */
  maxResults?: number;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** The search calls of one catalog account (`client.search`). */
export class SearchApi {
  readonly #http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds one as `client.search`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Keyword search with filters and facets; one page (use `continuationToken` for the next). */
  async query(request: SearchRequest, signal?: AbortSignal): Promise<SearchResult> {
    checkRange("limit", request.limit, 1, MAX_SEARCH_LIMIT);
    return await this.#post(`${DATAMAP_PREFIX}/search/query`, request, signal);
  }

  /**
   * Every result of a search, page after page, following continuation tokens; stops after `maxResults`.
   * Pages are `request.limit` long (default: the largest page, or `maxResults` when smaller).
   */
  async *queryAll(request: SearchRequest, options: QueryAllOptions = {}): AsyncGenerator<SearchResultItem> {
    const { maxResults, signal } = options;
    if (maxResults !== undefined && (!Number.isInteger(maxResults) || maxResults < 0)) {
      throw new UsageError(`maxResults must be a whole number of 0 or more, got ${maxResults}.`);
    }
    const limit = request.limit ?? Math.min(MAX_SEARCH_LIMIT, Math.max(1, maxResults ?? MAX_SEARCH_LIMIT));
    let yielded = 0;
    let token = request.continuationToken;
    // A token sent before would loop for ever: the guard stops it, and bounds pages, results and time.
    const guard = this.#http.pagingGuard("the search results");
    while (maxResults === undefined || yielded < maxResults) {
      guard.beforePage(token);
      const page = await this.query({ ...request, limit, continuationToken: token }, signal);
      const items = Array.isArray(page?.value) ? page.value : [];
      guard.afterPage(items.length, pageSignature(items, (item) => item.id));
      for (const item of items) {
        if (maxResults !== undefined && yielded >= maxResults) return;
        yielded += 1;
        yield item;
      }
      token = page?.continuationToken ?? undefined;
      if (!token || items.length === 0) return;
    }
  }

  /** Entities whose names start with the typed keywords, best first, with the match in `<em>`. */
  async suggest(request: SuggestRequest, signal?: AbortSignal): Promise<SuggestResult> {
    checkTypeAhead(request);
    return await this.#post(`${DATAMAP_PREFIX}/search/suggest`, request, signal);
  }

  /** Completions of the last typed word, most common first. */
  async autocomplete(request: AutoCompleteRequest, signal?: AbortSignal): Promise<AutoCompleteResult> {
    checkTypeAhead(request);
    return await this.#post(`${DATAMAP_PREFIX}/search/autocomplete`, request, signal);
  }

  /**
   * One level of the catalog tree: every entity of `entityType`, or the children of the entity at `path`
   * (each item's `path` browses its own children).
   */
  async browse(request: BrowseRequest, signal?: AbortSignal): Promise<BrowseResult> {
    checkRange("limit", request.limit, 1, MAX_BROWSE_LIMIT);
    checkRange("offset", request.offset, 0, MAX_BROWSE_OFFSET);
    return await this.#post(BROWSE_PATH, request, signal, BROWSE_API_VERSION);
  }

  /**
   * One level of the catalog tree by asset type (api-version 2024-03-01-preview): the entity types of the
   * top-level assets for `/`, then assets, their children grouped by type, and so on. Append an item's
   * `itemPath.path` to the path asked to go one level down.
   */
  async navigate(
    request: NavigationRequest,
    page: NavigationPage = {},
    signal?: AbortSignal,
  ): Promise<NavigationResult> {
    checkRange("maxPageSize", page.maxPageSize, 1, MAX_NAVIGATE_PAGE_SIZE);
    const query = { maxpagesize: page.maxPageSize?.toString(), continuationToken: page.continuationToken };
    return await this.#post(`${DATAMAP_PREFIX}/navigate`, request, signal, NAVIGATE_API_VERSION, query);
  }

  #post<T>(
    path: string,
    body: unknown,
    signal?: AbortSignal,
    apiVersion?: string,
    query?: Record<string, string | undefined>,
  ): Promise<T> {
    return this.#http.request({
      method: "POST",
      path,
      body,
      query,
      apiVersion,
      // Search calls change nothing, so they are as safe to repeat as a GET.
      idempotent: true,
      signal,
    });
  }
}

function checkRange(name: string, value: number | undefined, min: number, max: number): void {
  if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) {
    throw new UsageError(`${name} must be between ${min} and ${max}, got ${value}.`);
  }
}

function checkTypeAhead(request: { keywords: string; limit?: number }): void {
  const keywords = request.keywords ?? "";
  if (keywords.trim() === "" || keywords.length > MAX_SUGGEST_KEYWORDS) {
    throw new UsageError(`keywords must be 1 to ${MAX_SUGGEST_KEYWORDS} characters, got ${keywords.length}.`);
  }
  checkRange("limit", request.limit, 1, MAX_SUGGEST_LIMIT);
}
