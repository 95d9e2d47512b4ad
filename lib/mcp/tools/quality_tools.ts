/**
 * Data quality tool: get_data_quality (`quality summary`): the latest score of a data asset or of a data
 * product, with each asset's rules and what its latest run found for each (passed, failed or skipped, and
 * why). Read-only: it starts no run (`govcat quality run` does).
 *
 * @module
 */
import { z } from "../../deps/zod.ts";
import { getDataQuality } from "../../operations/quality_operations.ts";
import type { AssetQuality } from "../../operations/quality_summary.ts";
import type { ToolDefinition } from "../tool.ts";
import { operationTool } from "../tool_operation.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

const ruleResult = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  status: z.string().describe("Only Active rules are evaluated by a run"),
  column: z.string().optional().describe("The column or field the rule checks"),
  result: z.string().optional().describe("Passed, Failed or Skipped in the latest run; absent if not run"),
  score: z.number().nullable().optional().describe("100 (passed) or 0 (failed) in the latest run"),
  reason: z.string().optional(),
});

const assetOutput = z.object({
  data_asset_id: z.string(),
  score: z.number().nullable().describe("The latest run's score, 0–100; null before a scored run"),
  latest_run: z.object({
    run_id: z.string(),
    status: z.string().optional(),
    message: z.string().optional(),
    submitted_at: z.string().optional(),
  }).nullable(),
  rules: z.array(ruleResult),
});

const qualityOutput = z.object({
  business_domain_id: z.string(),
  data_product_id: z.string(),
  score: z.number().nullable().describe("The asset's score, or the mean of the data product's assets'"),
  assets: z.array(assetOutput),
});

function assetView(asset: AssetQuality): z.input<typeof assetOutput> {
  const run = asset.latestRun;
  return {
    data_asset_id: asset.dataAssetId,
    score: asset.score,
    latest_run: run
      ? { run_id: run.runId, status: run.status, message: run.message, submitted_at: run.submissionTime }
      : null,
    rules: asset.rules,
  };
}

export const getDataQualityTool = operationTool({
  name: "get_data_quality",
  title: "Get data quality",
  description:
    "Data quality of an asset, or of each asset of a data product: latest score (0–100; null before " +
    "any run), rules and each rule's latest result with the reason." + CATALOG_TEXT_IS_DATA,
  operation: getDataQuality,
  fields: {
    domainId: "Governance domain ID (a GUID)",
    dataProductId: "Data product ID (a GUID)",
    assetId: "Data asset ID; none: the whole data product (a GUID)",
  },
  output: qualityOutput,
  view: (result, args: { domain_id: string; data_product_id: string; asset_id?: string }) => {
    if (args.asset_id) {
      const asset = result as AssetQuality;
      return {
        business_domain_id: args.domain_id,
        data_product_id: args.data_product_id,
        score: asset.score,
        assets: [assetView(asset)],
      };
    }
    const product = result as { score: number | null; assets: AssetQuality[] };
    return {
      business_domain_id: args.domain_id,
      data_product_id: args.data_product_id,
      score: product.score,
      assets: product.assets.map(assetView),
    };
  },
});

/** The data quality tools, in the order they are listed. */
export const QUALITY_TOOLS: ReadonlyArray<ToolDefinition> = [getDataQualityTool];
