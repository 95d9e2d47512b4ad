/**
 * The catalog contract's (2023-02-01-preview) collection-scoped entity writes, served under the API
 * prefix: `POST /collections/{collection}/entity` (one AtlasEntityWithExtInfo), `.../entity/bulk`
 * (AtlasEntitiesWithExtInfo) and `.../entity/moveHere` (a MoveEntitiesRequest). They are the data-map
 * writes with the collection in the path instead of `?collectionId=`: every entity written or moved lands
 * in that collection, and the answer is the same EntityMutationResponse. The collection must exist (any
 * case; entities get its stored, lower-case name): an unknown one is a 404 and nothing is written.
 *
 * @example
 * ```ts
 * import { Router } from "../router.ts";
 * import { EntityStore } from "../store.ts";
 * import { collectionEntityRoutes } from "./collection_writes.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * const router = new Router().mount("/catalog/api", collectionEntityRoutes({ store, types, now: Date.now }));
 * console.log(router.match("POST", "/catalog/api/collections/sales/entity/bulk").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import type { AreaDependencies } from "../area.ts";
import { collectionNotFound } from "../collections/errors.ts";
import { CollectionStore } from "../collections/store.ts";
import { entitiesWithExtInfoInputs, entityWithExtInfoInputs, readObjectBody } from "./lookup.ts";
import { upsertEntities } from "./mutation.ts";
import type { EntityInput, JsonObject } from "./model.ts";
import { moveEntities } from "./partial_update.ts";
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";

const COLLECTION_ENTITY = "/collections/{collection}/entity";

/** The collection-scoped write routes, relative to the API prefix. */
export function collectionEntityRoutes(deps: AreaDependencies): RouteDefinition[] {
  const write = async (ctx: RouteContext, inputsOf: (body: JsonObject) => EntityInput[]) => {
    const collectionId = existingCollection(deps, ctx.params.collection);
    const inputs = inputsOf(await readObjectBody(ctx));
    return jsonResponse(
      upsertEntities(deps.store, inputs, { now: deps.now(), collectionId, types: deps.types }),
    );
  };
  return [
    { method: "POST", path: COLLECTION_ENTITY, handler: (ctx) => write(ctx, entityWithExtInfoInputs) },
    {
      method: "POST",
      path: `${COLLECTION_ENTITY}/bulk`,
      handler: (ctx) => write(ctx, entitiesWithExtInfoInputs),
    },
    {
      method: "POST",
      path: `${COLLECTION_ENTITY}/moveHere`,
      handler: async (ctx) => {
        const collectionId = existingCollection(deps, ctx.params.collection);
        return jsonResponse(moveEntities(deps, await readObjectBody(ctx), collectionId));
      },
    },
  ];
}

/** The stored name of the collection `name` (any case); a 404 when the account has none by that name. */
function existingCollection(deps: AreaDependencies, name: string): string {
  const collection = CollectionStore.open(deps.store, deps.now()).get(name);
  if (!collection) throw collectionNotFound(name);
  return collection.name;
}
