/**
 * The data quality API of the emulator, mounted at {@link QUALITY_PREFIX}: every operation of both
 * 2025-09-01-preview contracts (`rest-specs/specification/purview/data-plane/Azure.Analaytics.Purview.DataQuality/preview/2025-09-01-preview/purviewDataQuality.json`,
 * 84 operations, folder misspelled as published, and
 * `rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.DataQuality/preview/2025-09-01-preview/purviewDataQuality.json`,
 * the 6 rule operations with a typed RuleEntity), plus the two 2026-01-12-preview operations Microsoft
 * Learn documents: the rule create (`PUT .../rules/{ruleId}`) and the read of scoped asset metadata "for
 * asset DQ" (`GET /business-domains/{id}/data-assets/{id}/scoped-asset-metadata?dataProductId=`).
 *
 * Neither contract declares a host or base path; Microsoft Learn's 2026-01-12-preview pages write
 * `{endpoint}/purviewdataquality/api/...`, so the emulator serves the paths below that prefix. Any
 * `api-version` is accepted (both versions share the paths).
 *
 * Behaviour: rules on an asset are validated and stored; a run (`POST .../observations`) evaluates the
 * asset's active rules over the catalog's view of the asset (see `evaluation.ts`) and leaves a run,
 * an outcome with one observation and opinion per rule, and a 0–100 score read back through the runs,
 * outcomes, rule opinions, report, snapshot and domain/data product summaries. The rest of the untyped
 * contract is stored and returned as sent (`generic.ts`), with the small behaviours each route says.
 *
 * @module
 */
import type { ApiArea } from "../area.ts";
import { adminRoutes } from "./admin_routes.ts";
import { assetRoutes } from "./asset_routes.ts";
import { QualityEngine } from "./engine.ts";
import { ruleRoutes } from "./rule_routes.ts";
import { runRoutes } from "./run_routes.ts";
import { scoreRoutes } from "./score_routes.ts";
import { QualityStore } from "./store.ts";

/** Where the data quality API is served (Microsoft Learn's URL form for 2026-01-12-preview). */
export const QUALITY_PREFIX = "/purviewdataquality/api";

/** The routes of the data quality API, relative to {@link QUALITY_PREFIX}. */
export const qualityArea: ApiArea = (deps) => {
  const engine = new QualityEngine(new QualityStore(deps.store.database), deps.store, deps.now);
  return [
    ...ruleRoutes(engine),
    ...runRoutes(engine),
    ...scoreRoutes(engine),
    ...assetRoutes(engine),
    ...adminRoutes(engine),
  ];
};
