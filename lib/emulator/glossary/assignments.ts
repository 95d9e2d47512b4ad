/**
 * Terms assigned to entities (`/atlas/v2/glossary/terms/{termId}/assignedEntities`): list, assign, and
 * remove (DELETE, and the older catalog API's PUT). An assignment is an AtlasGlossarySemanticAssignment
 * relationship, so it shows on both ends: in the term's `assignedEntities`, and in the entity's `meanings`
 * (AtlasTermAssignmentHeader) and `relationshipAttributes.meanings` (AtlasRelatedObjectId), which the
 * entity routes and search read.
 *
 * Assigning is all or nothing: an unknown or deleted entity fails the whole request (404). Assigning a
 * term an entity already has changes nothing, as Atlas skips assigned entities. Removing needs each
 * assignment's `relationshipGuid`, as Atlas does (400 when missing or not an assignment of this term).
 *
 * @example
 * ```ts
 * import { meaningHeader } from "./assignments.ts";
 * const header = meaningHeader({ guid: "r1", attributes: {} }, { guid: "t1", name: "Revenue" });
 * console.log(header.displayText); // "Revenue"
 * ```
 *
 * @module
 */
import type { AreaDependencies } from "../area.ts";
import { noContent, readArrayBody } from "../entity/lookup.ts";
import { type AtlasEntity, isObject, type JsonObject, touchedEntity } from "../entity/model.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import { ASSIGNMENT, instanceDeleted, page, type StoredRelation, type StoredTerm } from "./model.ts";
import { relation } from "./relations.ts";
import type { GlossaryViews } from "./views.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { countWrite } from "../write_counts.ts";

const SEMANTIC_ASSIGNMENT = "AtlasGlossarySemanticAssignment";
const ASSIGNMENT_KEYS = [
  "description",
  "expression",
  "status",
  "confidence",
  "createdBy",
  "steward",
  "source",
];
const PATH = "/atlas/v2/glossary/terms/{termId}/assignedEntities";

/** The assignment routes, relative to the API prefix. */
export function assignmentRoutes(deps: AreaDependencies, views: GlossaryViews): RouteDefinition[] {
  return [
    {
      method: "GET",
      path: PATH,
      handler: (ctx) => {
        const term = views.term(ctx.params.termId);
        return jsonResponse(page(views.assignedEntities(term), ctx.url, (e) => String(e.displayText)));
      },
    },
    { method: "POST", path: PATH, handler: (ctx) => assign(deps, views, ctx) },
    { method: "DELETE", path: PATH, handler: (ctx) => remove(deps, views, ctx) },
    { method: "PUT", path: PATH, handler: (ctx) => remove(deps, views, ctx) },
  ];
}

/** The related object ids of a body: a non-empty array of objects with a guid. */
async function relatedObjects(ctx: RouteContext): Promise<JsonObject[]> {
  const body = await readArrayBody(ctx, "related object ids ({guid, relationshipGuid})");
  if (body.length === 0) throw EmulatorError.invalidParameters("at least one related object id is required");
  return body.map((item, i) => {
    if (!isObject(item) || typeof item.guid !== "string" || item.guid.trim() === "") {
      throw EmulatorError.invalidParameters(`[${i}].guid is required`, `[${i}].guid`);
    }
    return item;
  });
}

async function assign(deps: AreaDependencies, views: GlossaryViews, ctx: RouteContext): Promise<Response> {
  const term = views.term(ctx.params.termId);
  const objects = await relatedObjects(ctx);
  const now = deps.now();
  deps.store.transaction(() => {
    const assigned = new Set(views.activeAssignments(term.guid).map((r) => r.end2));
    for (const object of objects) {
      const guid = String(object.guid);
      const entity = deps.store.get(guid);
      if (!entity) throw EmulatorError.guidNotFound(guid);
      if (entity.status !== "ACTIVE") throw instanceDeleted(guid);
      // Every assignment a committed call carries is counted, one the term has already too: a row sent
      // twice shows, though the service ignores the second.
      countWrite(deps.store.database, "term-assignment", `${term.guid}|${guid}`);
      if (assigned.has(guid)) continue;
      assigned.add(guid);
      const row = relation(ASSIGNMENT, term.guid, guid, assignmentAttributes(object), now);
      views.glossaries.putRelation(row);
      deps.store.put(touchedEntity(withMeaning(entity, row, term), now));
    }
  });
  return noContent();
}

async function remove(deps: AreaDependencies, views: GlossaryViews, ctx: RouteContext): Promise<Response> {
  const term = views.term(ctx.params.termId);
  const objects = await relatedObjects(ctx);
  const now = deps.now();
  deps.store.transaction(() => {
    for (const object of objects) {
      const relationshipGuid = object.relationshipGuid;
      if (typeof relationshipGuid !== "string" || relationshipGuid === "") {
        throw new EmulatorError(
          400,
          "ATLAS-400-00-078",
          "Missing mandatory attribute, TermAssignment relationship guid",
        );
      }
      const row = views.glossaries.relation(relationshipGuid);
      if (!row || row.kind !== ASSIGNMENT || row.end1 !== term.guid || row.end2 !== object.guid) {
        throw new EmulatorError(
          400,
          "ATLAS-400-00-080",
          `Given relationshipGuid(${relationshipGuid}) is invalid for term (guid=${term.guid}) and entity(guid=${object.guid})`,
        );
      }
      views.glossaries.deleteRelation(row.guid);
      const entity = deps.store.get(row.end2);
      if (entity) deps.store.put(touchedEntity(withoutMeaning(entity, row.guid), now));
    }
  });
  return noContent();
}

/** The semantic assignment's attributes given in `relationshipAttributes.attributes`. */
function assignmentAttributes(object: JsonObject): JsonObject {
  const given = isObject(object.relationshipAttributes) && isObject(object.relationshipAttributes.attributes)
    ? object.relationshipAttributes.attributes
    : {};
  const attributes: JsonObject = {};
  for (const key of ASSIGNMENT_KEYS) {
    if (given[key] !== undefined && given[key] !== null) attributes[key] = given[key];
  }
  return attributes;
}

/** AtlasTermAssignmentHeader of an assignment, as an entity's `meanings` list it. */
export function meaningHeader(
  row: Pick<StoredRelation, "guid" | "attributes">,
  term: { guid: string; name: string },
): JsonObject {
  return { termGuid: term.guid, relationGuid: row.guid, displayText: term.name, ...row.attributes };
}

/** AtlasRelatedObjectId of the term, as an entity's `relationshipAttributes.meanings` list it. */
function meaningObject(row: StoredRelation, term: { guid: string; name: string }): JsonObject {
  return {
    guid: term.guid,
    typeName: "AtlasGlossaryTerm",
    entityStatus: "ACTIVE",
    displayText: term.name,
    relationshipType: SEMANTIC_ASSIGNMENT,
    relationshipGuid: row.guid,
    relationshipStatus: "ACTIVE",
    relationshipAttributes: { typeName: SEMANTIC_ASSIGNMENT, attributes: { ...row.attributes } },
  };
}

/** The entity with the assignment added to both of its meanings lists (replacing an older copy). */
function withMeaning(entity: AtlasEntity, row: StoredRelation, term: StoredTerm): AtlasEntity {
  const without = withoutMeaning(entity, row.guid);
  const relationshipAttributes = isObject(without.relationshipAttributes)
    ? without.relationshipAttributes
    : {};
  const related = Array.isArray(relationshipAttributes.meanings) ? relationshipAttributes.meanings : [];
  return {
    ...without,
    meanings: [...(Array.isArray(without.meanings) ? without.meanings : []), meaningHeader(row, term)],
    relationshipAttributes: { ...relationshipAttributes, meanings: [...related, meaningObject(row, term)] },
  };
}

/** The entity without the assignment `relationGuid` in either meanings list. */
function withoutMeaning(entity: AtlasEntity, relationGuid: string): AtlasEntity {
  const next: AtlasEntity = structuredClone(entity);
  if (Array.isArray(next.meanings)) {
    next.meanings = next.meanings.filter((m) => !isObject(m) || m.relationGuid !== relationGuid);
  }
  if (isObject(next.relationshipAttributes) && Array.isArray(next.relationshipAttributes.meanings)) {
    next.relationshipAttributes.meanings = next.relationshipAttributes.meanings.filter((m) =>
      !isObject(m) || m.relationshipGuid !== relationGuid
    );
  }
  return next;
}

/**
 * Rewrites the entities a term is assigned to after the term was renamed, so their meanings show the new
 * name. The entities' versions stay: on the service the entity itself did not change.
 */
export function refreshMeanings(deps: AreaDependencies, views: GlossaryViews, term: StoredTerm): void {
  for (const row of views.glossaries.relationsOf(term.guid, ASSIGNMENT)) {
    const entity = deps.store.get(row.end2);
    if (entity) deps.store.put(withMeaning(entity, row, term));
  }
}

/** Drops the assignment rows of a term that is being deleted, and their copies on (deleted) entities. */
export function dropAssignments(deps: AreaDependencies, views: GlossaryViews, termGuid: string): void {
  for (const row of views.glossaries.relationsOf(termGuid, ASSIGNMENT)) {
    views.glossaries.deleteRelation(row.guid);
    const entity = deps.store.get(row.end2);
    if (entity) deps.store.put(withoutMeaning(entity, row.guid));
  }
}
