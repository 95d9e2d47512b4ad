/**
 * Wire types of the data map API (Atlas v2 and search), written from the 2023-09-01 contract. Extra
 * fields the service adds are kept (index signatures), so nothing is lost passing through govcat.
 *
 * @module
 */

export interface AtlasClassification {
  typeName: string;
  attributes?: Record<string, unknown>;
  entityGuid?: string;
  entityStatus?: string;
  propagate?: boolean;
  [field: string]: unknown;
}

export interface AtlasEntity {
  guid?: string;
  typeName: string;
  attributes?: Record<string, unknown>;
  classifications?: AtlasClassification[];
  labels?: string[];
  businessAttributes?: Record<string, Record<string, unknown>>;
  relationshipAttributes?: Record<string, unknown>;
  customAttributes?: Record<string, string>;
  contacts?: Record<string, Array<{ id: string; info?: string }>>;
  collectionId?: string;
  status?: string;
  createTime?: number;
  updateTime?: number;
  createdBy?: string;
  updatedBy?: string;
  version?: number;
  [field: string]: unknown;
}

export interface AtlasEntityWithExtInfo {
  entity: AtlasEntity;
  referredEntities?: Record<string, AtlasEntity>;
}

export interface AtlasEntitiesWithExtInfo {
  entities: AtlasEntity[];
  referredEntities?: Record<string, AtlasEntity>;
}

export interface AtlasEntityHeader {
  guid?: string;
  typeName?: string;
  attributes?: Record<string, unknown>;
  status?: string;
  displayText?: string;
  classificationNames?: string[];
  classifications?: AtlasClassification[];
  labels?: string[];
  meaningNames?: string[];
  isIncomplete?: boolean;
  [field: string]: unknown;
}

export type EntityOperationKind = "CREATE" | "UPDATE" | "PARTIAL_UPDATE" | "DELETE" | "PURGE";

export interface EntityMutationResult {
  mutatedEntities?: Partial<Record<EntityOperationKind, AtlasEntityHeader[]>>;
  guidAssignments?: Record<string, string>;
  partialUpdatedEntities?: AtlasEntityHeader[];
}

/** A page of classifications, as `GET /entity/guid/{guid}/classifications` returns it. */
export interface AtlasClassifications {
  list?: AtlasClassification[];
  pageSize?: number;
  sortBy?: string;
  sortType?: "NONE" | "ASC" | "DESC";
  startIndex?: number;
  totalCount?: number;
  [field: string]: unknown;
}

/**
 * Business metadata of an entity: group name (`bmName`) → attribute name → value, the body of
 * `POST /entity/guid/{guid}/businessmetadata` and the shape of an entity's `businessAttributes`.
 */
export type BusinessMetadataValues = Record<string, Record<string, unknown>>;

/** One row of a bulk business metadata import. */
export interface ImportInfo {
  parentObjectName?: string;
  childObjectName?: string;
  importStatus?: "SUCCESS" | "FAILED";
  remarks?: string;
  [field: string]: unknown;
}

/** The answer of `POST /entity/businessmetadata/import`. */
export interface BulkImportResult {
  successImportInfoList?: ImportInfo[];
  failedImportInfoList?: ImportInfo[];
  [field: string]: unknown;
}

/** A reference to an entity: by guid, or by type name and unique attributes. */
export interface AtlasObjectId {
  guid?: string;
  typeName?: string;
  uniqueAttributes?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A relationship between two entities, an instance of a relationship type definition. */
export interface AtlasRelationship {
  typeName?: string;
  guid?: string;
  end1?: AtlasObjectId;
  end2?: AtlasObjectId;
  attributes?: Record<string, unknown>;
  label?: string;
  /** `ACTIVE` or `DELETED`. */
  status?: string;
  homeId?: string;
  provenanceType?: number;
  createTime?: number;
  createdBy?: string;
  updateTime?: number;
  updatedBy?: string;
  version?: number;
  lastModifiedTS?: string;
  [field: string]: unknown;
}

export interface AtlasRelationshipWithExtInfo {
  relationship?: AtlasRelationship;
  /** The two ends' entity headers by guid (with `extendedInfo=true`). */
  referredEntities?: Record<string, AtlasEntityHeader>;
  [field: string]: unknown;
}

/** A search filter: a leaf (`entityType`, `classification`, `attributeName`…) or `and`/`or`/`not`. */
export type SearchFilter = Record<string, unknown>;

export interface SearchFacet {
  facet: string;
  count?: number;
  sort?: Record<string, "asc" | "desc">;
}

export interface SearchRequest {
  keywords?: string;
  limit?: number;
  continuationToken?: string;
  orderby?: unknown[];
  filter?: SearchFilter;
  facets?: SearchFacet[];
  taxonomySetting?: Record<string, unknown>;
}

export interface SearchResultItem {
  id?: string;
  name?: string;
  qualifiedName?: string;
  entityType?: string;
  description?: string;
  "@search.score"?: number;
  [field: string]: unknown;
}

export interface SearchResult {
  "@search.count"?: number;
  "@search.count.approximate"?: boolean;
  continuationToken?: string;
  "@search.facets"?: Record<string, Array<{ count: number; value: string }>>;
  value?: SearchResultItem[];
}

/** `POST /search/suggest` body (`SuggestOptions`): keywords of 1 to 100 characters. */
export interface SuggestRequest {
  keywords: string;
  /** 1 to 100; the service's default is 5. */
  limit?: number;
  filter?: SearchFilter;
}

/** One suggestion (`SuggestResultValue`): a search item plus the matched text. */
export interface SuggestResultItem extends SearchResultItem {
  /** The matched name with the typed words wrapped in `<em>`. */
  "@search.text"?: string;
}

/** `POST /search/suggest` answer. */
export interface SuggestResult {
  value?: SuggestResultItem[];
}

/** `POST /search/autocomplete` body (`AutoCompleteOptions`): keywords of 1 to 100 characters. */
export interface AutoCompleteRequest {
  keywords: string;
  /** 1 to 100; the service's default is 50. */
  limit?: number;
  filter?: SearchFilter;
}

/** One completion (`AutoCompleteResultValue`). */
export interface AutoCompleteResultItem {
  /** The completed word. */
  text?: string;
  /** The whole query with the completion in place of the last word. */
  queryPlusText?: string;
}

/** `POST /search/autocomplete` answer. */
export interface AutoCompleteResult {
  value?: AutoCompleteResultItem[];
}

/** `POST /browse` body (`BrowseRequest`, catalog API 2023-02-01-preview). */
export interface BrowseRequest {
  /** Browse every entity of this type. */
  entityType?: string;
  /** Browse the children of the entity at this path (`/azure_sql_server#host/azure_sql_db#SalesDb`). */
  path?: string;
  /** 1 to 10,000. */
  limit?: number;
  /** 0 to 100,000. */
  offset?: number;
}

/** An owner of a browse item (`BrowseResultOwner`). */
export interface BrowseOwner {
  id?: string;
  displayName?: string;
  mail?: string;
  contactType?: string;
}

/** One browse item (`BrowseResultValue`). */
export interface BrowseResultItem {
  entityType?: string;
  id?: string;
  isLeaf?: boolean;
  name?: string;
  owner?: BrowseOwner[];
  /** Pass as `path` to browse this item's children. */
  path?: string;
  qualifiedName?: string;
}

/** `POST /browse` answer: the count of the whole level and one page of it. */
export interface BrowseResult {
  "@search.count"?: number;
  value?: BrowseResultItem[];
}

export type * from "./typedef_types.ts";

/** Largest page the search API accepts. */
export const MAX_SEARCH_LIMIT = 1000;
/** Largest `limit` of suggest and autocomplete. */
export const MAX_SUGGEST_LIMIT = 100;
/** Longest `keywords` of suggest and autocomplete. */
export const MAX_SUGGEST_KEYWORDS = 100;
/** Largest `limit` of browse. */
export const MAX_BROWSE_LIMIT = 10_000;
/** Largest `offset` of browse. */
export const MAX_BROWSE_OFFSET = 100_000;
