/**
 * The page a list's `nextLink` names, asked of the configured endpoint only: a link to another origin, or
 * outside the endpoint's base path, is refused, so the bearer token never goes to a host nobody configured.
 * The link's api-version is dropped (the HTTP core sends the configured one).
 *
 * @module
 */

/** The path (relative to the endpoint's base) and query of a linked page, each parameter's values in order. */
export interface LinkedPage {
  path: string;
  query: Record<string, string[]>;
}

/** The page `nextLink` names on `baseUrl`, or the error `refuse` makes of why it may not be followed. */
export function linkedPage(baseUrl: string, nextLink: string, refuse: (detail: string) => Error): LinkedPage {
  const base = new URL(baseUrl);
  let url: URL;
  try {
    url = new URL(nextLink, base);
  } catch {
    throw refuse(`nextLink is not a URL: ${nextLink}`);
  }
  const basePath = base.pathname.replace(/\/+$/, "");
  if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`)) {
    throw refuse(`nextLink ${url.origin}${url.pathname} is not on the configured endpoint ${base.origin}`);
  }
  const query: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) if (key !== "api-version") (query[key] ??= []).push(value);
  return { path: url.pathname.slice(basePath.length), query };
}
