/**
 * The 48 unified catalog operations of the product specification, each mapped to the client method that
 * performs it and the request it sends (method and path template below `/datagovernance/catalog`).
 * Paths follow what goes over the wire (facets are POSTs, a term's hierarchy is
 * `terms/{termId}/hierarchies`, a relationship is deleted with query parameters).
 *
 * @example
 * ```ts
 * import { UNIFIED_CATALOG_OPERATIONS } from "./unified_operations.ts";
 * console.log(UNIFIED_CATALOG_OPERATIONS.length); // 48
 * ```
 *
 * @module
 */
import type { HttpMethod } from "../http/client.ts";

/** One operation: its group in the specification, the client method (`area.method`) and the request. */
export interface UnifiedCatalogOperation {
  /** Group of the operation in the product specification (`terms`, `facets`, `related entities`, ...). */
  group: string;
  /** Client method that performs it, as `area.method` (`terms.create` is `client.terms.create`). */
  name: string;
  /** HTTP method of the request. */
  method: HttpMethod;
  /**
   * Path template below `/datagovernance/catalog`, with `{placeholders}` and, after `?`, query parameter
   * names.
   */
  path: string;
}

function crud(group: string, area: string, collection: string, idName: string): UnifiedCatalogOperation[] {
  const one = `${collection}/{${idName}}`;
  return [
    { group, name: `${area}.list`, method: "GET", path: collection },
    { group, name: `${area}.create`, method: "POST", path: collection },
    { group, name: `${area}.get`, method: "GET", path: one },
    { group, name: `${area}.update`, method: "PUT", path: one },
    { group, name: `${area}.delete`, method: "DELETE", path: one },
  ];
}

function searches(group: string, area: string, collection: string): UnifiedCatalogOperation[] {
  return [
    { group, name: `${area}.query`, method: "POST", path: `${collection}/query` },
    { group, name: `${area}.count`, method: "POST", path: `${collection}/query/count` },
  ];
}

const facets = (area: string, collection: string): UnifiedCatalogOperation => ({
  group: "facets",
  name: `${area}.facets`,
  method: "POST",
  path: `${collection}/facets`,
});

/** Exactly the 48 operations: terms 7, domains 5, data products 7, critical data elements 7, ... */
export const UNIFIED_CATALOG_OPERATIONS: readonly UnifiedCatalogOperation[] = [
  ...crud("terms", "terms", "terms", "termId"),
  ...searches("terms", "terms", "terms"),
  ...crud("domains", "domains", "businessdomains", "domainId"),
  ...crud("data products", "dataProducts", "dataProducts", "dataProductId"),
  ...searches("data products", "dataProducts", "dataProducts"),
  ...crud("critical data elements", "criticalDataElements", "criticalDataElements", "cdeId"),
  ...searches("critical data elements", "criticalDataElements", "criticalDataElements"),
  ...crud("objectives", "objectives", "objectives", "objectiveId"),
  ...crud("key results", "keyResults", "objectives/{objectiveId}/keyResults", "keyResultId"),
  { group: "policies", name: "policies.list", method: "GET", path: "policies" },
  { group: "policies", name: "policies.get", method: "GET", path: "policies/{policyId}" },
  { group: "policies", name: "policies.update", method: "PUT", path: "policies/{policyId}" },
  { group: "policies", name: "policies.delete", method: "DELETE", path: "policies/{policyId}" },
  facets("terms", "terms"),
  facets("dataProducts", "dataProducts"),
  facets("criticalDataElements", "criticalDataElements"),
  facets("objectives", "objectives"),
  { group: "hierarchies", name: "terms.hierarchy", method: "GET", path: "terms/{termId}/hierarchies" },
  {
    group: "related entities",
    name: "relationships.list",
    method: "GET",
    path: "{entityType}/{entityId}/relationships",
  },
  {
    group: "related entities",
    name: "terms.createRelationship",
    method: "POST",
    path: "terms/{termId}/relationships?entityType",
  },
  {
    group: "related entities",
    name: "terms.deleteRelationship",
    method: "DELETE",
    path: "terms/{termId}/relationships?entityType,relationshipType,entityId",
  },
];

/**
 * Calls the client offers beyond the 48: relationships of data products and critical data elements,
 * the objective query and count, a term's relationship list, and the generic relationship writes.
 */
export const UNIFIED_CATALOG_EXTRA_OPERATIONS: readonly UnifiedCatalogOperation[] = [
  ...["dataProducts", "criticalDataElements", "terms"].flatMap((area) => {
    const path = `${area}/{id}/relationships`;
    return [
      { group: "extra", name: `${area}.listRelationships`, method: "GET" as const, path },
      ...(area === "terms" ? [] : [
        { group: "extra", name: `${area}.createRelationship`, method: "POST" as const, path },
        { group: "extra", name: `${area}.deleteRelationship`, method: "DELETE" as const, path },
      ]),
    ];
  }),
  ...searches("extra", "objectives", "objectives"),
  {
    group: "extra",
    name: "relationships.create",
    method: "POST",
    path: "{entityType}/{entityId}/relationships",
  },
  {
    group: "extra",
    name: "relationships.delete",
    method: "DELETE",
    path: "{entityType}/{entityId}/relationships",
  },
];

const RELATIONSHIP_METHODS = {
  GET: "listRelationships",
  POST: "createRelationship",
  DELETE: "deleteRelationship",
} as const;

/**
 * The 19 operations of the 2026-03-20-preview contract notes (data assets 9, data columns 6, the four
 * duplicate-name counts), each with the client method performing it; path templates as the notes write
 * them. The counts are the 48's count calls, sent with CATALOG_UNIFIED_API_VERSION like the rest of them.
 */
export const UNIFIED_CATALOG_2026_OPERATIONS: readonly UnifiedCatalogOperation[] = [
  { group: "data assets", name: "dataAssets.list", method: "GET", path: "dataAssets" },
  { group: "data assets", name: "dataAssets.create", method: "POST", path: "dataAssets" },
  { group: "data assets", name: "dataAssets.query", method: "POST", path: "dataAssets/query" },
  { group: "data assets", name: "dataAssets.get", method: "GET", path: "dataAssets/{dataAssetId}" },
  { group: "data assets", name: "dataAssets.update", method: "PUT", path: "dataAssets/{dataAssetId}" },
  { group: "data assets", name: "dataAssets.delete", method: "DELETE", path: "dataAssets/{dataAssetId}" },
  ...(["GET", "POST", "DELETE"] as const).map((method) => ({
    group: "data assets",
    name: `dataAssets.${RELATIONSHIP_METHODS[method]}`,
    method,
    path: "dataAssets/{dataAssetId}/relationships",
  })),
  { group: "data columns", name: "dataColumns.get", method: "GET", path: "dataColumns/{id}" },
  { group: "data columns", name: "dataColumns.ingest", method: "POST", path: "dataColumns/ingest" },
  { group: "data columns", name: "dataColumns.query", method: "POST", path: "dataColumns/query" },
  ...(["GET", "POST", "DELETE"] as const).map((method) => ({
    group: "data columns",
    name: `dataColumns.${RELATIONSHIP_METHODS[method]}`,
    method,
    path: "dataColumns/{dataColumnId}/relationships",
  })),
  ...["terms", "dataProducts", "criticalDataElements", "objectives"].map((area) => ({
    group: "count",
    name: `${area}.count`,
    method: "POST" as const,
    path: `${area}/query/count`,
  })),
];
