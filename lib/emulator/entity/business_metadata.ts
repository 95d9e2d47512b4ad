/**
 * Business metadata on entities, stored as the service returns it: `businessAttributes: {group: {attribute:
 * value}}` on the entity. `POST /atlas/v2/entity/guid/{guid}/businessmetadata` merges groups into the
 * entity's (or, with `isOverwrite=true`, replaces all of them); `DELETE` on the same path removes the
 * attributes named in the body; `POST` and `DELETE` on `.../businessmetadata/{bmName}` do the same for the
 * attributes of one group. Values written are checked by the type system first; each answer is 204.
 * Behaviour and errors follow Apache Atlas's `AtlasEntityStoreV2.addOrUpdateBusinessAttributes` and
 * `removeBusinessAttributes`.
 *
 * @example
 * ```ts
 * import { Router } from "../router.ts";
 * import { EntityStore } from "../store.ts";
 * import { businessMetadataRoutes } from "./business_metadata.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * const router = new Router().mount("/datamap/api", businessMetadataRoutes({ store, types, now: Date.now }));
 * console.log(router.match("DELETE", "/datamap/api/atlas/v2/entity/guid/x/businessmetadata").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import type { AreaDependencies } from "../area.ts";
import { entityByGuid, noContent, readObjectBody } from "./lookup.ts";
import { checkBusinessMetadata } from "./mutation.ts";
import {
  type AtlasEntity,
  type BusinessAttributes,
  isObject,
  type JsonObject,
  mergeBusinessAttributes,
  touchedEntity,
} from "./model.ts";
import { EmulatorError } from "../errors.ts";
import { queryFlag, type RouteContext, type RouteDefinition } from "../router.ts";

const BM = "/atlas/v2/entity/guid/{guid}/businessmetadata";

/** The business metadata routes, relative to the API prefix. */
export function businessMetadataRoutes(deps: AreaDependencies): RouteDefinition[] {
  return [
    { method: "POST", path: BM, handler: (ctx) => addOrUpdate(deps, ctx) },
    { method: "DELETE", path: BM, handler: (ctx) => remove(deps, ctx) },
    { method: "POST", path: `${BM}/{businessMetadataName}`, handler: (ctx) => addOrUpdateGroup(deps, ctx) },
    { method: "DELETE", path: `${BM}/{businessMetadataName}`, handler: (ctx) => removeFromGroup(deps, ctx) },
  ];
}

async function addOrUpdate(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const entity = entityByGuid(deps, ctx.params.guid);
  const given = groupsOf(await readObjectBody(ctx));
  applyBusinessMetadata(deps, entity, given, queryFlag(ctx.url, "isOverwrite"));
  return noContent();
}

async function addOrUpdateGroup(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const entity = entityByGuid(deps, ctx.params.guid);
  const attributes = await readObjectBody(ctx);
  applyBusinessMetadata(deps, entity, { [ctx.params.businessMetadataName]: attributes }, false);
  return noContent();
}

// Removal does not check values (the body's values are ignored, only attribute names count), as in Atlas.
async function remove(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const entity = entityByGuid(deps, ctx.params.guid);
  removeBusinessMetadata(deps, entity, groupsOf(await readObjectBody(ctx)));
  return noContent();
}

async function removeFromGroup(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const entity = entityByGuid(deps, ctx.params.guid);
  const attributes = await readObjectBody(ctx);
  removeBusinessMetadata(deps, entity, { [ctx.params.businessMetadataName]: attributes });
  return noContent();
}

/**
 * Writes `given` to the entity after the type system accepted it: merged attribute by attribute, or with
 * `overwrite` in place of every group the entity had.
 */
export function applyBusinessMetadata(
  deps: AreaDependencies,
  entity: AtlasEntity,
  given: BusinessAttributes,
  overwrite: boolean,
): AtlasEntity {
  checkBusinessMetadata(deps.types, given);
  const stored = (isObject(entity.businessAttributes) ? entity.businessAttributes : {}) as BusinessAttributes;
  const next = overwrite ? mergeBusinessAttributes({}, given) : mergeBusinessAttributes(stored, given);
  const changed = touchedEntity({ ...entity, businessAttributes: next }, deps.now());
  deps.store.put(changed);
  return changed;
}

function removeBusinessMetadata(
  deps: AreaDependencies,
  entity: AtlasEntity,
  given: BusinessAttributes,
): void {
  const stored = (isObject(entity.businessAttributes) ? entity.businessAttributes : {}) as BusinessAttributes;
  const next: BusinessAttributes = {};
  for (const [group, values] of Object.entries(stored)) {
    const removed = given[group] ?? {};
    const kept = Object.fromEntries(Object.entries(values).filter(([name]) => !(name in removed)));
    if (Object.keys(kept).length > 0) next[group] = kept;
  }
  deps.store.put(touchedEntity({ ...entity, businessAttributes: next }, deps.now()));
}

/** Checks a `{group: {attribute: value}}` body: Atlas refuses an empty one ("businessAttributes is null/empty"). */
function groupsOf(body: JsonObject): BusinessAttributes {
  if (Object.keys(body).length === 0) {
    throw EmulatorError.invalidParameters("businessAttributes is null/empty", "businessAttributes");
  }
  for (const [group, values] of Object.entries(body)) {
    if (!isObject(values)) {
      throw EmulatorError.invalidParameters(
        `business metadata ${group} must be an object of attribute values`,
        group,
      );
    }
  }
  return body as BusinessAttributes;
}
