/**
 * Paging of unified catalog lists (`{value, nextLink}`). A `nextLink` is followed only when it points at
 * the configured unified catalog origin, and is sent through {@link HttpClient} as a path and query so the
 * bearer token never goes anywhere else. A link seen before stops the walk with an error instead of
 * looping for ever.
 *
 * @example
 * ```ts
 * import { HttpClient } from "../http/client.ts";
 * import { followPages } from "./unified_paging.ts";
 * const http = new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" } });
 * const first = { path: "/datagovernance/catalog/terms", query: {} };
 * async function printTerms(): Promise<void> {
 *   for await (const term of followPages(http, first)) console.log(term);
 * }
 * ```
 *
 * @module
 */
import { CatalogError } from "../core/errors.ts";
import type { HttpClient } from "../http/client.ts";
import type { QueryValue } from "../http/request_url.ts";
import { pageSignature } from "../http/paging_guard.ts";

/** One page of a list. */
export interface Page<T> {
  /** Items of this page. */
  value: T[];
  /** URL of the next page; absent on the last one. */
  nextLink?: string;
}

/** A request of a page, relative to the unified area. */
export interface PageRequest {
  path: string;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** An api-version other than the area's (the 2026-03-20-preview calls); kept for every next page. */
  apiVersion?: string;
  /** A first page read by a POST query with this body; next pages are GETs of `nextLink`, as the SDK does. */
  queryBody?: unknown;
}

/** Fetches one page and normalises a missing `value` to an empty list. */
export async function fetchPage<T>(http: HttpClient, request: PageRequest): Promise<Page<T>> {
  const body = await http.request<Partial<Page<T>> | undefined>({
    method: request.queryBody === undefined ? "GET" : "POST",
    area: "unified",
    path: request.path,
    query: request.query,
    body: request.queryBody,
    // A query changes nothing; repeating it is harmless.
    idempotent: true,
    apiVersion: request.apiVersion,
    signal: request.signal,
  });
  const page: Page<T> = { value: Array.isArray(body?.value) ? body.value : [] };
  if (typeof body?.nextLink === "string" && body.nextLink) page.nextLink = body.nextLink;
  return page;
}

/**
 * Every item of a list, following `nextLink` safely: through the client's paging guard, which stops a link
 * back to a page already read (the first one included) at once, and bounds pages, items and time.
 */
export async function* followPages<T>(http: HttpClient, first: PageRequest): AsyncGenerator<T> {
  const guard = http.pagingGuard(`the unified catalog list ${first.path}`);
  let request: PageRequest = first;
  for (;;) {
    guard.beforePage(pageKey(request));
    const page = await fetchPage<T>(http, request);
    guard.afterPage(page.value.length, pageSignature(page.value, (item) => (item as { id?: unknown }).id));
    yield* page.value;
    if (!page.nextLink) return;
    request = {
      ...nextPageRequest(http.baseUrl("unified"), page.nextLink),
      signal: first.signal,
      apiVersion: first.apiVersion,
    };
  }
}

/** A page request as one text (path, then its query sorted), so two spellings of one link compare equal. */
function pageKey(request: PageRequest): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  return `${request.path}?${query}`;
}

/**
 * The path and query of a `nextLink`, relative to the base URL. A link to another origin is refused:
 * the request would carry the bearer token to a host nobody configured.
 */
export function nextPageRequest(baseUrl: string, nextLink: string): PageRequest {
  const base = new URL(baseUrl);
  let link: URL;
  try {
    link = new URL(nextLink, base);
  } catch {
    throw brokenPaging(`nextLink is not a URL: ${nextLink}`);
  }
  if (link.origin !== base.origin) {
    throw brokenPaging(`nextLink points at ${link.origin}, not the configured ${base.origin}`);
  }
  const basePath = base.pathname.replace(/\/+$/, "");
  if (basePath && !link.pathname.startsWith(`${basePath}/`)) {
    throw brokenPaging(`nextLink leaves the configured base path ${basePath}`);
  }
  const query: Record<string, string[]> = {};
  for (const [key, value] of link.searchParams) {
    // HttpClient adds the configured api-version itself.
    if (key === "api-version") continue;
    (query[key] ??= []).push(value);
  }
  return {
    path: link.pathname.slice(basePath.length),
    query: Object.fromEntries(
      Object.entries(query).map(([key, values]) => [key, values.length === 1 ? values[0] : values]),
    ),
  };
}

function brokenPaging(detail: string): CatalogError {
  return new CatalogError({
    message: `The unified catalog list could not be paged: ${detail}.`,
    hint: "Retry; if it persists, narrow the list (domainId, keyword) or report the paging problem.",
  });
}
