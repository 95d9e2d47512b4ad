/**
 * The rule routes of the data quality area: the typed contract's six operations on
 * `.../data-assets/{dataAssetId}/global-rules` (create, list, get, update, delete, bulk create), which the
 * untyped contract lists too under the same paths, and Microsoft Learn's 2026-01-12-preview create, `PUT
 * .../rules/{ruleId}`.
 *
 * Where the two 2025-09-01-preview files disagree on a status (the untyped one answers 200 everywhere), the
 * typed one wins, since it is the one the upstream readme references and the only one that types the
 * rule: create and bulk create answer 201 with the list of rules created, update 200 with the rule, delete
 * 204. Every rule body is checked as a RuleEntity (`rule_entity.ts`) before anything is stored.
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { assetKey, KIND, type QualityEngine } from "./engine.ts";
import { conflict, invalidField, jsonBody, notFound } from "./errors.ts";
import { type AssetScope, checkRuleEntity, storedRule } from "./rule_entity.ts";
import type { Doc } from "./store.ts";

/** The path of an asset, below the API prefix. */
export const ASSET_PATH =
  "/business-domains/{businessDomainId}/data-products/{dataProductId}/data-assets/{dataAssetId}";

/** The asset a request's path names. */
export function assetScope(ctx: RouteContext): AssetScope {
  const { businessDomainId, dataProductId, dataAssetId } = ctx.params;
  return { businessDomainId, dataProductId, dataAssetId };
}

const RULES = `${ASSET_PATH}/global-rules`;

/** Stores new rules, all or none: a 409 when an id is taken on the asset or repeated in the request. */
function createRules(engine: QualityEngine, scope: AssetScope, rules: Doc[]): Doc[] {
  const seen = new Set<string>();
  for (const rule of rules) {
    const id = String(rule.id).toLowerCase();
    if (seen.has(id) || engine.store.get(KIND.rule, assetKey(scope), String(rule.id))) {
      throw conflict("RuleAlreadyExists", `A rule with id '${rule.id}' already exists on this asset.`, "id");
    }
    seen.add(id);
  }
  const now = new Date(engine.now()).toISOString();
  return rules.map((rule) => {
    const stored = storedRule(rule, scope, now);
    engine.store.put(KIND.rule, assetKey(scope), String(rule.id), stored);
    return stored;
  });
}

/** Creates or replaces the path's rule from the body; `createStatus` when it is new, else 200. */
async function replaceRule(
  engine: QualityEngine,
  ctx: RouteContext,
  createStatus: number,
): Promise<Response> {
  const scope = assetScope(ctx);
  const rule = checkRuleEntity(await jsonBody(ctx, "a rule"), scope);
  if (String(rule.id).toLowerCase() !== ctx.params.ruleId.toLowerCase()) {
    throw invalidField(
      "id",
      `The body's id '${rule.id}' is not the rule of the path ('${ctx.params.ruleId}').`,
    );
  }
  const previous = engine.store.get(KIND.rule, assetKey(scope), ctx.params.ruleId);
  const stored = storedRule(rule, scope, new Date(engine.now()).toISOString(), previous);
  engine.store.put(KIND.rule, assetKey(scope), ctx.params.ruleId, stored);
  return jsonResponse(stored, previous ? 200 : createStatus);
}

/** The rule routes. */
export function ruleRoutes(engine: QualityEngine): RouteDefinition[] {
  const { store } = engine;
  const getRule = (ctx: RouteContext) => {
    const rule = store.get(KIND.rule, assetKey(assetScope(ctx)), ctx.params.ruleId);
    if (!rule) throw notFound("rule", ctx.params.ruleId);
    return rule;
  };
  const createAll = (scope: AssetScope, rules: Doc[]) => createRules(engine, scope, rules);
  const replace = (ctx: RouteContext, createStatus: number) => replaceRule(engine, ctx, createStatus);
  return [
    {
      method: "POST",
      path: RULES,
      handler: async (ctx) => {
        const scope = assetScope(ctx);
        const rule = checkRuleEntity(await jsonBody(ctx, "a rule"), scope);
        return jsonResponse(createAll(scope, [rule]), 201);
      },
    },
    { method: "GET", path: RULES, handler: (ctx) => jsonResponse(engine.rules(assetScope(ctx))) },
    { method: "GET", path: `${RULES}/{ruleId}`, handler: (ctx) => jsonResponse(getRule(ctx)) },
    {
      method: "PUT",
      path: `${RULES}/{ruleId}`,
      handler: async (ctx) => {
        getRule(ctx); // update: the rule must exist (create is POST, or PUT .../rules/{ruleId})
        return await replace(ctx, 200);
      },
    },
    {
      method: "DELETE",
      path: `${RULES}/{ruleId}`,
      handler: (ctx) => {
        getRule(ctx);
        store.remove(KIND.rule, assetKey(assetScope(ctx)), ctx.params.ruleId);
        return new Response(null, { status: 204 });
      },
    },
    {
      method: "POST",
      path: `${ASSET_PATH}/bulk/global-rules`,
      handler: async (ctx) => {
        const scope = assetScope(ctx);
        const body = await jsonBody(ctx, "a rule or a list of rules");
        const list = Array.isArray(body) ? body : [body];
        if (list.length === 0) {
          throw invalidField("body", "The list of rules is empty; send at least one rule.");
        }
        // Every rule is checked before any is stored: a bulk create stores all or nothing.
        const rules = list.map((rule, i) =>
          checkRuleEntity(rule, scope, Array.isArray(body) ? `[${i}].` : "")
        );
        return jsonResponse(createAll(scope, rules), 201);
      },
    },
    // 2026-01-12-preview (Microsoft Learn, "Create rules"): create or replace one rule; 201 when created.
    { method: "PUT", path: `${ASSET_PATH}/rules/{ruleId}`, handler: (ctx) => replace(ctx, 201) },
    { method: "GET", path: `${ASSET_PATH}/rules/{ruleId}`, handler: (ctx) => jsonResponse(getRule(ctx)) },
    {
      method: "GET",
      path: `${ASSET_PATH}/rules`,
      handler: (ctx) => jsonResponse(engine.rules(assetScope(ctx))),
    },
  ];
}
