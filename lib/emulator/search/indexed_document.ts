/**
 * What one record puts into the search index: its row in `search_documents` and the weighted tokens the
 * postings list it under — every searchable field, weighted by field, for queries; names only, for suggest
 * and autocomplete.
 *
 * @module
 */
import type { AtlasEntity } from "../entity/model.ts";
import {
  type ContainerReference,
  containerReferences,
  type SearchDocument,
  toSearchDocument,
} from "./document.ts";
import { textTokens } from "./tokens.ts";

/**
 * How much a token counts in each field: a name says what an asset is; qualified names and descriptions
 * mention many things; tags are chosen words; business metadata values are often codes and people.
 */
export const FIELD_WEIGHTS = {
  name: 3,
  qualifiedName: 1,
  description: 1,
  tag: 1.5,
  businessMetadata: 0.5,
} as const;

/** A document ready to be stored: its search fields and what the postings list it under. */
export interface IndexedDocument {
  document: SearchDocument;
  containers: ContainerReference[] | undefined;
}

/** The columns of `search_documents` (after the slot) for one document. */
export function documentColumns(indexed: IndexedDocument): [string, string, string, string, string | null] {
  const { document, containers } = indexed;
  // An entity's document is stored without the entity itself, which the entities table already holds.
  const stored = document.glossaryRecord ? document : { ...document, entity: undefined };
  return [
    document.id,
    document.entityType.toLowerCase(),
    document.name.toLowerCase(),
    JSON.stringify(stored),
    containers && containers.length > 0 ? JSON.stringify(containers) : null,
  ];
}

/** What an entity puts into the index. */
export function indexedEntity(entity: AtlasEntity): IndexedDocument {
  return { document: toSearchDocument(entity), containers: containerReferences(entity) };
}

/** The name and, when it differs, the display name of a document. */
export function nameTexts(document: SearchDocument): string[] {
  const names = [document.name];
  if (document.displayName && document.displayName !== document.name) names.push(document.displayName);
  return names;
}

/** Distinct tokens of the name and display name (what suggest and autocomplete match). */
export function nameTokensOf(document: SearchDocument): string[] {
  return [...new Set(nameTexts(document).flatMap(textTokens))];
}

/** Every searchable text of a document with its field weight. */
export function searchableTexts(document: SearchDocument): Array<[text: string, weight: number]> {
  const texts: Array<[string, number]> = nameTexts(document).map((name) => [name, FIELD_WEIGHTS.name]);
  texts.push([document.qualifiedName, FIELD_WEIGHTS.qualifiedName]);
  if (document.description) texts.push([document.description, FIELD_WEIGHTS.description]);
  if (document.longDescription) texts.push([document.longDescription, FIELD_WEIGHTS.description]);
  for (const tag of [...document.classification, ...document.label, ...document.term.map((t) => t.name)]) {
    texts.push([tag, FIELD_WEIGHTS.tag]);
  }
  for (const value of Object.values(document.businessAttributes)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string" && item !== "") texts.push([item, FIELD_WEIGHTS.businessMetadata]);
    }
  }
  return texts;
}

/** Token → summed weight over every occurrence in every field (term frequency, weighted by field). */
export function weightedTokens(document: SearchDocument): Map<string, number> {
  const weights = new Map<string, number>();
  for (const [text, weight] of searchableTexts(document)) {
    for (const token of textTokens(text)) weights.set(token, (weights.get(token) ?? 0) + weight);
  }
  return weights;
}
