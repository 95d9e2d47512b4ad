/**
 * What the untyped data quality contract does around one asset besides rules and runs: profiles and
 * column profiles, rule suggestions and their configuration, custom SQL rule validation, asset metadata and
 * scoped asset metadata (with favourite column paths); the utilities are `utility_routes.ts`.
 * Profiles and suggestions come from the catalog, as runs do: the asset is the catalog entity whose guid is
 * `dataAssetId`, its columns the column entities pointing at it (`QualityEngine.columns`).
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { assetKey, type QualityEngine } from "./engine.ts";
import { invalidField, notFound, objectBody, optionalObjectBody } from "./errors.ts";
import { type GenericKit, singletonRoutes } from "./generic.ts";
import { ASSET_PATH, assetScope } from "./rule_routes.ts";
import type { Doc } from "./store.ts";
import { ASSET_METADATA_KIND, utilityRoutes } from "./utility_routes.ts";

const KIND = {
  profile: "profile",
  suggestions: "rule-suggestions",
  suggestionConfig: "rule-suggestion-config",
  assetMetadata: ASSET_METADATA_KIND,
  scopedMetadata: "scoped-asset-metadata",
} as const;

const byAsset = (ctx: RouteContext) => assetKey(assetScope(ctx));

/** The data product id Microsoft Learn says stands for "no data product" (all zeros). */
const NO_DATA_PRODUCT = "00000000-0000-0000-0000-000000000000";

/** Profiles, suggestions, metadata and utilities. */
export function assetRoutes(engine: QualityEngine): RouteDefinition[] {
  const kit: GenericKit = { store: engine.store, now: engine.now };
  const references = (ctx: RouteContext): Doc => ({
    businessDomain: { type: "BusinessDomainReference", referenceId: ctx.params.businessDomainId },
    dataProduct: { type: "DataProductReference", referenceId: ctx.params.dataProductId },
    dataAsset: { type: "DataAssetReference", referenceId: ctx.params.dataAssetId },
  });
  return [
    ...profileRoutes(engine),
    ...suggestionRoutes(engine),
    ...utilityRoutes(engine),
    ...singletonRoutes(kit, {
      kind: KIND.assetMetadata,
      label: "asset metadata",
      path: `${ASSET_PATH}/asset-metadata`,
      scope: byAsset,
      methods: ["POST", "GET", "PUT"],
      fill: references,
    }),
    ...singletonRoutes(kit, {
      kind: KIND.scopedMetadata,
      label: "scoped asset metadata",
      path: `${ASSET_PATH}/scoped-asset-metadata`,
      scope: byAsset,
      methods: ["POST", "PUT", "GET", "DELETE"],
      fill: (ctx) => ({ id: ctx.params.dataAssetId, ...references(ctx) }),
    }),
    {
      method: "GET",
      // 2026-01-12-preview (Microsoft Learn, "Get scoped asset metadata for asset DQ"): the same document
      // without a data product segment; `?dataProductId=` names it, the all-zero GUID when there is none.
      path: "/business-domains/{businessDomainId}/data-assets/{dataAssetId}/scoped-asset-metadata",
      handler: (ctx) => {
        const dataProductId = ctx.url.searchParams.get("dataProductId") || NO_DATA_PRODUCT;
        const scope = { ...assetScope(ctx), dataProductId };
        const doc = engine.store.get(KIND.scopedMetadata, assetKey(scope), "current");
        if (!doc) throw notFound("scoped asset metadata", `${dataProductId}/${ctx.params.dataAssetId}`);
        return jsonResponse(doc);
      },
    },
    {
      method: "POST",
      path: `${ASSET_PATH}/update-favourite-column-paths`,
      // `{"favouriteColumnPaths": [...]}` (or the list itself) replaces the list in the scoped metadata.
      handler: async (ctx) => {
        const text = await ctx.request.text();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          throw invalidField("body", 'Send {"favouriteColumnPaths": ["<column>", ...]}.');
        }
        const paths = Array.isArray(body) ? body : (body as Doc | null)?.favouriteColumnPaths;
        if (!Array.isArray(paths) || paths.some((p) => typeof p !== "string")) {
          throw invalidField(
            "favouriteColumnPaths",
            "favouriteColumnPaths must be a list of column paths (strings).",
          );
        }
        const previous = engine.store.get(KIND.scopedMetadata, byAsset(ctx), "current") ?? {};
        const at = new Date(engine.now()).toISOString();
        const doc = {
          ...previous,
          id: ctx.params.dataAssetId,
          ...references(ctx),
          favouriteColumnPaths: paths,
          createdAt: previous.createdAt ?? at,
          lastModifiedAt: at,
        };
        engine.store.put(KIND.scopedMetadata, byAsset(ctx), "current", doc);
        return jsonResponse(doc);
      },
    },
  ];
}

function profileRoutes(engine: QualityEngine): RouteDefinition[] {
  const { store } = engine;
  const PROFILES = `${ASSET_PATH}/profiles`;
  const profile = (ctx: RouteContext) => {
    const doc = store.get(KIND.profile, byAsset(ctx), ctx.params.profileRunId);
    if (!doc) throw notFound("profile run", ctx.params.profileRunId);
    return doc;
  };
  return [
    {
      method: "POST",
      path: PROFILES,
      // A profile of the asset's columns as the catalog describes them (name, data type, description).
      handler: async (ctx) => {
        const body = await optionalObjectBody(ctx);
        const columns = engine.columns(ctx.params.dataAssetId);
        const profileRunId = crypto.randomUUID();
        store.put(KIND.profile, byAsset(ctx), profileRunId, {
          profileRunId,
          ...assetScope(ctx),
          dataSourceId: body.dataSourceId ?? null,
          status: "Succeeded",
          profiledAt: new Date(engine.now()).toISOString(),
          columns,
        });
        return jsonResponse(profileRunId);
      },
    },
    { method: "GET", path: `${PROFILES}/{profileRunId}`, handler: (ctx) => jsonResponse(profile(ctx)) },
    {
      method: "DELETE",
      path: `${PROFILES}/{profileRunId}`,
      handler: (ctx) => {
        store.remove(KIND.profile, byAsset(ctx), String(profile(ctx).profileRunId));
        return jsonResponse("Deleted");
      },
    },
    {
      method: "GET",
      path: `${PROFILES}/config/suggestions`,
      handler: (ctx) =>
        jsonResponse({
          keyColumns: engine.columns(ctx.params.dataAssetId).map((c) => ({ name: c.name })),
          recordCountThreshold: null,
          sizeThreshold: null,
        }),
    },
    {
      method: "GET",
      path: `${ASSET_PATH}/columns/{columnName}/profiles/{profileRunId}`,
      handler: (ctx) => {
        const wanted = ctx.params.columnName.toLowerCase();
        const column = (profile(ctx).columns as Doc[]).find((c) => String(c.name).toLowerCase() === wanted);
        if (!column) throw notFound("column", ctx.params.columnName);
        return jsonResponse(column);
      },
    },
  ];
}

function suggestionRoutes(engine: QualityEngine): RouteDefinition[] {
  const { store } = engine;
  const config = (ctx: RouteContext) => store.get(KIND.suggestionConfig, byAsset(ctx), "current");
  return [
    {
      method: "POST",
      path: `${ASSET_PATH}/rule-suggestions`,
      handler: (ctx) => suggestRules(engine, ctx),
    },
    {
      method: "GET",
      path: `${ASSET_PATH}/rule-suggestions`,
      // The contract types this answer as a string; the emulator answers the suggested rules as a list.
      handler: (ctx) => jsonResponse(store.get(KIND.suggestions, byAsset(ctx), "latest")?.suggestions ?? []),
    },
    {
      method: "GET",
      path: `${ASSET_PATH}/rule-suggestion/config`,
      handler: (ctx) => jsonResponse(config(ctx) ?? { importantColumns: [], notImportantColumns: [] }),
    },
    {
      method: "POST",
      path: `${ASSET_PATH}/rule-suggestion/config`,
      // RuleFeedbackConfiguration is typed: lists of strings and a numeric threshold.
      handler: async (ctx) => {
        const body = await objectBody(ctx, '{"importantColumns": [...], "notImportantColumns": [...]}');
        for (
          const field of [
            "notImportantColumns",
            "importantColumns",
            "notImportantRuleIds",
            "importantRuleIds",
          ]
        ) {
          const v = body[field];
          if (v !== undefined && (!Array.isArray(v) || v.some((x) => typeof x !== "string"))) {
            throw invalidField(field, `${field} must be a list of strings.`);
          }
        }
        if (body.threshold !== undefined && typeof body.threshold !== "number") {
          throw invalidField("threshold", "threshold must be a number.");
        }
        store.put(KIND.suggestionConfig, byAsset(ctx), "current", body);
        return jsonResponse(body);
      },
    },
    {
      method: "POST",
      path: `${ASSET_PATH}/data-source/{dataSourceId}/custom-sql-rule-validation`,
      // A custom SQL rule must be one SELECT statement.
      handler: async (ctx) => {
        const body = await objectBody(ctx, '{"query": "SELECT ..."}');
        const sql = body.query ?? body.sql ?? body.expression;
        if (typeof sql !== "string" || sql.trim() === "") {
          throw invalidField("query", 'Send the rule\'s SQL as {"query": "SELECT ..."}.');
        }
        if (!/^\s*select\s/i.test(sql) || /;\s*\S/.test(sql)) {
          throw invalidField("query", "A custom SQL rule must be a single SELECT statement.");
        }
        return jsonResponse("Valid");
      },
    },
  ];
}

/**
 * Makes the asset's rule suggestions: one Draft completeness rule per column that no rule checks yet and
 * the suggestion configuration does not mark unimportant. Answers the suggestion run's id.
 */
async function suggestRules(engine: QualityEngine, ctx: RouteContext): Promise<Response> {
  const { store } = engine;
  const config = store.get(KIND.suggestionConfig, byAsset(ctx), "current");
  await optionalObjectBody(ctx);
  const skip = new Set(
    ((config?.notImportantColumns ?? []) as string[]).map((c) => c.toLowerCase()),
  );
  const checked = new Set(
    engine.rules(assetScope(ctx)).map((rule) =>
      String(((rule.typeProperties as Doc | undefined)?.column as Doc | undefined)?.value ?? "")
        .toLowerCase()
    ),
  );
  const suggestions = engine.columns(ctx.params.dataAssetId)
    .filter((c) => !checked.has(String(c.name).toLowerCase()) && !skip.has(String(c.name).toLowerCase()))
    .map((c) => ({
      id: crypto.randomUUID(),
      name: `${c.name} is complete`,
      type: "Completeness",
      status: "Draft",
      typeProperties: { column: { type: String(c.dataType ?? "string"), value: String(c.name) } },
    }));
  const id = crypto.randomUUID();
  store.put(KIND.suggestions, byAsset(ctx), "latest", { id, suggestions });
  return jsonResponse(id);
}
