/**
 * Writing the relations of glossary objects from a request body, as the service does on create and full
 * update: a term's related terms (seeAlso, synonyms, isA…) and categories, a category's terms, parent and
 * children. The lists in a body replace what was there; a list left out means none, as in Atlas's full
 * update. Every referenced object must exist (404), a term cannot relate to itself (400), and a category
 * cannot become its own ancestor (400).
 *
 * @example
 * ```ts
 * import { TERM_RELATION_INVERSES } from "./model.ts";
 * console.log(TERM_RELATION_INVERSES.isA); // "classifies"
 * ```
 *
 * @module
 */
import type { JsonObject } from "../entity/model.ts";
import { isObject } from "../entity/model.ts";
import { EmulatorError } from "../errors.ts";
import {
  arrayField,
  CATEGORIZATION,
  referenceGuid,
  relationToSelf,
  type StoredCategory,
  type StoredRelation,
  type StoredTerm,
  TERM_RELATION_ATTRIBUTES,
  TERM_RELATION_INVERSES,
} from "./model.ts";
import type { GlossaryViews } from "./views.ts";

/** One reference of a body list: the object's guid and the relationship attributes given with it. */
interface Reference {
  guid: string;
  attributes: JsonObject;
}

/** The references of a body list field, each with a guid under `key`; undefined when the field is absent. */
function references(body: JsonObject, field: string, key: string, keep: string[]): Reference[] | undefined {
  const items = arrayField(body, field);
  if (items === undefined) return undefined;
  const seen = new Map<string, Reference>();
  items.forEach((item, i) => {
    const guid = referenceGuid(item, key);
    if (!guid) {
      throw EmulatorError.invalidParameters(`${field}[${i}].${key} is required`, `${field}[${i}].${key}`);
    }
    const attributes: JsonObject = {};
    for (const name of keep) {
      const value = isObject(item) ? item[name] : undefined;
      if (value !== undefined && value !== null) attributes[name] = value;
    }
    seen.set(guid, { guid, attributes });
  });
  return [...seen.values()];
}

/** Sets the related terms of every attribute the body lists (or clears them when `replaceAll`). */
export function writeTermRelations(
  views: GlossaryViews,
  term: StoredTerm,
  body: JsonObject,
  now: number,
  replaceAll: boolean,
): void {
  const store = views.glossaries;
  for (const attribute of Object.keys(TERM_RELATION_INVERSES)) {
    const wanted = references(body, attribute, "termGuid", TERM_RELATION_ATTRIBUTES);
    if (wanted === undefined && !replaceAll) continue;
    const inverse = TERM_RELATION_INVERSES[attribute];
    const existing = store.relationsOf(term.guid).filter((r) =>
      (r.kind === `term:${attribute}` && r.end1 === term.guid) ||
      (r.kind === `term:${inverse}` && r.end2 === term.guid)
    );
    const other = (r: StoredRelation) => (r.end1 === term.guid ? r.end2 : r.end1);
    const keep = new Map((wanted ?? []).map((ref) => [ref.guid, ref]));
    for (const relation of existing) {
      const ref = keep.get(other(relation));
      if (!ref) store.deleteRelation(relation.guid);
      else {
        if (Object.keys(ref.attributes).length > 0) {
          store.putRelation({ ...relation, attributes: ref.attributes });
        }
        keep.delete(ref.guid);
      }
    }
    for (const ref of keep.values()) {
      if (ref.guid === term.guid) throw relationToSelf();
      views.term(ref.guid);
      store.putRelation(relation(`term:${attribute}`, term.guid, ref.guid, ref.attributes, now));
    }
  }
}

/** Sets the categories of a term from the body's `categories` (or clears them when `replaceAll`). */
export function writeTermCategories(
  views: GlossaryViews,
  term: StoredTerm,
  body: JsonObject,
  now: number,
  replaceAll: boolean,
): void {
  const wanted = references(body, "categories", "categoryGuid", ["description", "status"]);
  if (wanted === undefined && !replaceAll) return;
  const store = views.glossaries;
  const keep = new Map((wanted ?? []).map((ref) => [ref.guid, ref]));
  for (const existing of store.relationsOf(term.guid, CATEGORIZATION)) {
    if (!keep.delete(existing.end2)) store.deleteRelation(existing.guid);
  }
  for (const ref of keep.values()) {
    views.category(ref.guid);
    store.putRelation(relation(CATEGORIZATION, term.guid, ref.guid, ref.attributes, now));
  }
}

/** Sets the terms of a category from the body's `terms` (or clears them when `replaceAll`). */
export function writeCategoryTerms(
  views: GlossaryViews,
  category: StoredCategory,
  body: JsonObject,
  now: number,
  replaceAll: boolean,
): void {
  const wanted = references(body, "terms", "termGuid", ["description", "status"]);
  if (wanted === undefined && !replaceAll) return;
  const store = views.glossaries;
  const keep = new Map((wanted ?? []).map((ref) => [ref.guid, ref]));
  for (const existing of store.relationsOf(category.guid, CATEGORIZATION)) {
    if (!keep.delete(existing.end1)) store.deleteRelation(existing.guid);
  }
  for (const ref of keep.values()) {
    views.term(ref.guid);
    store.putRelation(relation(CATEGORIZATION, ref.guid, category.guid, ref.attributes, now));
  }
}

/**
 * The parent a body gives a category (`parentCategory.categoryGuid`): it must exist, belong to the same
 * glossary and not be the category itself or one of its descendants. Undefined when the body gives none.
 */
export function parentFromBody(
  views: GlossaryViews,
  category: StoredCategory,
  body: JsonObject,
): string | undefined {
  const parentGuid = referenceGuid(body.parentCategory, "categoryGuid");
  if (!parentGuid) return undefined;
  const parent = views.category(parentGuid);
  if (parent.glossaryGuid !== category.glossaryGuid) {
    throw EmulatorError.invalidParameters(
      `parent category ${parentGuid} belongs to another glossary`,
      "parentCategory",
    );
  }
  checkNoCycle(views, category.guid, parentGuid);
  return parentGuid;
}

/** Makes the body's `childrenCategories` the category's children (or none when `replaceAll`). */
export function writeChildren(
  views: GlossaryViews,
  category: StoredCategory,
  body: JsonObject,
  replaceAll: boolean,
): void {
  const wanted = references(body, "childrenCategories", "categoryGuid", []);
  if (wanted === undefined && !replaceAll) return;
  const store = views.glossaries;
  const keep = new Set((wanted ?? []).map((ref) => ref.guid));
  for (const child of store.children(category.guid)) {
    if (keep.delete(child.guid)) continue;
    const { parentGuid: _, parentRelationGuid: __, ...orphan } = child;
    store.putCategory(orphan, () => views.categoryQualifiedName(orphan));
  }
  for (const childGuid of keep) {
    const child = views.category(childGuid);
    if (child.glossaryGuid !== category.glossaryGuid) {
      throw new EmulatorError(
        400,
        "ATLAS-400-00-07F",
        `Invalid child category relationship: Child category (guid = ${childGuid}) belongs to different glossary`,
      );
    }
    checkNoCycle(views, childGuid, category.guid);
    const moved = { ...child, parentGuid: category.guid, parentRelationGuid: crypto.randomUUID() };
    store.putCategory(moved, () => views.categoryQualifiedName(moved));
  }
}

/** 400 when making `parentGuid` the parent of `childGuid` would close a loop. */
function checkNoCycle(views: GlossaryViews, childGuid: string, parentGuid: string): void {
  const seen = new Set<string>();
  for (let at: string | undefined = parentGuid; at && !seen.has(at);) {
    if (at === childGuid) {
      throw EmulatorError.invalidParameters(
        `category ${childGuid} cannot be placed under itself or one of its descendants`,
        "parentCategory",
      );
    }
    seen.add(at);
    at = views.glossaries.category(at)?.parentGuid;
  }
}

/** A new relation row with a fresh guid. */
export function relation(
  kind: string,
  end1: string,
  end2: string,
  attributes: JsonObject,
  now: number,
): StoredRelation {
  return { guid: crypto.randomUUID(), kind, end1, end2, attributes, createTime: now };
}
