/**
 * Runs and what comes out of them (untyped contract,
 * `rest-specs/specification/purview/data-plane/Azure.Analaytics.Purview.DataQuality/preview/2025-09-01-preview/purviewDataQuality.json`):
 * `POST .../observations` starts a run of the asset's rules and answers 201 with the run id (a JSON
 * string); the run reads back as an observation (`GET .../observations/{id}`, RunDetailsEntity), as a run
 * (`GET .../runs/{runId}`, JobMetadataEntity), in the asset's run history (`GET .../data-assets/{id}/runs`)
 * and through the run query (`POST .../runs` with a QueryFilter). What a run leaves (outcomes, opinions,
 * scores) is read through `score_routes.ts`.
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { KIND, type QualityEngine } from "./engine.ts";
import { conflict, invalidField, objectBody, optionalObjectBody } from "./errors.ts";
import { ASSET_PATH, assetScope } from "./rule_routes.ts";
import type { Doc } from "./store.ts";

const DOMAIN = "/business-domains/{businessDomainId}";

/** The run and observation routes. */
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
