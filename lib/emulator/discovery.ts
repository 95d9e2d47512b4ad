/**
 * The discovery routes (`POST /search/query`): validates the `QueryOptions` body as the service does and
 * hands it to the search engine in `search.ts`.
 *
 * @example
 * ```ts
 * import { Router } from "./router.ts";
 * import { EntityStore } from "./store.ts";
 * import { discoveryArea } from "./discovery.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * const router = new Router().mount("/datamap/api", discoveryArea({ store, types, now: Date.now }));
 * console.log(router.match("POST", "/datamap/api/search/query").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import type { ApiArea, AreaDependencies } from "./area.ts";
import { isObject, type JsonObject } from "./entity_model.ts";
import { EmulatorError, jsonResponse } from "./errors.ts";
import type { RouteContext } from "./router.ts";
import { type FacetRequest, MAX_SEARCH_LIMIT, searchEntities, type SearchRequest } from "./search.ts";

/** Routes of the discovery area, relative to `/catalog/api` or `/datamap/api`. */
export const discoveryArea: ApiArea = (deps) => [
  { method: "POST", path: "/search/query", handler: (ctx) => query(deps, ctx) },
];

async function query(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const body = await ctx.readJson();
  if (!isObject(body)) throw EmulatorError.badRequest("Request body must be a JSON object");
  const request = parseSearchRequest(body);
  return jsonResponse(searchEntities(deps.store.list(), request, deps.now()));
}

/** Checks a `QueryOptions` body; throws a 400 {@link EmulatorError} naming the first bad field. */
export function parseSearchRequest(body: JsonObject): SearchRequest {
  const request: SearchRequest = {};
  const { keywords, limit, continuationToken, filter, facets, orderby } = body;
  if (keywords !== undefined && keywords !== null && typeof keywords !== "string") {
    throw EmulatorError.invalidParameters("keywords must be a string", "keywords");
  }
  request.keywords = keywords as string | null | undefined;
  if (limit !== undefined && limit !== null) {
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
      throw EmulatorError.invalidParameters(
        `limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}, got ${JSON.stringify(limit)}`,
        "limit",
      );
    }
    request.limit = limit;
  }
  if (continuationToken !== undefined && continuationToken !== null) {
    if (typeof continuationToken !== "string") {
      throw EmulatorError.invalidParameters("continuationToken must be a string", "continuationToken");
    }
    request.continuationToken = continuationToken || undefined;
  }
  request.filter = filter;
  if (facets !== undefined && facets !== null) request.facets = parseFacets(facets);
  if (orderby !== undefined && orderby !== null) {
    if (!Array.isArray(orderby) || !orderby.every(isObject)) {
      throw EmulatorError.invalidParameters("orderby must be an array of objects", "orderby");
    }
    request.orderby = orderby as Array<Record<string, string>>;
  }
  return request;
}

function parseFacets(facets: unknown): FacetRequest[] {
  if (!Array.isArray(facets)) throw EmulatorError.invalidParameters("facets must be an array", "facets");
  return facets.map((facet, i) => {
    if (!isObject(facet) || typeof facet.facet !== "string") {
      throw EmulatorError.invalidParameters(
        `facets[${i}] must be an object with a facet name`,
        `facets[${i}]`,
      );
    }
    if (facet.count !== undefined && (typeof facet.count !== "number" || !Number.isInteger(facet.count))) {
      throw EmulatorError.invalidParameters(`facets[${i}].count must be an integer`, `facets[${i}].count`);
    }
    return facet as unknown as FacetRequest;
  });
}
