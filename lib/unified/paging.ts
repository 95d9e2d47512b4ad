/**
 * Paging of unified catalog lists (`{value, nextLink}`). A `nextLink` is followed only when it points at
 * the configured unified catalog origin, and is sent through {@link HttpClient} as a path and query so the
 * bearer token never goes anywhere else. A link seen before stops the walk with an error instead of
 * looping for ever.
 *
 * @example
 * ```ts
 * import { HttpClient } from "../http.ts";
 * import { followPages } from "./paging.ts";
 * const http = new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" } });
 * const first = { path: "/datagovernance/catalog/terms", query: {} };
 * async function printTerms(): Promise<void> {
 *   for await (const term of followPages(http, first)) console.log(term);
 * }
 * ```
 *
 * @module
 */
import { CatalogError } from "../errors.ts";
import type { HttpClient, QueryValue } from "../http.ts";

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
}

/** More pages than any catalog has; a service that keeps answering nextLink is stopped here. */
export const MAX_PAGES = 10_000;

/** Fetches one page and normalises a missing `value` to an empty list. */
export async function fetchPage<T>(http: HttpClient, request: PageRequest): Promise<Page<T>> {
  const body = await http.request<Partial<Page<T>> | undefined>({
    method: "GET",
    area: "unified",
    path: request.path,
    query: request.query,
    signal: request.signal,
  });
  const page: Page<T> = { value: Array.isArray(body?.value) ? body.value : [] };
  if (typeof body?.nextLink === "string" && body.nextLink) page.nextLink = body.nextLink;
  return page;
}

/** Every item of a list, following `nextLink` safely. */
export async function* followPages<T>(http: HttpClient, first: PageRequest): AsyncGenerator<T> {
  let request: PageRequest = first;
  const seen = new Set<string>();
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page = await fetchPage<T>(http, request);
    yield* page.value;
    if (!page.nextLink) return;
    if (seen.has(page.nextLink)) throw brokenPaging(`nextLink repeats ${page.nextLink}`);
    seen.add(page.nextLink);
    request = { ...nextPageRequest(http.baseUrl("unified"), page.nextLink), signal: first.signal };
  }
  throw brokenPaging(`more than ${MAX_PAGES} pages`);
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
