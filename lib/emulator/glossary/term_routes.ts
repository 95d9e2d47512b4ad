/**
 * The term routes of the glossary area: create (one or in bulk), read, full and partial update, delete,
 * related terms, and the terms (in full or as headers) of a glossary. `includeTermHierarchy=true` adds each
 * term's parent terms as `hierarchyInfo`; `excludeRelationshipTypes=AtlasGlossarySemanticAssignment` leaves
 * the assigned entities out of a read. The catalog contract's deprecated list by glossary name is served
 * too: compact terms unless `extInfo=true`.
 *
 * @example
 * ```ts
 * import { termRoutes } from "./term_routes.ts";
 * console.log(typeof termRoutes); // "function"
 * ```
 *
 * @module
 */
import { noContent, readArrayBody } from "../entity/lookup.ts";
import type { JsonObject } from "../entity/model.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import { page, type StoredTerm } from "./model.ts";
import type { GlossaryViews, TermViewOptions } from "./views.ts";
import type { GlossaryWriter } from "./writes.ts";
import { queryFlag, queryValues, type RouteContext, type RouteDefinition } from "../router.ts";

const GLOSSARY = "/atlas/v2/glossary";
const TERM = `${GLOSSARY}/term/{termId}`;

/** The term routes, relative to the API prefix. */
export function termRoutes(views: GlossaryViews, writer: GlossaryWriter): RouteDefinition[] {
  const viewOf = (term: StoredTerm, ctx: RouteContext) => views.termView(term, viewOptions(ctx));
  return [
    {
      method: "POST",
      path: `${GLOSSARY}/term`,
      handler: async (ctx) => {
        const [created] = writer.createTerms([await ctx.readJson()]);
        return jsonResponse(viewOf(created, ctx));
      },
    },
    {
      method: "POST",
      path: `${GLOSSARY}/terms`,
      handler: async (ctx) => {
        const created = writer.createTerms(await readArrayBody(ctx, "AtlasGlossaryTerm objects"));
        return jsonResponse(created.map((term) => viewOf(term, ctx)));
      },
    },
    { method: "GET", path: TERM, handler: (ctx) => jsonResponse(viewOf(views.term(ctx.params.termId), ctx)) },
    {
      method: "PUT",
      path: TERM,
      handler: async (ctx) =>
        jsonResponse(viewOf(writer.updateTerm(ctx.params.termId, await ctx.readJson()), ctx)),
    },
    {
      method: "PUT",
      path: `${TERM}/partial`,
      handler: async (ctx) => {
        const updated = writer.partialUpdate("term", ctx.params.termId, await ctx.readJson());
        return jsonResponse(viewOf(views.term(updated.guid), ctx));
      },
    },
    {
      method: "DELETE",
      path: TERM,
      handler: (ctx) => {
        writer.deleteTerm(ctx.params.termId);
        return noContent();
      },
    },
    {
      method: "GET",
      path: `${GLOSSARY}/terms/{termId}/related`,
      handler: (ctx) => {
        const related = views.relatedTerms(views.term(ctx.params.termId));
        const paged: Record<string, JsonObject[]> = {};
        for (const [attribute, headers] of Object.entries(related)) {
          paged[attribute] = page(headers, ctx.url, (h) => String(h.displayText));
        }
        return jsonResponse(paged);
      },
    },
    {
      method: "GET",
      path: `${GLOSSARY}/{glossaryId}/terms`,
      handler: (ctx) => {
        const terms = views.glossaries.terms(views.glossary(ctx.params.glossaryId).guid);
        return jsonResponse(page(terms, ctx.url, (t) => t.name).map((t) => viewOf(t, ctx)));
      },
    },
    {
      method: "GET",
      path: `${GLOSSARY}/{glossaryId}/terms/headers`,
      handler: (ctx) => {
        const terms = views.glossaries.terms(views.glossary(ctx.params.glossaryId).guid);
        return jsonResponse(page(terms, ctx.url, (t) => t.name).map((t) => views.termHeader(t)));
      },
    },
    {
      method: "GET",
      path: "/glossary/name/{glossaryName}/terms",
      handler: (ctx) => jsonResponse(termsByGlossaryName(views, ctx)),
    },
  ];
}

function viewOptions(ctx: RouteContext): TermViewOptions {
  return {
    hierarchy: queryFlag(ctx.url, "includeTermHierarchy"),
    withoutAssignments: queryValues(ctx.url, "excludeRelationshipTypes").includes(
      "AtlasGlossarySemanticAssignment",
    ),
  };
}

/** Glossary_ListTermsByGlossaryName: compact terms, or full ones with `extInfo=true`. */
function termsByGlossaryName(views: GlossaryViews, ctx: RouteContext): JsonObject[] {
  const name = ctx.params.glossaryName;
  const glossary = views.glossaries.glossaries().find((g) => g.name === name);
  if (!glossary) throw EmulatorError.uniqueAttributeNotFound("AtlasGlossary", { qualifiedName: name });
  const terms = page(views.glossaries.terms(glossary.guid), ctx.url, (t) => t.name);
  if (queryFlag(ctx.url, "extInfo")) return terms.map((t) => views.termView(t, viewOptions(ctx)));
  return terms.map((term) => ({
    guid: term.guid,
    qualifiedName: views.termQualifiedName(term),
    name: term.name,
    status: term.status,
    templateName: term.templateName ?? [],
    shortDescription: term.shortDescription ?? null,
    longDescription: term.longDescription ?? null,
    createTime: term.createTime,
    updateTime: term.updateTime,
  }));
}
