/**
 * The unified catalog's data assets and data columns, api-version 2026-03-20-preview by default (contract
 * notes: ../shared/reference/unified-catalog-2026.md): a data asset is made from a Data Map asset and may
 * be related to data products; data columns are ingested from Data Map columns. Every call sends the
 * configured assets api-version (`CATALOG_UNIFIED_ASSETS_API_VERSION`), including the GETs of `nextLink`
 * that continue a POST query, as the SDK does.
 *
 * Tolerance where the notes say "not documented": an ingest answer is read as one column, an array or a
 * `{value: [...]}` page, and always returned as an array; the lineage object is passed on as read.
 *
 * @example
 * ```ts
 * import { UnifiedCatalogClient } from "./unified_api.ts";
 * import { loadConfig } from "../config/config.ts";
 * const url = "http://127.0.0.1:8085";
 * const client = UnifiedCatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: url, CATALOG_UNIFIED_ENDPOINT: url }),
 * );
 * async function customers(dataProductId: string): Promise<void> {
 *   const asset = await client.dataAssets.create({ source: { assetId: "ca7a1000-0000-4000-8000-000000000010" } });
 *   await client.dataAssets.createRelationship(asset.id, { entityId: dataProductId }, { entityType: "DATAPRODUCT" });
 * }
 * ```
 *
 * @module
 */
import { DEFAULT_UNIFIED_ASSETS_API_VERSION } from "../config/config.ts";
import { UsageError } from "../core/errors.ts";
import type { HttpClient } from "../http/client.ts";
import { fetchPage, followPages, type Page } from "./unified_paging.ts";
import {
  type RelationshipFilter,
  RelationshipsApi,
  type RelationshipTarget,
} from "./unified_relationships.ts";
import { idSegment, parseEntity, UNIFIED_PREFIX, unifiedSchemas } from "./unified_resource.ts";
import type { Relationship } from "./unified_query_schemas.ts";
import type { DataAsset, DataAssetInput, DataColumn } from "./unified_asset_schemas.ts";

type AssetSchemas = typeof import("./unified_asset_schemas.ts");
let assetSchemasModule: Promise<AssetSchemas> | undefined;
/** The variable setting these calls' api-version, named when an answer does not fit. */
const ASSETS_VERSION_VARIABLE = "CATALOG_UNIFIED_ASSETS_API_VERSION";

/** Loaded by the first call that checks a body, like the other schemas (see `unifiedSchemas`). */
function assetSchemas(): Promise<AssetSchemas> {
  return assetSchemasModule ??= import("./unified_asset_schemas.ts");
}

/** Options of a data asset read. */
export interface DataAssetReadOptions {
  /** Ask for the extended properties (sent as false when not given: the API requires the flag). */
  includeExtendedProperties?: boolean;
  /** Ask for the lineage (sent as false when not given: the API requires the flag). */
  includeLineage?: boolean;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** Options of the data asset list. */
export interface DataAssetListOptions {
  /** Ask for the extended properties (sent as false when not given: the API requires the flag). */
  includeExtendedProperties?: boolean;
  /** Order of the list, such as `name desc`. */
  orderBy?: string;
  /** Items per page. */
  top?: number;
  /** Items skipped before the first. */
  skip?: number;
  /** Aborts the requests. */
  signal?: AbortSignal;
}

/** What calls of both kinds share: the HTTP core, the api-version and relationships under a category. */
export abstract class AssetKindApi {
  /** The HTTP core every call goes through. */
  protected readonly http: HttpClient;
  /** The api-version every call sends. */
  protected readonly apiVersion: string;
  /** The entity category of the kind, in relationship calls. */
  readonly category: "DATAASSET" | "DATACOLUMN";
  readonly #relationships: RelationshipsApi;

  /** The calls of one kind, sent through `http` with `apiVersion`. */
  constructor(http: HttpClient, apiVersion: string, category: "DATAASSET" | "DATACOLUMN") {
    this.http = http;
    this.apiVersion = apiVersion;
    this.category = category;
    this.#relationships = new RelationshipsApi(http, apiVersion);
  }

  /** The relationships of one entity to entities of `filter.entityType` (required by the API). */
  async listRelationships(id: string, filter: RelationshipFilter): Promise<Relationship[]> {
    if (!filter?.entityType) throw new UsageError("entityType (of the related entities) is required.");
    const all: Relationship[] = [];
    for await (const link of this.#relationships.list(this.category, id, filter)) all.push(link);
    return all;
  }

  /** Relates the entity to `input.entityId`, an entity of category `options.entityType`. */
  async createRelationship(
    id: string,
    input: { entityId: string; relationshipType?: string; description?: string },
    options: { entityType: string; signal?: AbortSignal },
  ): Promise<Relationship> {
    const schemas = await assetSchemas();
    const schema = this.category === "DATAASSET"
      ? schemas.dataAssetRelationshipInputSchema
      : schemas.dataColumnRelationshipInputSchema;
    const { validateInput } = await unifiedSchemas();
    const body = validateInput(
      schema,
      input,
      `${this.category === "DATAASSET" ? "data asset" : "data column"} relationship`,
    );
    return await this.#relationships.create(
      this.category,
      id,
      { relationshipType: "Related", ...body },
      options,
    );
  }

  /** Removes the relationship to `target.entityId` (of category `target.entityType`, required). */
  async deleteRelationship(id: string, target: RelationshipTarget): Promise<void> {
    if (!target?.entityType) throw new UsageError("entityType (of the related entity) is required.");
    await this.#relationships.delete(this.category, id, target);
  }
}

/** Data assets (`dataAssets`): list, query, create, get, replace, delete and relationships. */
export class DataAssetsApi extends AssetKindApi {
  /** The calls, sent through `http` with `apiVersion`; `UnifiedCatalogClient` builds one. */
  constructor(http: HttpClient, apiVersion = DEFAULT_UNIFIED_ASSETS_API_VERSION) {
    super(http, apiVersion, "DATAASSET");
  }

  #path(id?: string, suffix = ""): string {
    const base = `${UNIFIED_PREFIX}/dataAssets`;
    return (id === undefined ? base : `${base}/${idSegment(id, "data asset id")}`) + suffix;
  }

  /** Makes the data asset of a Data Map asset (`source.assetId`). */
  async create(input: DataAssetInput, options: { signal?: AbortSignal } = {}): Promise<DataAsset> {
    const { dataAssetInputSchema, dataAssetSchema } = await assetSchemas();
    const { validateInput } = await unifiedSchemas();
    const created = await this.http.request({
      method: "POST",
      area: "unified",
      path: this.#path(),
      body: validateInput(dataAssetInputSchema, input, "data asset"),
      idempotent: false,
      apiVersion: this.apiVersion,
      signal: options.signal,
    });
    return parseEntity<DataAsset>(dataAssetSchema, created, "data asset", ASSETS_VERSION_VARIABLE);
  }

  /** One data asset; both flags are always sent (false unless asked), as the API requires them. */
  async get(id: string, options: DataAssetReadOptions = {}): Promise<DataAsset> {
    const body = await this.http.request({
      method: "GET",
      area: "unified",
      path: this.#path(id),
      query: {
        includeExtendedProperties: options.includeExtendedProperties ?? false,
        includeLineage: options.includeLineage ?? false,
      },
      apiVersion: this.apiVersion,
      signal: options.signal,
    });
    return parseEntity<DataAsset>(
      (await assetSchemas()).dataAssetSchema,
      body,
      "data asset",
      ASSETS_VERSION_VARIABLE,
    );
  }

  /** Replaces a data asset's source, contacts and link (a PUT of the whole request body). */
  async update(
    id: string,
    input: DataAssetInput,
    options: { signal?: AbortSignal } = {},
  ): Promise<DataAsset> {
    const { dataAssetInputSchema, dataAssetSchema } = await assetSchemas();
    const { validateInput } = await unifiedSchemas();
    const updated = await this.http.request({
      method: "PUT",
      area: "unified",
      path: this.#path(id),
      body: validateInput(dataAssetInputSchema, input, "data asset update"),
      apiVersion: this.apiVersion,
      signal: options.signal,
    });
    return parseEntity<DataAsset>(dataAssetSchema, updated, "data asset", ASSETS_VERSION_VARIABLE);
  }

  /** Deletes a data asset (the Data Map asset stays). */
  async delete(id: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.http.request({
      method: "DELETE",
      area: "unified",
      path: this.#path(id),
      apiVersion: this.apiVersion,
      signal: options.signal,
    });
  }

  /** Every data asset, all pages. */
  async *list(options: DataAssetListOptions = {}): AsyncGenerator<DataAsset> {
    yield* followPages<DataAsset>(this.http, this.#listRequest(options));
  }

  /** The first page of data assets: `{ value, nextLink? }`. */
  async listPage(options: DataAssetListOptions = {}): Promise<Page<DataAsset>> {
    return await fetchPage<DataAsset>(this.http, this.#listRequest(options));
  }

  #listRequest({ signal, includeExtendedProperties, ...rest }: DataAssetListOptions) {
    return {
      path: this.#path(),
      query: { includeExtendedProperties: includeExtendedProperties ?? false, ...rest },
      apiVersion: this.apiVersion,
      signal,
    };
  }

  /** Every data asset a query body selects (ids, nameKeyword, owners, sourceAssetIds, assetTypes, ...). */
  async *query(
    body: Record<string, unknown> = {},
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<DataAsset> {
    const { dataAssetQuerySchema } = await assetSchemas();
    const { validateInput } = await unifiedSchemas();
    yield* followPages<DataAsset>(this.http, {
      path: this.#path(undefined, "/query"),
      queryBody: validateInput(dataAssetQuerySchema, body, "data asset query"),
      apiVersion: this.apiVersion,
      signal: options.signal,
    });
  }
}

/** Data columns (`dataColumns`): ingest, query, get and relationships. */
export class DataColumnsApi extends AssetKindApi {
  /** The calls, sent through `http` with `apiVersion`; `UnifiedCatalogClient` builds one. */
  constructor(http: HttpClient, apiVersion = DEFAULT_UNIFIED_ASSETS_API_VERSION) {
    super(http, apiVersion, "DATACOLUMN");
  }

  /** One data column, with its column and asset details when asked. */
  async get(
    id: string,
    options: { includeColumnDetails?: boolean; includeAssetDetails?: boolean; signal?: AbortSignal } = {},
  ): Promise<DataColumn> {
    const body = await this.http.request({
      method: "GET",
      area: "unified",
      path: `${UNIFIED_PREFIX}/dataColumns/${idSegment(id, "data column id")}`,
      query: {
        includeColumnDetails: options.includeColumnDetails,
        includeAssetDetails: options.includeAssetDetails,
      },
      apiVersion: this.apiVersion,
      signal: options.signal,
    });
    return parseEntity<DataColumn>(
      (await assetSchemas()).dataColumnSchema,
      body,
      "data column",
      ASSETS_VERSION_VARIABLE,
    );
  }

  /** Ingests Data Map columns; the answer is one column per request as far as the service says. */
  async ingest(
    requests: Array<{ dataMapAssetId: string; dataMapColumnId: string }>,
    options: { signal?: AbortSignal } = {},
  ): Promise<DataColumn[]> {
    if (!Array.isArray(requests) || requests.length === 0) {
      throw new UsageError("Give at least one Data Map column to ingest (dataMapAssetId, dataMapColumnId).");
    }
    const { ingestRequestSchema, dataColumnSchema } = await assetSchemas();
    const { validateInput } = await unifiedSchemas();
    const checked = requests.map((request, index) =>
      validateInput(ingestRequestSchema, request, `ingest request ${index + 1}`)
    );
    const answer = await this.http.request<unknown>({
      method: "POST",
      area: "unified",
      path: `${UNIFIED_PREFIX}/dataColumns/ingest`,
      body: { requests: checked },
      // Ingesting a column again answers the same column.
      idempotent: true,
      apiVersion: this.apiVersion,
      signal: options.signal,
    });
    return ingestAnswer(answer).map((item) =>
      parseEntity<DataColumn>(dataColumnSchema, item, "ingested data column", ASSETS_VERSION_VARIABLE)
    );
  }

  /** Every column a query body selects; `includingOrphans` is required by the API. */
  async *query(
    body: Record<string, unknown>,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<DataColumn> {
    const { dataColumnQuerySchema } = await assetSchemas();
    const { validateInput } = await unifiedSchemas();
    yield* followPages<DataColumn>(this.http, {
      path: `${UNIFIED_PREFIX}/dataColumns/query`,
      queryBody: validateInput(dataColumnQuerySchema, body, "data column query"),
      apiVersion: this.apiVersion,
      signal: options.signal,
    });
  }
}

/** The columns of an ingest answer, whichever form it came in (its batch form is not documented). */
export function ingestAnswer(answer: unknown): unknown[] {
  if (Array.isArray(answer)) return answer;
  if (answer && typeof answer === "object") {
    const value = (answer as { value?: unknown }).value;
    return Array.isArray(value) ? value : [answer];
  }
  return [];
}
