/**
 * Shapes of the classic glossary as the 2023-09-01 data-map contract defines them (AtlasGlossary,
 * AtlasGlossaryExtInfo, AtlasGlossaryCategory, AtlasGlossaryTerm and their headers), and the catalog
 * contract's CSV import operation. Every object keeps an index signature: the service adds fields over
 * time, and a caller's fields must survive a read-modify-write.
 *
 * @module
 */
import type { AtlasClassification } from "./types.ts";

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
  glossaryGuid?: string;
  relationGuid?: string;
  displayText?: string;
  [field: string]: unknown;
}

/** A term as another object lists it (glossary terms, related terms, category terms). */
export interface AtlasRelatedTermHeader {
  termGuid?: string;
  relationGuid?: string;
  displayText?: string;
  description?: string;
  expression?: string;
  status?: string;
  steward?: string;
  [field: string]: unknown;
}

/** A category as another object lists it (glossary categories, parent, children). */
export interface AtlasRelatedCategoryHeader {
  categoryGuid?: string;
  parentCategoryGuid?: string;
  relationGuid?: string;
  displayText?: string;
  description?: string;
  [field: string]: unknown;
}

/** A category a term is in. */
export interface AtlasTermCategorizationHeader {
  categoryGuid?: string;
  relationGuid?: string;
  displayText?: string;
  description?: string;
  status?: string;
  [field: string]: unknown;
}

/** An entity (or term) as the other end of a relationship: a term's assigned entities. */
export interface AtlasRelatedObjectId {
  guid?: string;
  typeName?: string;
  uniqueAttributes?: Record<string, unknown>;
  displayText?: string;
  entityStatus?: string;
  relationshipType?: string;
  relationshipAttributes?: { typeName?: string; attributes?: Record<string, unknown> };
  relationshipGuid?: string;
  relationshipStatus?: string;
  [field: string]: unknown;
}

/** A contact of a term (an expert or steward): an identity id and free text. */
export interface ContactInfo {
  id?: string;
  info?: string;
  [field: string]: unknown;
}

/** What every glossary object has. */
export interface AtlasGlossaryBase {
  guid?: string;
  qualifiedName?: string;
  name?: string;
  shortDescription?: string;
  longDescription?: string;
  classifications?: AtlasClassification[];
  lastModifiedTS?: string;
  createTime?: number;
  createdBy?: string;
  updateTime?: number;
  updatedBy?: string;
  [field: string]: unknown;
}

/** A glossary with the headers of its terms and categories. */
export interface AtlasGlossary extends AtlasGlossaryBase {
  language?: string;
  usage?: string;
  terms?: AtlasRelatedTermHeader[];
  categories?: AtlasRelatedCategoryHeader[];
}

/** A glossary with every term and category in full (`GET /glossary/{id}/detailed`). */
export interface AtlasGlossaryExtInfo extends AtlasGlossary {
  termInfo?: Record<string, AtlasGlossaryTerm>;
  categoryInfo?: Record<string, AtlasGlossaryCategory>;
}

/** A category of a glossary; categories nest. */
export interface AtlasGlossaryCategory extends AtlasGlossaryBase {
  anchor?: AtlasGlossaryHeader;
  parentCategory?: AtlasRelatedCategoryHeader;
  childrenCategories?: AtlasRelatedCategoryHeader[];
  terms?: AtlasRelatedTermHeader[];
}

/** A business term. */
export interface AtlasGlossaryTerm extends AtlasGlossaryBase {
  anchor?: AtlasGlossaryHeader;
  status?: TermStatus | string;
  abbreviation?: string;
  nickName?: string;
  usage?: string;
  examples?: string[];
  templateName?: unknown[];
  resources?: Array<{ displayName?: string; url?: string }>;
  contacts?: Record<string, ContactInfo[]>;
  attributes?: Record<string, Record<string, unknown>>;
  hierarchyInfo?: Array<Record<string, unknown>>;
  categories?: AtlasTermCategorizationHeader[];
  assignedEntities?: AtlasRelatedObjectId[];
  seeAlso?: AtlasRelatedTermHeader[];
  synonyms?: AtlasRelatedTermHeader[];
  antonyms?: AtlasRelatedTermHeader[];
  preferredTerms?: AtlasRelatedTermHeader[];
  preferredToTerms?: AtlasRelatedTermHeader[];
  replacementTerms?: AtlasRelatedTermHeader[];
  replacedBy?: AtlasRelatedTermHeader[];
  translationTerms?: AtlasRelatedTermHeader[];
  translatedTerms?: AtlasRelatedTermHeader[];
  isA?: AtlasRelatedTermHeader[];
  classifies?: AtlasRelatedTermHeader[];
  validValues?: AtlasRelatedTermHeader[];
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
  id: string;
  status: ImportOperationStatus;
  createTime?: string;
  lastUpdateTime?: string;
  properties?: { importedTerms?: string; totalTermsDetected?: string; [field: string]: unknown };
  error?: { code?: string; message?: string; [field: string]: unknown };
  [field: string]: unknown;
}

/** Paging of list calls: `limit` (the service returns everything without one), `offset`, `sort` by name. */
export interface GlossaryPageOptions {
  limit?: number;
  offset?: number;
  /** ASC (the default) or DESC. */
  sort?: "ASC" | "DESC";
  signal?: AbortSignal;
}

/** Options of term reads and writes. */
export interface TermOptions {
  /** Add each term's parent terms (`hierarchyInfo`). */
  includeTermHierarchy?: boolean;
  signal?: AbortSignal;
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
