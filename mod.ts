/**
 * govcat as a library: the catalog clients, configuration, typed errors, the operation registry and the
 * resource types. Everything a CLI command or an MCP tool does is reachable from here.
 *
 * @example
 * ```ts
 * import { CatalogClient, loadConfig } from "./mod.ts";
 * const client = CatalogClient.fromConfig(loadConfig());
 * const page = await client.search.query({ keywords: "customers" });
 * ```
 *
 * @module
 */
export { CatalogClient, type CatalogClientOptions, httpClientFromConfig } from "./lib/catalog/client.ts";
export type * from "./lib/catalog/types.ts";
export {
  type BusinessMetadataWriteOptions,
  EntityApi,
  type GetEntityOptions,
} from "./lib/catalog/entity_api.ts";
export { EntityMetadataApi } from "./lib/catalog/entity_metadata_api.ts";
export { type ListTypeDefsOptions, TypeDefApi, type TypeDefRef } from "./lib/catalog/typedef_api.ts";
export { type GetRelationshipOptions, RelationshipApi } from "./lib/catalog/relationship_api.ts";
export { TYPE_CATEGORIES, TYPEDEF_CATEGORIES, TYPES_DEF_LISTS } from "./lib/catalog/typedef_types.ts";
export { GlossaryApi } from "./lib/catalog/glossary_api.ts";
export type * from "./lib/catalog/glossary_types.ts";
export { TERM_RELATION_ATTRIBUTES, TERM_STATUSES } from "./lib/catalog/glossary_types.ts";
export { LineageApi } from "./lib/catalog/lineage_api.ts";
export type * from "./lib/catalog/lineage_types.ts";
export { createLineage, processQualifiedName } from "./lib/catalog/lineage_builder.ts";
export { CollectionsApi } from "./lib/catalog/collections_api.ts";
export type * from "./lib/catalog/collections_types.ts";
export { type Config, CONFIG_VARIABLES, type EnvSource, loadConfig } from "./lib/config.ts";
export * from "./lib/errors.ts";
export { type ApiArea, HttpClient, type HttpClientOptions, type RequestOptions } from "./lib/http.ts";
export { createLogger, type Logger } from "./lib/log.ts";
export * from "./lib/operations/mod.ts";
export { cachedTokenProvider, createTokenProvider, type TokenProvider } from "./lib/auth.ts";
export { VERSION } from "./lib/version.ts";
export { UnifiedCatalogClient } from "./lib/unified/client.ts";
export type * from "./lib/unified/schemas.ts";
export type { CountResult, FacetsResult, ListParams, UpdateOptions } from "./lib/unified/resource.ts";
export type { Page } from "./lib/unified/paging.ts";
export type { RelationshipFilter, RelationshipTarget } from "./lib/unified/relationships.ts";
export type { TermHierarchy } from "./lib/unified/kinds.ts";
export {
  UNIFIED_CATALOG_EXTRA_OPERATIONS,
  UNIFIED_CATALOG_OPERATIONS,
  type UnifiedCatalogOperation,
} from "./lib/unified/operations.ts";
