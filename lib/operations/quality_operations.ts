/**
 * Operations of the `quality` group: data quality rules of an asset (list, get, put from a file, delete),
 * runs that evaluate them for an asset or every asset of a data product, the runs of an asset, scores of
 * an asset or a data product, and the observations (per-rule results) of a run. Calls go through
 * `client.quality` (`lib/catalog/quality_api.ts`).
 *
 * An asset is named by its business domain, data product and data asset ids (GUIDs, as the unified catalog
 * gives them; in the emulator the data asset is a catalog entity's guid). Commands that take a data product
 * work on every asset of it that has rules or runs when no `--asset-id` is given.
 *
 * @module
 */
import type { QualityAsset, QualityRule } from "../catalog/quality_api.ts";
import { z } from "../deps/zod.ts";
import { NotFoundError } from "../core/errors.ts";
import { guidField } from "./guid_fields.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import { assetQuality, productAssets } from "./quality_summary.ts";
import {
  CREATE,
  defineOperation,
  DELETE,
  type Operation,
  type OperationContext,
  READ,
  UPSERT,
} from "./types.ts";

const productFields = {
  domainId: guidField("Id of the business (governance) domain"),
  dataProductId: guidField("Id of the data product"),
};
const assetFields = { ...productFields, assetId: guidField("Id of the data asset") };
const optionalAsset = {
  ...productFields,
  assetId: guidField("Id of the data asset; without it, every asset of the data product with rules or runs")
    .optional(),
};

function asset(input: { domainId: string; dataProductId: string; assetId: string }): QualityAsset {
  return { businessDomainId: input.domainId, dataProductId: input.dataProductId, dataAssetId: input.assetId };
}

/** The asset named, or every asset of the data product. */
async function assetsOf(
  ctx: OperationContext,
  input: { domainId: string; dataProductId: string; assetId?: string },
): Promise<QualityAsset[]> {
  if (input.assetId) return [asset({ ...input, assetId: input.assetId })];
  return await productAssets(ctx.catalog().quality, input.domainId, input.dataProductId, ctx.signal);
}

export const listQualityRules = defineOperation({
  id: "quality.rules",
  group: "quality",
  command: "rules",
  aliases: ["list-rules", "listRules", "get-rules"],
  summary: "Rules of an asset, or of every asset of a data product",
  input: z.object(optionalAsset),
  annotations: READ,
  run: async (ctx, input) => {
    const api = ctx.catalog().quality;
    const rules: Array<QualityRule & { dataAssetId: string }> = [];
    for (const each of await assetsOf(ctx, input)) {
      for (const rule of await api.listRules(each, ctx.signal)) {
        rules.push({ ...rule, dataAssetId: each.dataAssetId });
      }
    }
    return { count: rules.length, value: rules };
  },
});

export const getQualityRule = defineOperation({
  id: "quality.rule",
  group: "quality",
  command: "rule",
  aliases: ["get-rule", "getRule"],
  summary: "One rule of an asset",
  input: z.object({ ...assetFields, ruleId: guidField("Id of the rule") }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().quality.getRule(asset(input), input.ruleId, ctx.signal),
});

const RULE_EXAMPLE =
  '{"id": "<guid>", "name": "Email complete", "type": "Completeness", "status": "Active", ' +
  '"typeProperties": {"column": {"type": "string", "value": "Email"}}}';

/** The rule in a payload file, checked for what the contract requires before anything is sent. */
async function ruleFromFile(ctx: OperationContext, path: string): Promise<QualityRule> {
  const payload = await readJsonFile(ctx, path, "--payload-file");
  if (!isPlainObject(payload)) {
    throw payloadError(path, `a JSON object (a rule), e.g. ${RULE_EXAMPLE}`, describeJson(payload));
  }
  for (const field of ["id", "name", "type", "status"]) {
    const value = payload[field];
    if (typeof value !== "string" || value.trim() === "") {
      throw payloadError(
        path,
        `a rule with a non-empty string "${field}" (id, name, type and status are required)`,
        value === undefined ? `no "${field}"` : `"${field}": ${describeJson(value)}`,
      );
    }
  }
  if (!guidField("rule id").safeParse(payload.id).success) {
    throw payloadError(path, 'a rule whose "id" is a GUID', `"id": ${JSON.stringify(payload.id)}`);
  }
  return payload as QualityRule;
}

export const putQualityRule = defineOperation({
  id: "quality.put-rule",
  group: "quality",
  command: "put-rule",
  aliases: ["putRule", "create-rule", "update-rule"],
  summary: "Create or replace a rule of an asset from a JSON file",
  description: "The file holds one rule: id (a GUID), name, type and status (Active rules are evaluated by " +
    "a run) required; typeProperties.column.value names the column or field it checks. A rule with that id " +
    `on the asset is replaced, else it is created. Example: ${RULE_EXAMPLE}`,
  input: z.object({ ...assetFields, payloadFile: z.string().min(1).describe("JSON file with the rule") }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    const rule = await ruleFromFile(ctx, input.payloadFile);
    const api = ctx.catalog().quality;
    try {
      await api.getRule(asset(input), rule.id, ctx.signal);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      const [created] = await api.createRule(asset(input), rule, ctx.signal);
      return { action: "created", rule: created };
    }
    return { action: "updated", rule: await api.updateRule(asset(input), rule, ctx.signal) };
  },
});

export const deleteQualityRule = defineOperation({
  id: "quality.delete-rule",
  group: "quality",
  command: "delete-rule",
  aliases: ["deleteRule", "remove-rule"],
  summary: "Delete a rule of an asset",
  input: z.object({ ...assetFields, ruleId: guidField("Id of the rule") }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await ctx.catalog().quality.deleteRule(asset(input), input.ruleId, ctx.signal);
    return { deleted: true, ruleId: input.ruleId };
  },
});

export const runQuality = defineOperation({
  id: "quality.run",
  group: "quality",
  command: "run",
  aliases: ["start-run", "startRun", "observe"],
  summary: "Run the rules of an asset (or a data product); show scores",
  input: z.object(optionalAsset),
  annotations: CREATE,
  run: async (ctx, input) => {
    const api = ctx.catalog().quality;
    const runs = [];
    for (const each of await assetsOf(ctx, input)) {
      const runId = await api.startRun(each, ctx.signal);
      const run = await api.getRun(each, runId, ctx.signal);
      runs.push({
        dataAssetId: each.dataAssetId,
        runId,
        status: run.status,
        score: run.score ?? null,
        message: run.message,
      });
    }
    return { count: runs.length, value: runs };
  },
});

export const listQualityRuns = defineOperation({
  id: "quality.runs",
  group: "quality",
  command: "runs",
  aliases: ["list-runs", "listRuns", "history"],
  summary: "Runs of an asset, newest first",
  input: z.object(assetFields),
  annotations: READ,
  run: async (ctx, input) => {
    const runs = await ctx.catalog().quality.listRuns(asset(input), ctx.signal);
    return { count: runs.length, value: runs };
  },
});

export const qualityScores = defineOperation({
  id: "quality.scores",
  group: "quality",
  command: "scores",
  aliases: ["score", "get-scores"],
  summary: "Latest score (0–100) of a data product and its assets, or of one",
  input: z.object(optionalAsset),
  annotations: READ,
  run: async (ctx, input) => {
    const product = await ctx.catalog().quality.dataProduct(input.domainId, input.dataProductId, ctx.signal);
    const assets = (product.dataAssets ?? []).map((a) => ({
      dataAssetId: a.dataAssetId,
      score: a.score === "" || a.score === undefined ? null : Number(a.score),
      runId: a.jobId ?? null,
    }));
    if (!input.assetId) {
      return { dataProductId: input.dataProductId, score: product.score ?? null, value: assets };
    }
    const own = assets.find((a) => a.dataAssetId?.toLowerCase() === input.assetId!.toLowerCase());
    return { dataAssetId: input.assetId, score: own?.score ?? null, runId: own?.runId ?? null };
  },
});

export const qualityObservations = defineOperation({
  id: "quality.observations",
  group: "quality",
  command: "observations",
  aliases: ["results", "outcome", "get-observations"],
  summary: "Each rule's result and reason in a run (default: the latest)",
  input: z.object({ ...assetFields, runId: guidField("Id of the run (default: the latest)").optional() }),
  annotations: READ,
  run: async (ctx, input) => {
    const found = await assetQuality(ctx.catalog().quality, asset(input), input.runId, ctx.signal);
    const run = found.latestRun;
    // The rules are the rows (value); the run's id, status and score are the notes beside them.
    return { runId: run?.runId ?? null, status: run?.status ?? null, score: found.score, value: found.rules };
  },
});

export const getDataQuality = defineOperation({
  id: "quality.summary",
  group: "quality",
  command: "summary",
  aliases: ["get-data-quality", "show"],
  summary: "Latest score, rules and their results: asset or data product",
  input: z.object(optionalAsset),
  annotations: READ,
  run: async (ctx, input) => {
    const api = ctx.catalog().quality;
    if (input.assetId) {
      return await assetQuality(api, asset({ ...input, assetId: input.assetId }), undefined, ctx.signal);
    }
    const product = await api.dataProduct(input.domainId, input.dataProductId, ctx.signal);
    const assets = [];
    for (const each of await assetsOf(ctx, input)) {
      assets.push(await assetQuality(api, each, undefined, ctx.signal));
    }
    return {
      businessDomainId: input.domainId,
      dataProductId: input.dataProductId,
      score: product.score ?? null,
      assets,
    };
  },
});

/** Every operation of the `quality` group, in the order `--help` lists them. */
export const QUALITY_OPERATIONS: Operation[] = [
  listQualityRules,
  getQualityRule,
  putQualityRule,
  deleteQualityRule,
  runQuality,
  listQualityRuns,
  qualityScores,
  qualityObservations,
  getDataQuality,
];
