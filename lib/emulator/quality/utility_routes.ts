/**
 * The data quality utilities of the untyped contract: the file format an asset's name says, the schema
 * sync of an asset from its data source (its catalog columns, kept in the asset metadata), and a domain's
 * projection parser and regex check.
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { DATA_SOURCE_KIND } from "./admin_routes.ts";
import { assetKey, type QualityEngine } from "./engine.ts";
import { invalidField, notFound, objectBody, optionalObjectBody } from "./errors.ts";
import { ASSET_PATH, assetScope } from "./rule_routes.ts";
import type { Doc } from "./store.ts";

const DOMAIN = "/business-domains/{businessDomainId}";

/** The kind asset metadata is stored under (shared with `asset_routes.ts`). */
export const ASSET_METADATA_KIND = "asset-metadata";

const byAsset = (ctx: RouteContext) => assetKey(assetScope(ctx));

/** File format, schema sync, projection and regex routes. */
export function utilityRoutes(engine: QualityEngine): RouteDefinition[] {
  return [
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
        const schema = engine.columns(ctx.params.dataAssetId);
        const previous = engine.store.get(ASSET_METADATA_KIND, byAsset(ctx), "current") ?? {};
        engine.store.put(ASSET_METADATA_KIND, byAsset(ctx), "current", { ...previous, schema });
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
