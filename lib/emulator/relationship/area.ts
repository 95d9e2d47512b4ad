/**
 * The Atlas v2 relationship routes (`/atlas/v2/relationship`): create, update, read (optionally with the
 * headers of both end entities) and delete relationship instances, checked against the relationship
 * definitions of the type system as the service checks them.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { Router } from "../router.ts";
 * import { EntityStore } from "../store.ts";
 * import { createTypeSystem } from "../types/system.ts";
 * import { relationshipArea } from "./area.ts";
 * const store = EntityStore.open();
 * const types = createTypeSystem(store.database, Date.now);
 * const router = new Router().mount("/datamap/api", relationshipArea({ store, types, now: Date.now }));
 * console.log(router.match("POST", "/datamap/api/atlas/v2/relationship").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import type { ApiArea, AreaDependencies } from "../area.ts";
import {
  type AtlasEntity,
  EMULATOR_USER,
  isObject,
  isPlaceholderGuid,
  lenientObjectId,
} from "../entity/model.ts";
import { entityHeader } from "../entity/views.ts";
import { EntityRelationships } from "../entity/relationships.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import { type AtlasRelationship, newRelationship, type RelationshipEnd, RelationshipStore } from "./store.ts";
import { queryFlag, type RouteContext } from "../router.ts";
import type { AtlasTypeDef } from "../types/model.ts";
import { typeErrors } from "../types/errors.ts";
import { type TypeDefRegistry, typeDefRegistryOf } from "../types/system.ts";
import { valueError } from "../types/value_checks.ts";

const BASE = "/atlas/v2/relationship";

interface RelationshipContext {
  deps: AreaDependencies;
  registry: TypeDefRegistry;
  relationships: RelationshipStore;
  /** The entities' side of relationships: a relationship whose end was deleted reads as DELETED. */
  related: EntityRelationships;
}

/** Routes of the relationship area, relative to `/catalog/api` or `/datamap/api`. */
export const relationshipArea: ApiArea = (deps) => {
  const context: RelationshipContext = {
    deps,
    registry: typeDefRegistryOf(deps.types),
    relationships: new RelationshipStore(deps.store.database),
    related: new EntityRelationships(deps.store, deps.types),
  };
  return [
    { method: "POST", path: BASE, handler: (ctx) => create(context, ctx) },
    { method: "PUT", path: BASE, handler: (ctx) => update(context, ctx) },
    { method: "GET", path: `${BASE}/guid/{guid}`, handler: (ctx) => read(context, ctx) },
    { method: "DELETE", path: `${BASE}/guid/{guid}`, handler: (ctx) => remove(context, ctx) },
  ];
};

async function create(context: RelationshipContext, ctx: RouteContext): Promise<Response> {
  const { deps, registry, relationships } = context;
  const body = await readObject(ctx);
  if (typeof body.typeName !== "string" || body.typeName === "") {
    throw EmulatorError.invalidParameters("typeName is required", "typeName");
  }
  const def = registry.find(body.typeName, "RELATIONSHIP");
  if (!def) throw typeErrors.typeNameNotFound(body.typeName);
  const end1 = resolveEnd(deps, body.end1, "end1");
  const end2 = resolveEnd(deps, body.end2, "end2");
  if (!registry.isA(end1.typeName, def.endDef1!.type) || !registry.isA(end2.typeName, def.endDef2!.type)) {
    throw typeErrors.invalidRelationshipEnd(def.name, end1.typeName, end2.typeName);
  }
  if (relationships.findByEnds(def.name, end1.guid, end2.guid)) {
    throw typeErrors.relationshipExists(def.name, end1.guid, end2.guid);
  }
  const now = deps.now();
  const relationship = newRelationship(
    def,
    end1,
    end2,
    now,
    checkedAttributes(registry, def, {}, body.attributes),
    typeof body.label === "string" && body.label !== "" ? body.label : undefined,
  );
  relationships.put(relationship);
  return jsonResponse(relationship);
}

// Atlas updates attributes and label in place; the type and the ends of a relationship cannot change.
async function update(context: RelationshipContext, ctx: RouteContext): Promise<Response> {
  const { deps, registry, relationships } = context;
  const body = await readObject(ctx);
  if (typeof body.guid !== "string" || body.guid === "" || isPlaceholderGuid(body.guid)) {
    throw EmulatorError.invalidParameters("guid of the relationship to update is required", "guid");
  }
  const existing = relationships.get(body.guid);
  if (!existing) throw typeErrors.relationshipNotFound(body.guid);
  if (typeof body.typeName === "string" && body.typeName !== existing.typeName) {
    throw typeErrors.relationshipTypeChange(existing.guid, existing.typeName, body.typeName);
  }
  for (const key of ["end1", "end2"] as const) {
    if (body[key] === undefined || body[key] === null) continue;
    const end = resolveEnd(deps, body[key], key);
    if (end.guid !== existing[key].guid) {
      throw typeErrors.relationshipEndChange(existing.typeName, existing.guid, existing[key].guid, end.guid);
    }
  }
  const def = registry.find(existing.typeName, "RELATIONSHIP");
  const updated: AtlasRelationship = {
    ...existing,
    attributes: def
      ? checkedAttributes(registry, def, existing.attributes, body.attributes)
      : existing.attributes,
    label: typeof body.label === "string" && body.label !== "" ? body.label : existing.label,
    updatedBy: EMULATOR_USER,
    updateTime: Math.max(deps.now(), existing.updateTime),
  };
  relationships.put(updated);
  return jsonResponse({ ...updated, status: context.related.relationshipStatus(updated) });
}

// Atlas deletes an entity's relationships with it, so a relationship with a deleted end reads as DELETED.
function read(context: RelationshipContext, ctx: RouteContext): Response {
  const stored = context.relationships.get(ctx.params.guid);
  if (!stored) throw typeErrors.relationshipNotFound(ctx.params.guid);
  const relationship = { ...stored, status: context.related.relationshipStatus(stored) };
  if (!queryFlag(ctx.url, "extendedInfo")) return jsonResponse({ relationship });
  const referredEntities: Record<string, unknown> = {};
  for (const end of [relationship.end1, relationship.end2]) {
    const entity = context.deps.store.get(end.guid);
    if (entity) referredEntities[entity.guid] = entityHeader(entity);
  }
  return jsonResponse({ relationship, referredEntities });
}

function remove(context: RelationshipContext, ctx: RouteContext): Response {
  if (!context.relationships.delete(ctx.params.guid)) throw typeErrors.relationshipNotFound(ctx.params.guid);
  return new Response(null, { status: 204 });
}

/** Resolves an AtlasObjectId (`{guid}` or `{typeName, uniqueAttributes: {qualifiedName}}`) to a stored entity. */
function resolveEnd(deps: AreaDependencies, given: unknown, name: "end1" | "end2"): RelationshipEnd {
  if (given === undefined || given === null) throw typeErrors.relationshipEndMissing(name);
  if (!isObject(given)) throw EmulatorError.invalidParameters(`${name} must be an AtlasObjectId`, name);
  // Read like an entity's references: a numeric guid as its text, a top-level qualifiedName as uniqueAttributes.
  const value = lenientObjectId(given) ?? given;
  let entity: AtlasEntity | undefined;
  if (typeof value.guid === "string" && value.guid !== "" && !isPlaceholderGuid(value.guid)) {
    entity = deps.store.get(value.guid);
    if (!entity) throw EmulatorError.guidNotFound(value.guid);
  } else if (typeof value.typeName === "string" && isObject(value.uniqueAttributes)) {
    const qualifiedName = value.uniqueAttributes.qualifiedName;
    if (typeof qualifiedName !== "string" || qualifiedName === "") {
      throw EmulatorError.invalidParameters(`${name}.uniqueAttributes.qualifiedName is required`, name);
    }
    entity = deps.store.findByQualifiedName(value.typeName, qualifiedName);
    if (!entity) throw EmulatorError.uniqueAttributeNotFound(value.typeName, { qualifiedName });
  } else {
    throw EmulatorError.invalidParameters(`${name} needs a guid, or a typeName and uniqueAttributes`, name);
  }
  return { guid: entity.guid, typeName: entity.typeName };
}

/**
 * The relationship's attributes after applying `given` on top of `current`: each must be defined by the
 * relationship type and hold a value of its type. Attributes never set are reported as null, as the service
 * does.
 */
function checkedAttributes(
  registry: TypeDefRegistry,
  def: AtlasTypeDef,
  current: Record<string, unknown>,
  given: unknown,
): Record<string, unknown> {
  if (given !== undefined && given !== null && !isObject(given)) {
    throw EmulatorError.invalidParameters("attributes must be a JSON object", "attributes");
  }
  const attributes: Record<string, unknown> = {};
  for (const attribute of def.attributeDefs ?? []) {
    attributes[attribute.name] = current[attribute.name] ?? null;
  }
  for (const [name, value] of Object.entries(given ?? {})) {
    const attribute = def.attributeDefs?.find((a) => a.name === name);
    if (!attribute) throw typeErrors.unknownAttribute(name, def.name);
    const error = valueError(registry, value, attribute.typeName, `${def.name}.${name}`);
    if (error) throw error;
    attributes[name] = value;
  }
  return attributes;
}

async function readObject(ctx: RouteContext): Promise<Record<string, unknown>> {
  const body = await ctx.readJson();
  if (!isObject(body)) {
    throw EmulatorError.badRequest("Request body must be an AtlasRelationship JSON object");
  }
  return body;
}
