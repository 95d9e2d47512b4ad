/**
 * The classic glossary area of the emulator: every `/atlas/v2/glossary…` path of the 2023-09-01 data-map
 * contract (glossaries, categories, terms, term assignments) and the catalog contract's CSV term import
 * with its operation status (`/glossary/{glossaryGuid}/terms/import`, `/glossary/terms/import/{id}`).
 * This file holds the glossary and category routes; terms (`term_routes.ts`), assignments
 * (`assignments.ts`), imports (`import.ts`) and the catalog contract's bulk term routes
 * (list by guids, bulk update, bulk delete with its status, CSV export: `bulk.ts`) live beside it
 * and are mounted here.
 *
 * Everything is kept in tables of the shared SQLite database, so it survives a restart with a data file.
 *
 * @example
 * ```ts
 * import { Router } from "../router.ts";
 * import { EntityStore } from "../store.ts";
 * import { glossaryArea } from "./area.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * const router = new Router().mount("/datamap/api", glossaryArea({ store, types, now: Date.now }));
 * console.log(router.match("GET", "/datamap/api/atlas/v2/glossary").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import { addDefaultGlossary, hasGlossaryTables } from "./default.ts";
import type { ApiArea } from "../area.ts";
import { noContent, readArrayBody } from "../entity/lookup.ts";
import { jsonResponse } from "../errors.ts";
import { assignmentRoutes } from "./assignments.ts";
import { bulkTermRoutes } from "./bulk.ts";
import { GlossaryImports, importRoutes } from "./import.ts";
import { page } from "./model.ts";
import { GlossaryStore } from "./store.ts";
import { termRoutes } from "./term_routes.ts";
import { GlossaryViews } from "./views.ts";
import { GlossaryWriter } from "./writes.ts";
import { queryFlag, type RouteContext, type RouteDefinition } from "../router.ts";

const GLOSSARY = "/atlas/v2/glossary";
const CATEGORY = `${GLOSSARY}/category/{categoryId}`;

/** Routes of the glossary area, relative to the API prefix. */
export const glossaryArea: ApiArea = (deps) => {
  // A new database gets the glossary a new account has (default.ts); made once, when the glossary
  // tables are created, so a caller who deletes it keeps it deleted.
  if (!hasGlossaryTables(deps.store.database)) addDefaultGlossary(deps.store.database, deps.now());
  const views = new GlossaryViews(GlossaryStore.for(deps.store.database), deps.store);
  const writer = new GlossaryWriter(deps, views);
  const imports = new GlossaryImports(deps, views);
  const routes: RouteDefinition[] = [
    // Literal paths first: `/glossary/{glossaryId}` would also match `/glossary/categories`.
    ...categoryRoutes(views, writer),
    ...termRoutes(views, writer),
    ...assignmentRoutes(deps, views),
    ...importRoutes(imports, views),
    ...bulkTermRoutes(views, writer, { db: deps.store.database, now: deps.now }),
    ...glossaryRoutes(views, writer),
  ];
  // Imports run in the background on the service; here they advance whenever the glossary is used, so a
  // read after the import finished sees its terms without a timer outliving the emulator.
  return routes.map((route) => ({
    ...route,
    handler: (ctx: RouteContext) => {
      imports.advance();
      return route.handler(ctx);
    },
  }));
};

function glossaryRoutes(views: GlossaryViews, writer: GlossaryWriter): RouteDefinition[] {
  const ignoring = (ctx: RouteContext) => ({
    ignoreTermsAndCategories: queryFlag(ctx.url, "ignoreTermsAndCategories"),
  });
  return [
    {
      method: "GET",
      path: GLOSSARY,
      handler: (ctx) => {
        const glossaries = page(views.glossaries.glossaries(), ctx.url, (g) => g.name);
        return jsonResponse(glossaries.map((g) => views.glossaryView(g, ignoring(ctx))));
      },
    },
    {
      method: "POST",
      path: GLOSSARY,
      handler: async (ctx) => jsonResponse(views.glossaryView(writer.createGlossary(await ctx.readJson()))),
    },
    {
      method: "GET",
      path: `${GLOSSARY}/{glossaryId}`,
      handler: (ctx) => jsonResponse(views.glossaryView(views.glossary(ctx.params.glossaryId))),
    },
    {
      method: "PUT",
      path: `${GLOSSARY}/{glossaryId}`,
      handler: async (ctx) => {
        const updated = writer.updateGlossary(ctx.params.glossaryId, await ctx.readJson());
        return jsonResponse(views.glossaryView(updated, ignoring(ctx)));
      },
    },
    {
      method: "PUT",
      path: `${GLOSSARY}/{glossaryId}/partial`,
      handler: async (ctx) => {
        const updated = writer.partialUpdate("glossary", ctx.params.glossaryId, await ctx.readJson());
        return jsonResponse(views.glossaryView(updated, ignoring(ctx)));
      },
    },
    {
      method: "DELETE",
      path: `${GLOSSARY}/{glossaryId}`,
      handler: (ctx) => {
        writer.deleteGlossary(ctx.params.glossaryId);
        return noContent();
      },
    },
    {
      method: "GET",
      path: `${GLOSSARY}/{glossaryId}/detailed`,
      handler: (ctx) => jsonResponse(views.detailedView(views.glossary(ctx.params.glossaryId))),
    },
    {
      method: "GET",
      path: `${GLOSSARY}/{glossaryId}/categories`,
      handler: (ctx) => {
        const categories = views.glossaries.categories(views.glossary(ctx.params.glossaryId).guid);
        return jsonResponse(page(categories, ctx.url, (c) => c.name).map((c) => views.categoryView(c)));
      },
    },
    {
      method: "GET",
      path: `${GLOSSARY}/{glossaryId}/categories/headers`,
      handler: (ctx) => {
        const categories = views.glossaries.categories(views.glossary(ctx.params.glossaryId).guid);
        return jsonResponse(page(categories, ctx.url, (c) => c.name).map((c) => views.categoryHeader(c)));
      },
    },
  ];
}

function categoryRoutes(views: GlossaryViews, writer: GlossaryWriter): RouteDefinition[] {
  return [
    {
      method: "POST",
      path: `${GLOSSARY}/category`,
      handler: async (ctx) => {
        const [created] = writer.createCategories([await ctx.readJson()]);
        return jsonResponse(views.categoryView(created));
      },
    },
    {
      method: "POST",
      path: `${GLOSSARY}/categories`,
      handler: async (ctx) => {
        const created = writer.createCategories(await readArrayBody(ctx, "AtlasGlossaryCategory objects"));
        return jsonResponse(created.map((c) => views.categoryView(c)));
      },
    },
    {
      method: "GET",
      path: CATEGORY,
      handler: (ctx) => jsonResponse(views.categoryView(views.category(ctx.params.categoryId))),
    },
    {
      method: "PUT",
      path: CATEGORY,
      handler: async (ctx) =>
        jsonResponse(views.categoryView(writer.updateCategory(ctx.params.categoryId, await ctx.readJson()))),
    },
    {
      method: "PUT",
      path: `${CATEGORY}/partial`,
      handler: async (ctx) => {
        const updated = writer.partialUpdate("category", ctx.params.categoryId, await ctx.readJson());
        return jsonResponse(views.categoryView(views.category(updated.guid)));
      },
    },
    {
      method: "DELETE",
      path: CATEGORY,
      handler: (ctx) => {
        writer.deleteCategory(ctx.params.categoryId);
        return noContent();
      },
    },
    {
      method: "GET",
      path: `${CATEGORY}/related`,
      handler: (ctx) => jsonResponse(relatedCategories(views, ctx)),
    },
    {
      method: "GET",
      path: `${CATEGORY}/terms`,
      handler: (ctx) => {
        const terms = views.categoryTerms(views.category(ctx.params.categoryId));
        return jsonResponse(page(terms, ctx.url, (t) => String(t.displayText)));
      },
    },
  ];
}

/** `{parent: [...], children: [...]}` of AtlasRelatedCategoryHeader, as Glossary_ListRelatedCategories. */
function relatedCategories(views: GlossaryViews, ctx: RouteContext): Record<string, unknown[]> {
  const category = views.category(ctx.params.categoryId);
  const related: Record<string, unknown[]> = {};
  const parent = category.parentGuid ? views.glossaries.category(category.parentGuid) : undefined;
  if (parent) {
    related.parent = [{
      categoryGuid: parent.guid,
      ...(parent.parentGuid ? { parentCategoryGuid: parent.parentGuid } : {}),
      relationGuid: category.parentRelationGuid,
      displayText: parent.name,
    }];
  }
  const children = views.glossaries.children(category.guid).map((child) => ({
    categoryGuid: child.guid,
    parentCategoryGuid: category.guid,
    relationGuid: child.parentRelationGuid,
    displayText: child.name,
  }));
  if (children.length > 0) related.children = page(children, ctx.url, (c) => c.displayText);
  return related;
}
