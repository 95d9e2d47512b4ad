/**
 * Routes of the unified catalog's 2026-03-20-preview data assets and data columns (contract notes:
 * ../shared/reference/unified-catalog-2026.md): the data asset family (list, create, query, get, replace,
 * delete, relationships) and the data column family (ingest, query, get, relationships). Query pages are
 * continued by a GET of their `nextLink` (the SDK follows it with a GET), which carries the query in an
 * opaque `skipToken`.
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { optionalJson, requiredJson } from "./bodies.ts";
import type { DataAssetQuery, DataAssets } from "./data_assets.ts";
import type { DataColumns } from "./data_columns.ts";
import { invalidField } from "./errors.ts";
import type { UnifiedRouteKit } from "./kind_routes.ts";
import { ENTITY_CATEGORIES, enumValue, isRecord, type Json, KINDS, type KindSpec } from "./model.ts";
import { DEFAULT_PAGE_SIZE, listRequestFromUrl, MAX_PAGE_SIZE, order, page, pagingFromUrl } from "./query.ts";

/** What the data asset and data column routes are built from. */
export interface AssetRouteKit extends UnifiedRouteKit {
  assets: DataAssets;
  columns: DataColumns;
}

/** A required `true`/`false` query parameter (the SDK sends both flags of a data asset read). */
function requiredFlag(url: URL, name: string): boolean {
  const value = url.searchParams.get(name)?.toLowerCase();
  if (value !== "true" && value !== "false") {
    throw invalidField(name, `The ${name} query parameter is required: true or false.`);
  }
  return value === "true";
}

/** `skip` or `top` of a query body: an integer from 0 (`top`: 1) to `max`. */
function bodyInteger(body: Json, field: "skip" | "top", fallback: number, max: number): number {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  const min = field === "top" ? 1 : 0;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalidField(field, `${field} must be an integer from ${min} to ${max}; got '${String(value)}'.`);
  }
  return value;
}

function optionalFlag(url: URL, name: string): boolean {
  return url.searchParams.has(name) ? requiredFlag(url, name) : false;
}

/** A page of a POST query whose `nextLink` is a GET of the same path with the query in `skipToken`. */
function queryPage(items: Json[], body: Json, skip: number, top: number, url: URL): Json {
  const value = items.slice(skip, skip + top);
  const answer: Json = { value };
  if (skip + top < items.length) {
    const next = new URL(url.pathname, url.origin);
    const version = url.searchParams.get("api-version");
    if (version) next.searchParams.set("api-version", version);
    next.searchParams.set("skipToken", btoa(JSON.stringify({ body, skip: skip + top, top })));
    answer.nextLink = next.toString();
  }
  return answer;
}

/** The query and position a `skipToken` carries. */
function fromToken(url: URL): { body: Json; skip: number; top: number } {
  const token = url.searchParams.get("skipToken") ?? "";
  try {
    const parsed = JSON.parse(atob(token));
    if (isRecord(parsed.body) && Number.isInteger(parsed.skip) && Number.isInteger(parsed.top)) return parsed;
  } catch { /* reported below */ }
  throw invalidField("skipToken", `skipToken '${token}' is not a token this API returned.`);
}

function stringList(body: Json, field: string): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw invalidField(field, `${field} must be an array of strings.`);
  }
  return value.map((item) => item.toLowerCase());
}

function assetQuery(body: Json): DataAssetQuery {
  if (body.nameKeyword !== undefined && typeof body.nameKeyword !== "string") {
    throw invalidField("nameKeyword", "nameKeyword must be a string.");
  }
  if (body.includingOrphans !== undefined && typeof body.includingOrphans !== "boolean") {
    throw invalidField("includingOrphans", "includingOrphans must be true or false.");
  }
  return {
    ids: stringList(body, "ids"),
    nameKeyword: body.nameKeyword as string | undefined,
    owners: stringList(body, "owners"),
    sourceAssetIds: stringList(body, "sourceAssetIds"),
    assetTypes: stringList(body, "assetTypes"),
    includingOrphans: body.includingOrphans as boolean | undefined,
  };
}

function queryBody(raw: unknown): Json {
  if (raw === undefined) return {};
  if (!isRecord(raw)) throw invalidField("body", "The request body must be a JSON object.");
  return raw;
}

/** The data asset routes, before the generic `/{entityType}/{entityId}/relationships`. */
export function dataAssetRoutes(kit: AssetRouteKit): RouteDefinition[] {
  const { route, catalog, assets } = kit;
  const spec = KINDS.dataAsset;
  const one = "/dataAssets/{dataAssetId}";
  const runQuery = (body: Json, skip: number, top: number, url: URL) =>
    queryPage(assets.select(assetQuery(body)).map((a) => assets.wire(a)), body, skip, top, url);
  return [
    route("GET", "/dataAssets", "dataAssets.list", "read", ({ url }) => {
      requiredFlag(url, "includeExtendedProperties");
      const request = listRequestFromUrl(spec, url);
      const all = order(catalog.store.list("dataAsset"), request.orderBy).map((a) => assets.wire(a));
      return jsonResponse(page(all, request, url));
    }),
    route(
      "POST",
      "/dataAssets",
      "dataAssets.create",
      "write",
      async (ctx) => jsonResponse(assets.create(await requiredJson(ctx)), 201),
    ),
    route("POST", "/dataAssets/query", "dataAssets.query", "read", async (ctx) => {
      const { top } = pagingFromUrl(ctx.url);
      return jsonResponse(runQuery(queryBody(await optionalJson(ctx)), 0, top, ctx.url));
    }),
    route("GET", "/dataAssets/query", "dataAssets.query", "read", ({ url }) => {
      const { body, skip, top } = fromToken(url);
      return jsonResponse(runQuery(body, skip, top, url));
    }),
    route("GET", one, "dataAssets.get", "read", ({ params, url }) => {
      requiredFlag(url, "includeExtendedProperties");
      const lineage = requiredFlag(url, "includeLineage");
      return jsonResponse(assets.wire(catalog.existing(spec, params.dataAssetId), lineage));
    }),
    route(
      "PUT",
      one,
      "dataAssets.update",
      "write",
      async (ctx) => jsonResponse(assets.update(ctx.params.dataAssetId, await requiredJson(ctx))),
    ),
    route("DELETE", one, "dataAssets.delete", "write", ({ params }) => {
      catalog.delete(spec, params.dataAssetId);
      return new Response(null, { status: 204 });
    }),
    ...relationshipRoutes(kit, spec, "dataAssetId"),
  ];
}

/** The data column routes. */
export function dataColumnRoutes(kit: AssetRouteKit): RouteDefinition[] {
  const { route, catalog, columns } = kit;
  const spec = KINDS.dataColumn;
  const runQuery = (body: Json, skip: number, top: number, url: URL) => {
    const details = [body.includeColumnDetails === true, body.includeAssetDetails === true] as const;
    const all = columns.select(body).map((column) => columns.wire(column, ...details));
    return queryPage(all, body, skip, top, url);
  };
  return [
    route(
      "POST",
      "/dataColumns/ingest",
      "dataColumns.ingest",
      "write",
      async (ctx) => jsonResponse(columns.ingest(await requiredJson(ctx))),
    ),
    route("POST", "/dataColumns/query", "dataColumns.query", "read", async (ctx) => {
      const body = queryBody(await requiredJson(ctx));
      const skip = bodyInteger(body, "skip", 0, 1_000_000_000);
      const top = bodyInteger(body, "top", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
      return jsonResponse(runQuery(body, skip, top, ctx.url));
    }),
    route("GET", "/dataColumns/query", "dataColumns.query", "read", ({ url }) => {
      const { body, skip, top } = fromToken(url);
      return jsonResponse(runQuery(body, skip, top, url));
    }),
    route("GET", "/dataColumns/{dataColumnId}", "dataColumns.get", "read", ({ params, url }) => {
      const column = catalog.existing(spec, params.dataColumnId);
      const details = [optionalFlag(url, "includeColumnDetails"), optionalFlag(url, "includeAssetDetails")];
      return jsonResponse(columns.wire(column, details[0], details[1]));
    }),
    ...relationshipRoutes(kit, spec, "dataColumnId"),
  ];
}

/**
 * `GET`, `POST` and `DELETE …/{id}/relationships` of a data asset or column. A list may name a Data Map
 * asset rather than a governance one (the 2025-09-15-preview relationships of terms and data products
 * relate Data Map assets), so an id without relationships lists none rather than a 404, as the generic
 * route did; a write needs the governance entity, `entityType`, and for a delete `entityId`.
 */
function relationshipRoutes(kit: AssetRouteKit, spec: KindSpec, param: string): RouteDefinition[] {
  const { route, catalog } = kit;
  const path = `/${spec.path}/{${param}}/relationships`;
  const entityType = (ctx: RouteContext): string =>
    enumValue("entityType", ctx.url.searchParams.get("entityType") ?? undefined, ENTITY_CATEGORIES);
  return [
    route("GET", path, `${spec.path}.relationships.list`, "read", ({ params, url }) => {
      const id = params[param].toLowerCase();
      const wanted = url.searchParams.get("entityType");
      if (wanted !== null) enumValue("entityType", wanted, ENTITY_CATEGORIES);
      const all = catalog.relationships(id, spec.category, wanted, url.searchParams.get("relationshipType"));
      return jsonResponse(page(all, pagingFromUrl(url), url));
    }),
    route("POST", path, `${spec.path}.relationships.create`, "write", async (ctx) => {
      catalog.existing(spec, ctx.params[param]);
      const type = entityType(ctx);
      return jsonResponse(catalog.addRelationship(spec, ctx.params[param], type, await requiredJson(ctx)));
    }),
    route("DELETE", path, `${spec.path}.relationships.delete`, "write", (ctx) => {
      catalog.existing(spec, ctx.params[param]);
      const type = entityType(ctx);
      const q = ctx.url.searchParams;
      catalog.removeRelationships(
        spec,
        ctx.params[param],
        q.get("entityId"),
        type,
        q.get("relationshipType"),
      );
      return new Response(null, { status: 204 });
    }),
  ];
}
