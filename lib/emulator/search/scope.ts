/**
 * Search in the emulator's team mode answers only what the caller may read: the checked search, suggest and
 * autocomplete requests get their `filter` narrowed to leave out the collections where the caller holds no
 * role (a child collection that cut inheritance, say), so counts, facets and pages agree with the results.
 * Browse and navigate are not narrowed.
 *
 * @example
 * ```ts
 * import { scopedSearchBody } from "./scope.ts";
 * console.log(JSON.stringify(scopedSearchBody({ keywords: "x" }, ["hr"])));
 * // {"keywords":"x","filter":{"not":{"or":[{"collectionId":"hr"}]}}}
 * ```
 *
 * @module
 */

/** The discovery requests whose results the caller's readable collections bound. */
export const SCOPED_SEARCH = /^(\/(datamap|catalog)\/api)?\/search\/(query|suggest|autocomplete)$/i;

/** The body with its filter also leaving out documents of the `hidden` collections; other bodies as given. */
export function scopedSearchBody(body: unknown, hidden: readonly string[]): unknown {
  if (hidden.length === 0 || typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const request = body as Record<string, unknown>;
  const outside = { not: { or: hidden.map((collectionId) => ({ collectionId })) } };
  const filter = request.filter === undefined || request.filter === null
    ? outside
    : { and: [request.filter, outside] };
  return { ...request, filter };
}
