/**
 * Discovery (search) calls of the data map API.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import type { HttpClient } from "../http.ts";
import { DATAMAP_PREFIX } from "./paths.ts";
import { MAX_SEARCH_LIMIT, type SearchRequest, type SearchResult } from "./types.ts";

export class SearchApi {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Keyword search with filters and facets; one page (use `continuationToken` for the next). */
  query(request: SearchRequest, signal?: AbortSignal): Promise<SearchResult> {
    if (request.limit !== undefined && (request.limit < 1 || request.limit > MAX_SEARCH_LIMIT)) {
      throw new UsageError(`limit must be between 1 and ${MAX_SEARCH_LIMIT}, got ${request.limit}.`);
    }
    return this.#http.request({
      method: "POST",
      path: `${DATAMAP_PREFIX}/search/query`,
      body: request,
      // A search changes nothing, so it is as safe to repeat as a GET.
      idempotent: true,
      signal,
    });
  }
}
