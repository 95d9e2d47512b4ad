/**
 * Partial entity updates and moves: `PUT /atlas/v2/entity/guid/{guid}?name=<attribute>` (one attribute,
 * the body is its JSON value), `PUT /atlas/v2/entity/uniqueAttribute/type/{typeName}` (the attributes in
 * the body merge into the entity) and `POST /entity/moveTo?collectionId=` (no `/atlas/v2`: the contract
 * serves it directly under the API prefix).
 *
 * @example
 * ```ts
 * import { Router } from "../router.ts";
 * import { EntityStore } from "../store.ts";
 * import { partialUpdateRoutes } from "./partial_update.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * const router = new Router().mount("/datamap/api", partialUpdateRoutes({ store, types, now: Date.now }));
 * console.log(router.match("POST", "/datamap/api/entity/moveTo").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import type { AreaDependencies } from "../area.ts";
import { entityByGuid, entityByUniqueAttribute, readObjectBody, referredInputs } from "./lookup.ts";
import { upsertEntities } from "./mutation.ts";
import {
  type AtlasEntityHeader,
  type EntityInput,
  type EntityMutationResult,
  isObject,
  type JsonObject,
  touchedEntity,
} from "./model.ts";
import { mutationHeader } from "./views.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";

/** The partial update and move routes, relative to the API prefix. */
export function partialUpdateRoutes(deps: AreaDependencies): RouteDefinition[] {
  return [
    { method: "PUT", path: "/atlas/v2/entity/guid/{guid}", handler: (ctx) => updateAttribute(deps, ctx) },
    {
      method: "PUT",
      path: "/atlas/v2/entity/uniqueAttribute/type/{typeName}",
      handler: (ctx) => updateByUniqueAttribute(deps, ctx),
    },
    { method: "POST", path: "/entity/moveTo", handler: (ctx) => moveTo(deps, ctx) },
  ];
}

// An object id: `{guid, typeName}` or `{typeName, uniqueAttributes}`.
function isReference(value: unknown): boolean {
  return isObject(value) && typeof value.typeName === "string" &&
    (typeof value.guid === "string" || isObject(value.uniqueAttributes));
}

/**
 * The contract: "Supports only primitive attribute type and entity references. It does not support
 * updating complex types like arrays, and maps. Null updates are not possible." Atlas answers the
 * unsupported kinds with ATTRIBUTE_UPDATE_NOT_SUPPORTED.
 */
async function updateAttribute(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const name = ctx.url.searchParams.get("name");
  if (!name) {
    throw EmulatorError.invalidParameters(
      "the name query parameter (the attribute to update) is required",
      "name",
    );
  }
  const entity = entityByGuid(deps, ctx.params.guid);
  const value = await ctx.readJson();
  if (value === null) {
    throw EmulatorError.invalidParameters(`${entity.typeName}.${name}: null updates are not possible`, name);
  }
  if (Array.isArray(value) || (isObject(value) && !isReference(value))) {
    throw new EmulatorError(
      400,
      "ATLAS-400-00-027",
      `${entity.typeName}.${name} : attribute update not supported (only primitive values and entity references)`,
    );
  }
  if (name === "qualifiedName" && (typeof value !== "string" || value.trim() === "")) {
    throw EmulatorError.missingAttribute(entity.typeName, "qualifiedName");
  }
  const input = {
    guid: entity.guid,
    typeName: entity.typeName,
    attributes: { ...entity.attributes, [name]: value },
  } as EntityInput;
  return jsonResponse(partialWrite(deps, entity.guid, [input]));
}

/**
 * The entity in the body is merged into the stored one: attributes and relationship attributes key by key,
 * other fields it carries replace the stored ones. Service-owned fields in the body (guid, times, version,
 * as in the contract's example) are ignored.
 */
async function updateByUniqueAttribute(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const entity = entityByUniqueAttribute(deps, ctx);
  const body = await readObjectBody(ctx);
  const given = body.entity;
  if (!isObject(given)) {
    throw EmulatorError.invalidParameters("entity is required in the request body", "entity");
  }
  if (given.typeName !== undefined && given.typeName !== entity.typeName) {
    throw new EmulatorError(
      400,
      "ATLAS-400-00-010",
      `Given type ${String(given.typeName)} doesn't match ${entity.typeName}`,
    );
  }
  if (given.attributes !== undefined && !isObject(given.attributes)) {
    throw EmulatorError.invalidParameters("entity.attributes must be a JSON object", "entity.attributes");
  }
  const attributes: JsonObject = { ...entity.attributes, ...given.attributes };
  const qualifiedName = attributes.qualifiedName;
  if (typeof qualifiedName !== "string" || qualifiedName.trim() === "") {
    throw EmulatorError.missingAttribute(entity.typeName, "qualifiedName");
  }
  const input: JsonObject = { ...given, guid: entity.guid, typeName: entity.typeName, attributes };
  if (isObject(given.relationshipAttributes)) {
    const stored = isObject(entity.relationshipAttributes) ? entity.relationshipAttributes : {};
    input.relationshipAttributes = { ...stored, ...given.relationshipAttributes };
  }
  const inputs = [input as EntityInput, ...referredInputs(body.referredEntities)];
  return jsonResponse(partialWrite(deps, entity.guid, inputs));
}

function partialWrite(deps: AreaDependencies, guid: string, inputs: EntityInput[]): EntityMutationResult {
  return upsertEntities(deps.store, inputs, { now: deps.now(), types: deps.types, partial: new Set([guid]) });
}

// Like create-or-update, the move reports an internal negative id per entity in guidAssignments (see the
// contract's Entity_MoveEntitiesToCollection example).
let nextInternalId = Date.now() * 1000 + 500_000;

/** Moves the entities to `collectionId`; every one must exist (404 otherwise), and nothing moves unless all do. */
async function moveTo(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const collectionId = ctx.url.searchParams.get("collectionId");
  if (!collectionId) {
    throw EmulatorError.invalidParameters("the collectionId query parameter is required", "collectionId");
  }
  return jsonResponse(moveEntities(deps, await readObjectBody(ctx), collectionId));
}

/**
 * Moves the entities a MoveEntitiesRequest (`{entityGuids}`) names to `collectionId`; every one must
 * exist (404 otherwise), and nothing moves unless all do. Answers an EntityMutationResponse.
 */
export function moveEntities(deps: AreaDependencies, body: JsonObject, collectionId: string): JsonObject {
  const guids = body.entityGuids;
  if (!Array.isArray(guids) || guids.length === 0 || !guids.every((g) => typeof g === "string" && g !== "")) {
    throw EmulatorError.invalidParameters("entityGuids must be a non-empty array of guids", "entityGuids");
  }
  const entities = [...new Set(guids as string[])].map((guid) => entityByGuid(deps, guid));
  const now = deps.now();
  const updated: AtlasEntityHeader[] = [];
  const guidAssignments: Record<string, string> = {};
  deps.store.transaction(() => {
    for (const entity of entities) {
      const moved = touchedEntity({ ...entity, collectionId }, now);
      deps.store.put(moved);
      updated.push(mutationHeader(moved));
      nextInternalId += 1;
      guidAssignments[`-${nextInternalId}`] = moved.guid;
    }
  });
  return { mutatedEntities: { UPDATE: updated }, guidAssignments };
}
