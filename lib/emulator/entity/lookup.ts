/**
 * What the entity routes share: finding the entity a request names (by guid, or by type and unique
 * attribute), reading request bodies of the expected shape, and the empty 204 answer.
 *
 * @example
 * ```ts
 * import { uniqueAttributesOf } from "./lookup.ts";
 * const url = new URL("http://x/e?attr:qualifiedName=ds%3A%2F%2Fa");
 * console.log(uniqueAttributesOf(url)); // { qualifiedName: "ds://a" }
 * ```
 *
 * @module
 */
import type { AreaDependencies, TypeSystem } from "../area.ts";
import {
  type AtlasEntity,
  type EntityInput,
  isObject,
  type JsonObject,
  validateEntityInput,
} from "./model.ts";
import { EmulatorError } from "../errors.ts";
import type { RouteContext } from "../router.ts";

/** The 204 the contract gives for classification, label and business metadata writes. */
export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/** The entity with this guid, whatever its status; 404 ATLAS-404-00-005 when there is none. */
export function entityByGuid(deps: AreaDependencies, guid: string): AtlasEntity {
  const entity = deps.store.get(guid);
  if (!entity) throw EmulatorError.guidNotFound(guid);
  return entity;
}

/** The `attr:<name>=<value>` query parameters of a unique-attribute route, by attribute name. */
export function uniqueAttributesOf(url: URL, prefix = "attr:"): Record<string, string> {
  const unique: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (name.startsWith(prefix)) unique[name.slice(prefix.length)] = value;
  }
  return unique;
}

/**
 * The type system's 404 when `typeName` is not an entity type (the service checks the type before it
 * looks for the instance); undefined for a known type. A known type may still fail validation of an empty
 * entity (missing attributes, a 400): that says nothing about the type, so it is not returned.
 */
export function unknownTypeError(types: TypeSystem, typeName: string): EmulatorError | undefined {
  const error = types.validateEntity({ typeName, attributes: {} });
  return error?.status === 404 ? error : undefined;
}

/**
 * The ACTIVE entity of the route's `{typeName}` whose qualified name is the `attr:qualifiedName` query
 * parameter. A missing parameter is a 400, an unknown type the type system's 404, no such entity (or only
 * a deleted one) 404 ATLAS-404-00-009.
 */
export function entityByUniqueAttribute(deps: AreaDependencies, ctx: RouteContext): AtlasEntity {
  const typeName = ctx.params.typeName;
  const unique = uniqueAttributesOf(ctx.url);
  const qualifiedName = unique.qualifiedName;
  if (qualifiedName === undefined || qualifiedName === "") {
    const given = Object.keys(unique).map((k) => `attr:${k}`).join(", ") || "none";
    throw EmulatorError.invalidParameters(
      `attr:qualifiedName is required to find a ${typeName} by unique attribute (given: ${given})`,
      "attr:qualifiedName",
    );
  }
  const typeError = unknownTypeError(deps.types, typeName);
  if (typeError) throw typeError;
  const entity = deps.store.findByQualifiedName(typeName, qualifiedName);
  if (!entity) throw EmulatorError.uniqueAttributeNotFound(typeName, { qualifiedName });
  return entity;
}

/** The body as a JSON object; anything else is a 400. */
export async function readObjectBody(ctx: RouteContext): Promise<JsonObject> {
  const body = await ctx.readJson();
  if (!isObject(body)) throw EmulatorError.badRequest("Request body must be a JSON object");
  return body;
}

/** The body as a JSON array; anything else is a 400 naming what was expected. */
export async function readArrayBody(ctx: RouteContext, what: string): Promise<unknown[]> {
  const body = await ctx.readJson();
  if (!Array.isArray(body)) throw EmulatorError.badRequest(`Request body must be a JSON array of ${what}`);
  return body;
}

/** The JSON body, or undefined when the request has none (for bodies the contract marks optional). */
export async function readOptionalJson(ctx: RouteContext): Promise<unknown> {
  const text = await ctx.request.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw EmulatorError.badRequest(`Request body is not valid JSON: ${reason}`);
  }
}

/** The `referredEntities` of a write, keyed by (usually placeholder) guid; the key stands in for a missing guid. */
export function referredInputs(referred: unknown): EntityInput[] {
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

/** The entities an AtlasEntityWithExtInfo body writes: its entity, then its referred entities. */
export function entityWithExtInfoInputs(body: JsonObject): EntityInput[] {
  if (body.entity === undefined || body.entity === null) {
    throw EmulatorError.invalidParameters("entity is required in the request body", "entity");
  }
  return [validateEntityInput(body.entity, "entity"), ...referredInputs(body.referredEntities)];
}

/** The entities an AtlasEntitiesWithExtInfo body writes: its entities, then its referred entities. */
export function entitiesWithExtInfoInputs(body: JsonObject): EntityInput[] {
  if (!Array.isArray(body.entities) || body.entities.length === 0) {
    throw EmulatorError.invalidParameters("entities must be a non-empty array", "entities");
  }
  const inputs = body.entities.map((entity, i) => validateEntityInput(entity, `entities[${i}]`));
  return [...inputs, ...referredInputs(body.referredEntities)];
}
