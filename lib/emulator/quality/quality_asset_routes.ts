/**
 * What the untyped data quality contract does around one asset besides rules and runs: profiles and
 * column profiles, rule suggestions and their configuration, custom SQL rule validation, schema and file
 * format discovery, asset metadata and scoped asset metadata (with favourite column paths), and the
 * domain's projection and regex utilities. Profiles, suggestions and schemas come from the catalog, as runs
 * do: the asset is the catalog entity whose guid is `dataAssetId`, its columns the column entities pointing
 * at it (`quality_evaluation.ts`).
 *
 * @module
 */
import type { AtlasEntity } from "../entity_model.ts";
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { DATA_SOURCE_KIND } from "./quality_admin_routes.ts";
import { assetKey, type QualityEngine } from "./quality_engine.ts";
import { columnsOf } from "./quality_evaluation.ts";
import { invalidField, notFound, objectBody, optionalObjectBody } from "./quality_errors.ts";
import { type GenericKit, singletonRoutes } from "./quality_generic.ts";
import { ASSET_PATH, assetScope } from "./quality_rule_routes.ts";
import type { Doc } from "./quality_store.ts";

const DOMAIN = "/business-domains/{businessDomainId}";
const KIND = {
  profile: "profile",
  suggestions: "rule-suggestions",
  suggestionConfig: "rule-suggestion-config",
  assetMetadata: "asset-metadata",
  scopedMetadata: "scoped-asset-metadata",
} as const;

const byAsset = (ctx: RouteContext) => assetKey(assetScope(ctx));

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
    {
      method: "POST",
      path: `${ASSET_PATH}/fetch-fileformat`,
      // The format the asset's name says (its extension), or Unknown.
      handler: async (ctx) => {
        await optionalObjectBody(ctx);
        const name = String(engine.entities.get(ctx.params.dataAssetId)?.attributes.name ?? "");
        const ext = /\.(parquet|csv|json|delta|avro|orc|tsv)$/i.exec(name)?.[1]?.toLowerCase();
        return jsonResponse(ext ?? "Unknown");
      },
    },
    {
      method: "POST",
      path: `${DOMAIN}/data-sources/{dataSourceId}${ASSET_PATH.slice(DOMAIN.length)}/schema`,
      // Syncs the asset's schema (its catalog columns) into its asset metadata; answers it as a string.
      handler: async (ctx) => {
        await optionalObjectBody(ctx);
        if (!engine.store.get(DATA_SOURCE_KIND, ctx.params.businessDomainId, ctx.params.dataSourceId)) {
          throw notFound("data source", ctx.params.dataSourceId);
        }
        const schema = columnsOfAsset(engine, ctx).map(columnEntry);
        const previous = engine.store.get(KIND.assetMetadata, byAsset(ctx), "current") ?? {};
        engine.store.put(KIND.assetMetadata, byAsset(ctx), "current", { ...previous, schema });
        return jsonResponse(JSON.stringify(schema));
      },
    },
    {
      method: "POST",
      path: `${DOMAIN}/parse-projection`,
      handler: async (ctx) =>
        jsonResponse(parseProjection(await objectBody(ctx, '{"projection": "a, b AS c"}'))),
    },
    {
      method: "POST",
      path: `${DOMAIN}/utilities/parse-projection`,
      handler: async (ctx) =>
        jsonResponse(parseProjection(await objectBody(ctx, '{"projection": "a, b AS c"}'))),
    },
    {
      method: "POST",
      path: `${DOMAIN}/utilities/validate-regex`,
      handler: async (ctx) => {
        const body = await objectBody(ctx, '{"regex": "^[A-Z]+$"}');
        const pattern = body.regex ?? body.pattern;
        if (typeof pattern !== "string") {
          throw invalidField("regex", 'Send the expression as {"regex": "..."}.');
        }
        try {
          new RegExp(pattern);
          return jsonResponse({ isValid: true });
        } catch (error) {
          return jsonResponse({ isValid: false, message: (error as Error).message });
        }
      },
    },
  ];
}

function columnsOfAsset(engine: QualityEngine, ctx: RouteContext): AtlasEntity[] {
  const asset = engine.entities.get(ctx.params.dataAssetId);
  if (!asset || asset.status !== "ACTIVE") throw notFound("data asset", ctx.params.dataAssetId);
  return columnsOf(asset, engine.entities.list());
}

function columnEntry(column: AtlasEntity): Doc {
  return {
    name: column.attributes.name,
    dataType: column.attributes.data_type ?? column.attributes.dataType ?? null,
    description: column.attributes.description ?? null,
  };
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
        const columns = columnsOfAsset(engine, ctx).map(columnEntry);
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
          keyColumns: columnsOfAsset(engine, ctx).map((c) => ({ name: c.attributes.name })),
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
      // One Draft completeness rule per column that no rule checks yet and the configuration does not
      // mark unimportant. Answers the suggestion run's id.
      handler: async (ctx) => {
        await optionalObjectBody(ctx);
        const skip = new Set(
          ((config(ctx)?.notImportantColumns ?? []) as string[]).map((c) => c.toLowerCase()),
        );
        const checked = new Set(
          engine.rules(assetScope(ctx)).map((rule) =>
            String(((rule.typeProperties as Doc | undefined)?.column as Doc | undefined)?.value ?? "")
              .toLowerCase()
          ),
        );
        const suggestions = columnsOfAsset(engine, ctx)
          .map(columnEntry)
          .filter((c) =>
            !checked.has(String(c.name).toLowerCase()) && !skip.has(String(c.name).toLowerCase())
          )
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
      },
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

/** Splits a projection (`a, upper(b) AS c`) at its top-level commas into expressions and aliases. */
function parseProjection(body: Doc): Doc {
  const text = body.projection ?? body.expression;
  if (typeof text !== "string" || text.trim() === "") {
    throw invalidField("projection", 'Send the projection as {"projection": "a, b AS c"}.');
  }
  const parts: string[] = [];
  let depth = 0, current = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (depth < 0) throw invalidField("projection", "The projection has an unmatched ')'.");
    if (ch === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  if (depth !== 0) throw invalidField("projection", "The projection has an unmatched '('.");
  parts.push(current);
  const columns = parts.map((part) => {
    const match = /^(.*?)\s+as\s+([A-Za-z_][\w]*)\s*$/i.exec(part.trim());
    const expression = (match ? match[1] : part).trim();
    if (expression === "") throw invalidField("projection", "The projection has an empty column.");
    return { expression, alias: match ? match[2] : expression };
  });
  return { columns };
}
