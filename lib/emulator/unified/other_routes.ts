/**
 * Routes of the unified catalog's kinds without a collection family: an objective's key results, policies
 * (get and replace only), and the generic `/{entityType}/{entityId}/relationships`, which the router must
 * try last because its first segment is a parameter.
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { categoryOfSegment } from "./relationships.ts";
import { requiredJson } from "./bodies.ts";
import { entityNotFound } from "./errors.ts";
import type { UnifiedRouteKit } from "./kind_routes.ts";
import { type Json, KINDS } from "./model.ts";
import { page, pagingFromUrl, tokenPage } from "./query.ts";

const OBJECTIVE_KEY_RESULTS = "/objectives/{objectiveId}/keyResults";

export function keyResultRoutes({ route, catalog }: UnifiedRouteKit): RouteDefinition[] {
  const { objective, keyResult } = KINDS;
  const keyResultOf = (ctx: RouteContext): Json => {
    catalog.existing(objective, ctx.params.objectiveId);
    const id = ctx.params.keyResultId.toLowerCase();
    const found = catalog.store.children("keyResult", ctx.params.objectiveId).find((r) => r.id === id);
    if (!found) throw entityNotFound(keyResult.label, ctx.params.keyResultId);
    return found;
  };
  const one = `${OBJECTIVE_KEY_RESULTS}/{keyResultId}`;
  return [
    route("GET", OBJECTIVE_KEY_RESULTS, "keyResults.list", "read", ({ params, url }) => {
      catalog.existing(objective, params.objectiveId);
      const all = catalog.store.children("keyResult", params.objectiveId);
      return jsonResponse(page(all, pagingFromUrl(url), url));
    }),
    route("POST", OBJECTIVE_KEY_RESULTS, "keyResults.create", "write", async (ctx) => {
      catalog.existing(objective, ctx.params.objectiveId);
      const parent = ctx.params.objectiveId.toLowerCase();
      return jsonResponse(catalog.create(keyResult, await requiredJson(ctx), parent), 201);
    }),
    route("GET", one, "keyResults.get", "read", (ctx) => jsonResponse(keyResultOf(ctx))),
    route("PUT", one, "keyResults.update", "write", async (ctx) => {
      const current = keyResultOf(ctx);
      const parent = ctx.params.objectiveId.toLowerCase();
      return jsonResponse(catalog.update(keyResult, String(current.id), await requiredJson(ctx), parent));
    }),
    route("DELETE", one, "keyResults.delete", "write", (ctx) => {
      catalog.store.delete(String(keyResultOf(ctx).id));
      return new Response(null, { status: 204 });
    }),
  ];
}

export function policyRoutes({ route, catalog }: UnifiedRouteKit): RouteDefinition[] {
  return [
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
      ({ params }) => jsonResponse(catalog.existing(KINDS.policy, params.policyId)),
    ),
    route("PUT", "/policies/{policyId}", "policies.update", "write", async (ctx) => {
      const { policy: saved, created } = catalog.putPolicy(ctx.params.policyId, await requiredJson(ctx));
      return jsonResponse(saved, created ? 201 : 200);
    }),
    route("DELETE", "/policies/{policyId}", "policies.delete", "write", ({ params }) => {
      catalog.existing(KINDS.policy, params.policyId);
      catalog.store.delete(params.policyId);
      return new Response(null, { status: 204 });
    }),
  ];
}

export function genericRelationshipRoutes({ route, catalog }: UnifiedRouteKit): RouteDefinition[] {
  return [
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
  ];
}
