/**
 * Unified catalog data asset tools (2026-03-20-preview): list data assets (all, by name keyword, or those
 * of one data product) and get one with the data products it belongs to — the `uc data-asset list`,
 * `query`, `get` and `relationships` operations and `uc dataproduct relationships`.
 *
 * @module
 */
import { z } from "../../deps/zod.ts";
import type { DataAsset } from "../../catalog/unified_asset_schemas.ts";
import type { Relationship } from "../../catalog/unified_query_schemas.ts";
import {
  DATA_ASSET_OPERATIONS,
  dataProductRelationships,
} from "../../operations/unified_data_asset_operations.ts";
import type { Operation } from "../../operations/types.ts";
import { composedTool } from "../tool_operation.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";
import { MAX_UC_ITEMS } from "./unified_common.ts";

function dataAssetOperation(command: string): Operation {
  const found = DATA_ASSET_OPERATIONS.find((operation) => operation.id === `uc.data-asset-${command}`);
  if (!found) throw new Error(`no operation uc.data-asset-${command}`);
  return found;
}

const list = dataAssetOperation("list");
const query = dataAssetOperation("query");
const get = dataAssetOperation("get");
const relationships = dataAssetOperation("relationships");

const dataAssetSummary = z.object({
  id: z.string().describe("ID of the data asset (for uc_get_data_asset)"),
  name: z.string().describe("Name of the data asset"),
  type: z.string().describe("AzureSqlTable, ADLSGen2Path or General"),
  source_asset_id: z.string().optional().describe(
    "GUID of the Data Map asset it is made from (for get_entity)",
  ),
  source_type: z.string().optional().describe("Data Map type of that asset, e.g. azure_sql_table"),
  qualified_name: z.string().optional().describe("Fully qualified name of the asset"),
});

function summarize(asset: DataAsset): z.input<typeof dataAssetSummary> {
  return {
    id: asset.id,
    name: asset.name ?? "",
    type: asset.type ?? "General",
    source_asset_id: asset.source?.assetId,
    source_type: asset.source?.assetType,
    qualified_name: asset.source?.fqn,
  };
}

const dataAssetId = z.string().trim().min(1).describe(
  "Data asset ID",
);

export const ucListDataAssetsTool = composedTool({
  name: "uc_list_data_assets",
  title: "List unified catalog data assets",
  description: "Data assets of the unified catalog: ID, name, type, the Data Map asset's GUID, type and " +
    "qualified name; by name keyword or data product. Next: uc_get_data_asset." + CATALOG_TEXT_IS_DATA,
  input: z.object({
    keyword: z.string().trim().min(1).optional().describe("Name contains this"),
    data_product_id: z.string().trim().min(1).optional().describe(
      "Only those of this data product (ID)",
    ),
    limit: z.number().int().min(1).max(MAX_UC_ITEMS).default(100).describe("Most to return"),
  }),
  output: z.object({
    data_assets: z.array(dataAssetSummary),
    count: z.number().int().describe("Data assets returned"),
    truncated: z.boolean().describe("True when more data assets exist than were returned"),
  }),
  operations: [list, query, dataProductRelationships],
  compose: async (run, input) => {
    let found: DataAsset[];
    if (input.data_product_id) {
      const links = await run(dataProductRelationships, {
        dataProductId: input.data_product_id,
        entityType: "DATAASSET",
      }) as Relationship[];
      const ids = [...new Set(links.map((link) => link.entityId.toLowerCase()))];
      // A data product may name a data asset by its id or, as 2025-09-15-preview did, by its Data Map asset.
      const byId = ids.length ? await run(query, { id: ids, keyword: input.keyword }) as DataAsset[] : [];
      const bySource = ids.length
        ? await run(query, { sourceAssetId: ids, keyword: input.keyword }) as DataAsset[]
        : [];
      found = [...new Map([...byId, ...bySource].map((asset) => [asset.id, asset])).values()];
    } else {
      found = await run(
        input.keyword ? query : list,
        input.keyword ? { keyword: input.keyword } : {},
      ) as DataAsset[];
    }
    const data_assets = found.slice(0, input.limit).map(summarize);
    return { data_assets, count: data_assets.length, truncated: found.length > input.limit };
  },
});

export const ucGetDataAssetTool = composedTool({
  name: "uc_get_data_asset",
  title: "Get unified catalog data asset",
  description:
    "One unified catalog data asset by ID: its Data Map asset, columns, data product IDs and full " +
    "record (data_asset)." + CATALOG_TEXT_IS_DATA,
  input: z.object({
    data_asset_id: dataAssetId,
    include_lineage: z.boolean().default(false).describe("Add lineage"),
  }),
  output: dataAssetSummary.extend({
    columns: z.array(z.object({
      name: z.string().describe("Column name"),
      type: z.string().optional().describe("Data type of the column"),
    })).describe("The asset's columns"),
    data_product_ids: z.array(z.string()).describe("IDs of the data products the asset is related to"),
    data_asset: z.record(z.string(), z.unknown()).describe("The data asset as the service returns it"),
  }),
  operations: [get, relationships],
  compose: async (run, input) => {
    const asset = await run(get, {
      dataAssetId: input.data_asset_id,
      includeLineage: input.include_lineage,
    }) as DataAsset;
    const links = await run(relationships, {
      dataAssetId: asset.id,
      entityType: "DATAPRODUCT",
    }) as Relationship[];
    return {
      ...summarize(asset),
      columns: (asset.schema ?? []).map((column) => ({ name: String(column.name ?? ""), type: column.type })),
      data_product_ids: links.map((link) => link.entityId),
      data_asset: asset,
    };
  },
});
