/**
 * Routes of the unified catalog's kinds with a collection of their own: business domains, terms (with
 * their hierarchy), data products, critical data elements and objectives. Each kind gets the same family
 * (list, create, query, count, facets; get, update, delete; relationships where the API has them), so the
 * family is built once per kind from its {@link KindSpec}.
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import { queryFlag, type RouteContext, type RouteDefinition, type RouteHandler } from "../router.ts";
import type { UnifiedCatalog } from "./catalog.ts";
import { maxDepth, optionalJson, requiredJson } from "./bodies.ts";
import { invalidField } from "./errors.ts";
import { type Json, KINDS, type KindSpec } from "./model.ts";
import {
  facetNames,
  facets,
  type ListRequest,
  listRequestFromBody,
  listRequestFromUrl,
  matches,
  order,
  page,
  pagingFromUrl,
  tokenPage,
} from "./query.ts";
import type { OperationClass } from "./throttle.ts";

/** Makes a route counted as `operation` by the throttle and checked for an api-version. */
export type UnifiedRoute = (
  method: string,
  path: string,
  operation: string,
  operationClass: OperationClass,
  handler: RouteHandler,
) => RouteDefinition;

/** What every route group is built from. */
export interface UnifiedRouteKit {
  route: UnifiedRoute;
  catalog: UnifiedCatalog;
}

/** Domains, then the four collection kinds, in the order the router must try them. */
export function kindRoutes(kit: UnifiedRouteKit): RouteDefinition[] {
  const { domain, term, dataProduct, cde, objective } = KINDS;
  return [
    ...domainListRoutes(kit),
    ...itemRoutes(kit, domain, "domainId"),
    ...[term, dataProduct, cde, objective].flatMap((spec) => collectionRoutes(kit, spec)),
    // Before the term's item routes: `/terms/hierarchy` is not a term id.
    ...termHierarchyRoutes(kit),
    ...([[dataProduct, "dataProductId"], [cde, "criticalDataElementId"], [objective, "objectiveId"]] as const)
      .flatMap(([spec, param]) => itemRoutes(kit, spec, param)),
    ...([[term, "termId"], [dataProduct, "dataProductId"], [cde, "criticalDataElementId"]] as const)
      .flatMap(([spec, param]) => relationshipRoutes(kit, spec, param)),
  ];
}

function domainListRoutes({ route, catalog }: UnifiedRouteKit): RouteDefinition[] {
  return [
    route("GET", "/businessdomains", "businessdomains.list", "read", ({ url }) => {
      const all = catalog.store.list("domain").map((d) => catalog.wire(KINDS.domain, d));
      return jsonResponse(tokenPage(all, url));
    }),
    route("POST", "/businessdomains", "businessdomains.create", "write", async (ctx) => {
      return jsonResponse(catalog.create(KINDS.domain, await requiredJson(ctx)), 201);
    }),
  ];
}

/** A domain's term tree, the term's item routes, a term's place in hierarchies and a relationship's removal. */
function termHierarchyRoutes(kit: UnifiedRouteKit): RouteDefinition[] {
  const { route, catalog } = kit;
  const term = KINDS.term;
  return [
    route("GET", "/terms/hierarchy", "terms.hierarchy", "read", ({ url }) => {
      const domainId = url.searchParams.get("domainId");
      if (!domainId) throw invalidField("domainId", "The domainId query parameter is required.");
      const includeDraft = url.searchParams.has("includeDraft") ? queryFlag(url, "includeDraft") : true;
      return jsonResponse(catalog.domainHierarchy(domainId, maxDepth(url), includeDraft));
    }),
    ...itemRoutes(kit, term, "termId"),
    route(
      "GET",
      "/terms/{termId}/hierarchies",
      "terms.hierarchies",
      "read",
      ({ params, url }) => jsonResponse(catalog.termHierarchy(params.termId, maxDepth(url))),
    ),
    route(
      "DELETE",
      "/terms/{termId}/relationships/{entityId}",
      "terms.relationships.delete",
      "write",
      (ctx) => {
        const q = ctx.url.searchParams;
        catalog.removeRelationships(
          term,
          ctx.params.termId,
          ctx.params.entityId,
          q.get("entityType"),
          q.get("relationshipType"),
        );
        return new Response(null, { status: 204 });
      },
    ),
  ];
}

function selected(catalog: UnifiedCatalog, spec: KindSpec, request: ListRequest): Json[] {
  const all = catalog.store.list(spec.kind).filter((entity) => matches(spec, entity, request.filter));
  return order(all, request.orderBy).map((entity) => catalog.wire(spec, entity));
}

function collectionRoutes({ route, catalog }: UnifiedRouteKit, spec: KindSpec): RouteDefinition[] {
  const base = `/${spec.path}`;
  const facetHandler = async (ctx: RouteContext) => {
    const body = ctx.request.method === "POST" ? await optionalJson(ctx) : undefined;
    const request = listRequestFromBody(spec, body, ctx.url);
    return jsonResponse(facets(spec, selected(catalog, spec, request), facetNames(spec, body, ctx.url)));
  };
  return [
    route("GET", base, `${spec.path}.list`, "read", ({ url }) => {
      const request = listRequestFromUrl(spec, url);
      return jsonResponse(page(selected(catalog, spec, request), request, url));
    }),
    route(
      "POST",
      base,
      `${spec.path}.create`,
      "write",
      async (ctx) => jsonResponse(catalog.create(spec, await requiredJson(ctx)), 201),
    ),
    route("POST", `${base}/query`, `${spec.path}.query`, "read", async (ctx) => {
      const request = listRequestFromBody(spec, await optionalJson(ctx), ctx.url);
      return jsonResponse(page(selected(catalog, spec, request), request, ctx.url));
    }),
    route("POST", `${base}/query/count`, `${spec.path}.count`, "read", async (ctx) => {
      const body = await optionalJson(ctx);
      const request = listRequestFromBody(spec, body, ctx.url);
      // The duplicate check: nameKeyword (objectives: definition) matches whole names, in any case.
      const exact = spec.kind === "objective"
        ? (body as Json | undefined)?.definition
        : request.filter.nameKeyword;
      if (typeof exact === "string") {
        delete request.filter.nameKeyword;
        request.filter.exactName = exact;
      }
      return jsonResponse({ count: selected(catalog, spec, request).length });
    }),
    route("POST", `${base}/facets`, `${spec.path}.facets`, "read", facetHandler),
    route("GET", `${base}/facets`, `${spec.path}.facets`, "read", facetHandler),
  ];
}

function itemRoutes({ route, catalog }: UnifiedRouteKit, spec: KindSpec, param: string): RouteDefinition[] {
  const path = `/${spec.path}/{${param}}`;
  return [
    route(
      "GET",
      path,
      `${spec.path}.get`,
      "read",
      ({ params }) => jsonResponse(catalog.wire(spec, catalog.existing(spec, params[param]))),
    ),
    route(
      "PUT",
      path,
      `${spec.path}.update`,
      "write",
      async (ctx) => jsonResponse(catalog.update(spec, ctx.params[param], await requiredJson(ctx))),
    ),
    route("DELETE", path, `${spec.path}.delete`, "write", ({ params }) => {
      catalog.delete(spec, params[param]);
      return new Response(null, { status: 204 });
    }),
  ];
}

function relationshipRoutes(
  { route, catalog }: UnifiedRouteKit,
  spec: KindSpec,
  param: string,
): RouteDefinition[] {
  const path = `/${spec.path}/{${param}}/relationships`;
  return [
    route("GET", path, `${spec.path}.relationships.list`, "read", ({ params, url }) => {
      const entity = catalog.existing(spec, params[param]);
      const q = url.searchParams;
      const all = catalog.relationships(
        String(entity.id),
        spec.category,
        q.get("entityType"),
        q.get("relationshipType"),
      );
      return jsonResponse(page(all, pagingFromUrl(url), url));
    }),
    route("POST", path, `${spec.path}.relationships.create`, "write", async (ctx) => {
      const created = catalog.addRelationship(
        spec,
        ctx.params[param],
        ctx.url.searchParams.get("entityType"),
        await requiredJson(ctx),
      );
      return jsonResponse(created, 201);
    }),
    route("DELETE", path, `${spec.path}.relationships.delete`, "write", ({ params, url }) => {
      const q = url.searchParams;
      catalog.removeRelationships(
        spec,
        params[param],
        q.get("entityId"),
        q.get("entityType"),
        q.get("relationshipType"),
      );
      return new Response(null, { status: 204 });
    }),
  ];
}
