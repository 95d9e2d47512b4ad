/**
 * The Atlas v2 entity routes (`/atlas/v2/entity...` and `/entity/moveTo`) with the request and response
 * shapes of the 2023-09-01 data-map contract. This file holds create or update, reads (by guid, unique
 * attribute, in bulk, headers) and soft deletes (a glossary's guid deletes the glossary:
 * `glossary_delete.ts`); the other route families live beside it and are mounted
 * here: partial updates and moves (`partial_update.ts`), classifications, labels and business
 * metadata (`classifications.ts`, `labels.ts`, `business_metadata.ts`,
 * `business_metadata_import.ts`).
 *
 * @example
 * ```ts
 * import { Router } from "../router.ts";
 * import { EntityStore } from "../store.ts";
 * import { entityArea } from "./area.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * const router = new Router().mount("/datamap/api", entityArea({ store, types, now: Date.now }));
 * console.log(router.match("POST", "/datamap/api/atlas/v2/entity").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import type { ApiArea, AreaDependencies } from "../area.ts";
import { businessMetadataImportRoutes } from "./business_metadata_import.ts";
import { businessMetadataRoutes } from "./business_metadata.ts";
import { classificationRoutes } from "./classifications.ts";
import { collectionEntityRoutes } from "./collection_writes.ts";
import { deleteGlossaryAsEntity } from "./glossary_delete.ts";
import { labelRoutes } from "./labels.ts";
import {
  entitiesWithExtInfoInputs,
  entityByGuid,
  entityByUniqueAttribute,
  entityWithExtInfoInputs,
  readObjectBody,
  unknownTypeError,
} from "./lookup.ts";
import { deleteEntities, upsertEntities } from "./mutation.ts";
import {
  type AtlasEntity,
  type BusinessAttributeUpdateBehavior,
  type EntityInput,
  type JsonObject,
  referencedGuids,
} from "./model.ts";
import { entityHeader, minimalEntity } from "./views.ts";
import { partialUpdateRoutes } from "./partial_update.ts";
import { EntityRelationships } from "./relationships.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import { queryFlag, queryValues, type RouteContext } from "../router.ts";

const UNIQUE = "/atlas/v2/entity/uniqueAttribute/type/{typeName}";
/** The prefix of the bulk unique-attribute parameters (`attr_1:qualifiedName`, `attr_N:qualifiedName`). */
const ATTR_PREFIX = "attr_";

/** What the read routes need: the area's dependencies and the relationships shown on entities. */
interface ReadContext {
  deps: AreaDependencies;
  relationships: EntityRelationships;
}

/** Routes of the entity area, relative to `/catalog/api` or `/datamap/api`. */
export const entityArea: ApiArea = (deps) => {
  const reads: ReadContext = { deps, relationships: new EntityRelationships(deps.store, deps.types) };
  return [
    { method: "POST", path: "/atlas/v2/entity", handler: (ctx) => createOrUpdate(deps, ctx) },
    { method: "POST", path: "/atlas/v2/entity/bulk", handler: (ctx) => bulkCreateOrUpdate(deps, ctx) },
    { method: "GET", path: "/atlas/v2/entity/bulk", handler: (ctx) => listByGuids(reads, ctx) },
    { method: "DELETE", path: "/atlas/v2/entity/bulk", handler: (ctx) => bulkDelete(deps, ctx) },
    {
      method: "GET",
      path: "/atlas/v2/entity/bulk/uniqueAttribute/type/{typeName}",
      handler: (ctx) => listByUniqueAttributes(reads, ctx),
    },
    { method: "GET", path: "/atlas/v2/entity/guid/{guid}", handler: (ctx) => getByGuid(reads, ctx) },
    { method: "GET", path: "/atlas/v2/entity/guid/{guid}/header", handler: (ctx) => getHeader(deps, ctx) },
    { method: "DELETE", path: "/atlas/v2/entity/guid/{guid}", handler: (ctx) => deleteByGuid(deps, ctx) },
    { method: "GET", path: UNIQUE, handler: (ctx) => getByUniqueAttribute(reads, ctx) },
    { method: "DELETE", path: UNIQUE, handler: (ctx) => deleteByUniqueAttribute(deps, ctx) },
    ...partialUpdateRoutes(deps),
    ...classificationRoutes(deps),
    ...labelRoutes(deps),
    ...businessMetadataRoutes(deps),
    ...businessMetadataImportRoutes(deps),
    ...collectionEntityRoutes(deps),
  ];
};

async function createOrUpdate(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  return write(deps, ctx, entityWithExtInfoInputs(await readObjectBody(ctx)));
}

async function bulkCreateOrUpdate(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  return write(deps, ctx, entitiesWithExtInfoInputs(await readObjectBody(ctx)));
}

const BUSINESS_ATTRIBUTE_BEHAVIORS = new Set(["ignore", "replace", "merge"]);

function write(deps: AreaDependencies, ctx: RouteContext, inputs: EntityInput[]): Response {
  const collectionId = ctx.url.searchParams.get("collectionId") || undefined;
  const behavior = ctx.url.searchParams.get("businessAttributeUpdateBehavior") || "ignore";
  if (!BUSINESS_ATTRIBUTE_BEHAVIORS.has(behavior)) {
    throw EmulatorError.invalidParameters(
      `businessAttributeUpdateBehavior must be one of ignore, replace, merge, got ${behavior}`,
      "businessAttributeUpdateBehavior",
    );
  }
  return jsonResponse(upsertEntities(deps.store, inputs, {
    now: deps.now(),
    collectionId,
    types: deps.types,
    businessAttributes: behavior as BusinessAttributeUpdateBehavior,
  }));
}

function getByGuid(reads: ReadContext, ctx: RouteContext): Response {
  const entity = entityByGuid(reads.deps, ctx.params.guid);
  return jsonResponse(withExtInfo(reads, ctx.url, [entity], "entity"));
}

function getHeader(deps: AreaDependencies, ctx: RouteContext): Response {
  return jsonResponse(entityHeader(entityByGuid(deps, ctx.params.guid)));
}

function listByGuids(reads: ReadContext, ctx: RouteContext): Response {
  const entities = requiredGuids(ctx.url).map((guid) => entityByGuid(reads.deps, guid));
  return jsonResponse(withExtInfo(reads, ctx.url, entities, "entities"));
}

function getByUniqueAttribute(reads: ReadContext, ctx: RouteContext): Response {
  const entity = entityByUniqueAttribute(reads.deps, ctx);
  return jsonResponse(withExtInfo(reads, ctx.url, [entity], "entity"));
}

/**
 * `attr_<index>:<attribute>=...` names one entity per index, read as Atlas reads it (apache/atlas
 * webapp/src/main/java/org/apache/atlas/web/rest/EntityREST.java, getAttributesList): the index is whatever
 * stands between `attr_` and the colon, digits or not, so the literal `attr_N:qualifiedName` that both
 * contracts' examples write and Microsoft's SDKs send names one entity, beside `attr_0:`, `attr_1:`…; a
 * repeated parameter counts with its first value only. As in Atlas's retriever, names that match no ACTIVE
 * entity are skipped rather than failing the request.
 */
function listByUniqueAttributes(reads: ReadContext, ctx: RouteContext): Response {
  const deps = reads.deps;
  const typeName = ctx.params.typeName;
  const groups = new Map<string, Record<string, string>>();
  const seen = new Set<string>();
  for (const [name, value] of ctx.url.searchParams) {
    const separator = name.indexOf(":", ATTR_PREFIX.length);
    if (!name.startsWith(ATTR_PREFIX) || separator < 0 || seen.has(name)) continue;
    seen.add(name);
    const index = name.slice(ATTR_PREFIX.length, separator);
    groups.set(index, { ...groups.get(index), [name.slice(separator + 1)]: value });
  }
  if (groups.size === 0) {
    throw EmulatorError.invalidParameters(
      "at least one attr_N:qualifiedName query parameter is required",
      "attr_N:qualifiedName",
    );
  }
  const typeError = unknownTypeError(deps.types, typeName);
  if (typeError) throw typeError;
  const entities: AtlasEntity[] = [];
  for (const [index, unique] of groups) {
    if (!unique.qualifiedName) {
      throw EmulatorError.invalidParameters(
        `${ATTR_PREFIX}${index}:qualifiedName is required (the emulator looks entities up by qualifiedName)`,
        `${ATTR_PREFIX}${index}:qualifiedName`,
      );
    }
    const entity = deps.store.findByQualifiedName(typeName, unique.qualifiedName);
    if (entity && !entities.some((e) => e.guid === entity.guid)) entities.push(entity);
  }
  return jsonResponse(withExtInfo(reads, ctx.url, entities, "entities"));
}

/**
 * A deleted entity is deleted again without error and without change: Atlas's delete handler skips
 * entities already in the DELETED state, so the answer is 200 with no DELETE list. A guid that never
 * existed stays a 404, as the emulator has always answered it.
 */
function deleteByGuid(deps: AreaDependencies, ctx: RouteContext): Response {
  // A glossary's guid deletes the glossary, as on the service (glossary_delete.ts says where from).
  const glossary = deps.store.get(ctx.params.guid)
    ? undefined
    : deleteGlossaryAsEntity(deps, ctx.params.guid);
  if (glossary) return jsonResponse(glossary);
  entityByGuid(deps, ctx.params.guid);
  return jsonResponse(deleteEntities(deps.store, [ctx.params.guid], deps.now()));
}

function deleteByUniqueAttribute(deps: AreaDependencies, ctx: RouteContext): Response {
  const entity = entityByUniqueAttribute(deps, ctx);
  return jsonResponse(deleteEntities(deps.store, [entity.guid], deps.now()));
}

// Atlas skips guids that do not exist (or are deleted already) when deleting in bulk.
function bulkDelete(deps: AreaDependencies, ctx: RouteContext): Response {
  return jsonResponse(deleteEntities(deps.store, requiredGuids(ctx.url), deps.now()));
}

function requiredGuids(url: URL): string[] {
  const guids = queryValues(url, "guid");
  if (guids.length === 0) {
    throw EmulatorError.invalidParameters("at least one guid query parameter is required", "guid");
  }
  return guids;
}

/**
 * `{entity | entities, referredEntities}`: the entities referenced from the attributes and relationship
 * attributes (object ids with a guid, relationship instances included) are returned in full, or as
 * minimal headers with `minExtInfo=true`; `ignoreRelationships=true` leaves relationship attributes (and
 * what only they refer to) out.
 */
function withExtInfo(
  reads: ReadContext,
  url: URL,
  entities: AtlasEntity[],
  key: "entity" | "entities",
): JsonObject {
  const ignoreRelationships = queryFlag(url, "ignoreRelationships");
  const minExtInfo = queryFlag(url, "minExtInfo");
  const view = (entity: AtlasEntity) => reads.relationships.view(entity, { ignoreRelationships });
  const views = entities.map(view);
  const main = new Set(entities.map((e) => e.guid));
  const referredEntities: JsonObject = {};
  for (const entity of views) {
    for (const guid of referencedGuids(entity, !ignoreRelationships)) {
      if (main.has(guid) || guid in referredEntities) continue;
      const referred = reads.deps.store.get(guid);
      if (!referred) continue;
      referredEntities[guid] = minExtInfo ? minimalEntity(referred) : view(referred);
    }
  }
  return { referredEntities, [key]: key === "entity" ? views[0] : views };
}
