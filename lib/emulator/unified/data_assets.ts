/**
 * The unified catalog's data assets (2026-03-20-preview, see ../shared/reference/unified-catalog-2026.md):
 * a governance data asset is made from one Data Map asset of the same emulator (`source.assetId`), which
 * gives its name, type, qualified name and classifications; its `schema` lists the data columns ingested
 * for that Data Map asset. One data asset per Data Map asset.
 *
 * Assumptions where the contract says nothing (docs/emulator.md says so too): a
 * `source.assetId` that names no Data Map asset is a 400 on `source.assetId`; the type is AzureSqlTable for
 * `azure_sql_table`/`azure_sql_view`, ADLSGen2Path for ADLS Gen2 paths and resource sets, General
 * otherwise; `includeLineage=true` answers an empty `lineage` object (LineageObject has no documented
 * fields); `includingOrphans: false` leaves out assets related to no data product.
 *
 * @module
 */
import type { AtlasEntity } from "../entity/model.ts";
import { conflict, invalidField } from "./errors.ts";
import type { UnifiedCatalog } from "./catalog.ts";
import { checkContacts, EMULATOR_USER_ID, isRecord, type Json, KINDS } from "./model.ts";
import { isGuid } from "../../core/guid.ts";
import { ownersOf } from "./query.ts";

/** Reads Data Map entities of the same emulator by GUID. */
export interface DataMapLookup {
  get(guid: string): AtlasEntity | undefined;
}

/** What a `dataAssets/query` body selects. */
export interface DataAssetQuery {
  ids?: string[];
  nameKeyword?: string;
  owners?: string[];
  sourceAssetIds?: string[];
  assetTypes?: string[];
  includingOrphans?: boolean;
}

const SQL_TYPES = new Set(["azure_sql_table", "azure_sql_view"]);
const ADLS_TYPES = new Set([
  "adls_gen2_path",
  "adls_gen2_resource_set",
  "azure_datalake_gen2_path",
  "azure_datalake_gen2_resource_set",
]);

/** The data asset rules over the unified catalog's store and the emulator's Data Map. */
export class DataAssets {
  constructor(readonly catalog: UnifiedCatalog, readonly dataMap: DataMapLookup) {}

  /** Creates the data asset of a Data Map asset (`POST dataAssets`). */
  create(body: unknown): Json {
    const request = this.#request(body);
    const existing = this.bySource(request.assetId);
    if (existing) {
      throw conflict(
        `The Data Map asset '${request.assetId}' already has data asset '${existing.id}'; update that one.`,
        "source.assetId",
      );
    }
    const at = this.#now();
    const asset: Json = {
      id: crypto.randomUUID(),
      ...this.#derived(request.entity, at),
      ...request.fields,
      systemData: {
        provisioningState: "Succeeded",
        createdAt: at,
        createdBy: EMULATOR_USER_ID,
        lastModifiedAt: at,
        lastModifiedBy: EMULATOR_USER_ID,
      },
    };
    this.#save(asset);
    return this.wire(asset);
  }

  /** Replaces the request fields of a data asset (`PUT dataAssets/{id}`, a full replacement). */
  update(id: string, body: unknown): Json {
    const current = this.catalog.existing(KINDS.dataAsset, id);
    const request = this.#request(body);
    const other = this.bySource(request.assetId);
    if (other && other.id !== current.id) {
      throw conflict(
        `The Data Map asset '${request.assetId}' already has data asset '${other.id}'.`,
        "source.assetId",
      );
    }
    const at = this.#now();
    const asset: Json = {
      id: current.id,
      ...this.#derived(request.entity, at),
      ...request.fields,
      systemData: {
        ...(isRecord(current.systemData) ? current.systemData : {}),
        lastModifiedAt: at,
        lastModifiedBy: EMULATOR_USER_ID,
      },
    };
    this.#save(asset);
    return this.wire(asset);
  }

  /** The data asset made from this Data Map asset, if any. */
  bySource(dataMapAssetId: string): Json | undefined {
    return this.catalog.store.children("dataAsset", dataMapAssetId)[0];
  }

  /** The wire form: the stored asset with its schema from the columns ingested for its Data Map asset. */
  wire(asset: Json, lineage = false): Json {
    const source = isRecord(asset.source) ? asset.source : {};
    const columns = this.catalog.store.children("dataColumn", String(source.assetId ?? ""));
    const schema = columns.map((column) => {
      const entity = this.dataMap.get(String((column.source as Json).columnId));
      const attributes: Json = entity?.attributes ?? {};
      return {
        name: String(attributes.name ?? (column.source as Json).columnId),
        ...(typeof attributes.description === "string" ? { description: attributes.description } : {}),
        classifications: classificationNames(entity),
        ...(typeof attributes.data_type === "string" ? { type: attributes.data_type } : {}),
      };
    });
    return { ...asset, schema, ...(lineage ? { lineage: {} } : {}) };
  }

  /** The data assets a query body selects, oldest first. */
  select(query: DataAssetQuery): Json[] {
    const keyword = query.nameKeyword?.toLowerCase();
    const types = query.assetTypes?.map((t) => t.toLowerCase());
    return this.catalog.store.list("dataAsset").filter((asset) => {
      const source = isRecord(asset.source) ? asset.source : {};
      if (query.ids && !query.ids.includes(String(asset.id))) return false;
      if (keyword && !String(asset.name ?? "").toLowerCase().includes(keyword)) return false;
      if (query.owners && !ownersOf(asset).some((owner) => query.owners!.includes(owner))) return false;
      if (query.sourceAssetIds && !query.sourceAssetIds.includes(String(source.assetId))) return false;
      if (types && !types.includes(String(source.assetType ?? "").toLowerCase())) return false;
      if (query.includingOrphans === false && !this.#inDataProduct(String(asset.id))) return false;
      return true;
    });
  }

  #inDataProduct(id: string): boolean {
    return this.catalog.relationships(id, "DATAASSET", "DATAPRODUCT", null).length > 0;
  }

  #request(body: unknown): { assetId: string; entity: AtlasEntity; fields: Json } {
    if (!isRecord(body)) throw invalidField("body", "The request body must be a JSON object.");
    const source = body.source;
    if (!isRecord(source) || !isGuid(source.assetId)) {
      throw invalidField(
        "source.assetId",
        'The data asset needs source.assetId, the GUID of its Data Map asset: {"source": {"assetId": "<guid>"}}.',
      );
    }
    const assetId = source.assetId.toLowerCase();
    const entity = this.dataMap.get(assetId);
    if (!entity || entity.status === "DELETED") {
      throw invalidField(
        "source.assetId",
        `source.assetId '${assetId}' does not name an active Data Map asset.`,
      );
    }
    checkContacts(body.contacts);
    if (body.openInUrl !== undefined && body.openInUrl !== null && typeof body.openInUrl !== "string") {
      throw invalidField("openInUrl", "openInUrl must be a string (a URL).");
    }
    const fields: Json = {};
    if (isRecord(body.contacts)) fields.contacts = body.contacts;
    if (typeof body.openInUrl === "string") fields.openInUrl = body.openInUrl;
    return { assetId, entity, fields };
  }

  #derived(entity: AtlasEntity, at: string): Json {
    const attributes = entity.attributes;
    const qualifiedName = String(attributes.qualifiedName);
    const type = SQL_TYPES.has(entity.typeName)
      ? "AzureSqlTable"
      : ADLS_TYPES.has(entity.typeName)
      ? "ADLSGen2Path"
      : "General";
    const description = attributes.userDescription ?? attributes.description;
    const typeProperties = typePropertiesOf(type, entity.typeName, qualifiedName);
    return {
      name: String(attributes.name ?? qualifiedName),
      type,
      ...(typeof description === "string" ? { description } : {}),
      source: {
        type: "DataMap",
        assetId: entity.guid.toLowerCase(),
        assetType: entity.typeName,
        fqn: qualifiedName,
        accountName: "emulator",
        lastRefreshedAt: at,
        lastRefreshedBy: EMULATOR_USER_ID,
      },
      classifications: classificationNames(entity),
      ...(typeProperties ? { typeProperties } : {}),
    };
  }

  #save(asset: Json): void {
    const source = asset.source as Json;
    this.catalog.store.put("dataAsset", asset, undefined, String(source.assetId));
  }

  #now(): string {
    return new Date(this.catalog.now()).toISOString();
  }
}

function classificationNames(entity: AtlasEntity | undefined): string[] {
  return (entity?.classifications ?? []).map((c) => String(c.typeName));
}

/** The per-type properties read from the qualified name (`mssql://server/db/schema/table`, an ADLS URL). */
function typePropertiesOf(type: string, typeName: string, qualifiedName: string): Json | undefined {
  let url: URL;
  try {
    url = new URL(qualifiedName);
  } catch {
    return undefined;
  }
  const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  if (type === "AzureSqlTable") {
    const [databaseName, schemaName, tableName] = parts;
    return {
      format: typeName === "azure_sql_view" ? "View" : "Table",
      serverEndpoint: url.host,
      ...(databaseName ? { databaseName } : {}),
      ...(schemaName ? { schemaName } : {}),
      ...(tableName ? { tableName } : {}),
    };
  }
  if (type === "ADLSGen2Path") {
    const [container, ...rest] = parts;
    const fileName = rest.length > 0 && rest[rest.length - 1].includes(".") ? rest.pop() : undefined;
    return {
      serverEndpoint: url.host,
      ...(container ? { container } : {}),
      folderPath: rest.join("/"),
      ...(fileName ? { fileName } : {}),
    };
  }
  return undefined;
}
