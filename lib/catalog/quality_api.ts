/**
 * Data quality API calls (`client.quality`): the rules of a data asset (list, get, create, update, delete),
 * runs that evaluate them (start, read, history), their outcomes (per-rule results), and the scores of a
 * business domain's assets and data products. Paths and shapes are the published 2025-09-01-preview
 * contracts': the typed rule operations
 * (`rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.DataQuality/preview/2025-09-01-preview/purviewDataQuality.json`)
 * and the untyped rest
 * (`rest-specs/specification/purview/data-plane/Azure.Analaytics.Purview.DataQuality/preview/2025-09-01-preview/purviewDataQuality.json`).
 *
 * Where: neither contract declares a host; Microsoft Learn writes `{endpoint}/purviewdataquality/api/...`
 * without saying which endpoint. Requests go to the account endpoint (the account API's base URL and error
 * shape) below `/purviewdataquality/api`, with `api-version=2025-09-01-preview`, the version of the
 * published contracts.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * async function scoreOf(asset: { businessDomainId: string; dataProductId: string; dataAssetId: string }) {
 *   const runId = await client.quality.startRun(asset);
 *   return (await client.quality.getRun(asset, runId)).score;
 * }
 * ```
 *
 * @module
 */
import type { HttpClient, HttpMethod } from "../http/client.ts";

/** The api-version of the published data quality contracts. */
export const QUALITY_API_VERSION = "2025-09-01-preview";

/** The type of a rule run (its `jobType`), which listing runs asks for. */
export const QUALITY_RUN_TYPE = "DQ";

/** Where the data quality API sits below the account endpoint. */
export const QUALITY_PATH = "/purviewdataquality/api";

/** A data asset as the data quality API names it: its business domain, data product and own id. */
export interface QualityAsset {
  /** Id of the business (governance) domain. */
  businessDomainId: string;
  /** Id of the data product the asset belongs to. */
  dataProductId: string;
  /** Id of the data asset. */
  dataAssetId: string;
}

/** A data quality rule (the contract's RuleEntity; fields the service adds are kept). */
export interface QualityRule {
  /** A uuid. */
  id: string;
  /** The rule's name. */
  name: string;
  /** The kind of rule, e.g. Completeness or CustomSQL. */
  type: string;
  /** Active rules are evaluated by a run; others (Draft, Inactive) are not. */
  status: string;
  /** What the rule is for. */
  description?: string;
  /** The column (or field) the rule checks: `{column: {type, value}}`. */
  typeProperties?: { column?: { type?: string; value?: string }; [field: string]: unknown };
  /** The rule's last score, 0–100. */
  score?: number;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A run (an observation of the asset): status, score and where its outcome is. */
export interface QualityRun {
  /** The run's id. */
  runId: string;
  /** Succeeded or Failed once finished. */
  status?: string;
  /** What the run did, or why it failed. */
  message?: string;
  /** 0–100 when the run evaluated at least one rule. */
  score?: number | null;
  /** Id of the run's outcome (per-rule results). */
  outcomeId?: string;
  /** The asset the run evaluated. */
  dataAssetId?: string;
  /** The asset's name. */
  dataAssetName?: string;
  /** When the run was started. */
  submissionTime?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** One rule's result in an outcome (the contract's Opinion). */
export interface QualityOpinion {
  /** The rule's id. */
  controlId: string;
  /** The result: in the emulator `{result, score, field, reason}`; untyped in the contract. */
  value?: unknown;
  /** When the result was reached. */
  resultedAt?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** What a run found: one observation and one opinion per rule. */
export interface QualityOutcome {
  /** The outcome's id. */
  id: string;
  /** The run it belongs to. */
  jobId?: string;
  /** One per rule evaluated (`observerId` is the rule's id). */
  observations?: Array<{ observerId?: string; observerName?: string; [field: string]: unknown }>;
  /** Each rule's result. */
  opinions?: QualityOpinion[];
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** The latest score of one asset (the contract's DqReportEntity; the score is a string). */
export interface QualityAssetScore {
  /** Id of the business domain. */
  businessDomainId?: string;
  /** Id of the data product. */
  dataProductId?: string;
  /** Id of the data asset. */
  dataAssetId?: string;
  /** The latest score, 0–100, as a string; empty before a first scored run. */
  score?: string;
  /** The run that gave the score. */
  jobId?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A data product's data quality summary (untyped in the contract). */
export interface QualityDataProduct {
  /** The mean of its assets' latest scores; null when none has one. */
  score?: number | null;
  /** Its assets that have rules or runs, with their latest scores. */
  dataAssets?: QualityAssetScore[];
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

function segment(value: string): string {
  return encodeURIComponent(value);
}

function assetPath(asset: QualityAsset): string {
  return `${QUALITY_PATH}/business-domains/${segment(asset.businessDomainId)}/data-products/` +
    `${segment(asset.dataProductId)}/data-assets/${segment(asset.dataAssetId)}`;
}

/** The data quality calls of one account (`client.quality`). */
export class QualityApi {
  readonly #http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds one as `client.quality`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  #request<T>(
    method: HttpMethod,
    path: string,
    options: { body?: unknown; query?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<T> {
    return this.#http.request({
      method,
      area: "account",
      path,
      apiVersion: QUALITY_API_VERSION,
      body: options.body,
      query: options.query,
      signal: options.signal,
    });
  }

  /** The rules of an asset. */
  listRules(asset: QualityAsset, signal?: AbortSignal): Promise<QualityRule[]> {
    return this.#request("GET", `${assetPath(asset)}/global-rules`, { signal });
  }

  /** One rule; a NotFoundError when the asset has no such rule. */
  getRule(asset: QualityAsset, ruleId: string, signal?: AbortSignal): Promise<QualityRule> {
    return this.#request("GET", `${assetPath(asset)}/global-rules/${segment(ruleId)}`, { signal });
  }

  /** Creates a rule (a ConflictError when its id is taken); answers the rules created. */
  createRule(asset: QualityAsset, rule: QualityRule, signal?: AbortSignal): Promise<QualityRule[]> {
    return this.#request("POST", `${assetPath(asset)}/global-rules`, { body: rule, signal });
  }

  /** Replaces an existing rule; answers it as stored. */
  updateRule(asset: QualityAsset, rule: QualityRule, signal?: AbortSignal): Promise<QualityRule> {
    return this.#request("PUT", `${assetPath(asset)}/global-rules/${segment(rule.id)}`, {
      body: rule,
      signal,
    });
  }

  /** Deletes a rule; a NotFoundError when there is none. */
  async deleteRule(asset: QualityAsset, ruleId: string, signal?: AbortSignal): Promise<void> {
    await this.#request("DELETE", `${assetPath(asset)}/global-rules/${segment(ruleId)}`, { signal });
  }

  /** Starts a run of the asset's rules; answers its id. */
  startRun(asset: QualityAsset, signal?: AbortSignal): Promise<string> {
    return this.#request("POST", `${assetPath(asset)}/observations`, { body: {}, signal });
  }

  /** A run of the asset (status, score, outcome id). */
  getRun(asset: QualityAsset, runId: string, signal?: AbortSignal): Promise<QualityRun> {
    return this.#request("GET", `${assetPath(asset)}/observations/${segment(runId)}`, { signal });
  }

  /**
   * The asset's runs of one type, newest first. The contract requires `runType` without listing its values;
   * `DQ` is the type of the rule runs `startRun` starts (the `jobType` runs carry).
   */
  listRuns(asset: QualityAsset, signal?: AbortSignal, runType = QUALITY_RUN_TYPE): Promise<QualityRun[]> {
    return this.#request("GET", `${assetPath(asset)}/runs`, { query: { runType }, signal });
  }

  /** A run's outcome: per-rule observations and opinions. */
  getOutcome(businessDomainId: string, outcomeId: string, signal?: AbortSignal): Promise<QualityOutcome> {
    return this.#request(
      "GET",
      `${QUALITY_PATH}/business-domains/${segment(businessDomainId)}/outcomes/${segment(outcomeId)}`,
      { signal },
    );
  }

  /** The latest score of every asset of the business domain that has rules or runs. */
  report(businessDomainId: string, signal?: AbortSignal): Promise<QualityAssetScore[]> {
    return this.#request("GET", `${QUALITY_PATH}/business-domains/${segment(businessDomainId)}/report`, {
      signal,
    });
  }

  /** A data product's score and its assets' scores. */
  dataProduct(
    businessDomainId: string,
    dataProductId: string,
    signal?: AbortSignal,
  ): Promise<QualityDataProduct> {
    return this.#request(
      "GET",
      `${QUALITY_PATH}/business-domains/${segment(businessDomainId)}/data-products/${segment(dataProductId)}`,
      { signal },
    );
  }
}
