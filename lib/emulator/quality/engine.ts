/**
 * The data quality state the routes share: rules per asset, runs that evaluate them (see
 * `evaluation.ts` for how), the outcome each run leaves (its observations and per-rule opinions) and
 * the scores read back from them. Runs finish within the request that starts them, so a run is never left
 * `InProgress` and cannot be cancelled afterwards.
 *
 * Scopes: a rule, an asset's state and its profile live under `domain/product/asset`; runs, outcomes,
 * alerts, schedules and data sources under the business domain; integration runtimes under no scope.
 *
 * @module
 */
import type { EntityStore } from "../store.ts";
import { columnsOf, evaluateRules } from "./evaluation.ts";
import { conflict, notFound } from "./errors.ts";
import type { AssetScope } from "./rule_entity.ts";
import type { Doc, QualityStore } from "./store.ts";

/** The account id runs carry (the emulator's one account). */
export const QUALITY_ACCOUNT_ID = "emulator";

/** Kinds of stored documents. */
export const KIND = {
  rule: "rule",
  run: "run",
  outcome: "outcome",
  assetState: "asset-state",
} as const;

/** The scope string of an asset. */
export function assetKey(scope: AssetScope): string {
  return `${scope.businessDomainId}/${scope.dataProductId}/${scope.dataAssetId}`;
}

/** Rules, runs, outcomes and scores over one store. */
export class QualityEngine {
  constructor(
    readonly store: QualityStore,
    readonly entities: EntityStore,
    readonly now: () => number,
  ) {}

  /** The columns of a catalog asset (name, data type, description); a 404 when the catalog lacks it. */
  columns(dataAssetId: string): Doc[] {
    const asset = this.entities.get(dataAssetId);
    if (!asset || asset.status !== "ACTIVE") throw notFound("data asset", dataAssetId);
    return columnsOf(asset, this.entities.list()).map((column) => ({
      name: column.attributes.name,
      dataType: column.attributes.data_type ?? column.attributes.dataType ?? null,
      description: column.attributes.description ?? null,
    }));
  }

  /** The rules of an asset, oldest first. */
  rules(scope: AssetScope): Doc[] {
    return this.store.list(KIND.rule, assetKey(scope));
  }

  /**
   * Runs the asset's rules now and stores the run and its outcome. A run of an asset the catalog does not
   * hold is stored as Failed, saying so; a disabled asset is refused (409).
   */
  run(scope: AssetScope, extra: Doc = {}): Doc {
    if (this.store.get(KIND.assetState, assetKey(scope), "state")?.disabled === true) {
      throw conflict(
        "AssetDisabled",
        `Data quality is disabled for data asset '${scope.dataAssetId}'; it takes no runs.`,
        "dataAssetId",
      );
    }
    const at = new Date(this.now()).toISOString();
    const runId = crypto.randomUUID();
    const run: Doc = {
      runId,
      ...scope,
      accountId: QUALITY_ACCOUNT_ID,
      submissionTime: at,
      startTime: at,
      endTime: at,
      duration: 0,
      startedBy: "emulator",
      jobType: "DQ",
      region: "emulator",
      redundancyCheck: extra.redundancyCheck === true,
      ...(typeof extra.scheduleId === "string" ? { scheduleId: extra.scheduleId, scanId: extra.scanId } : {}),
    };
    const asset = this.entities.get(scope.dataAssetId);
    if (!asset || asset.status !== "ACTIVE") {
      Object.assign(run, {
        status: "Failed",
        message: `Data asset '${scope.dataAssetId}' is not an entity of the catalog; nothing was evaluated.`,
      });
      this.store.put(KIND.run, scope.businessDomainId, runId, run);
      return run;
    }
    const rules = this.rules(scope);
    const evaluation = evaluateRules(asset, columnsOf(asset, this.entities.list()), rules);
    const outcomeId = crypto.randomUUID();
    const observedAt = this.now();
    const outcome: Doc = {
      id: outcomeId,
      jobId: runId,
      ...scope,
      controlType: 0,
      resultedAt: at,
      score: evaluation.score,
      observations: evaluation.results.map((r) => ({
        observationId: crypto.randomUUID(),
        observerId: r.ruleId,
        observerName: r.ruleName,
        observedAt,
        observerdBy: "emulator",
        region: "emulator",
      })),
      opinions: evaluation.results.map((r) => ({
        ...scope,
        controlId: r.ruleId,
        opinionId: crypto.randomUUID(),
        value: { result: r.result, score: r.score ?? null, field: r.field, reason: r.reason },
        resultedAt: at,
        outcomeId,
      })),
      ruleDimensionMappings: Object.fromEntries(
        rules.map((rule) => [String(rule.id), String(rule.dimension ?? rule.type)]),
      ),
    };
    const evaluated = evaluation.results.filter((r) => r.score !== undefined).length;
    Object.assign(run, {
      status: "Succeeded",
      outcomeId,
      dataAssetName: String(asset.attributes.name ?? asset.attributes.qualifiedName),
      score: evaluation.score ?? null,
      message: evaluated === 0
        ? "No active rule to evaluate; the run has no score."
        : `${evaluated} rule(s) evaluated; score ${evaluation.score}.`,
    });
    for (const result of evaluation.results) {
      const rule = rules.find((r) => String(r.id) === result.ruleId);
      if (rule && result.score !== undefined) {
        this.store.put(KIND.rule, assetKey(scope), result.ruleId, { ...rule, score: result.score });
      }
    }
    this.store.put(KIND.outcome, scope.businessDomainId, outcomeId, outcome);
    this.store.put(KIND.run, scope.businessDomainId, runId, run);
    return run;
  }

  /** A run of the domain, or a 404. */
  runById(businessDomainId: string, runId: string): Doc {
    const run = this.store.get(KIND.run, businessDomainId, runId);
    if (!run) throw notFound("run", runId);
    return run;
  }

  /** A run of this asset (an observation, as the observation routes call it), or a 404. */
  runOfAsset(scope: AssetScope, runId: string): Doc {
    const run = this.store.get(KIND.run, scope.businessDomainId, runId);
    if (!run || run.dataAssetId !== scope.dataAssetId || run.dataProductId !== scope.dataProductId) {
      throw notFound("observation", runId);
    }
    return run;
  }

  /** The runs of an asset, oldest first. */
  runsOfAsset(scope: AssetScope): Doc[] {
    return this.store.list(KIND.run, scope.businessDomainId)
      .filter((run) => run.dataAssetId === scope.dataAssetId && run.dataProductId === scope.dataProductId);
  }

  /** Removes a run and its outcome; false when there was no such run. */
  removeRun(businessDomainId: string, run: Doc): void {
    if (typeof run.outcomeId === "string") this.store.remove(KIND.outcome, businessDomainId, run.outcomeId);
    this.store.remove(KIND.run, businessDomainId, String(run.runId));
  }

  /** The outcomes of an asset's runs, oldest first. */
  outcomesOfAsset(scope: AssetScope): Doc[] {
    return this.store.list(KIND.outcome, scope.businessDomainId)
      .filter((o) => o.dataAssetId === scope.dataAssetId && o.dataProductId === scope.dataProductId);
  }

  /**
   * The latest score of every asset of the domain that has rules or runs (optionally one data product's),
   * as the contract's DqReportEntity (score as a string, empty when the asset has none yet).
   */
  assetScores(businessDomainId: string, dataProductId?: string): Doc[] {
    const assets = new Map<string, Doc>();
    const key = (dp: unknown, asset: unknown) => `${dp}/${asset}`;
    for (const rule of this.store.listUnder(KIND.rule, businessDomainId)) {
      const dp = (rule.dataProduct as Doc).referenceId, asset = (rule.dataAsset as Doc).referenceId;
      if (!assets.has(key(dp, asset))) {
        assets.set(key(dp, asset), { businessDomainId, dataProductId: dp, dataAssetId: asset, score: "" });
      }
    }
    for (const run of this.store.list(KIND.run, businessDomainId)) {
      const entry = { businessDomainId, dataProductId: run.dataProductId, dataAssetId: run.dataAssetId };
      const k = key(run.dataProductId, run.dataAssetId);
      const previous = assets.get(k) ?? { ...entry, score: "" };
      assets.set(
        k,
        typeof run.score === "number" ? { ...entry, score: String(run.score), jobId: run.runId } : previous,
      );
    }
    return [...assets.values()].filter((a) =>
      dataProductId === undefined || a.dataProductId === dataProductId
    );
  }
}

/** The mean of the scores given (strings of DqReportEntity), one decimal; null when none has one. */
export function meanScore(entries: Doc[]): number | null {
  const scores = entries.map((e) => e.score).filter((s) => s !== "" && s !== undefined).map(Number);
  if (scores.length === 0) return null;
  return Math.round(scores.reduce((a, b) => a + b, 0) / scores.length * 10) / 10;
}
