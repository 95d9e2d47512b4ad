/**
 * What the `quality` commands and the `get_data_quality` tool read back after runs: an asset's latest run
 * with each rule's last result, and a data product's score with its assets'. Built from the data quality
 * calls of `client.quality` (`lib/catalog/quality_api.ts`).
 *
 * @module
 */
import type { QualityApi, QualityAsset, QualityRule, QualityRun } from "../catalog/quality_api.ts";

/** One rule and its result in the latest run (none before a first run, or for a rule added since). */
export interface RuleWithResult {
  id: string;
  name: string;
  type: string;
  status: string;
  column?: string;
  /** Passed, Failed or Skipped in the run; absent when the run did not evaluate the rule. */
  result?: string;
  /** 100 or 0 in the run. */
  score?: number | null;
  /** Why, in the run's words. */
  reason?: string;
}

/** An asset's data quality: its latest run and score, and its rules with their results. */
export interface AssetQuality {
  businessDomainId: string;
  dataProductId: string;
  dataAssetId: string;
  /** The latest run's score, 0–100; null when there is no run or it evaluated nothing. */
  score: number | null;
  latestRun: QualityRun | null;
  rules: RuleWithResult[];
}

/** The results of one run of the asset (the given one, else the latest), with its rules. */
export async function assetQuality(
  api: QualityApi,
  asset: QualityAsset,
  runId: string | undefined,
  signal?: AbortSignal,
): Promise<AssetQuality> {
  const [rules, run] = await Promise.all([
    api.listRules(asset, signal),
    runId ? api.getRun(asset, runId, signal) : api.listRuns(asset, signal).then((runs) => runs[0] ?? null),
  ]);
  const results = new Map<string, { result?: string; score?: number | null; reason?: string }>();
  if (run?.outcomeId) {
    const outcome = await api.getOutcome(asset.businessDomainId, run.outcomeId, signal);
    for (const opinion of outcome.opinions ?? []) {
      const value = (opinion.value ?? {}) as { result?: string; score?: number | null; reason?: string };
      results.set(opinion.controlId, { result: value.result, score: value.score, reason: value.reason });
    }
  }
  return {
    ...asset,
    score: typeof run?.score === "number" ? run.score : null,
    latestRun: run,
    rules: rules.map((rule) => ({ ...ruleLine(rule), ...results.get(rule.id) })),
  };
}

function ruleLine(rule: QualityRule): RuleWithResult {
  const column = rule.typeProperties?.column?.value;
  return {
    id: rule.id,
    name: rule.name,
    type: rule.type,
    status: rule.status,
    ...(column ? { column } : {}),
  };
}

/** The assets of a data product that have rules or runs, as the service lists them. */
export async function productAssets(
  api: QualityApi,
  businessDomainId: string,
  dataProductId: string,
  signal?: AbortSignal,
): Promise<QualityAsset[]> {
  const product = await api.dataProduct(businessDomainId, dataProductId, signal);
  return (product.dataAssets ?? [])
    .filter((asset) => typeof asset.dataAssetId === "string")
    .map((asset) => ({ businessDomainId, dataProductId, dataAssetId: String(asset.dataAssetId) }));
}
