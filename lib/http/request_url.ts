/**
 * The address of a request: an area's base URL, the path, the api-version and the query parameters. A path
 * segment of `.` or `..` is refused before anything is sent, and the query is serialised once.
 *
 * @example
 * ```ts
 * import { requestUrl } from "./request_url.ts";
 * const url = requestUrl("http://127.0.0.1:8085", "/entity/bulk", "2023-09-01", { guid: ["a", "b"] });
 * console.log(url.search); // "?api-version=2023-09-01&guid=a&guid=b"
 * ```
 *
 * @module
 */
import { UsageError } from "../core/errors.ts";

/** A query parameter's value: an array repeats the parameter; `undefined` leaves it out. */
export type QueryValue = string | number | boolean | undefined | ReadonlyArray<string | number>;

/**
 * The full URL of a request below `baseUrl`: `path` (starting with `/`), then `api-version` (none when
 * undefined or empty) and `query`.
 */
export function requestUrl(
  baseUrl: string,
  path: string,
  apiVersion: string | undefined,
  query: Record<string, QueryValue> | undefined,
): URL {
  refuseDotSegments(path);
  const href = baseUrl.replace(/\/+$/, "") + path;
  // Without a query, fragment or trailing blank of its own, the address takes the query as it is and is
  // parsed once (a lookup's address is long); otherwise the parsed query is set, as before.
  if (!hasOwnQueryOrTrailingBlank(href)) {
    const search = withQuery("", apiVersion || undefined, query);
    return new URL(search ? `${href}?${search}` : href);
  }
  const url = new URL(href);
  const search = withQuery(url.search, apiVersion || undefined, query);
  if (search !== undefined) url.search = search;
  return url;
}

/**
 * URL parsing resolves `.` and `..` segments (`%2e` spellings too), so an id of ".." would send the request
 * to another resource (`DELETE …/collections/..` to `/`): refused before anything is sent.
 */
function refuseDotSegments(path: string): void {
  const dots = path.split("/").find((part) => /^(?:\.|%2e){1,2}$/i.test(part));
  if (dots !== undefined) {
    throw new UsageError(
      `"${decodeURIComponent(dots)}" is not a valid name or id: in the request path ${path} it ` +
        "would address another resource.",
      "Give the GUID or name of the resource itself; search and list commands show them.",
    );
  }
}

/** Whether an address has a query, a fragment or trailing blanks (which parsing strips) of its own. */
function hasOwnQueryOrTrailingBlank(href: string): boolean {
  return href.includes("?") || href.includes("#") || href.charCodeAt(href.length - 1) <= 0x20;
}

/**
 * The query of a request: `search` (the path's own, if any) with `api-version` set, then each parameter of
 * `query` set (an array appended item by item, `undefined` left out), serialised once; undefined when
 * nothing is set, so a path's query stays as written. The same as setting each on `url.searchParams`, whose
 * every call serialises the whole query again (a lookup of 50 names spent a quarter of a bulk import's
 * processor time there). Exported for tests.
 */
export function withQuery(
  search: string,
  apiVersion: string | undefined,
  query: Record<string, QueryValue> | undefined,
): string | undefined {
  let params: URLSearchParams | undefined;
  // Not bound to a URL, so a change is not serialised until asked.
  const list = () => params ??= new URLSearchParams(search);
  if (apiVersion !== undefined) list().set("api-version", apiVersion);
  if (query === undefined) return params?.toString();
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) { for (const item of value) list().append(key, String(item)); }
    else list().set(key, String(value));
  }
  return params?.toString();
}
