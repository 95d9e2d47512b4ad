/**
 * The enumerations of the unified catalog API and case-insensitive normalisation to the spelling the
 * service expects. People type `published` or `Published`; entity bodies want `PUBLISHED`, query filters
 * want `Published`, objectives want `Published` with `Closed` instead of `Expired`.
 *
 * @example
 * ```ts
 * import { canonicalEnumValue, ENTITY_STATUSES } from "./unified_enums.ts";
 * canonicalEnumValue(ENTITY_STATUSES, "published"); // "PUBLISHED"
 * ```
 *
 * @module
 */

/** Status on term, domain, data product and critical data element bodies (CatalogModelStatus). */
export const ENTITY_STATUSES = ["DRAFT", "PUBLISHED", "EXPIRED"] as const;
/** Status in query and facet filters (SharedEntityStatus). */
export const FILTER_STATUSES = ["Draft", "Published", "Expired"] as const;
/** Status of objectives, in bodies and filters (OkrSharedEntityStatus). */
export const OBJECTIVE_STATUSES = ["Draft", "Published", "Closed"] as const;
/** Status of key results and the roll-up of an objective (OverallStatusEnum). */
export const KEY_RESULT_STATUSES = ["NotTracked", "OnTrack", "Behind", "AtRisk"] as const;
export const DOMAIN_TYPES = [
  "FunctionalUnit",
  "LineOfBusiness",
  "DataDomain",
  "Regulatory",
  "Project",
] as const;
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
export const UPDATE_FREQUENCIES = ["Hourly", "Daily", "Weekly", "Monthly", "Quarterly", "Yearly"] as const;
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
export const CDE_DATA_TYPES = ["TEXT", "NUMBER", "DATETIME", "BOOLEAN"] as const;
export const TERM_RELATIONSHIP_TYPES = ["Related", "Synonym", "Parent"] as const;
/** The `entityType` query parameter of relationship calls (EntityCategory). */
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

/** The value of `values` equal to `input` ignoring case, or undefined. */
export function canonicalEnumValue<T extends string>(values: readonly T[], input: string): T | undefined {
  const wanted = input.trim().toLowerCase();
  return values.find((value) => value.toLowerCase() === wanted);
}

/** The allowed values for an error message. */
export function describeEnum(values: readonly string[]): string {
  return `one of ${values.join(", ")} (any letter case)`;
}

/** Path segments of the kinds that have relationships, by the entity category naming them. */
export const RELATIONSHIP_PATH_SEGMENTS: Readonly<Record<string, string>> = {
  TERM: "terms",
  DATAPRODUCT: "dataProducts",
  CRITICALDATAELEMENT: "criticalDataElements",
  DATAASSET: "dataAssets",
  DATACOLUMN: "dataColumns",
};
