/**
 * Classifications of entities: list, read, add, update and remove them on one entity (by guid or by type
 * and unique attribute), add one classification to many entities, and set the classifications of many
 * entities at once. Every classification written is checked by the type system first; a request that fails
 * anywhere writes nothing. Error codes follow Apache Atlas (`AtlasEntityStoreV2`, `EntityGraphMapper`).
 *
 * @example
 * ```ts
 * import { Router } from "../router.ts";
 * import { EntityStore } from "../store.ts";
 * import { classificationRoutes } from "./classifications.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * const router = new Router().mount("/datamap/api", classificationRoutes({ store, types, now: Date.now }));
 * console.log(router.match("POST", "/datamap/api/atlas/v2/entity/bulk/classification").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import type { AreaDependencies, TypeSystem } from "../area.ts";
import {
  entityByGuid,
  entityByUniqueAttribute,
  noContent,
  readArrayBody,
  readObjectBody,
  unknownTypeError,
} from "./lookup.ts";
import { type AtlasEntity, isObject, type JsonObject, touchedEntity } from "./model.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";

const BY_GUID = "/atlas/v2/entity/guid/{guid}";
const BY_UNIQUE = "/atlas/v2/entity/uniqueAttribute/type/{typeName}";

/** The classification routes, relative to the API prefix. */
export function classificationRoutes(deps: AreaDependencies): RouteDefinition[] {
  const byGuid = (ctx: RouteContext) => entityByGuid(deps, ctx.params.guid);
  const byUnique = (ctx: RouteContext) => entityByUniqueAttribute(deps, ctx);
  return [
    { method: "GET", path: `${BY_GUID}/classifications`, handler: (ctx) => list(byGuid(ctx)) },
    {
      method: "GET",
      path: `${BY_GUID}/classification/{classificationName}`,
      handler: (ctx) => getOne(deps, ctx),
    },
    { method: "POST", path: `${BY_GUID}/classifications`, handler: (ctx) => change(deps, ctx, byGuid, add) },
    {
      method: "PUT",
      path: `${BY_GUID}/classifications`,
      handler: (ctx) => change(deps, ctx, byGuid, update),
    },
    {
      method: "DELETE",
      path: `${BY_GUID}/classification/{classificationName}`,
      handler: (ctx) => remove(deps, ctx, byGuid),
    },
    {
      method: "POST",
      path: `${BY_UNIQUE}/classifications`,
      handler: (ctx) => change(deps, ctx, byUnique, add),
    },
    {
      method: "PUT",
      path: `${BY_UNIQUE}/classifications`,
      handler: (ctx) => change(deps, ctx, byUnique, update),
    },
    {
      method: "DELETE",
      path: `${BY_UNIQUE}/classification/{classificationName}`,
      handler: (ctx) => remove(deps, ctx, byUnique),
    },
    { method: "POST", path: "/atlas/v2/entity/bulk/classification", handler: (ctx) => addToMany(deps, ctx) },
    {
      method: "POST",
      path: "/atlas/v2/entity/bulk/setClassifications",
      handler: (ctx) => setMany(deps, ctx),
    },
  ];
}

type Classification = JsonObject & { typeName: string };
type Change = (entity: AtlasEntity, list: Classification[], types: TypeSystem) => AtlasEntity;

/** `AtlasClassifications`, as in the contract's Entity_GetClassifications example. */
function list(entity: AtlasEntity): Response {
  const classifications = structuredClone(entity.classifications ?? []);
  return jsonResponse({
    list: classifications,
    startIndex: 0,
    pageSize: classifications.length,
    totalCount: classifications.length,
    sortType: "NONE",
  });
}

function getOne(deps: AreaDependencies, ctx: RouteContext): Response {
  const entity = entityByGuid(deps, ctx.params.guid);
  const name = ctx.params.classificationName;
  const found = (entity.classifications ?? []).find((c) => c.typeName === name);
  if (!found) throw classificationNotFound(name);
  return jsonResponse(found);
}

async function change(
  deps: AreaDependencies,
  ctx: RouteContext,
  find: (ctx: RouteContext) => AtlasEntity,
  apply: Change,
): Promise<Response> {
  const entity = find(ctx);
  const classifications = parseClassifications(await readArrayBody(ctx, "classifications"));
  const changed = touchedEntity(apply(entity, classifications, deps.types), deps.now());
  deps.store.put(changed);
  return noContent();
}

function remove(
  deps: AreaDependencies,
  ctx: RouteContext,
  find: (ctx: RouteContext) => AtlasEntity,
): Response {
  const entity = find(ctx);
  const name = ctx.params.classificationName;
  const current = entity.classifications ?? [];
  // EntityGraphMapper.deleteClassification: no classifications at all, then the named one missing.
  if (current.length === 0) {
    throw new EmulatorError(
      404,
      "ATLAS-404-00-003",
      `No classifications associated with entity: ${entity.guid}`,
    );
  }
  if (!current.some((c) => c.typeName === name)) throw classificationNotFound(name);
  const changed = { ...entity, classifications: current.filter((c) => c.typeName !== name) };
  deps.store.put(touchedEntity(changed, deps.now()));
  return noContent();
}

/** `ClassificationAssociateOptions`: one classification for many entities, all or none. */
async function addToMany(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const body = await readObjectBody(ctx);
  const classification = body.classification;
  if (
    !isObject(classification) || typeof classification.typeName !== "string" || classification.typeName === ""
  ) {
    throw EmulatorError.invalidParameters("no classification", "classification");
  }
  const guids = body.entityGuids;
  if (!Array.isArray(guids) || guids.length === 0 || !guids.every((g) => typeof g === "string")) {
    throw EmulatorError.invalidParameters("empty guid list", "entityGuids");
  }
  const now = deps.now();
  const changed = [...new Set(guids as string[])].map((guid) =>
    touchedEntity(add(entityByGuid(deps, guid), [classification as Classification], deps.types), now)
  );
  deps.store.transaction(() => changed.forEach((entity) => deps.store.put(entity)));
  return noContent();
}

/**
 * `AtlasEntityHeaders`: each header names an entity (by type and qualifiedName, as Atlas's
 * ClassificationAssociator looks it up; by its guid key when it carries no qualifiedName) and the full list
 * of classifications it should carry. Answers one line per change, in Atlas's format
 * (`Add:<guid>:<type>:<qualifiedName> -> <names>:(Done)`).
 */
async function setMany(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const body = await readObjectBody(ctx);
  if (!isObject(body.guidHeaderMap)) {
    throw EmulatorError.invalidParameters("guidHeaderMap must be an object keyed by guid", "guidHeaderMap");
  }
  const plans: Array<{ key: string; header: JsonObject; incoming: Classification[] }> = [];
  for (const [key, header] of Object.entries(body.guidHeaderMap)) {
    if (!isObject(header)) {
      throw EmulatorError.invalidParameters(
        `guidHeaderMap["${key}"] must be an entity header`,
        "guidHeaderMap",
      );
    }
    const incoming = header.classifications === undefined || header.classifications === null
      ? []
      : parseClassifications(header.classifications, true);
    // The whole request is checked before anything is written, so a bad name changes nothing.
    for (const c of incoming) {
      const error = deps.types.validateClassification(c.typeName);
      if (error) throw error;
    }
    plans.push({ key, header, incoming });
  }

  const now = deps.now();
  const summary: string[] = [];
  const changed: AtlasEntity[] = [];
  for (const { key, header, incoming } of plans) {
    const typeName = String(header.typeName ?? "");
    const attributes = isObject(header.attributes) ? header.attributes : {};
    const qualifiedName = typeof attributes.qualifiedName === "string" ? attributes.qualifiedName : undefined;
    if (typeName === "" || unknownTypeError(deps.types, typeName)) {
      summary.push(`${typeName}: (Skipped)`);
      continue;
    }
    const entity = qualifiedName !== undefined
      ? deps.store.findByQualifiedName(typeName, qualifiedName)
      : deps.store.get(typeof header.guid === "string" ? header.guid : key);
    if (!entity || entity.typeName !== typeName) {
      summary.push(`Entity:${typeName}:${qualifiedName ?? key}:[Not found]:(Skipped)`);
      continue;
    }
    const own = (entity.classifications ?? []).filter((c) => !c.entityGuid || c.entityGuid === entity.guid);
    const wanted = incoming.filter((c) => !c.entityGuid || c.entityGuid === entity.guid);
    const names = (list: JsonObject[]) => list.map((c) => String(c.typeName));
    const toDelete = own.filter((c) => !wanted.some((w) => w.typeName === c.typeName));
    const toUpdate = wanted.filter((w) => own.some((c) => c.typeName === w.typeName));
    const toAdd = wanted.filter((w) => !own.some((c) => c.typeName === w.typeName));
    let next: AtlasEntity = {
      ...entity,
      classifications: (entity.classifications ?? []).filter((c) => !toDelete.includes(c)),
    };
    if (toUpdate.length > 0) next = update(next, toUpdate, deps.types);
    if (toAdd.length > 0) next = add(next, toAdd, deps.types);
    const label = `${entity.guid}:${typeName}:${entity.attributes.qualifiedName}`;
    if (toDelete.length > 0) summary.push(`Delete:${label} -> ${names(toDelete).join(", ")}:(Done)`);
    if (toUpdate.length > 0) summary.push(`Update:${label} -> ${names(toUpdate).join(", ")}:(Done)`);
    if (toAdd.length > 0) summary.push(`Add:${label} -> ${names(toAdd).join(", ")}:(Done)`);
    if (toDelete.length + toUpdate.length + toAdd.length > 0) changed.push(touchedEntity(next, now));
  }
  deps.store.transaction(() => changed.forEach((entity) => deps.store.put(entity)));
  return jsonResponse(summary);
}

function parseClassifications(body: unknown, allowEmpty = false): Classification[] {
  if (!Array.isArray(body)) throw EmulatorError.badRequest("classifications must be a JSON array");
  if (body.length === 0 && !allowEmpty) {
    throw EmulatorError.invalidParameters("classifications(s) not specified", "classifications");
  }
  return body.map((item, i) => {
    if (!isObject(item) || typeof item.typeName !== "string" || item.typeName === "") {
      throw EmulatorError.invalidParameters(
        `classifications[${i}] must be an object with a typeName`,
        `classifications[${i}].typeName`,
      );
    }
    if (item.attributes !== undefined && item.attributes !== null && !isObject(item.attributes)) {
      throw EmulatorError.invalidParameters(
        `classifications[${i}].attributes must be a JSON object`,
        `classifications[${i}].attributes`,
      );
    }
    return item as Classification;
  });
}

/**
 * Adds classifications. One the entity carries already (or named twice) is refused as Atlas's
 * validateEntityAssociations does: 400 INVALID_PARAMETERS "entity: <guid>, already associated with
 * classification: <name>".
 */
function add(entity: AtlasEntity, list: Classification[], types: TypeSystem): AtlasEntity {
  const names = new Set((entity.classifications ?? []).map((c) => String(c.typeName)));
  const added: JsonObject[] = [];
  for (const classification of list) {
    const error = types.validateClassification(classification.typeName);
    if (error) throw error;
    if (names.has(classification.typeName)) {
      throw EmulatorError.invalidParameters(
        `entity: ${entity.guid}, already associated with classification: ${classification.typeName}`,
        classification.typeName,
      );
    }
    names.add(classification.typeName);
    // The service owns entityGuid and entityStatus (set when the entity is saved) and the ETag.
    const { entityGuid: _guid, entityStatus: _status, lastModifiedTS: _ts, ...given } = classification;
    added.push({ ...given, lastModifiedTS: "1" });
  }
  return { ...entity, classifications: [...(entity.classifications ?? []), ...added] };
}

/**
 * Updates classifications the entity carries: attributes merge, other fields sent replace the stored
 * ones. A classification the entity does not carry is Atlas's CLASSIFICATION_NOT_ASSOCIATED_WITH_ENTITY;
 * one whose entityGuid names another entity (a propagated one) CLASSIFICATION_UPDATE_FROM_PROPAGATED_ENTITY.
 */
function update(entity: AtlasEntity, list: Classification[], types: TypeSystem): AtlasEntity {
  const classifications = [...(entity.classifications ?? [])];
  for (const classification of list) {
    const error = types.validateClassification(classification.typeName);
    if (error) throw error;
    const name = classification.typeName;
    if (
      typeof classification.entityGuid === "string" && classification.entityGuid !== "" &&
      classification.entityGuid !== entity.guid
    ) {
      throw new EmulatorError(
        400,
        "ATLAS-400-00-06B",
        `Update to classification ${name} is not allowed from propagated entity`,
      );
    }
    const index = classifications.findIndex((c) => c.typeName === name);
    if (index < 0) {
      throw new EmulatorError(
        400,
        "ATLAS-400-00-06D",
        `Classification ${name} is not associated with entity`,
      );
    }
    const current = classifications[index];
    const { entityGuid: _guid, entityStatus: _status, lastModifiedTS: _ts, ...given } = classification;
    const attributes = isObject(given.attributes)
      ? { ...(isObject(current.attributes) ? current.attributes : {}), ...given.attributes }
      : current.attributes;
    const next: JsonObject = {
      ...current,
      ...given,
      lastModifiedTS: String(Number(current.lastModifiedTS ?? 1) + 1),
    };
    if (attributes === undefined) delete next.attributes;
    else next.attributes = attributes;
    classifications[index] = next;
  }
  return { ...entity, classifications };
}

/** Atlas CLASSIFICATION_NOT_FOUND. */
function classificationNotFound(name: string): EmulatorError {
  return new EmulatorError(404, "ATLAS-404-00-008", `Given classification ${name} was invalid`);
}
