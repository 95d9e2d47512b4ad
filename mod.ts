/**
 * govcat as a library: the catalog clients, configuration, typed errors, the operation registry and the
 * resource types. Everything a CLI command or an MCP tool does is reachable from here.
 *
 * @example
 * ```ts
 * import { CatalogClient, loadConfig } from "./mod.ts";
 *
 * // The account and credential come from the environment (CATALOG_ACCOUNT_NAME, ...).
 * async function customerAssets(): Promise<string[]> {
 *   const client = CatalogClient.fromConfig(loadConfig());
 *   const page = await client.search.query({ keywords: "customers" });
 *   return (page.value ?? []).map((item) => item.qualifiedName ?? "");
 * }
 * ```
 *
 * @module
 */
// The data map, account and scan APIs (Atlas v2, search, collections, scanning).
export { CatalogClient, type CatalogClientOptions, httpClientFromConfig } from "./lib/catalog/client.ts";
export type * from "./lib/catalog/atlas_model.ts";
export {
  type BusinessMetadataWriteOptions,
  EntityApi,
  type GetEntityOptions,
} from "./lib/catalog/entity_api.ts";
export { EntityMetadataApi } from "./lib/catalog/entity_metadata_api.ts";
export {
  CLASSIFICATION_CALLS,
  type ClassificationCall,
  type EntityMetadataCall,
  type EntityRef,
  LABEL_CALLS,
  type LabelCall,
} from "./lib/catalog/entity_metadata_calls.ts";
export { type QueryAllOptions, SearchApi } from "./lib/catalog/search_api.ts";
export type * from "./lib/catalog/navigate_types.ts";
export { type ListTypeDefsOptions, TypeDefApi, type TypeDefRef } from "./lib/catalog/types_api.ts";
export { type GetRelationshipOptions, RelationshipApi } from "./lib/catalog/relationship_api.ts";
export { TYPE_CATEGORIES, TYPEDEF_CATEGORIES, TYPES_DEF_LISTS } from "./lib/catalog/types_definitions.ts";
export { GlossaryApi } from "./lib/catalog/glossary_api.ts";
export { GlossaryTermsApi } from "./lib/catalog/glossary_terms_api.ts";
export { GlossaryImportApi } from "./lib/catalog/glossary_import_api.ts";
export {
  type BulkDeleteOperation,
  type BulkDeleteOptions,
  GlossaryBulkApi,
  type TermsExportOptions,
} from "./lib/catalog/glossary_bulk_api.ts";
export type * from "./lib/catalog/glossary_types.ts";
export { TERM_RELATION_ATTRIBUTES, TERM_STATUSES } from "./lib/catalog/glossary_types.ts";
export { LineageApi } from "./lib/catalog/lineage_api.ts";
export type * from "./lib/catalog/lineage_types.ts";
export {
  createLineage,
  type CreateLineageOptions,
  type LineageEnd,
  processQualifiedName,
} from "./lib/catalog/lineage_builder.ts";
export { CollectionsApi } from "./lib/catalog/collections_api.ts";
export type * from "./lib/catalog/collections_types.ts";
export {
  type AccessKeys,
  type AccessKeyType,
  AccountApi,
  type AccountDomain,
  type AccountProperties,
  type AccountUpdate,
  type ResourceSetRuleConfig,
  type ResourceSetRuleConfigList,
} from "./lib/catalog/account_api.ts";
export {
  type ContactAssignment,
  type ContactAssignmentFilter,
  type ContactGroupDefinition,
  ContactsApi,
  type EntityReference,
  type ReferenceType,
} from "./lib/catalog/account_contacts_api.ts";
export { ScanApi } from "./lib/catalog/scan_api.ts";
export {
  type Reassignment,
  type RunListFilter,
  type TaskListFilter,
  WORKFLOW_API_VERSION,
  WorkflowApi,
} from "./lib/catalog/workflow_api.ts";
export * from "./lib/catalog/workflow_types.ts";
export { type AuthKeyName, ScanRuntimeApi } from "./lib/catalog/scan_runtime_api.ts";
export { ScanAdminApi } from "./lib/catalog/scan_admin_api.ts";
export { type PutResult, ScanApiBase } from "./lib/catalog/scan_base_api.ts";
export type * from "./lib/catalog/scan_types.ts";
// Both collections_types.ts and scan_types.ts name a CollectionReference (the scanning one adds
// lastModifiedAt): the collections one keeps the name, the scanning one is exported under a name of its own.
export type { CollectionReference } from "./lib/catalog/collections_types.ts";
export type { CollectionReference as ScanCollectionReference } from "./lib/catalog/scan_types.ts";
export type * from "./lib/catalog/scan_resource_types.ts";
export { POLICY_API_VERSION, PolicyApi } from "./lib/catalog/policy_api.ts";
export type * from "./lib/catalog/policy_types.ts";
export {
  effectiveHolders,
  inheritsFrom,
  type PolicyEdit,
  resolveRole,
  type RoleHolder,
  roleMembers,
  withMember,
  withoutMember,
} from "./lib/catalog/policy_members.ts";
export {
  QUALITY_API_VERSION,
  QUALITY_PATH,
  QUALITY_RUN_TYPE,
  QualityApi,
  type QualityAsset,
  type QualityAssetScore,
  type QualityDataProduct,
  type QualityOpinion,
  type QualityOutcome,
  type QualityRule,
  type QualityRun,
} from "./lib/catalog/quality_api.ts";

// Configuration, errors, HTTP core, logging, credentials.
export { type Config, type EnvSource, loadConfig } from "./lib/config/config.ts";
export { CONFIG_VARIABLES } from "./lib/config/variables.ts";
export type {
  CatalogIdentity,
  CloudRegion,
  EntraSignInSettings,
  LoadConfigOptions,
  LogLevel,
  McpTransport,
} from "./lib/config/config.ts";
export { type ToolsetName, TOOLSETS } from "./lib/mcp/toolsets.ts";
export * from "./lib/core/errors.ts";
export { type ApiArea, HttpClient, type HttpClientOptions, type RequestOptions } from "./lib/http/client.ts";
export type { BearerTokenSource, HttpMethod } from "./lib/http/client.ts";
export type { QueryValue } from "./lib/http/request_url.ts";
export type { ResponseType } from "./lib/http/body_limits.ts";
export { DEFAULT_PAGING_LIMITS, PagingGuard, type PagingLimits } from "./lib/http/paging_guard.ts";
export { createLogger, type Logger, type LoggerOptions } from "./lib/core/log.ts";
export * from "./lib/operations/mod.ts";
export type { ProgressReport, ProgressSink } from "./lib/core/progress.ts";
export type { FileAccess } from "./lib/files/file_access.ts";
export { createTokenProvider, type TokenProviderOptions } from "./lib/auth/token_provider.ts";
export {
  cachedTokenProvider,
  type CachedTokenProviderOptions,
  type CredentialSource,
  type CredentialToken,
  type TokenProvider,
} from "./lib/auth/cached_tokens.ts";
export { VERSION } from "./lib/core/version.ts";

// The unified catalog (data governance) API.
export { UnifiedCatalogClient } from "./lib/catalog/unified_api.ts";
export type {
  CommonInput,
  Contact,
  ContactsMap,
  EntityBase,
  Loose,
  ManagedAttribute,
  SystemData,
} from "./lib/catalog/unified_schemas.ts";
export type { Term, TermInput } from "./lib/catalog/unified_term_schemas.ts";
export type { Domain, DomainInput } from "./lib/catalog/unified_domain_schemas.ts";
export type {
  CriticalDataElement,
  CriticalDataElementInput,
  DataProduct,
  DataProductInput,
} from "./lib/catalog/unified_product_schemas.ts";
export type {
  KeyResult,
  KeyResultInput,
  Objective,
  ObjectiveInput,
} from "./lib/catalog/unified_okr_schemas.ts";
export type { Policy, PolicyInput } from "./lib/catalog/unified_policy_schemas.ts";
export type { QueryBody, Relationship, RelationshipInput } from "./lib/catalog/unified_query_schemas.ts";
export {
  type CountResult,
  type FacetsResult,
  type ListParams,
  UnifiedResource,
  type UpdateOptions,
} from "./lib/catalog/unified_resource.ts";
export type { Page } from "./lib/catalog/unified_paging.ts";
export {
  RelatedResource,
  type RelationshipFilter,
  RelationshipsApi,
  type RelationshipTarget,
} from "./lib/catalog/unified_relationships.ts";
export { KeyResultsApi, type TermHierarchy, TermsApi } from "./lib/catalog/unified_kinds.ts";
export {
  AssetKindApi,
  type DataAssetListOptions,
  type DataAssetReadOptions,
  DataAssetsApi,
  DataColumnsApi,
} from "./lib/catalog/unified_data_assets.ts";
export type { DataAsset, DataAssetInput, DataColumn } from "./lib/catalog/unified_asset_schemas.ts";
export {
  UNIFIED_CATALOG_2026_OPERATIONS,
  UNIFIED_CATALOG_EXTRA_OPERATIONS,
  UNIFIED_CATALOG_OPERATIONS,
  type UnifiedCatalogOperation,
} from "./lib/catalog/unified_operations.ts";
