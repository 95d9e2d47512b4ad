/**
 * What runs leave behind, read back (untyped contract,
 * `rest-specs/specification/purview/data-plane/Azure.Analaytics.Purview.DataQuality/preview/2025-09-01-preview/purviewDataQuality.json`):
 * a run's outcome (`GET .../outcomes/{id}`: one observation and one opinion per rule), a rule's trend
 * (`GET .../rule-opinions/{ruleId}`), the domain's report (`GET .../report`, one DqReportEntity per asset),
 * its latest snapshot, and the domain and data product summaries (`GET /business-domains/{id}`,
 * `GET .../data-products/{id}`), whose bodies the contract leaves untyped; and `POST .../disable`, after which
 * the asset takes no runs.
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { assetKey, KIND, meanScore, type QualityEngine } from "./engine.ts";
import { invalidField, notFound } from "./errors.ts";
import { ASSET_PATH, assetScope } from "./rule_routes.ts";
import type { Doc } from "./store.ts";

const DOMAIN = "/business-domains/{businessDomainId}";

/** The outcome, opinion, report, summary and disable routes. */
export function scoreRoutes(engine: QualityEngine): RouteDefinition[] {
  const { store } = engine;
  const domain = (ctx: RouteContext) => ctx.params.businessDomainId;
  return [
    {
      method: "GET",
      path: `${DOMAIN}/outcomes/{outcomeId}`,
      handler: (ctx) => {
        const outcome = store.get(KIND.outcome, domain(ctx), ctx.params.outcomeId);
        if (!outcome) throw notFound("outcome", ctx.params.outcomeId);
        return jsonResponse(outcome);
      },
    },
    {
      method: "GET",
      path: `${ASSET_PATH}/rule-opinions/{ruleId}`,
      handler: (ctx) => jsonResponse(ruleOpinions(engine.outcomesOfAsset(assetScope(ctx)), ctx)),
    },
    {
      method: "GET",
      path: `${DOMAIN}/report`,
      handler: (ctx) => jsonResponse(engine.assetScores(domain(ctx))),
    },
    {
      method: "GET",
      path: `${DOMAIN}/report/snapshots/dataquality/latest`,
      handler: (ctx) => {
        const assets = engine.assetScores(domain(ctx));
        return jsonResponse({
          businessDomainId: domain(ctx),
          score: meanScore(assets),
          generatedAt: new Date(engine.now()).toISOString(),
          dataAssets: assets,
        });
      },
    },
    {
      method: "GET",
      path: DOMAIN,
      handler: (ctx) => {
        const assets = engine.assetScores(domain(ctx));
        const products = [...new Set(assets.map((a) => String(a.dataProductId)))].map((dataProductId) => {
          const own = assets.filter((a) => a.dataProductId === dataProductId);
          return { dataProductId, score: meanScore(own), dataAssetCount: own.length };
        });
        return jsonResponse({
          businessDomainId: domain(ctx),
          score: meanScore(assets),
          dataProducts: products,
        });
      },
    },
    {
      method: "GET",
      path: `${DOMAIN}/data-products/{dataProductId}`,
      handler: (ctx) => {
        const assets = engine.assetScores(domain(ctx), ctx.params.dataProductId).map((asset) => ({
          ...asset,
          ruleCount: engine.rules({
            businessDomainId: domain(ctx),
            dataProductId: String(asset.dataProductId),
            dataAssetId: String(asset.dataAssetId),
          }).length,
        }));
        return jsonResponse({
          businessDomainId: domain(ctx),
          dataProductId: ctx.params.dataProductId,
          score: meanScore(assets),
          dataAssets: assets,
        });
      },
    },
    {
      method: "POST",
      path: `${ASSET_PATH}/disable`,
      handler: (ctx) => {
        const key = assetKey(assetScope(ctx));
        store.put(KIND.assetState, key, "state", { ...assetScope(ctx), disabled: true });
        return jsonResponse({ ...assetScope(ctx), disabled: true });
      },
    },
  ];
}

/** The opinions on one rule over the asset's outcomes, newest first, within the optional window and count. */
function ruleOpinions(outcomes: Doc[], ctx: RouteContext): Doc[] {
  const q = ctx.url.searchParams;
  const bound = (name: string): number | undefined => {
    const value = q.get(name);
    if (value === null || value === "") return undefined;
    const at = Date.parse(value);
    if (Number.isNaN(at)) throw invalidField(name, `${name} must be a date-time, got '${value}'.`);
    return at;
  };
  const start = bound("startTime"), end = bound("endTime");
  const maxText = q.get("maxRecordsToReturn");
  const max = maxText === null || maxText === "" ? Infinity : Number(maxText);
  if (!(max >= 0)) {
    throw invalidField("maxRecordsToReturn", `maxRecordsToReturn must be a number, got '${maxText}'.`);
  }
  const opinions = outcomes.flatMap((o) =>
    (o.opinions as Doc[]).filter((op) => op.controlId === ctx.params.ruleId)
  )
    .filter((op) => {
      const at = Date.parse(String(op.resultedAt));
      return (start === undefined || at >= start) && (end === undefined || at <= end);
    });
  return opinions.reverse().slice(0, max);
}
