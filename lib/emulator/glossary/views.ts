/**
 * The glossary objects as the service returns them (AtlasGlossary, AtlasGlossaryExtInfo,
 * AtlasGlossaryCategory, AtlasGlossaryTerm and their headers), built from the stored objects and their
 * relation rows. Qualified names are derived as the service derives them: a glossary's is its name, a
 * term's `<term>@<glossary>`, a category's `<category>.<parent>…@<glossary>`.
 *
 * Assignments to entities that were deleted are left out everywhere: deleting an entity ends its
 * relationships on the service.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { GlossaryStore } from "./store.ts";
 * import { GlossaryViews } from "./views.ts";
 * const entities = EntityStore.open();
 * const views = new GlossaryViews(GlossaryStore.for(entities.database), entities);
 * console.log(views.glossaries.glossaries().length); // 0
 * entities.close();
 * ```
 *
 * @module
 */
import type { JsonObject } from "../entity/model.ts";
import { EmulatorError } from "../errors.ts";
import {
  ASSIGNMENT,
  CATEGORIZATION,
  CATEGORY_FIELDS,
  type FieldKind,
  GLOSSARY_FIELDS,
  type StoredCategory,
  type StoredGlossary,
  type StoredObject,
  type StoredRelation,
  type StoredTerm,
  TERM_FIELDS,
  TERM_RELATION_ATTRIBUTES,
  TERM_RELATION_INVERSES,
} from "./model.ts";
import type { GlossaryStore } from "./store.ts";
import type { EntityStore } from "../store.ts";

/** Options of a term view. */
export interface TermViewOptions {
  /** Add `hierarchyInfo`: the parent terms, root first (`includeTermHierarchy=true`). */
  hierarchy?: boolean;
  /** Leave out `assignedEntities` (`excludeRelationshipTypes=AtlasGlossarySemanticAssignment`). */
  withoutAssignments?: boolean;
}

const SEMANTIC_ASSIGNMENT = "AtlasGlossarySemanticAssignment";
const ASSIGNMENT_ATTRIBUTES = [
  "expression",
  "createdBy",
  "steward",
  "confidence",
  "description",
  "source",
  "status",
];

/** Reads glossary objects the way the service answers them. */
export class GlossaryViews {
  readonly glossaries: GlossaryStore;
  readonly entities: EntityStore;

  constructor(glossaries: GlossaryStore, entities: EntityStore) {
    this.glossaries = glossaries;
    this.entities = entities;
  }

  // ---- Lookups that answer 404 ----------------------------------------------------------------------

  glossary(guid: string): StoredGlossary {
    const found = this.glossaries.glossary(guid);
    if (!found) throw EmulatorError.guidNotFound(guid);
    return found;
  }

  term(guid: string): StoredTerm {
    const found = this.glossaries.term(guid);
    if (!found) throw EmulatorError.guidNotFound(guid);
    return found;
  }

  category(guid: string): StoredCategory {
    const found = this.glossaries.category(guid);
    if (!found) throw EmulatorError.guidNotFound(guid);
    return found;
  }

  // ---- Qualified names ------------------------------------------------------------------------------

  glossaryName(guid: string): string {
    return this.glossaries.glossary(guid)?.name ?? "";
  }

  termQualifiedName(term: { name: string; glossaryGuid: string }): string {
    return `${term.name}@${this.glossaryName(term.glossaryGuid)}`;
  }

  categoryQualifiedName(category: { name: string; glossaryGuid: string; parentGuid?: string }): string {
    const names = [category.name];
    const seen = new Set<string>();
    for (let parent = category.parentGuid; parent && !seen.has(parent);) {
      seen.add(parent);
      const found = this.glossaries.category(parent);
      if (!found) break;
      names.push(found.name);
      parent = found.parentGuid;
    }
    return `${names.join(".")}@${this.glossaryName(category.glossaryGuid)}`;
  }

  // ---- Headers --------------------------------------------------------------------------------------

  /** AtlasRelatedTermHeader of a term in its glossary (the anchor relation). */
  termHeader(term: StoredTerm): JsonObject {
    return { termGuid: term.guid, relationGuid: term.anchorRelationGuid, displayText: term.name };
  }

  /** AtlasRelatedCategoryHeader of a category in its glossary (the anchor relation). */
  categoryHeader(category: StoredCategory): JsonObject {
    const header: JsonObject = { categoryGuid: category.guid };
    if (category.parentGuid) header.parentCategoryGuid = category.parentGuid;
    return { ...header, relationGuid: category.anchorRelationGuid, displayText: category.name };
  }

  // ---- Objects --------------------------------------------------------------------------------------

  /** AtlasGlossary; `terms` and `categories` are left out when empty or when asked to. */
  glossaryView(glossary: StoredGlossary, options: { ignoreTermsAndCategories?: boolean } = {}): JsonObject {
    const view: JsonObject = {
      guid: glossary.guid,
      qualifiedName: glossary.name,
      ...ownFields(glossary, GLOSSARY_FIELDS),
      ...audit(glossary),
    };
    if (options.ignoreTermsAndCategories) return view;
    const terms = this.glossaries.terms(glossary.guid).map((t) => this.termHeader(t));
    const categories = this.glossaries.categories(glossary.guid).map((c) => this.categoryHeader(c));
    if (terms.length > 0) view.terms = terms;
    if (categories.length > 0) view.categories = categories;
    return view;
  }

  /** AtlasGlossaryExtInfo: the glossary with every term and category in full. */
  detailedView(glossary: StoredGlossary): JsonObject {
    const termInfo: JsonObject = {};
    for (const term of this.glossaries.terms(glossary.guid)) termInfo[term.guid] = this.termView(term);
    const categoryInfo: JsonObject = {};
    for (const category of this.glossaries.categories(glossary.guid)) {
      categoryInfo[category.guid] = this.categoryView(category);
    }
    return { ...this.glossaryView(glossary), termInfo, categoryInfo };
  }

  /** AtlasGlossaryCategory with its anchor, parent, children and terms. */
  categoryView(category: StoredCategory): JsonObject {
    const view: JsonObject = {
      guid: category.guid,
      qualifiedName: this.categoryQualifiedName(category),
      ...ownFields(category, CATEGORY_FIELDS),
      ...audit(category),
      anchor: this.anchor(category),
    };
    const parent = category.parentGuid ? this.glossaries.category(category.parentGuid) : undefined;
    if (parent) {
      view.parentCategory = {
        categoryGuid: parent.guid,
        relationGuid: category.parentRelationGuid,
        displayText: parent.name,
      };
    }
    const children = this.glossaries.children(category.guid).map((child) => ({
      categoryGuid: child.guid,
      parentCategoryGuid: category.guid,
      relationGuid: child.parentRelationGuid,
      displayText: child.name,
    }));
    if (children.length > 0) view.childrenCategories = children;
    const terms = this.categoryTerms(category);
    if (terms.length > 0) view.terms = terms;
    return view;
  }

  /** The terms of a category (AtlasRelatedTermHeader, relation guid of the categorization). */
  categoryTerms(category: StoredCategory): JsonObject[] {
    return this.glossaries.relationsOf(category.guid, CATEGORIZATION).flatMap((relation) => {
      const term = this.glossaries.term(relation.end1);
      return term ? [{ termGuid: term.guid, relationGuid: relation.guid, displayText: term.name }] : [];
    });
  }

  /** AtlasGlossaryTerm with its anchor, categories, related terms and assigned entities. */
  termView(term: StoredTerm, options: TermViewOptions = {}): JsonObject {
    const own = ownFields(term, TERM_FIELDS);
    const view: JsonObject = {
      guid: term.guid,
      qualifiedName: this.termQualifiedName(term),
      name: term.name,
      ...own,
      ...audit(term),
      anchor: this.anchor(term),
    };
    if (options.hierarchy) view.hierarchyInfo = this.hierarchyInfo(term);
    const categories = this.termCategories(term);
    if (categories.length > 0) view.categories = categories;
    Object.assign(view, this.relatedTerms(term));
    if (!options.withoutAssignments) {
      const assigned = this.assignedEntities(term);
      if (assigned.length > 0) view.assignedEntities = assigned;
    }
    return view;
  }

  /** AtlasTermCategorizationHeader of each category the term is in. */
  termCategories(term: StoredTerm): JsonObject[] {
    return this.glossaries.relationsOf(term.guid, CATEGORIZATION).flatMap((relation) => {
      const category = this.glossaries.category(relation.end2);
      if (!category) return [];
      return [{
        categoryGuid: category.guid,
        relationGuid: relation.guid,
        displayText: category.name,
        ...pick(relation.attributes, ["description", "status"]),
      }];
    });
  }

  /** The term's related terms by attribute (seeAlso, synonyms, isA…); attributes without any are left out. */
  relatedTerms(term: StoredTerm): Record<string, JsonObject[]> {
    const related: Record<string, JsonObject[]> = {};
    for (const relation of this.glossaries.relationsOf(term.guid)) {
      if (!relation.kind.startsWith("term:")) continue;
      const attribute = relation.kind.slice("term:".length);
      const fromEnd1 = relation.end1 === term.guid;
      const other = this.glossaries.term(fromEnd1 ? relation.end2 : relation.end1);
      if (!other) continue;
      const name = fromEnd1 ? attribute : TERM_RELATION_INVERSES[attribute];
      (related[name] ??= []).push({
        termGuid: other.guid,
        relationGuid: relation.guid,
        displayText: other.name,
        ...pick(relation.attributes, TERM_RELATION_ATTRIBUTES),
      });
    }
    return related;
  }

  /** Assignments of the term to entities that exist and are ACTIVE. */
  activeAssignments(termGuid: string): StoredRelation[] {
    return this.glossaries.relationsOf(termGuid, ASSIGNMENT).filter((relation) =>
      relation.end1 === termGuid && this.entities.get(relation.end2)?.status === "ACTIVE"
    );
  }

  /** AtlasRelatedObjectId of each entity the term is assigned to, as the contract's examples show them. */
  assignedEntities(term: StoredTerm): JsonObject[] {
    return this.activeAssignments(term.guid).map((relation) => {
      const entity = this.entities.get(relation.end2)!;
      const name = entity.attributes.name;
      const attributes: JsonObject = {};
      for (const key of ASSIGNMENT_ATTRIBUTES) attributes[key] = relation.attributes[key] ?? null;
      return {
        guid: entity.guid,
        typeName: entity.typeName,
        entityStatus: entity.status,
        displayText: typeof name === "string" && name !== "" ? name : entity.attributes.qualifiedName,
        relationshipType: SEMANTIC_ASSIGNMENT,
        relationshipGuid: relation.guid,
        relationshipStatus: "ACTIVE",
        relationshipAttributes: { typeName: SEMANTIC_ASSIGNMENT, attributes },
      };
    });
  }

  /** The parent terms, root first, as PurviewObjectIds. */
  hierarchyInfo(term: StoredTerm): JsonObject[] {
    const chain: JsonObject[] = [];
    const seen = new Set<string>([term.guid]);
    for (let parent = term.parentTermGuid; parent && !seen.has(parent);) {
      seen.add(parent);
      const found = this.glossaries.term(parent);
      if (!found) break;
      chain.unshift({
        guid: found.guid,
        typeName: "AtlasGlossaryTerm",
        name: found.name,
        displayText: found.name,
        uniqueAttributes: { qualifiedName: this.termQualifiedName(found) },
      });
      parent = found.parentTermGuid;
    }
    return chain;
  }

  /** AtlasGlossaryHeader of the glossary an object belongs to. */
  anchor(object: { glossaryGuid: string; anchorRelationGuid: string }): JsonObject {
    return {
      glossaryGuid: object.glossaryGuid,
      relationGuid: object.anchorRelationGuid,
      displayText: this.glossaryName(object.glossaryGuid),
    };
  }
}

/** The caller-set fields of a stored object, in the order of `spec`, name first. */
function ownFields(object: StoredObject, spec: Record<string, FieldKind>): JsonObject {
  const fields: JsonObject = { name: object.name };
  for (const key of Object.keys(spec)) {
    if (key !== "name" && object[key] !== undefined) fields[key] = structuredClone(object[key]);
  }
  return fields;
}

function audit(object: StoredObject): JsonObject {
  return {
    lastModifiedTS: object.lastModifiedTS,
    createdBy: object.createdBy,
    updatedBy: object.updatedBy,
    createTime: object.createTime,
    updateTime: object.updateTime,
  };
}

function pick(source: JsonObject, keys: string[]): JsonObject {
  const picked: JsonObject = {};
  for (const key of keys) if (source[key] !== undefined && source[key] !== null) picked[key] = source[key];
  return picked;
}
