/**
 * Redirects the HTTP core follows: only within the request's own origin (never to another host, port or
 * scheme, so never from https to http), at most {@link MAX_REDIRECTS} in a row; any other is refused with a
 * RedirectRefusedError, so tokens and bodies stay with the catalog.
 *
 * @example
 * ```ts
 * import { redirectTarget } from "./redirects.ts";
 * const from = new URL("https://contoso.purview.azure.com/catalog/api/x");
 * console.log(redirectTarget(from, "https://evil.example/x")); // { refusal: "it leads to another origin …" }
 * ```
 *
 * @module
 */
import { RedirectRefusedError } from "../core/errors.ts";
import { redactSecrets } from "../core/log.ts";
import type { RequestContext } from "./error_mapping.ts";

/** Same-origin redirects followed for one attempt before the answer counts as a refusal. */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Whether an answer's status is a redirect. */
export function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/**
 * Where the redirect `response` (to a request sent to `from`, after `redirects` redirects already followed)
 * leads, or the RedirectRefusedError when it is not followed. The response's body is dropped.
 */
export async function nextRedirect(
  response: Response,
  from: URL,
  redirects: number,
  context: RequestContext,
): Promise<{ url: URL } | { error: RedirectRefusedError }> {
  await response.body?.cancel().catch(() => {});
  const location = response.headers.get("location");
  const next = redirects < MAX_REDIRECTS
    ? redirectTarget(from, location)
    : { refusal: `more than ${MAX_REDIRECTS} redirects in a row` };
  if ("url" in next) return next;
  const shown = location === null ? "(no Location header)" : JSON.stringify(redactSecrets(location));
  const error = new RedirectRefusedError({
    ...context,
    status: response.status,
    message: `The catalog answered ${response.status} with a redirect to ${shown}, which was not ` +
      `followed: ${next.refusal}. Redirects are followed only within ${from.origin}.`,
    hint: "Point CATALOG_ENDPOINT (or CATALOG_UNIFIED_ENDPOINT) at the address the service answers " +
      "on itself; a gateway that sends requests elsewhere is not followed, so tokens and bodies " +
      "stay with the catalog.",
  });
  return { error };
}

/**
 * The request to send after a redirect answered `status`: as browsers do, 303, and 301/302 after a POST,
 * continue as a GET without the body (and its `content-type`, removed from `headers`).
 */
export function redirectedRequest(
  status: number,
  request: { method: string; body: BodyInit | undefined },
  headers: Headers,
): { method: string; body: BodyInit | undefined } {
  if (status === 303 || (status <= 302 && request.method === "POST")) {
    headers.delete("content-type");
    return { method: "GET", body: undefined };
  }
  return request;
}

/**
 * Where a redirect from `from` may go: only the same origin (scheme, host and port), so never to another
 * host and never from https to http. Exported for tests.
 */
export function redirectTarget(from: URL, location: string | null): { url: URL } | { refusal: string } {
  if (location === null || location.trim() === "") return { refusal: "the answer names no location" };
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    return { refusal: "the location is not a valid URL" };
  }
  if (from.protocol === "https:" && to.protocol !== "https:") {
    return { refusal: `it would downgrade the connection from https to ${to.protocol.replace(":", "")}` };
  }
  if (to.origin !== from.origin) return { refusal: `it leads to another origin (${to.origin})` };
  return { url: to };
}
