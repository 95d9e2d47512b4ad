/**
 * Validation of the discovery request bodies — `QueryOptions`, `SuggestOptions`, `AutoCompleteOptions`
 * and `BrowseRequest` — as the service does it: a wrong type or an out-of-range number is a 400 that
 * names the field. Filters are checked when they are compiled (`filter.ts`).
 *
 * @example
 * ```ts
 * import { parseBrowseRequest } from "./requests.ts";
 * console.log(parseBrowseRequest({ entityType: "azure_sql_server", limit: 10 }).limit); // 10
 * ```
 *
 * @module
 */
import { isObject, type JsonObject } from "../entity/model.ts";
import { EmulatorError } from "../errors.ts";
import { MAX_SEARCH_LIMIT, type SearchRequest } from "./engine.ts";
import { type BrowseRequest, MAX_BROWSE_LIMIT, MAX_BROWSE_OFFSET } from "./browse.ts";
import type { FacetRequest } from "./results.ts";
import { MAX_SUGGEST_KEYWORDS, MAX_SUGGEST_LIMIT, type TypeAheadRequest } from "./suggest.ts";

/** Checks a `QueryOptions` body; throws a 400 {@link EmulatorError} naming the first bad field. */
export function parseSearchRequest(body: JsonObject): SearchRequest {
  const request: SearchRequest = {};
  const { keywords, continuationToken, filter, facets, orderby } = body;
  if (keywords !== undefined && keywords !== null && typeof keywords !== "string") {
    throw EmulatorError.invalidParameters("keywords must be a string", "keywords");
  }
  request.keywords = keywords as string | null | undefined;
  request.limit = optionalInteger(body, "limit", 1, MAX_SEARCH_LIMIT);
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

/** Checks a `SuggestOptions` or `AutoCompleteOptions` body: keywords of 1 to 100 characters, limit 1 to 100. */
export function parseTypeAheadRequest(body: JsonObject): TypeAheadRequest {
  const { keywords, filter } = body;
  if (typeof keywords !== "string" || keywords.trim() === "" || keywords.length > MAX_SUGGEST_KEYWORDS) {
    throw EmulatorError.invalidParameters(
      `keywords must be a string of 1 to ${MAX_SUGGEST_KEYWORDS} characters`,
      "keywords",
    );
  }
  return { keywords, limit: optionalInteger(body, "limit", 1, MAX_SUGGEST_LIMIT), filter };
}

/** Checks a `BrowseRequest` body: optional entityType and path strings, limit 1 to 10,000, offset 0 to 100,000. */
export function parseBrowseRequest(body: JsonObject): BrowseRequest {
  const request: BrowseRequest = {
    limit: optionalInteger(body, "limit", 1, MAX_BROWSE_LIMIT),
    offset: optionalInteger(body, "offset", 0, MAX_BROWSE_OFFSET),
  };
  for (const field of ["entityType", "path"] as const) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string" || value === "") {
      throw EmulatorError.invalidParameters(`${field} must be a non-empty string`, field);
    }
    request[field] = value;
  }
  return request;
}

function optionalInteger(body: JsonObject, field: string, min: number, max: number): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw EmulatorError.invalidParameters(
      `${field} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`,
      field,
    );
  }
  return value;
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
