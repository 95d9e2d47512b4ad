/**
 * Shapes of the classic glossary as the 2023-09-01 data-map contract defines them (AtlasGlossary,
 * AtlasGlossaryExtInfo, AtlasGlossaryCategory, AtlasGlossaryTerm and their headers), and the catalog
 * contract's CSV import operation. Every object keeps an index signature: the service adds fields over
 * time, and a caller's fields must survive a read-modify-write.
 *
 * @module
 */
import type { QueryValue } from "../http/request_url.ts";
import type { AtlasClassification } from "./atlas_model.ts";

/** The contract's TermStatus values, in the order the service lists them. */
export const TERM_STATUSES = ["Draft", "Approved", "Alert", "Expired"] as const;
/** Lifecycle status of a term. */
export type TermStatus = typeof TERM_STATUSES[number];

/** The term-to-term relationship attributes of AtlasGlossaryTerm. */
export const TERM_RELATION_ATTRIBUTES = [
  "seeAlso",
  "synonyms",
  "antonyms",
  "preferredTerms",
  "preferredToTerms",
  "replacementTerms",
  "replacedBy",
  "translationTerms",
  "translatedTerms",
  "isA",
  "classifies",
  "validValues",
  "validValuesFor",
] as const;
/** One of {@link TERM_RELATION_ATTRIBUTES}. */
export type TermRelationAttribute = typeof TERM_RELATION_ATTRIBUTES[number];

/** The glossary a term or category belongs to. */
export interface AtlasGlossaryHeader {
  /** GUID of the glossary. */
  glossaryGuid?: string;
  /** GUID of the anchor relationship that ties the object to the glossary. */
  relationGuid?: string;
  /** Name of the glossary. */
  displayText?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A term as another object lists it (glossary terms, related terms, category terms). */
export interface AtlasRelatedTermHeader {
  /** GUID of the related term. */
  termGuid?: string;
  /** GUID of the relationship between the two terms. */
  relationGuid?: string;
  /** Name of the related term. */
  displayText?: string;
  /** Description of the relationship. */
  description?: string;
  /** Expression of the relationship, when the relationship type uses one. */
  expression?: string;
  /** Status of the relationship (`DRAFT`, `ACTIVE`, `DEPRECATED`, `OBSOLETE`, `OTHER`). */
  status?: string;
  /** Steward of the relationship. */
  steward?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A category as another object lists it (glossary categories, parent, children). */
export interface AtlasRelatedCategoryHeader {
  /** GUID of the category. */
  categoryGuid?: string;
  /** GUID of the category's parent, for a nested category. */
  parentCategoryGuid?: string;
  /** GUID of the relationship that lists the category. */
  relationGuid?: string;
  /** Name of the category. */
  displayText?: string;
  /** Description of the category. */
  description?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A category a term is in. */
export interface AtlasTermCategorizationHeader {
  /** GUID of the category. */
  categoryGuid?: string;
  /** GUID of the relationship that puts the term in the category. */
  relationGuid?: string;
  /** Name of the category. */
  displayText?: string;
  /** Description of the categorization. */
  description?: string;
  /** Status of the categorization relationship (`ACTIVE`, `DEPRECATED`, ...). */
  status?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** An entity (or term) as the other end of a relationship: a term's assigned entities. */
export interface AtlasRelatedObjectId {
  /** GUID of the entity. */
  guid?: string;
  /** Entity type name of the entity. */
  typeName?: string;
  /** Unique attributes of the entity, usually `{ qualifiedName }`. */
  uniqueAttributes?: Record<string, unknown>;
  /** Name of the entity. */
  displayText?: string;
  /** `ACTIVE` or `DELETED` status of the entity. */
  entityStatus?: string;
  /** Relationship type name that links the entity (`AtlasGlossarySemanticAssignment` for a term). */
  relationshipType?: string;
  /** Attributes of that relationship, with its type name. */
  relationshipAttributes?: { typeName?: string; attributes?: Record<string, unknown> };
  /** GUID of that relationship; needed to remove a term assignment. */
  relationshipGuid?: string;
  /** `ACTIVE` or `DELETED` status of that relationship. */
  relationshipStatus?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A contact of a term (an expert or steward): an identity id and free text. */
export interface ContactInfo {
  /** Entra ID object ID of the contact. */
  id?: string;
  /** Free text about the contact (their responsibility, for instance). */
  info?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** What every glossary object has. */
export interface AtlasGlossaryBase {
  /** GUID the service assigned; absent in a create request. */
  guid?: string;
  /** Unique name, such as `Revenue@Glossary` for a term; derived by the service when omitted. */
  qualifiedName?: string;
  /** Name of the glossary, term or category as people see it; part of its qualified name. */
  name?: string;
  /** One-line description. */
  shortDescription?: string;
  /** Full description or definition; may contain HTML. */
  longDescription?: string;
  /** Classifications attached to the object. */
  classifications?: AtlasClassification[];
  /** Opaque change marker (an ETag) of the object. */
  lastModifiedTS?: string;
  /** Epoch milliseconds of creation; set by the service. */
  createTime?: number;
  /** Who created the object; set by the service. */
  createdBy?: string;
  /** Epoch milliseconds of the last update; set by the service. */
  updateTime?: number;
  /** Who last updated the object; set by the service. */
  updatedBy?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A glossary with the headers of its terms and categories. */
export interface AtlasGlossary extends AtlasGlossaryBase {
  /** Language the glossary is written in. */
  language?: string;
  /** How the glossary is meant to be used. */
  usage?: string;
  /** Headers of the glossary's terms. */
  terms?: AtlasRelatedTermHeader[];
  /** Headers of the glossary's categories. */
  categories?: AtlasRelatedCategoryHeader[];
}

/** A glossary with every term and category in full (`GET /glossary/{id}/detailed`). */
export interface AtlasGlossaryExtInfo extends AtlasGlossary {
  /** Every term of the glossary in full, by GUID. */
  termInfo?: Record<string, AtlasGlossaryTerm>;
  /** Every category of the glossary in full, by GUID. */
  categoryInfo?: Record<string, AtlasGlossaryCategory>;
}

/** A category of a glossary; categories nest. */
export interface AtlasGlossaryCategory extends AtlasGlossaryBase {
  /** The glossary the category belongs to; required to create one. */
  anchor?: AtlasGlossaryHeader;
  /** The category this one is nested in, if any. */
  parentCategory?: AtlasRelatedCategoryHeader;
  /** The categories nested in this one. */
  childrenCategories?: AtlasRelatedCategoryHeader[];
  /** Headers of the terms in the category. */
  terms?: AtlasRelatedTermHeader[];
}

/** A business term. */
export interface AtlasGlossaryTerm extends AtlasGlossaryBase {
  /** The glossary the term belongs to; required to create one. */
  anchor?: AtlasGlossaryHeader;
  /** Lifecycle status; one of {@link TERM_STATUSES}. */
  status?: TermStatus | string;
  /** Abbreviation of the term (`ARR` for annual recurring revenue). */
  abbreviation?: string;
  /** Another name the term is known by. */
  nickName?: string;
  /** How the term is used. */
  usage?: string;
  /** Examples of the term's use. */
  examples?: string[];
  /** Names of the term templates whose attributes the term carries. */
  templateName?: unknown[];
  /** Links to material about the term, each with a display name and URL. */
  resources?: Array<{ displayName?: string; url?: string }>;
  /** Contacts by role (`Expert`, `Steward`). */
  contacts?: Record<string, ContactInfo[]>;
  /** Values of term template attributes: template name → attribute name → value. */
  attributes?: Record<string, Record<string, unknown>>;
  /** Parent terms of the term, when read with `includeTermHierarchy`. */
  hierarchyInfo?: Array<Record<string, unknown>>;
  /** Categories the term is in. */
  categories?: AtlasTermCategorizationHeader[];
  /** Entities the term is assigned to (its semantic assignments). */
  assignedEntities?: AtlasRelatedObjectId[];
  /** Terms worth reading alongside this one. */
  seeAlso?: AtlasRelatedTermHeader[];
  /** Terms that mean the same. */
  synonyms?: AtlasRelatedTermHeader[];
  /** Terms that mean the opposite. */
  antonyms?: AtlasRelatedTermHeader[];
  /** Terms to use instead of this one. */
  preferredTerms?: AtlasRelatedTermHeader[];
  /** Terms this one is preferred to. */
  preferredToTerms?: AtlasRelatedTermHeader[];
  /** Terms that replace this one. */
  replacementTerms?: AtlasRelatedTermHeader[];
  /** Terms this one is replaced by. */
  replacedBy?: AtlasRelatedTermHeader[];
  /** Translations of this term into other languages. */
  translationTerms?: AtlasRelatedTermHeader[];
  /** Terms this one is a translation of. */
  translatedTerms?: AtlasRelatedTermHeader[];
  /** Broader terms this one is a kind of. */
  isA?: AtlasRelatedTermHeader[];
  /** Narrower terms that are a kind of this one. */
  classifies?: AtlasRelatedTermHeader[];
  /** Terms that are valid values of this one. */
  validValues?: AtlasRelatedTermHeader[];
  /** Terms this one is a valid value of. */
  validValuesFor?: AtlasRelatedTermHeader[];
}

/** Related terms by relationship attribute (`GET /glossary/terms/{id}/related`). */
export type AtlasRelatedTerms = Partial<Record<TermRelationAttribute | string, AtlasRelatedTermHeader[]>>;

/** Related categories: `parent` and `children` (`GET /glossary/category/{id}/related`). */
export type AtlasRelatedCategories = Record<string, AtlasRelatedCategoryHeader[]>;

/** Status of a CSV import (the catalog contract's ImportCSVOperationStatus). */
export type ImportOperationStatus = "NotStarted" | "Running" | "Succeeded" | "Failed";

/** A CSV term import operation (the catalog contract's ImportCSVOperation). */
export interface ImportCsvOperation {
  /** Operation id; read the status with `GET /glossary/terms/import/{operationId}`. */
  id: string;
  /** Where the import stands; `Succeeded` and `Failed` are final. */
  status: ImportOperationStatus;
  /** When the import was accepted (an ISO 8601 date and time). */
  createTime?: string;
  /** When the status last changed (an ISO 8601 date and time). */
  lastUpdateTime?: string;
  /** Progress: terms imported so far and terms found in the file, both as decimal strings. */
  properties?: { importedTerms?: string; totalTermsDetected?: string; [field: string]: unknown };
  /**
   * Why the import failed, when `status` is `Failed`: the service writes `errorCode` (a number, 0 while
   * nothing failed) and `errorMessage` (Azure/azure-sdk-for-js
   * sdk/purview/purview-catalog-rest/recordings/browsers/purview_catalog_glossary_test/recording_should_work_with_lro_helper.json);
   * `code` and `message` are read too.
   */
  error?: {
    errorCode?: number;
    errorMessage?: string;
    code?: string;
    message?: string;
    [field: string]: unknown;
  };
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** Paging of list calls: `limit` (the service returns everything without one), `offset`, `sort` by name. */
export interface GlossaryPageOptions {
  /** Most items to return; without it the service returns all of them. */
  limit?: number;
  /** Items to skip before the first one returned. */
  offset?: number;
  /** ASC (the default) or DESC. */
  sort?: "ASC" | "DESC";
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** Options of term reads and writes. */
export interface TermOptions {
  /** Add each term's parent terms (`hierarchyInfo`). */
  includeTermHierarchy?: boolean;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** The query parameter of {@link TermOptions.includeTermHierarchy}, left out unless it is asked for. */
export function termHierarchyQuery(options: TermOptions): Record<string, QueryValue> {
  return { includeTermHierarchy: options.includeTermHierarchy || undefined };
}

/** Options of listing a glossary's terms. */
export interface ListTermsOptions extends GlossaryPageOptions, TermOptions {
  /** Ask for the service's extended information (contact display names, attribute values). */
  extInfo?: boolean;
}

/** Options of {@link GlossaryApi.importTermsAndWait}. */
export interface ImportWaitOptions extends TermOptions {
  /** Called with the operation after the upload and after every poll. */
  onProgress?(operation: ImportCsvOperation): void;
  /** Milliseconds between polls; 1000 by default. */
  pollMs?: number;
  /** Give up (TimeoutError) when the import has not finished after this many milliseconds; 10 min. */
  timeoutMs?: number;
}

/** What {@link GlossaryApi.removeTermFromEntities} did. */
export interface TermRemoval {
  /** The assignments removed, with their relationship GUIDs. */
  removed: AtlasRelatedObjectId[];
  /** Entities given that did not carry the term; nothing was sent for them. */
  notAssigned: string[];
}

/** True once an import operation will change no more. */
export function isFinished(operation: ImportCsvOperation): boolean {
  return operation.status === "Succeeded" || operation.status === "Failed";
}
