/**
 * The unified catalog API of the emulator (`/datagovernance/catalog/...`): business domains, terms (with
 * hierarchy and relationships), data products, critical data elements, objectives with their key results,
 * and policies; `query`, `facets` (GET and POST) and `query/count` for terms, data products, critical data
 * elements and objectives; the generic `GET /{entityType}/{entityId}/relationships`.
 *
 * Every request needs an `api-version` query parameter (`YYYY-MM-DD` or `YYYY-MM-DD-preview`) and is
 * counted against the service's per-operation rate limits over a 20-second sliding window (see
 * {@link UnifiedCatalogOptions}); over the limit it answers 429 with `Retry-After`.
 *
 * @example
 * ```ts
 * import { createUnifiedCatalogArea } from "./unified_area.ts";
 * // Tiny limits and a one-second window, for a throttling test.
 * const area = createUnifiedCatalogArea({ limits: { read: 2, write: 2 }, windowMs: 1000 });
 * ```
 *
 * @module
 */
import type { ApiArea, AreaDependencies } from "../area.ts";
import { jsonResponse } from "../errors.ts";
import { queryFlag, type RouteContext, type RouteDefinition, type RouteHandler } from "../router.ts";
import { categoryOfSegment, UnifiedCatalog } from "./unified_catalog.ts";
import { entityNotFound, invalidApiVersion, invalidField, missingApiVersion } from "./unified_errors.ts";
import { type Json, KINDS, type KindSpec } from "./unified_model.ts";
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
} from "./unified_query.ts";
import { UnifiedStore } from "./unified_store.ts";
import {
  DEFAULT_WINDOW_MS,
  type OperationClass,
  UnifiedThrottle,
  type UnifiedThrottleLimits,
} from "./unified_throttle.ts";

export { DEFAULT_LIMITS, DEFAULT_WINDOW_MS, type UnifiedThrottleLimits } from "./unified_throttle.ts";

/** How to build the unified catalog area. */
export interface UnifiedCatalogOptions {
  /** Rate limits per window; unset figures keep {@link DEFAULT_LIMITS}. */
  limits?: UnifiedThrottleLimits;
  /** Length of the sliding window in milliseconds (20,000 on the service). */
  windowMs?: number;
  /** False turns rate limiting off. */
  throttle?: boolean;
}

const API_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

/** Builds the area; {@link unifiedCatalogArea} is the one the emulator mounts, with the default limits. */
export function createUnifiedCatalogArea(options: UnifiedCatalogOptions = {}): ApiArea {
  return (deps) => {
    const catalog = new UnifiedCatalog(UnifiedStore.open(deps.store.database), deps.now);
    const throttle = options.throttle === false
      ? undefined
      : new UnifiedThrottle(options.limits, options.windowMs ?? DEFAULT_WINDOW_MS);
    return unifiedRoutes(deps, catalog, throttle);
  };
}

/** Routes of the unified catalog, relative to `/datagovernance/catalog`. */
export const unifiedCatalogArea: ApiArea = createUnifiedCatalogArea();

function unifiedRoutes(
  deps: AreaDependencies,
  catalog: UnifiedCatalog,
  throttle: UnifiedThrottle | undefined,
): RouteDefinition[] {
  const route = (
    method: string,
    path: string,
    operation: string,
    operationClass: OperationClass,
    handler: RouteHandler,
  ): RouteDefinition => ({
    method,
    path,
    handler: async (ctx) => {
      try {
        throttle?.check(operation, operationClass, deps.now());
        const version = ctx.url.searchParams.get("api-version");
        if (version === null || version === "") throw missingApiVersion();
        if (!API_VERSION.test(version)) throw invalidApiVersion(version);
        return await handler(ctx);
      } catch (error) {
        if (!ctx.request.bodyUsed) await ctx.request.body?.cancel().catch(() => {});
        throw error;
      }
    },
  });

  const routes: RouteDefinition[] = [];
  const { domain, term, dataProduct, cde, objective, keyResult, policy } = KINDS;

  // ---- business domains ----
  routes.push(
    route("GET", "/businessdomains", "businessdomains.list", "read", ({ url }) => {
      const all = catalog.store.list("domain").map((d) => catalog.wire(domain, d));
      return jsonResponse(tokenPage(all, url));
    }),
    route("POST", "/businessdomains", "businessdomains.create", "write", async (ctx) => {
      return jsonResponse(catalog.create(domain, await requiredJson(ctx)), 201);
    }),
    ...itemRoutes(domain, "domainId"),
  );

  // ---- terms, data products, critical data elements, objectives ----
  for (const spec of [term, dataProduct, cde, objective]) {
    routes.push(...collectionRoutes(spec));
  }
  routes.push(
    route("GET", "/terms/hierarchy", "terms.hierarchy", "read", ({ url }) => {
      const domainId = url.searchParams.get("domainId");
      if (!domainId) throw invalidField("domainId", "The domainId query parameter is required.");
      return jsonResponse(
        catalog.domainHierarchy(
          domainId,
          maxDepth(url),
          url.searchParams.has("includeDraft") ? queryFlag(url, "includeDraft") : true,
        ),
      );
    }),
    ...itemRoutes(term, "termId"),
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
  );
  for (
    const [spec, param] of [[dataProduct, "dataProductId"], [cde, "criticalDataElementId"], [
      objective,
      "objectiveId",
    ]] as const
  ) {
    routes.push(...itemRoutes(spec, param));
  }
  for (
    const [spec, param] of [[term, "termId"], [dataProduct, "dataProductId"], [
      cde,
      "criticalDataElementId",
    ]] as const
  ) {
    routes.push(...relationshipRoutes(spec, param));
  }

  // ---- key results ----
  const objectivePath = "/objectives/{objectiveId}/keyResults";
  const keyResultOf = (ctx: RouteContext): Json => {
    catalog.existing(objective, ctx.params.objectiveId);
    const id = ctx.params.keyResultId.toLowerCase();
    const found = catalog.store.children("keyResult", ctx.params.objectiveId).find((r) => r.id === id);
    if (!found) throw entityNotFound(keyResult.label, ctx.params.keyResultId);
    return found;
  };
  routes.push(
    route("GET", objectivePath, "keyResults.list", "read", ({ params, url }) => {
      catalog.existing(objective, params.objectiveId);
      const all = catalog.store.children("keyResult", params.objectiveId);
      return jsonResponse(page(all, pagingFromUrl(url), url));
    }),
    route("POST", objectivePath, "keyResults.create", "write", async (ctx) => {
      catalog.existing(objective, ctx.params.objectiveId);
      const created = catalog.create(
        keyResult,
        await requiredJson(ctx),
        ctx.params.objectiveId.toLowerCase(),
      );
      return jsonResponse(created, 201);
    }),
    route(
      "GET",
      `${objectivePath}/{keyResultId}`,
      "keyResults.get",
      "read",
      (ctx) => jsonResponse(keyResultOf(ctx)),
    ),
    route("PUT", `${objectivePath}/{keyResultId}`, "keyResults.update", "write", async (ctx) => {
      const current = keyResultOf(ctx);
      const updated = catalog.update(
        keyResult,
        String(current.id),
        await requiredJson(ctx),
        ctx.params.objectiveId.toLowerCase(),
      );
      return jsonResponse(updated);
    }),
    route("DELETE", `${objectivePath}/{keyResultId}`, "keyResults.delete", "write", (ctx) => {
      catalog.store.delete(String(keyResultOf(ctx).id));
      return new Response(null, { status: 204 });
    }),
  );

  // ---- policies ----
  routes.push(
    route(
      "GET",
      "/policies",
      "policies.list",
      "read",
      ({ url }) => jsonResponse(tokenPage(catalog.store.list("policy"), url)),
    ),
    route(
      "GET",
      "/policies/{policyId}",
      "policies.get",
      "read",
      ({ params }) => jsonResponse(catalog.existing(policy, params.policyId)),
    ),
    route("PUT", "/policies/{policyId}", "policies.update", "write", async (ctx) => {
      const { policy: saved, created } = catalog.putPolicy(ctx.params.policyId, await requiredJson(ctx));
      return jsonResponse(saved, created ? 201 : 200);
    }),
    route("DELETE", "/policies/{policyId}", "policies.delete", "write", ({ params }) => {
      catalog.existing(policy, params.policyId);
      catalog.store.delete(params.policyId);
      return new Response(null, { status: 204 });
    }),
  );

  // ---- generic relationships (last: its first segment is a parameter) ----
  routes.push(
    route(
      "GET",
      "/{entityType}/{entityId}/relationships",
      "relationships.list",
      "read",
      ({ params, url }) => {
        const { spec, category } = categoryOfSegment(params.entityType);
        if (spec) catalog.existing(spec, params.entityId);
        const q = url.searchParams;
        const all = catalog.relationships(
          params.entityId,
          category,
          q.get("entityType"),
          q.get("relationshipType"),
        );
        return jsonResponse(page(all, pagingFromUrl(url), url));
      },
    ),
  );
  return routes;

  function selected(spec: KindSpec, request: ListRequest): Json[] {
    const all = catalog.store.list(spec.kind).filter((entity) => matches(spec, entity, request.filter));
    return order(all, request.orderBy).map((entity) => catalog.wire(spec, entity));
  }

  function collectionRoutes(spec: KindSpec): RouteDefinition[] {
    const base = `/${spec.path}`;
    const facetHandler = async (ctx: RouteContext) => {
      const body = ctx.request.method === "POST" ? await optionalJson(ctx) : undefined;
      const request = listRequestFromBody(spec, body, ctx.url);
      return jsonResponse(facets(spec, selected(spec, request), facetNames(spec, body, ctx.url)));
    };
    return [
      route("GET", base, `${spec.path}.list`, "read", ({ url }) => {
        const request = listRequestFromUrl(spec, url);
        return jsonResponse(page(selected(spec, request), request, url));
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
        return jsonResponse(page(selected(spec, request), request, ctx.url));
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
        return jsonResponse({ count: selected(spec, request).length });
      }),
      route("POST", `${base}/facets`, `${spec.path}.facets`, "read", facetHandler),
      route("GET", `${base}/facets`, `${spec.path}.facets`, "read", facetHandler),
    ];
  }

  function itemRoutes(spec: KindSpec, param: string): RouteDefinition[] {
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

  function relationshipRoutes(spec: KindSpec, param: string): RouteDefinition[] {
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
}

/** The `maxDepth` query parameter (unbounded when absent). */
function maxDepth(url: URL): number {
  const raw = url.searchParams.get("maxDepth");
  if (raw === null || raw === "") return Number.POSITIVE_INFINITY;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw invalidField("maxDepth", `maxDepth must be a non-negative integer; got '${raw}'.`);
  }
  return value;
}

/** The JSON body, or undefined for an empty one (query, facets and count take an optional body). */
async function optionalJson(ctx: RouteContext): Promise<unknown> {
  const text = await ctx.request.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidField("body", `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** The JSON body of a create or update; empty or malformed bodies get the API's 400. */
async function requiredJson(ctx: RouteContext): Promise<unknown> {
  const body = await optionalJson(ctx);
  if (body === undefined) throw invalidField("body", "The request body is empty; a JSON object is required.");
  return body;
}
