/**
 * The Atlas v2 type definition routes (`/atlas/v2/types/...`, and `/types/termtemplatedef/...`): list the
 * definitions or their headers with the service's filters, read one by name or guid (of any category or of
 * one), and create, update and delete them in bulk or by name.
 *
 * @example
 * ```ts
 * import { Router } from "../router.ts";
 * import { EntityStore } from "../store.ts";
 * import { createTypeSystem } from "./system.ts";
 * import { typedefArea } from "./area.ts";
 * const store = EntityStore.open();
 * const types = createTypeSystem(store.database, Date.now);
 * const router = new Router().mount("/datamap/api", typedefArea({ store, types, now: Date.now }));
 * console.log(router.match("GET", "/datamap/api/atlas/v2/types/entitydef/name/DataSet").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import type { ApiArea, AreaDependencies } from "../area.ts";
import { isObject } from "../entity/model.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import { RelationshipStore } from "../relationship/store.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { queryFlag } from "../router.ts";
import { typeErrors } from "./errors.ts";
import { type TypeDefRegistry, typeDefRegistryOf, type TypeUsage } from "./system.ts";
import { CATEGORY_LISTS, CATEGORY_PATHS, type TypeDefCategory } from "./model.ts";

const TYPES = "/atlas/v2/types";

interface TypedefContext {
  deps: AreaDependencies;
  registry: TypeDefRegistry;
  relationships: RelationshipStore;
}

/** Routes of the typedef area, relative to `/catalog/api` or `/datamap/api`. */
export const typedefArea: ApiArea = (deps) => {
  const context: TypedefContext = {
    deps,
    registry: typeDefRegistryOf(deps.types),
    relationships: new RelationshipStore(deps.store.database),
  };
  const { registry } = context;
  const routes: RouteDefinition[] = [
    {
      method: "GET",
      path: `${TYPES}/typedefs`,
      handler: (ctx) => jsonResponse(registry.list(filterOf(ctx))),
    },
    {
      method: "GET",
      path: `${TYPES}/typedefs/headers`,
      handler: (ctx) => jsonResponse(registry.headers(filterOf(ctx))),
    },
    {
      method: "POST",
      path: `${TYPES}/typedefs`,
      handler: async (ctx) => jsonResponse(registry.create(await ctx.readJson())),
    },
    {
      method: "PUT",
      path: `${TYPES}/typedefs`,
      handler: async (ctx) => jsonResponse(registry.update(await ctx.readJson())),
    },
    {
      method: "DELETE",
      path: `${TYPES}/typedefs`,
      handler: async (ctx) => deleteTypes(context, namesIn(await ctx.readJson())),
    },
    { method: "GET", path: `${TYPES}/typedef/name/{name}`, handler: (ctx) => byName(registry, ctx) },
    { method: "GET", path: `${TYPES}/typedef/guid/{guid}`, handler: (ctx) => byGuid(registry, ctx) },
    {
      method: "DELETE",
      path: `${TYPES}/typedef/name/{name}`,
      handler: (ctx) => deleteTypes(context, [ctx.params.name]),
    },
  ];
  for (const [word, category] of Object.entries(CATEGORY_PATHS)) {
    // Term templates are served outside /atlas/v2 in the contract.
    const base = category === "TERM_TEMPLATE" ? `/types/${word}` : `${TYPES}/${word}`;
    routes.push(
      { method: "GET", path: `${base}/name/{name}`, handler: (ctx) => byName(registry, ctx, category) },
      { method: "GET", path: `${base}/guid/{guid}`, handler: (ctx) => byGuid(registry, ctx, category) },
    );
  }
  return routes;
};

function filterOf(ctx: RouteContext): { type?: string; includeTermTemplate: boolean } {
  return {
    type: ctx.url.searchParams.get("type") ?? undefined,
    includeTermTemplate: queryFlag(ctx.url, "includeTermTemplate"),
  };
}

function byName(registry: TypeDefRegistry, ctx: RouteContext, category?: TypeDefCategory): Response {
  const def = registry.byName(ctx.params.name, category);
  if (!def) throw typeErrors.typeNameNotFound(ctx.params.name);
  return jsonResponse(def);
}

function byGuid(registry: TypeDefRegistry, ctx: RouteContext, category?: TypeDefCategory): Response {
  const def = registry.byGuid(ctx.params.guid, category);
  if (!def) throw typeErrors.typeGuidNotFound(ctx.params.guid);
  return jsonResponse(def);
}

function deleteTypes(context: TypedefContext, names: string[]): Response {
  context.registry.delete(names, usageOf(context));
  return new Response(null, { status: 204 });
}

/** The names in an `AtlasTypesDef` body of a bulk delete. */
function namesIn(body: unknown): string[] {
  if (!isObject(body)) throw EmulatorError.badRequest("Request body must be an AtlasTypesDef JSON object");
  const names: string[] = [];
  for (const [key] of CATEGORY_LISTS) {
    const list = body[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) throw EmulatorError.invalidParameters(`${key} must be an array`, key);
    list.forEach((def, i) => {
      if (!isObject(def) || typeof def.name !== "string" || def.name === "") {
        throw EmulatorError.invalidParameters(`${key}[${i}].name is required`, `${key}[${i}].name`);
      }
      names.push(def.name);
    });
  }
  return names;
}

/** What the stored entities and relationships use, read when a delete needs it. */
function usageOf(context: TypedefContext): TypeUsage {
  const usage = {
    entityTypes: new Set<string>(),
    classifications: new Set<string>(),
    businessMetadata: new Set<string>(),
    relationshipTypes: context.relationships.typeNamesInUse(),
  };
  for (const entity of context.deps.store.list()) {
    usage.entityTypes.add(entity.typeName);
    for (const classification of entity.classifications ?? []) {
      usage.classifications.add(String(classification.typeName));
    }
    // A group whose values were all removed no longer counts as assigned.
    for (
      const [group, values] of Object.entries(
        isObject(entity.businessAttributes) ? entity.businessAttributes : {},
      )
    ) {
      if (isObject(values) && Object.values(values).some((v) => v !== null && v !== undefined)) {
        usage.businessMetadata.add(group);
      }
    }
  }
  return usage;
}
