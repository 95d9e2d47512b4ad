/**
 * The Atlas v2 entity routes (`/atlas/v2/entity...`): create or update one or many entities, read them by
 * guid or unique attribute, and delete them, with the request and response shapes of the 2023-09-01
 * data-map contract.
 *
 * @example
 * ```ts
 * import { Router } from "./router.ts";
 * import { EntityStore } from "./store.ts";
 * import { entityArea } from "./atlas_entity.ts";
 * const store = EntityStore.open();
 * const router = new Router().mount("/datamap/api", entityArea({ store, now: Date.now }));
 * console.log(router.match("POST", "/datamap/api/atlas/v2/entity").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import type { ApiArea, AreaDependencies } from "./area.ts";
import { deleteEntities, upsertEntities } from "./entity_mutation.ts";
import {
  type AtlasEntity,
  type EntityInput,
  entityView,
  isObject,
  type JsonObject,
  minimalEntity,
  referencedGuids,
  validateEntityInput,
} from "./entity_model.ts";
import { EmulatorError, jsonResponse } from "./errors.ts";
import { queryFlag, queryValues, type RouteContext } from "./router.ts";

/** Routes of the entity area, relative to `/catalog/api` or `/datamap/api`. */
export const entityArea: ApiArea = (deps) => [
  { method: "POST", path: "/atlas/v2/entity", handler: (ctx) => createOrUpdate(deps, ctx) },
  { method: "POST", path: "/atlas/v2/entity/bulk", handler: (ctx) => bulkCreateOrUpdate(deps, ctx) },
  { method: "GET", path: "/atlas/v2/entity/bulk", handler: (ctx) => listByGuids(deps, ctx) },
  { method: "DELETE", path: "/atlas/v2/entity/bulk", handler: (ctx) => bulkDelete(deps, ctx) },
  { method: "GET", path: "/atlas/v2/entity/guid/{guid}", handler: (ctx) => getByGuid(deps, ctx) },
  { method: "DELETE", path: "/atlas/v2/entity/guid/{guid}", handler: (ctx) => deleteByGuid(deps, ctx) },
  {
    method: "GET",
    path: "/atlas/v2/entity/uniqueAttribute/type/{typeName}",
    handler: (ctx) => getByUniqueAttribute(deps, ctx),
  },
  {
    method: "DELETE",
    path: "/atlas/v2/entity/uniqueAttribute/type/{typeName}",
    handler: (ctx) => deleteByUniqueAttribute(deps, ctx),
  },
];

async function createOrUpdate(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const body = await readObject(ctx);
  if (body.entity === undefined || body.entity === null) {
    throw EmulatorError.invalidParameters("entity is required in the request body", "entity");
  }
  const inputs = [validateEntityInput(body.entity, "entity"), ...referredInputs(body.referredEntities)];
  return write(deps, ctx, inputs);
}

async function bulkCreateOrUpdate(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const body = await readObject(ctx);
  if (!Array.isArray(body.entities) || body.entities.length === 0) {
    throw EmulatorError.invalidParameters("entities must be a non-empty array", "entities");
  }
  const inputs = body.entities.map((entity, i) => validateEntityInput(entity, `entities[${i}]`));
  return write(deps, ctx, [...inputs, ...referredInputs(body.referredEntities)]);
}

function write(deps: AreaDependencies, ctx: RouteContext, inputs: EntityInput[]): Response {
  const collectionId = ctx.url.searchParams.get("collectionId") || undefined;
  return jsonResponse(upsertEntities(deps.store, inputs, { now: deps.now(), collectionId }));
}

// Referred entities are keyed by their (usually placeholder) guid; the key stands in for a missing guid.
function referredInputs(referred: unknown): EntityInput[] {
  if (referred === undefined || referred === null) return [];
  if (!isObject(referred)) {
    throw EmulatorError.invalidParameters(
      "referredEntities must be an object keyed by guid",
      "referredEntities",
    );
  }
  return Object.entries(referred).map(([key, value]) => {
    const input = validateEntityInput(value, `referredEntities["${key}"]`);
    return input.guid === undefined ? { ...input, guid: key } : input;
  });
}

async function readObject(ctx: RouteContext): Promise<JsonObject> {
  const body = await ctx.readJson();
  if (!isObject(body)) throw EmulatorError.badRequest("Request body must be a JSON object");
  return body;
}

function getByGuid(deps: AreaDependencies, ctx: RouteContext): Response {
  const entity = deps.store.get(ctx.params.guid);
  if (!entity) throw EmulatorError.guidNotFound(ctx.params.guid);
  return jsonResponse(withExtInfo(deps, ctx.url, [entity], "entity"));
}

function listByGuids(deps: AreaDependencies, ctx: RouteContext): Response {
  const guids = requiredGuids(ctx.url);
  const entities = guids.map((guid) => {
    const entity = deps.store.get(guid);
    if (!entity) throw EmulatorError.guidNotFound(guid);
    return entity;
  });
  return jsonResponse(withExtInfo(deps, ctx.url, entities, "entities"));
}

function getByUniqueAttribute(deps: AreaDependencies, ctx: RouteContext): Response {
  const entity = findByUniqueAttribute(deps, ctx);
  return jsonResponse(withExtInfo(deps, ctx.url, [entity], "entity"));
}

function deleteByGuid(deps: AreaDependencies, ctx: RouteContext): Response {
  if (!deps.store.get(ctx.params.guid)) throw EmulatorError.guidNotFound(ctx.params.guid);
  return jsonResponse(deleteEntities(deps.store, [ctx.params.guid]));
}

function deleteByUniqueAttribute(deps: AreaDependencies, ctx: RouteContext): Response {
  const entity = findByUniqueAttribute(deps, ctx);
  return jsonResponse(deleteEntities(deps.store, [entity.guid]));
}

// Atlas skips guids that do not exist when deleting in bulk.
function bulkDelete(deps: AreaDependencies, ctx: RouteContext): Response {
  return jsonResponse(deleteEntities(deps.store, requiredGuids(ctx.url)));
}

function requiredGuids(url: URL): string[] {
  const guids = queryValues(url, "guid");
  if (guids.length === 0) {
    throw EmulatorError.invalidParameters("at least one guid query parameter is required", "guid");
  }
  return guids;
}

function findByUniqueAttribute(deps: AreaDependencies, ctx: RouteContext): AtlasEntity {
  const typeName = ctx.params.typeName;
  const unique: Record<string, string> = {};
  for (const [name, value] of ctx.url.searchParams) {
    if (name.startsWith("attr:")) unique[name.slice("attr:".length)] = value;
  }
  const qualifiedName = unique.qualifiedName;
  if (qualifiedName === undefined || qualifiedName === "") {
    const given = Object.keys(unique).map((k) => `attr:${k}`).join(", ") || "none";
    throw EmulatorError.invalidParameters(
      `attr:qualifiedName is required to find a ${typeName} by unique attribute (given: ${given})`,
      "attr:qualifiedName",
    );
  }
  const entity = deps.store.findByQualifiedName(typeName, qualifiedName);
  if (!entity) throw EmulatorError.uniqueAttributeNotFound(typeName, { qualifiedName });
  return entity;
}

/** `{entity | entities, referredEntities}` honouring `minExtInfo` and `ignoreRelationships`. */
function withExtInfo(
  deps: AreaDependencies,
  url: URL,
  entities: AtlasEntity[],
  key: "entity" | "entities",
): JsonObject {
  const ignoreRelationships = queryFlag(url, "ignoreRelationships");
  const minExtInfo = queryFlag(url, "minExtInfo");
  const main = new Set(entities.map((e) => e.guid));
  const referredEntities: JsonObject = {};
  for (const entity of entities) {
    for (const guid of referencedGuids(entity, !ignoreRelationships)) {
      if (main.has(guid) || guid in referredEntities) continue;
      const referred = deps.store.get(guid);
      if (!referred) continue;
      referredEntities[guid] = minExtInfo
        ? minimalEntity(referred)
        : entityView(referred, { ignoreRelationships });
    }
  }
  const views = entities.map((e) => entityView(e, { ignoreRelationships }));
  return { referredEntities, [key]: key === "entity" ? views[0] : views };
}
