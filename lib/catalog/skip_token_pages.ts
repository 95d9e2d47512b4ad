/**
 * Follows the pages of an account API list (`{value, nextLink}`, the next page named by the `$skipToken`
 * of its `nextLink`), under the HTTP core's paging guard (page and item limits, a page answered twice).
 * Each page is asked of the configured endpoint with the token alone taken from the `nextLink`, so a link
 * naming another host never receives the bearer token.
 *
 * @module
 */
import { CatalogError } from "../core/errors.ts";
import type { HttpClient } from "../http/client.ts";
import { pageSignature } from "../http/paging_guard.ts";

/** The query parameter of the account API's next-page token. */
export const SKIP_TOKEN = "$skipToken";

/** Every item of a paged list; `fetchPage` asks for one page, `idOf` tells items apart for the guard. */
export async function allSkipTokenPages<T>(
  http: HttpClient,
  what: string,
  fetchPage: (skipToken?: string) => Promise<{ value?: T[]; nextLink?: string }>,
  idOf: (item: T) => unknown,
): Promise<T[]> {
  const guard = http.pagingGuard(what);
  const all: T[] = [];
  let token: string | undefined;
  for (;;) {
    guard.beforePage(token);
    const result = await fetchPage(token);
    const items = Array.isArray(result?.value) ? result.value : [];
    guard.afterPage(items.length, pageSignature(items, idOf));
    all.push(...items);
    if (!result?.nextLink) return all;
    token = skipTokenOf(what, result.nextLink);
  }
}

function skipTokenOf(what: string, nextLink: string): string {
  let token: string | null = null;
  try {
    token = new URL(nextLink, "http://next.invalid").searchParams.get(SKIP_TOKEN);
  } catch {
    // Reported below.
  }
  if (!token) {
    throw new CatalogError({
      message: `${what} could not be paged: its nextLink carries no ${SKIP_TOKEN}: ${nextLink}.`,
      hint: "Retry; if it persists, narrow the list with its filters or report the account's paging problem.",
    });
  }
  return token;
}
