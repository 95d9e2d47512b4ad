/**
 * The discovery routes: `POST /search/query`, `/search/suggest` and `/search/autocomplete` (data-map API
 * 2023-09-01), `POST /browse` (catalog API 2023-02-01-preview) and `POST /navigate` (data-map API
 * 2024-03-01-preview, see `navigate.ts`), all served from the store's
 * {@link SearchIndex}, which catches up with every entity write before it answers.
 *
 * @example
 * ```ts
 * import { Router } from "../router.ts";
 * import { EntityStore } from "../store.ts";
 * import { searchArea } from "./area.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * const router = new Router().mount("/datamap/api", searchArea({ store, types, now: Date.now }));
 * console.log(router.match("POST", "/datamap/api/search/query").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import type { ApiArea } from "../area.ts";
import { isObject, type JsonObject } from "../entity/model.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteContext } from "../router.ts";
import { searchEntities } from "./engine.ts";
import { browse } from "./browse.ts";
import { navigate, parseNavigateRequest } from "./navigate.ts";
import { SearchIndex } from "./search_index.ts";
import { parseBrowseRequest, parseSearchRequest, parseTypeAheadRequest } from "./requests.ts";
import { autocomplete, suggest } from "./suggest.ts";

/** Kept here for callers of the earlier module layout. */
export { parseSearchRequest } from "./requests.ts";

/** Routes of the search area, relative to `/catalog/api` or `/datamap/api`. */
export const searchArea: ApiArea = (deps) => {
  // Built on the first search, not here: starting the emulator on a large data file stays fast.
  const index = () => SearchIndex.of(deps.store);
  return [
    {
      method: "POST",
      path: "/search/query",
      handler: async (ctx) =>
        jsonResponse(searchEntities(index(), parseSearchRequest(await objectBody(ctx)), deps.now())),
    },
    {
      method: "POST",
      path: "/search/suggest",
      handler: async (ctx) =>
        jsonResponse(suggest(index(), parseTypeAheadRequest(await objectBody(ctx)), deps.now())),
    },
    {
      method: "POST",
      path: "/search/autocomplete",
      handler: async (ctx) =>
        jsonResponse(autocomplete(index(), parseTypeAheadRequest(await objectBody(ctx)), deps.now())),
    },
    {
      method: "POST",
      path: "/browse",
      handler: async (ctx) => jsonResponse(browse(index(), parseBrowseRequest(await objectBody(ctx)))),
    },
    {
      method: "POST",
      path: "/navigate",
      handler: async (ctx) =>
        jsonResponse(navigate(index(), parseNavigateRequest(await objectBody(ctx), ctx.url.searchParams))),
    },
  ];
};

async function objectBody(ctx: RouteContext): Promise<JsonObject> {
  const body = await ctx.readJson();
  if (!isObject(body)) throw EmulatorError.badRequest("Request body must be a JSON object");
  return body;
}
