/**
 * Wire types of the data map API (Atlas v2 and search), written from the 2023-09-01 contract. Extra
 * fields the service adds are kept (index signatures), so nothing is lost passing through govcat.
 *
 * @module
 */

/**
 * A classification applied to an entity (for example `MICROSOFT.PERSONAL.EMAIL`). It has no identity of
 * its own: it exists only attached to an entity, and may propagate along lineage.
 */
export interface AtlasClassification {
  /** Name of the classification type definition. */
  typeName: string;
  /** Values of the attributes the classification type defines, by attribute name. */
  attributes?: Record<string, unknown>;
  /** GUID of the entity the classification is attached to. */
  entityGuid?: string;
  /** `ACTIVE` or `DELETED` status of that entity (deleted entities are kept, marked deleted). */
  entityStatus?: string;
  /** Whether the classification propagates to entities downstream in lineage. */
  propagate?: boolean;
  /** Fields of newer contract versions (`validityPeriods`, `lastModifiedTS`, ...), kept as read. */
  [field: string]: unknown;
}

/**
 * An entity of the data map, an instance of an entity type such as `azure_sql_table` or `DataSet`:
 * its attributes, classifications, labels, business metadata and audit fields.
 */
export interface AtlasEntity {
  /** GUID the service assigned. Absent or a negative placeholder (`-1`) in a create request. */
  guid?: string;
  /** Name of the entity type definition, such as `azure_sql_table`. */
  typeName: string;
  /** Attribute values by name; `qualifiedName` and `name` are the usual identifying ones. */
  attributes?: Record<string, unknown>;
  /** Classifications attached to the entity. */
  classifications?: AtlasClassification[];
  /** Free-text labels of the entity. */
  labels?: string[];
  /** Business metadata values: group name → attribute name → value. */
  businessAttributes?: Record<string, Record<string, unknown>>;
  /** Related entities by relationship attribute name (`columns`, `meanings`, `inputToProcesses`...). */
  relationshipAttributes?: Record<string, unknown>;
  /** User-defined key/value pairs, both strings. */
  customAttributes?: Record<string, string>;
  /** Contacts by role (`Expert`, `Owner`): each an Entra ID object ID and an optional note. */
  contacts?: Record<string, Array<{ id: string; info?: string }>>;
  /** Reference name of the collection that holds the entity. */
  collectionId?: string;
  /** `ACTIVE` or `DELETED`; a deleted entity stays readable until purged. */
  status?: string;
  /** Epoch milliseconds of creation; set by the service. */
  createTime?: number;
  /** Epoch milliseconds of the last update; set by the service. */
  updateTime?: number;
  /** Who created the entity; set by the service. */
  createdBy?: string;
  /** Who last updated the entity; set by the service. */
  updatedBy?: string;
  /** Version number the service increments on each update. */
  version?: number;
  /** Fields of newer contract versions (`meanings`, `homeId`, `provenanceType`, ...), kept as read. */
  [field: string]: unknown;
}

/**
 * One entity with the entities it refers to, as `GET /entity/guid/{guid}` returns it and a single
 * create or update sends it.
 */
export interface AtlasEntityWithExtInfo {
  /** The entity itself. */
  entity: AtlasEntity;
  /** Entities the entity refers to (columns, related assets), by GUID. */
  referredEntities?: Record<string, AtlasEntity>;
}

/**
 * Several entities with the entities they refer to: the body of a bulk create or update and the answer
 * of a bulk read.
 */
export interface AtlasEntitiesWithExtInfo {
  /** The entities, in request order. */
  entities: AtlasEntity[];
  /** Entities they refer to, by GUID. */
  referredEntities?: Record<string, AtlasEntity>;
}

/**
 * A summary of an entity: enough to show and address it (GUID, type, key attributes, classification
 * and term names), as mutation results and relationship reads return it.
 */
export interface AtlasEntityHeader {
  /** GUID of the entity. */
  guid?: string;
  /** Name of the entity type definition. */
  typeName?: string;
  /** The identifying attributes (`qualifiedName`, `name`), not every attribute. */
  attributes?: Record<string, unknown>;
  /** `ACTIVE` or `DELETED`. */
  status?: string;
  /** Name to show for the entity, usually its `name` attribute. */
  displayText?: string;
  /** Names of the classifications attached to the entity. */
  classificationNames?: string[];
  /** The classifications attached to the entity, with their attributes. */
  classifications?: AtlasClassification[];
  /** Labels of the entity. */
  labels?: string[];
  /** Names of the glossary terms assigned to the entity. */
  meaningNames?: string[];
  /** True for a shell entity: one only referred to, never itself created. */
  isIncomplete?: boolean;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** What a write did to an entity, the keys of {@link EntityMutationResult.mutatedEntities}. */
export type EntityOperationKind = "CREATE" | "UPDATE" | "PARTIAL_UPDATE" | "DELETE" | "PURGE";

/**
 * The answer of an entity write: which entities were created, updated or deleted, and the GUIDs given
 * to placeholder GUIDs of the request.
 */
export interface EntityMutationResult {
  /** Headers of the entities the write touched, by what happened to them. */
  mutatedEntities?: Partial<Record<EntityOperationKind, AtlasEntityHeader[]>>;
  /** Placeholder GUID of the request (such as `-1`) → GUID the service assigned. */
  guidAssignments?: Record<string, string>;
  /** Headers of the entities updated in part. */
  partialUpdatedEntities?: AtlasEntityHeader[];
}

/** A page of classifications, as `GET /entity/guid/{guid}/classifications` returns it. */
export interface AtlasClassifications {
  /** The classifications of this page. */
  list?: AtlasClassification[];
  /** Number of items per page. */
  pageSize?: number;
  /** Field the list is sorted by, when sorted. */
  sortBy?: string;
  /** Sort direction, or `NONE`. */
  sortType?: "NONE" | "ASC" | "DESC";
  /** Zero-based index of the first item of this page in the whole list. */
  startIndex?: number;
  /** Number of items in the whole list. */
  totalCount?: number;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/**
 * Business metadata of an entity: group name (`bmName`) → attribute name → value, the body of
 * `POST /entity/guid/{guid}/businessmetadata` and the shape of an entity's `businessAttributes`.
 */
export type BusinessMetadataValues = Record<string, Record<string, unknown>>;

/** One row of a bulk business metadata import. */
export interface ImportInfo {
  /** Name of the entity type (or the entity) the row is about. */
  parentObjectName?: string;
  /** Name of the entity (or attribute) the row is about. */
  childObjectName?: string;
  /** Whether the row was imported. */
  importStatus?: "SUCCESS" | "FAILED";
  /** Why the row failed, or a note on how it was applied. */
  remarks?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** The answer of `POST /entity/businessmetadata/import`. */
export interface BulkImportResult {
  /** Rows that were imported. */
  successImportInfoList?: ImportInfo[];
  /** Rows that were not imported, each with its reason in `remarks`. */
  failedImportInfoList?: ImportInfo[];
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A reference to an entity: by guid, or by type name and unique attributes. */
export interface AtlasObjectId {
  /** GUID of the entity; enough on its own. */
  guid?: string;
  /** Type of the entity, needed with `uniqueAttributes`. */
  typeName?: string;
  /** Unique attributes that identify the entity within its type, usually `{ qualifiedName }`. */
  uniqueAttributes?: Record<string, unknown>;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A relationship between two entities, an instance of a relationship type definition. */
export interface AtlasRelationship {
  /** Name of the relationship type definition. */
  typeName?: string;
  /** GUID of the relationship. */
  guid?: string;
  /** The entity at the first end, as the relationship type names its ends. */
  end1?: AtlasObjectId;
  /** The entity at the second end. */
  end2?: AtlasObjectId;
  /** Values of the attributes the relationship type defines. */
  attributes?: Record<string, unknown>;
  /** Label of the relationship in the graph, derived from the type and its ends. */
  label?: string;
  /** `ACTIVE` or `DELETED`. */
  status?: string;
  /** Identifier of the system the relationship was created in, for replicated metadata. */
  homeId?: string;
  /** How the relationship came to be; a number the service sets. */
  provenanceType?: number;
  /** Epoch milliseconds of creation; set by the service. */
  createTime?: number;
  /** Who created the relationship; set by the service. */
  createdBy?: string;
  /** Epoch milliseconds of the last update; set by the service. */
  updateTime?: number;
  /** Who last updated the relationship; set by the service. */
  updatedBy?: string;
  /** Version number the service increments on each update. */
  version?: number;
  /** Opaque change marker (an ETag) of the relationship. */
  lastModifiedTS?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/**
 * A relationship with the headers of the entities at its ends, as `GET /relationship/guid/{guid}`
 * returns it.
 */
export interface AtlasRelationshipWithExtInfo {
  /** The relationship itself. */
  relationship?: AtlasRelationship;
  /** The two ends' entity headers by guid (with `extendedInfo=true`). */
  referredEntities?: Record<string, AtlasEntityHeader>;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A search filter: a leaf (`entityType`, `classification`, `attributeName`…) or `and`/`or`/`not`. */
export type SearchFilter = Record<string, unknown>;

/** A facet to compute in a search: counts of the results per value of one field. */
export interface SearchFacet {
  /** Field to count by: `assetType`, `classification`, `contactId`, `label`, `term`, ... */
  facet: string;
  /** How many values to return, the most frequent first. */
  count?: number;
  /** Order of the values: `{ count: "desc" }` or `{ value: "asc" }`. */
  sort?: Record<string, "asc" | "desc">;
}

/** The body of `POST /search/query`: keywords, filter, facets, sort and paging of a catalog search. */
export interface SearchRequest {
  /** Words matched against every searchable field; omit (or `*`) to match everything the filter allows. */
  keywords?: string;
  /** Results per page: the service's default is 50, at most {@link MAX_SEARCH_LIMIT}. */
  limit?: number;
  /** Token of the previous page's answer, to read the next page; omit for the first page. */
  continuationToken?: string;
  /** Sort order, one entry per field (`{ name: "ASC" }`); by search score when omitted. */
  orderby?: unknown[];
  /** Which entities may match; see {@link SearchFilter}. */
  filter?: SearchFilter;
  /** Facets to compute alongside the results. */
  facets?: SearchFacet[];
  /** Options of the asset-type taxonomy facet. */
  taxonomySetting?: Record<string, unknown>;
}

/**
 * One search result: an asset or a glossary term, with its key fields. The fields present depend on
 * what the record is (`objectType`).
 */
export interface SearchResultItem {
  /** GUID of the entity or term. */
  id?: string;
  /** Name of the record. */
  name?: string;
  /** Qualified name of the record, unique within its type. */
  qualifiedName?: string;
  /** Entity type name of an asset (`azure_sql_table`, ...). */
  entityType?: string;
  /** Description of the asset. */
  description?: string;
  /** Relevance score of the match; results are ordered by it unless `orderby` says otherwise. */
  "@search.score"?: number;
  /** The other fields of the record (`classification`, `label`, `term`, `contact`, `updateTime`, ...). */
  [field: string]: unknown;
}

/** The answer of `POST /search/query`: one page of results, the total count and the facets asked for. */
export interface SearchResult {
  /** Number of results of the whole search, not of this page. */
  "@search.count"?: number;
  /** True when `@search.count` is an estimate. */
  "@search.count.approximate"?: boolean;
  /** Token that reads the next page; absent on the last page. */
  continuationToken?: string;
  /** Counts per value of each requested facet, by facet name; null when no facet was asked for. */
  "@search.facets"?: Record<string, Array<{ count: number; value: string }>> | null;
  /** The results of this page. */
  value?: SearchResultItem[];
}

/** `POST /search/suggest` body (`SuggestOptions`): keywords of 1 to 100 characters. */
export interface SuggestRequest {
  /** Text typed so far. */
  keywords: string;
  /** 1 to 100; the service's default is 5. */
  limit?: number;
  /** Which entities may be suggested; see {@link SearchFilter}. */
  filter?: SearchFilter;
}

/** One suggestion (`SuggestResultValue`): a search item plus the matched text. */
export interface SuggestResultItem extends SearchResultItem {
  /** The matched name with the typed words wrapped in `<em>`. */
  "@search.text"?: string;
}

/** `POST /search/suggest` answer. */
export interface SuggestResult {
  /** The suggestions, best first. */
  value?: SuggestResultItem[];
}

/** `POST /search/autocomplete` body (`AutoCompleteOptions`): keywords of 1 to 100 characters. */
export interface AutoCompleteRequest {
  /** Text typed so far; the last word is completed. */
  keywords: string;
  /** 1 to 100; the service's default is 50. */
  limit?: number;
  /** Which entities the completions may come from; see {@link SearchFilter}. */
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
  /** The completions, best first. */
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
  /** Entra ID object ID of the owner. */
  id?: string;
  /** Display name of the owner in Entra ID. */
  displayName?: string;
  /** E-mail address of the owner. */
  mail?: string;
  /** Role of the contact, such as `Owner` or `Expert`. */
  contactType?: string;
}

/** One browse item (`BrowseResultValue`). */
export interface BrowseResultItem {
  /** Entity type name of the item. */
  entityType?: string;
  /** GUID of the item. */
  id?: string;
  /** True when the item has no children to browse. */
  isLeaf?: boolean;
  /** Name of the item. */
  name?: string;
  /** Owners of the item. */
  owner?: BrowseOwner[];
  /** Pass as `path` to browse this item's children. */
  path?: string;
  /** Qualified name of the item. */
  qualifiedName?: string;
}

/** `POST /browse` answer: the count of the whole level and one page of it. */
export interface BrowseResult {
  /** Number of items at this level, not of this page. */
  "@search.count"?: number;
  /** The items of this page. */
  value?: BrowseResultItem[];
}

export type * from "./types_definitions.ts";

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
