/**
 * Creating, updating and deleting glossaries, categories and terms, each in one transaction: the object,
 * its relations and (for terms) the entities it is assigned to change together or not at all.
 *
 * Full updates (PUT) replace the caller-set fields and the relation lists, as Atlas does; partial updates
 * change single attributes given as strings. Deleting a glossary deletes its terms and categories, and is
 * refused, like deleting a term, while one of its terms is assigned to an entity.
 *
 * @example
 * ```ts
 * import { GlossaryWriter } from "./writes.ts";
 * // const writer = new GlossaryWriter(deps, views);
 * // const glossary = writer.createGlossary({ name: "Finance" });
 * console.log(typeof GlossaryWriter); // "function"
 * ```
 *
 * @module
 */
import type { AreaDependencies } from "../area.ts";
import { isObject, type JsonObject } from "../entity/model.ts";
import { EmulatorError } from "../errors.ts";
import { dropAssignments, refreshMeanings } from "./assignments.ts";
import {
  asBodyObject,
  CATEGORY_FIELDS,
  GLOSSARY_FIELDS,
  invalidPartialAttribute,
  missingAnchor,
  missingName,
  newObject,
  PARTIAL_FIELDS,
  readFields,
  referenceGuid,
  replaceFields,
  type StoredCategory,
  type StoredGlossary,
  type StoredObject,
  type StoredTerm,
  TERM_FIELDS,
  termHasAssignments,
  touched,
} from "./model.ts";
import {
  parentFromBody,
  writeCategoryTerms,
  writeChildren,
  writeTermCategories,
  writeTermRelations,
} from "./relations.ts";
import type { GlossaryViews } from "./views.ts";

/** Which kind of object a partial update changes. */
export type GlossaryKind = keyof typeof PARTIAL_FIELDS;

/** Writes glossary objects; every public method is one transaction. */
export class GlossaryWriter {
  readonly #deps: AreaDependencies;
  readonly #views: GlossaryViews;

  constructor(deps: AreaDependencies, views: GlossaryViews) {
    this.#deps = deps;
    this.#views = views;
  }

  #atomically<T>(work: (now: number) => T): T {
    const now = this.#deps.now();
    return this.#deps.store.transaction(() => work(now));
  }

  // ---- Glossaries -----------------------------------------------------------------------------------

  createGlossary(body: unknown): StoredGlossary {
    const object = asBodyObject(body, "AtlasGlossary");
    const fields = readFields(object, GLOSSARY_FIELDS, "glossary");
    const name = requiredName(fields, object, "glossary");
    return this.#atomically((now) => {
      const glossary = { ...fields, ...newObject(crypto.randomUUID(), name, now) };
      this.#views.glossaries.putGlossary(glossary);
      return glossary;
    });
  }

  updateGlossary(guid: string, body: unknown): StoredGlossary {
    const existing = this.#views.glossary(guid);
    const fields = readFields(asBodyObject(body, "AtlasGlossary"), GLOSSARY_FIELDS, "glossary");
    return this.#atomically((now) => {
      const glossary = touched(replaceFields(existing, fields, GLOSSARY_FIELDS), now);
      this.#views.glossaries.putGlossary(glossary);
      return glossary;
    });
  }

  /** Deletes the glossary with its terms and categories; refused while a term is assigned. */
  deleteGlossary(guid: string): void {
    this.#views.glossary(guid);
    const store = this.#views.glossaries;
    const terms = store.terms(guid);
    for (const term of terms) this.#checkUnassigned(term);
    this.#atomically(() => {
      for (const term of terms) this.#removeTerm(term);
      for (const category of store.categories(guid)) this.#removeCategory(category);
      store.deleteGlossary(guid);
    });
  }

  // ---- Categories -----------------------------------------------------------------------------------

  createCategories(bodies: unknown[]): StoredCategory[] {
    return this.#atomically((now) => bodies.map((body) => this.#createCategory(body, now)));
  }

  #createCategory(body: unknown, now: number): StoredCategory {
    const object = asBodyObject(body, "AtlasGlossaryCategory");
    const fields = readFields(object, CATEGORY_FIELDS, "category");
    const name = requiredName(fields, object, "category");
    const glossaryGuid = anchorGuid(this.#views, object);
    let category: StoredCategory = {
      ...fields,
      ...newObject(crypto.randomUUID(), name, now),
      glossaryGuid,
      anchorRelationGuid: crypto.randomUUID(),
    };
    const parentGuid = parentFromBody(this.#views, category, object);
    if (parentGuid) category = { ...category, parentGuid, parentRelationGuid: crypto.randomUUID() };
    this.#putCategory(category);
    writeChildren(this.#views, category, object, false);
    writeCategoryTerms(this.#views, category, object, now, false);
    return category;
  }

  updateCategory(guid: string, body: unknown): StoredCategory {
    const existing = this.#views.category(guid);
    const object = asBodyObject(body, "AtlasGlossaryCategory");
    const fields = readFields(object, CATEGORY_FIELDS, "category");
    checkSameAnchor(existing, object);
    return this.#atomically((now) => {
      const { parentGuid: _, parentRelationGuid: __, ...rest } = existing;
      let category: StoredCategory = touched(replaceFields(rest, fields, CATEGORY_FIELDS), now);
      const parentGuid = parentFromBody(this.#views, category, object);
      if (parentGuid) {
        const parentRelationGuid = parentGuid === existing.parentGuid
          ? existing.parentRelationGuid
          : crypto.randomUUID();
        category = { ...category, parentGuid, parentRelationGuid };
      }
      this.#putCategory(category);
      writeChildren(this.#views, category, object, true);
      writeCategoryTerms(this.#views, category, object, now, true);
      return category;
    });
  }

  deleteCategory(guid: string): void {
    const category = this.#views.category(guid);
    this.#atomically(() => this.#removeCategory(category));
  }

  #putCategory(category: StoredCategory): void {
    this.#views.glossaries.putCategory(category, () => this.#views.categoryQualifiedName(category));
  }

  #removeCategory(category: StoredCategory): void {
    const store = this.#views.glossaries;
    for (const relation of store.relationsOf(category.guid)) store.deleteRelation(relation.guid);
    // Children move up a level (a sibling of the same name there is a 409, and nothing is deleted).
    for (const child of store.children(category.guid)) {
      const { parentGuid: _, parentRelationGuid: __, ...moved } = child;
      this.#putCategory(
        category.parentGuid
          ? { ...moved, parentGuid: category.parentGuid, parentRelationGuid: crypto.randomUUID() }
          : moved,
      );
    }
    store.deleteCategory(category.guid);
  }

  // ---- Terms ----------------------------------------------------------------------------------------

  createTerms(bodies: unknown[]): StoredTerm[] {
    return this.#atomically((now) => bodies.map((body) => this.#createTerm(body, now)));
  }

  #createTerm(body: unknown, now: number): StoredTerm {
    const object = asBodyObject(body, "AtlasGlossaryTerm");
    const fields = readFields(object, TERM_FIELDS, "term");
    const name = requiredName(fields, object, "term");
    const term: StoredTerm = {
      status: "Draft",
      ...fields,
      ...newObject(crypto.randomUUID(), name, now),
      glossaryGuid: anchorGuid(this.#views, object),
      anchorRelationGuid: crypto.randomUUID(),
    };
    const parentTermGuid = this.#parentTerm(term, object);
    if (parentTermGuid) term.parentTermGuid = parentTermGuid;
    this.#putTerm(term);
    writeTermRelations(this.#views, term, object, now, false);
    writeTermCategories(this.#views, term, object, now, false);
    return term;
  }

  updateTerm(guid: string, body: unknown): StoredTerm {
    const existing = this.#views.term(guid);
    const object = asBodyObject(body, "AtlasGlossaryTerm");
    const fields = readFields(object, TERM_FIELDS, "term");
    checkSameAnchor(existing, object);
    return this.#atomically((now) => {
      const term = touched(replaceFields(existing, fields, TERM_FIELDS), now);
      term.status = fields.status ?? existing.status;
      if (Array.isArray(object.hierarchyInfo)) {
        delete term.parentTermGuid;
        const parentTermGuid = this.#parentTerm(term, object);
        if (parentTermGuid) term.parentTermGuid = parentTermGuid;
      }
      this.#putTerm(term);
      writeTermRelations(this.#views, term, object, now, true);
      writeTermCategories(this.#views, term, object, now, true);
      if (term.name !== existing.name) refreshMeanings(this.#deps, this.#views, term);
      return term;
    });
  }

  deleteTerm(guid: string): void {
    const term = this.#views.term(guid);
    this.#checkUnassigned(term);
    this.#atomically(() => this.#removeTerm(term));
  }

  /**
   * Deletes a term for a bulk delete and returns how many terms went. With `children`, the terms below it
   * (by parent term, at any depth) go too; without, they stay, without a parent. A term still assigned to
   * entities (it or one of those children) is refused unless `assignments`, which removes the
   * assignments. All or nothing for this term.
   */
  deleteTermWith(guid: string, options: { children: boolean; assignments: boolean }): number {
    const term = this.#views.term(guid);
    const doomed = options.children ? [...this.#descendants(term), term] : [term];
    if (!options.assignments) { for (const each of doomed) this.#checkUnassigned(each); }
    this.#atomically(() => {
      for (const each of doomed) this.#removeTerm(each);
    });
    return doomed.length;
  }

  /** The terms below `term`, deepest first. */
  #descendants(term: StoredTerm): StoredTerm[] {
    const all = this.#views.glossaries.terms(term.glossaryGuid);
    const found: StoredTerm[] = [];
    const visit = (parent: StoredTerm, seen: Set<string>) => {
      for (const child of all) {
        if (child.parentTermGuid !== parent.guid || seen.has(child.guid)) continue;
        seen.add(child.guid);
        visit(child, seen);
        found.push(child);
      }
    };
    visit(term, new Set([term.guid]));
    return found;
  }

  #putTerm(term: StoredTerm): void {
    this.#views.glossaries.putTerm(term, () => this.#views.termQualifiedName(term));
  }

  #checkUnassigned(term: StoredTerm): void {
    const count = this.#views.activeAssignments(term.guid).length;
    if (count > 0) throw termHasAssignments(term.guid, count);
  }

  #removeTerm(term: StoredTerm): void {
    const store = this.#views.glossaries;
    dropAssignments(this.#deps, this.#views, term.guid);
    for (const relation of store.relationsOf(term.guid)) store.deleteRelation(relation.guid);
    for (const child of store.terms(term.glossaryGuid)) {
      if (child.parentTermGuid !== term.guid) continue;
      const { parentTermGuid: _, ...orphan } = child;
      this.#putTerm(orphan);
    }
    store.deleteTerm(term.guid);
  }

  /**
   * The parent term a body names: the last entry of `hierarchyInfo` (the ancestors, root first), by guid
   * or by name within the term's glossary. Undefined when there is none.
   */
  #parentTerm(term: StoredTerm, body: JsonObject): string | undefined {
    const chain = Array.isArray(body.hierarchyInfo) ? body.hierarchyInfo.filter(isObject) : [];
    const last = chain.at(-1);
    if (!last) return undefined;
    const parent = typeof last.guid === "string" && last.guid !== ""
      ? this.#views.term(last.guid)
      : typeof last.name === "string"
      ? this.#views.glossaries.termByName(term.glossaryGuid, last.name)
      : undefined;
    if (!parent) {
      throw EmulatorError.invalidParameters("hierarchyInfo names no existing term", "hierarchyInfo");
    }
    if (parent.glossaryGuid !== term.glossaryGuid || parent.guid === term.guid) {
      throw EmulatorError.invalidParameters(
        "the parent term must be another term of the same glossary",
        "hierarchyInfo",
      );
    }
    return parent.guid;
  }

  // ---- Partial updates ------------------------------------------------------------------------------

  /** Sets single attributes (a JSON object of attribute name to string value). */
  partialUpdate(kind: GlossaryKind, guid: string, body: unknown): StoredObject {
    const existing: StoredObject = kind === "glossary"
      ? this.#views.glossary(guid)
      : kind === "category"
      ? this.#views.category(guid)
      : this.#views.term(guid);
    const updates = asBodyObject(body, "attribute name to value");
    if (Object.keys(updates).length === 0) throw EmulatorError.badRequest("PartialUpdates missing or empty");
    const allowed: readonly string[] = PARTIAL_FIELDS[kind];
    for (const [attribute, value] of Object.entries(updates)) {
      if (!allowed.includes(attribute)) throw invalidPartialAttribute(attribute, kind);
      if (typeof value !== "string") {
        throw new EmulatorError(
          400,
          "ATLAS-400-00-075",
          `Invalid attrVal for partial update of ${kind}, expected = string found ${typeof value}`,
        );
      }
    }
    const spec = kind === "glossary" ? GLOSSARY_FIELDS : kind === "category" ? CATEGORY_FIELDS : TERM_FIELDS;
    const fields = readFields(updates, spec, kind);
    return this.#atomically((now) => {
      const next = touched({ ...existing, ...fields }, now);
      if (kind === "glossary") this.#views.glossaries.putGlossary(next);
      else if (kind === "category") this.#putCategory(next as StoredCategory);
      else {
        this.#putTerm(next as StoredTerm);
        if (next.name !== existing.name) refreshMeanings(this.#deps, this.#views, next as StoredTerm);
      }
      return next;
    });
  }
}

function requiredName(fields: JsonObject, body: JsonObject, kind: "glossary" | "term" | "category"): string {
  const name = typeof fields.name === "string" ? fields.name.trim() : "";
  if (name === "") throw missingName(kind);
  if (body.qualifiedName !== undefined && typeof body.qualifiedName !== "string") {
    throw EmulatorError.invalidParameters(`${kind}.qualifiedName must be a string`, "qualifiedName");
  }
  return name;
}

/** The glossary a new category or term is anchored in; it must exist. */
function anchorGuid(views: GlossaryViews, body: JsonObject): string {
  const guid = referenceGuid(body.anchor, "glossaryGuid");
  if (!guid) throw missingAnchor();
  return views.glossary(guid).guid;
}

/** Moving a term or category to another glossary is not supported, as in Atlas. */
function checkSameAnchor(existing: { glossaryGuid: string }, body: JsonObject): void {
  const guid = referenceGuid(body.anchor, "glossaryGuid");
  if (guid && guid !== existing.glossaryGuid) {
    throw EmulatorError.invalidParameters("Anchor(glossary) change not supported", "anchor.glossaryGuid");
  }
}
