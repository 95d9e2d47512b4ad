/**
 * The enumerations of the unified catalog API as the emulator knows them: its own copy, taken from the
 * contract notes (`reference/unified-catalog.md`, "Enums"), not imported from the client's
 * `lib/catalog/unified_enums.ts`. When the client's list is wrong, the emulator still answers as the service does,
 * so the client's tests fail; `tests/contract/emulator_lists_test.ts` compares each list here to the contract.
 *
 * @example
 * ```ts
 * import { ENTITY_STATUSES } from "./enums.ts";
 * console.log(ENTITY_STATUSES.includes("PUBLISHED")); // true
 * ```
 *
 * @module
 */

/** CatalogModelStatus: status on term, domain, data product and critical data element bodies. */
export const ENTITY_STATUSES = ["DRAFT", "PUBLISHED", "EXPIRED"] as const;
/** SharedEntityStatus: status in query and facet filters. */
export const FILTER_STATUSES = ["Draft", "Published", "Expired"] as const;
/** OkrSharedEntityStatus: status of objectives. */
export const OBJECTIVE_STATUSES = ["Draft", "Published", "Closed"] as const;
/** OverallStatusEnum: status of key results and the roll-up of an objective. */
export const KEY_RESULT_STATUSES = ["NotTracked", "OnTrack", "Behind", "AtRisk"] as const;
/** The `type` of a business domain. */
export const DOMAIN_TYPES = [
  "FunctionalUnit",
  "LineOfBusiness",
  "DataDomain",
  "Regulatory",
  "Project",
] as const;
/** The `type` of a data product. */
export const DATA_PRODUCT_TYPES = [
  "Master",
  "Reference",
  "Analytical",
  "AI",
  "MasterDataAndReferenceData",
  "BusinessSystemOrApplication",
  "ModelTypes",
  "DashboardsOrReports",
  "Operational",
  "MLAITrainingDataSet",
  "MLAITestingDataSet",
  "TransactionalDataset",
  "AnalyticsModel",
  "SemanticModel",
] as const;
/** UpdateFrequency of a data product. */
export const UPDATE_FREQUENCIES = ["Hourly", "Daily", "Weekly", "Monthly", "Quarterly", "Yearly"] as const;
/** Audience of a data product. */
export const AUDIENCES = [
  "DataEngineer",
  "BIEngineer",
  "DataAnalyst",
  "DataScientist",
  "BusinessAnalyst",
  "SoftwareEngineer",
  "BusinessUser",
  "Executive",
] as const;
/** The `dataType` of a critical data element. */
export const CDE_DATA_TYPES = ["TEXT", "NUMBER", "DATETIME", "BOOLEAN"] as const;
/** TermRelationshipType. */
export const TERM_RELATIONSHIP_TYPES = ["Related", "Synonym", "Parent"] as const;
/** DataAssetRelationshipType (2026-03-20-preview). */
export const DATA_ASSET_RELATIONSHIP_TYPES = ["Related", "Synonym"] as const;
/** DataColumnRelationshipType (2026-03-20-preview). */
export const DATA_COLUMN_RELATIONSHIP_TYPES = ["Related", "Synonym", "Parent"] as const;
/**
 * EntityCategory, the `entityType` query parameter of relationship calls: the values the contract lists
 * (it ends the list with "...", so the service may know more).
 */
export const ENTITY_CATEGORIES = [
  "DOMAIN",
  "DATAPRODUCT",
  "TERM",
  "DATAASSET",
  "OBJECTIVE",
  "KEYRESULT",
  "CRITICALDATAELEMENT",
  "DATACOLUMN",
  "CUSTOMMETADATA",
  "ATTRIBUTE",
] as const;
