/**
 * Glossaries and terms of the glossary API (`/atlas/v2/glossary`) as search documents. On the service the
 * discovery query finds them beside assets, as the contract's Discovery_Query_GlossaryTerm and
 * Discovery_Query_ObjectType examples show: object type `Glossary terms`, `glossaryType` `AtlasGlossary`
 * or `AtlasGlossaryTerm`, the term's `glossary`, `longDescription`, `termStatus` and `termTemplate`, and
 * the qualified name the service derives (`<term>@<glossary>` for a term, the name for a glossary).
 *
 * Each object is described as the entity the service keeps it as (type AtlasGlossary or
 * AtlasGlossaryTerm), so `entityType` filters, attribute filters (`name`, `status`, `abbreviation`, ...),
 * classifications and contacts work on them like on any other document. Categories are not searchable
 * here: no contract example shows a category hit.
 *
 * @example
 * ```ts
 * import { termDocument } from "./glossary.ts";
 * const term = { guid: "t1", name: "Revenue", glossaryGuid: "g1", anchorRelationGuid: "r1", status: "Approved",
 *   createTime: 0, updateTime: 0, createdBy: "emulator", updatedBy: "emulator", lastModifiedTS: "1" };
 * const document = termDocument(term, "Finance");
 * console.log(document.qualifiedName, document.objectType); // "Revenue@Finance" "Glossary terms"
 * ```
 *
 * @module
 */
import { type AtlasEntity, isObject, type JsonObject } from "../entity/model.ts";
import type { StoredGlossary, StoredObject, StoredTerm } from "../glossary/model.ts";
import { type SearchDocument, toSearchDocument } from "./document.ts";

/** The type names search reports for glossary objects (`glossaryType`, and `entityType` for filters). */
export const GLOSSARY_TYPE = "AtlasGlossary";
/** See {@link GLOSSARY_TYPE}. */
export const TERM_TYPE = "AtlasGlossaryTerm";

// Plain string fields of glossary objects that are also attributes of their Atlas types.
const STRING_ATTRIBUTES = [
  "shortDescription",
  "longDescription",
  "language",
  "usage",
  "abbreviation",
  "status",
];

/** The search document of a glossary. */
export function glossaryDocument(glossary: StoredGlossary): SearchDocument {
  return documentOf(glossary, GLOSSARY_TYPE, glossary.name);
}

/** The search document of a term of the glossary named `glossaryName`. */
export function termDocument(term: StoredTerm, glossaryName: string): SearchDocument {
  const document = documentOf(term, TERM_TYPE, `${term.name}@${glossaryName}`);
  document.termTemplate = templatesOf(term);
  return document;
}

function documentOf(object: StoredObject, typeName: string, qualifiedName: string): SearchDocument {
  const attributes: AtlasEntity["attributes"] = { qualifiedName, name: object.name };
  for (const field of STRING_ATTRIBUTES) {
    if (typeof object[field] === "string" && object[field] !== "") attributes[field] = object[field];
  }
  const entity: AtlasEntity = {
    guid: object.guid,
    typeName,
    attributes,
    status: "ACTIVE",
    createTime: object.createTime,
    updateTime: object.updateTime,
    createdBy: object.createdBy,
    updatedBy: object.updatedBy,
    version: 0,
    lastModifiedTS: object.lastModifiedTS,
  };
  if (Array.isArray(object.classifications)) entity.classifications = object.classifications.filter(isObject);
  if (isObject(object.contacts)) entity.contacts = object.contacts;
  const document = toSearchDocument(entity);
  document.description = typeof attributes.shortDescription === "string" ? attributes.shortDescription : null;
  if (typeof attributes.longDescription === "string") document.longDescription = attributes.longDescription;
  document.glossaryRecord = true;
  return document;
}

/**
 * The term templates a term uses: the names in `templateName`, and the groups of its `attributes` (term
 * template values are kept per template, as in the contract's Glossary_CreateTermWithTemplate example).
 */
function templatesOf(term: StoredTerm): string[] {
  const names = new Set<string>();
  if (Array.isArray(term.templateName)) {
    for (const name of term.templateName) if (typeof name === "string" && name !== "") names.add(name);
  }
  const attributes = term.attributes as JsonObject | undefined;
  if (isObject(attributes)) {
    for (const [name, values] of Object.entries(attributes)) if (isObject(values)) names.add(name);
  }
  return [...names];
}
