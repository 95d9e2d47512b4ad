/**
 * Runs and what comes out of them (untyped contract,
 * `rest-specs/specification/purview/data-plane/Azure.Analaytics.Purview.DataQuality/preview/2025-09-01-preview/purviewDataQuality.json`):
 * `POST .../observations` starts a run of the asset's rules and answers 201 with the run id (a JSON
 * string); the run reads back as an observation (`GET .../observations/{id}`, RunDetailsEntity), as a run
 * (`GET .../runs/{runId}`, JobMetadataEntity), in the asset's run history (`GET .../data-assets/{id}/runs`)
 * and through the run query (`POST .../runs` with a QueryFilter). Its outcome (`GET .../outcomes/{id}`)
 * holds one observation and one opinion (the rule's result) per rule, the rule's trend is
 * `GET .../rule-opinions/{ruleId}`, and the scores are the domain's report (`GET .../report`, one
 * DqReportEntity per asset), its latest snapshot, and the domain and data product summaries
 * (`GET /business-domains/{id}`, `GET .../data-products/{id}`), whose bodies the contract leaves untyped.
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { assetKey, KIND, meanScore, type QualityEngine } from "./quality_engine.ts";
import { conflict, invalidField, notFound, objectBody, optionalObjectBody } from "./quality_errors.ts";
import { ASSET_PATH, assetScope } from "./quality_rule_routes.ts";
import type { Doc } from "./quality_store.ts";

const DOMAIN = "/business-domains/{businessDomainId}";

/** The run, observation, outcome and score routes. */
export function runRoutes(engine: QualityEngine): RouteDefinition[] {
  const { store } = engine;
  const domain = (ctx: RouteContext) => ctx.params.businessDomainId;
  return [
    {
      method: "POST",
      path: `${ASSET_PATH}/observations`,
      handler: async (ctx) => {
        const run = engine.run(assetScope(ctx), await optionalObjectBody(ctx));
        return jsonResponse(run.runId, 201);
      },
    },
    {
      method: "GET",
      path: `${ASSET_PATH}/observations/{observationId}`,
      handler: (ctx) => jsonResponse(engine.runOfAsset(assetScope(ctx), ctx.params.observationId)),
    },
    {
      method: "DELETE",
      path: `${ASSET_PATH}/observations/{observationId}`,
      handler: (ctx) => {
        engine.removeRun(domain(ctx), engine.runOfAsset(assetScope(ctx), ctx.params.observationId));
        return new Response(null, { status: 204 });
      },
    },
    {
      method: "GET",
      path: `${ASSET_PATH}/observations/{observationId}/observer-definition`,
      // The rules the run evaluated, as the contract's string: the JSON text of their definitions.
      handler: (ctx) => {
        const run = engine.runOfAsset(assetScope(ctx), ctx.params.observationId);
        const outcome = typeof run.outcomeId === "string"
          ? store.get(KIND.outcome, domain(ctx), run.outcomeId)
          : undefined;
        const ids = new Set(((outcome?.observations ?? []) as Doc[]).map((o) => o.observerId));
        const rules = engine.rules(assetScope(ctx)).filter((rule) => ids.has(rule.id));
        return jsonResponse(JSON.stringify({ runId: run.runId, rules }));
      },
    },
    {
      method: "DELETE",
      path: ASSET_PATH,
      // Deletes every observation (run and outcome) of the asset; its rules stay.
      handler: (ctx) => {
        const runs = engine.runsOfAsset(assetScope(ctx));
        for (const run of runs) engine.removeRun(domain(ctx), run);
        return jsonResponse({ deletedObservations: runs.length });
      },
    },
    {
      method: "GET",
      path: `${ASSET_PATH}/runs`,
      handler: (ctx) => {
        const runType = ctx.url.searchParams.get("runType");
        const runs = engine.runsOfAsset(assetScope(ctx))
          .filter((run) => !runType || String(run.jobType).toLowerCase() === runType.toLowerCase());
        return jsonResponse(runs.reverse());
      },
    },
    {
      method: "GET",
      path: `${DOMAIN}/runs/{runId}`,
      handler: (ctx) => jsonResponse(engine.runById(domain(ctx), ctx.params.runId)),
    },
    {
      method: "POST",
      path: `${DOMAIN}/runs/{runId}/cancel`,
      handler: (ctx) => {
        const run = engine.runById(domain(ctx), ctx.params.runId);
        throw conflict(
          "RunNotCancellable",
          `Run '${run.runId}' has already finished (${run.status}); only a run in progress can be cancelled.`,
          "runId",
        );
      },
    },
    {
      method: "POST",
      path: `${DOMAIN}/runs`,
      handler: async (ctx) => {
        const filter = await objectBody(
          ctx,
          '{"startTime": <epoch ms>, "endTime": <epoch ms>, "filters": []}',
        );
        const runs = queryRuns(store.list(KIND.run, domain(ctx)), filter);
        return jsonResponse({ runs: runs.reverse() });
      },
    },
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

/** The runs whose submission time is within the filter's window and that match every filter. */
function queryRuns(runs: Doc[], filter: Doc): Doc[] {
  for (const field of ["startTime", "endTime"]) {
    if (typeof filter[field] !== "number" || !Number.isInteger(filter[field])) {
      throw invalidField(
        field,
        `${field} is required: the window's ${
          field === "startTime" ? "start" : "end"
        } in epoch milliseconds.`,
      );
    }
  }
  const filters = filter.filters ?? [];
  if (!Array.isArray(filters)) {
    throw invalidField("filters", "filters must be a list of {operand, operator, values}.");
  }
  const checks = filters.map((f: Doc, i: number) => {
    if (typeof f?.operand !== "string" || !Array.isArray(f.values)) {
      throw invalidField(
        `filters[${i}]`,
        "A filter is {operand: <run field>, operator: eq|in|ne, values: [...]}.",
      );
    }
    const operator = String(f.operator ?? "in").toLowerCase();
    if (!["eq", "in", "ne", "notin"].includes(operator)) {
      throw invalidField(
        `filters[${i}].operator`,
        `Unknown operator '${f.operator}'; use eq, in, ne or notin.`,
      );
    }
    const values = new Set(f.values.map((v: unknown) => String(v).toLowerCase()));
    const negate = operator === "ne" || operator === "notin";
    return (run: Doc) => values.has(String(run[f.operand as string] ?? "").toLowerCase()) !== negate;
  });
  const start = filter.startTime as number, end = filter.endTime as number;
  return runs.filter((run) => {
    const at = Date.parse(String(run.submissionTime));
    return at >= start && at <= end && checks.every((check) => check(run));
  });
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
