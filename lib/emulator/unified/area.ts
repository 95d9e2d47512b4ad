/**
 * The unified catalog API of the emulator (`/datagovernance/catalog/...`): business domains, terms (with
 * hierarchy and relationships), data products, critical data elements, objectives with their key results,
 * and policies; `query`, `facets` (GET and POST) and `query/count` for terms, data products, critical data
 * elements and objectives; the 2026-03-20-preview data assets and data columns (`asset_routes.ts`);
 * the generic `GET /{entityType}/{entityId}/relationships`.
 *
 * A request's `api-version` query parameter must be a date version (`YYYY-MM-DD` or `YYYY-MM-DD-preview`);
 * one without it gets {@link UNIFIED_DEFAULT_API_VERSION} (see there why). Every request is counted against
 * the service's per-operation rate limits over a 20-second sliding window (see
 * {@link UnifiedCatalogOptions}); over the limit it answers 429 with `Retry-After`.
 *
 * @example
 * ```ts
 * import { createUnifiedCatalogArea } from "./area.ts";
 * // Tiny limits and a one-second window, for a throttling test.
 * const area = createUnifiedCatalogArea({ limits: { read: 2, write: 2 }, windowMs: 1000 });
 * ```
 *
 * @module
 */
import type { ApiArea, AreaDependencies } from "../area.ts";
import type { RouteDefinition, RouteHandler } from "../router.ts";
import { UnifiedCatalog } from "./catalog.ts";
import { invalidApiVersion } from "./errors.ts";
import { kindRoutes, type UnifiedRoute } from "./kind_routes.ts";
import { dataAssetRoutes, dataColumnRoutes } from "./asset_routes.ts";
import { DataAssets } from "./data_assets.ts";
import { DataColumns } from "./data_columns.ts";
import { genericRelationshipRoutes, keyResultRoutes, policyRoutes } from "./other_routes.ts";
import { UnifiedStore } from "./store.ts";
import {
  DEFAULT_WINDOW_MS,
  type OperationClass,
  UnifiedThrottle,
  type UnifiedThrottleLimits,
} from "./throttle.ts";

export { DEFAULT_LIMITS, DEFAULT_WINDOW_MS, type UnifiedThrottleLimits } from "./throttle.ts";

/** How to build the unified catalog area. */
export interface UnifiedCatalogOptions {
  /** Rate limits per window; unset figures keep {@link DEFAULT_LIMITS}. */
  limits?: UnifiedThrottleLimits;
  /** Length of the sliding window in milliseconds (20,000 on the service). */
  windowMs?: number;
  /** False turns rate limiting off. */
  throttle?: boolean;
}

const API_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

/**
 * The version a request without `api-version` is answered with: the one govcat's own client sends by
 * default (`CATALOG_UNIFIED_API_VERSION`). Keayoub/pvw-cli sends no `api-version` on its unified catalog
 * calls (`purviewcli/client/_unified_catalog.py`: `self.params = {}` for `/datagovernance/catalog/...`,
 * sent as is by `purviewcli/client/sync_client.py`) and relies on the service for it. What the service
 * does then is documented nowhere we could find (Microsoft Learn's unified catalog REST reference lists
 * `api-version` on every operation; no recorded traffic or issue thread shows a call without it). Public
 * clients expect such a call to succeed: pvw-cli's live probes (`scripts/test_new_endpoints.py`) send
 * `GET /datagovernance/catalog/businessdomains` with no parameters and count only a 2xx as live, while
 * sending `api-version` to the data quality and health areas beside it. So the emulator accepts such a
 * call and applies this version rather than refusing what a real client sends.
 */
export const UNIFIED_DEFAULT_API_VERSION = "2025-09-15-preview";

/** Builds the area; {@link unifiedCatalogArea} is the one the emulator mounts, with the default limits. */
export function createUnifiedCatalogArea(options: UnifiedCatalogOptions = {}): ApiArea {
  return (deps) => {
    const catalog = new UnifiedCatalog(UnifiedStore.open(deps.store.database), deps.now);
    const throttle = options.throttle === false
      ? undefined
      : new UnifiedThrottle(options.limits, options.windowMs ?? DEFAULT_WINDOW_MS);
    return unifiedRoutes(deps, catalog, throttle);
  };
}

/** Routes of the unified catalog, relative to `/datagovernance/catalog`. */
export const unifiedCatalogArea: ApiArea = createUnifiedCatalogArea();

function unifiedRoutes(
  deps: AreaDependencies,
  catalog: UnifiedCatalog,
  throttle: UnifiedThrottle | undefined,
): RouteDefinition[] {
  const route: UnifiedRoute = (
    method: string,
    path: string,
    operation: string,
    operationClass: OperationClass,
    handler: RouteHandler,
  ) => ({
    method,
    path,
    handler: async (ctx) => {
      try {
        throttle?.check(operation, operationClass, deps.now());
        const version = ctx.url.searchParams.get("api-version");
        // Set on the request's URL, so the nextLink of a page names the version it was answered with.
        if (version === null || version === "") {
          ctx.url.searchParams.set("api-version", UNIFIED_DEFAULT_API_VERSION);
        } else if (!API_VERSION.test(version)) throw invalidApiVersion(version);
        return await handler(ctx);
      } catch (error) {
        if (!ctx.request.bodyUsed) await ctx.request.body?.cancel().catch(() => {});
        throw error;
      }
    },
  });
  const kit = { route, catalog };
  const assets = new DataAssets(catalog, deps.store);
  const assetKit = { ...kit, assets, columns: new DataColumns(assets) };
  return [
    ...kindRoutes(kit),
    ...keyResultRoutes(kit),
    ...policyRoutes(kit),
    ...dataAssetRoutes(assetKit),
    ...dataColumnRoutes(assetKit),
    ...genericRelationshipRoutes(kit),
  ];
}
