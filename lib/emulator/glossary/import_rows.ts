/**
 * The rows of a glossary term import file: which columns the emulator reads (the service's template —
 * Name, Nick Name, Status, Definition, Acronym, Resources, Related Terms, Synonyms, Stewards, Experts,
 * Parent Term Name, Term Template Names — plus the lower-case columns of the product spec: description,
 * short_description, examples), how each row is checked, and how the rows are written.
 *
 * Column names match case-insensitively, ignoring spaces, underscores and hyphens. List cells separate
 * values with `;`; resources and contacts are `<name or id>:<url or info>`. A file is imported as a whole
 * or not at all: any row error fails the operation with every error listed by line.
 *
 * @example
 * ```ts
 * import { columnKey, IMPORT_COLUMNS } from "./import_rows.ts";
 * console.log(IMPORT_COLUMNS[columnKey("Nick Name")]); // "nickName"
 * ```
 *
 * @module
 */
import type { JsonObject } from "../entity/model.ts";
import {
  type ImportRecord,
  type ImportRow,
  newObject,
  type StoredTerm,
  TERM_STATUSES,
  touched,
} from "./model.ts";
import { relation } from "./relations.ts";
import type { GlossaryViews } from "./views.ts";

/** Column (normalized with {@link columnKey}) → what it fills. Unknown columns are ignored. */
export const IMPORT_COLUMNS: Readonly<Record<string, string>> = {
  name: "name",
  nickname: "nickName",
  status: "status",
  definition: "longDescription",
  description: "description",
  shortdescription: "shortDescription",
  acronym: "abbreviation",
  abbreviation: "abbreviation",
  usage: "usage",
  examples: "examples",
  resources: "resources",
  relatedterms: "seeAlso",
  seealso: "seeAlso",
  synonyms: "synonyms",
  antonyms: "antonyms",
  stewards: "Steward",
  experts: "Expert",
  parenttermname: "parent",
  termtemplatenames: "templateName",
};

const RELATION_COLUMNS = ["seeAlso", "synonyms", "antonyms"];

/** `Nick Name`, `nick_name` and `NICKNAME` all become `nickname`. */
export function columnKey(header: string): string {
  return header.trim().toLowerCase().replace(/[\s_-]+/g, "");
}

/** A row error, by line. */
export interface RowError {
  line: number;
  message: string;
}

/** The row's cells by what they fill (`name`, `longDescription`, `Steward`…), trimmed, empty ones left out. */
function fieldsOf(row: ImportRow): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(row.cells)) {
    const field = IMPORT_COLUMNS[key];
    if (field && value.trim() !== "") fields[field] = value.trim();
  }
  // The basic term file's `description` column is the definition when the file has no Definition.
  if (fields.description !== undefined) {
    fields.longDescription ??= fields.description;
    delete fields.description;
  }
  return fields;
}

function list(cell: string | undefined): string[] {
  return (cell ?? "").split(";").map((item) => item.trim()).filter((item) => item !== "");
}

/** `Wiki:https://x` → ["Wiki", "https://x"]; a value without `:` is both. */
function pair(item: string): [string, string] {
  const at = item.indexOf(":");
  return at <= 0 ? [item, item] : [item.slice(0, at).trim(), item.slice(at + 1).trim()];
}

/** Every problem of the rows, given the names of the glossary's terms; empty when the file can be imported. */
export function checkRows(rows: ImportRow[], existing: Set<string>, hierarchy: boolean): RowError[] {
  const errors: RowError[] = [];
  const firstLine = new Map<string, number>();
  for (const row of rows) {
    const name = fieldsOf(row).name ?? "";
    if (name === "") errors.push({ line: row.line, message: "Name is empty" });
    else if (name.includes("@")) errors.push({ line: row.line, message: `Name "${name}" contains '@'` });
    else if (firstLine.has(name)) {
      errors.push({ line: row.line, message: `term "${name}" is also on line ${firstLine.get(name)}` });
    } else firstLine.set(name, row.line);
  }
  const known = (name: string) => existing.has(name) || firstLine.has(name);
  for (const row of rows) {
    const fields = fieldsOf(row);
    const status = fields.status;
    if (status !== undefined && !TERM_STATUSES.some((s) => s.toLowerCase() === status.toLowerCase())) {
      errors.push({
        line: row.line,
        message: `Status "${status}" is not one of ${TERM_STATUSES.join(", ")}`,
      });
    }
    for (const column of RELATION_COLUMNS) {
      for (const name of list(fields[column])) {
        if (!known(name)) {
          errors.push({ line: row.line, message: `${column} names an unknown term "${name}"` });
        }
      }
    }
    const parent = fields.parent;
    if (hierarchy && parent !== undefined && (!known(parent) || parent === fields.name)) {
      errors.push({
        line: row.line,
        message: `Parent Term Name "${parent}" is not another term of the glossary`,
      });
    }
  }
  return errors.sort((a, b) => a.line - b.line);
}

/**
 * Writes the rows of a checked import (call inside a transaction): a term whose name exists is updated
 * with the non-empty cells, any other is created; related terms are added to those the terms have.
 * Returns the number of terms written.
 */
export function applyRows(views: GlossaryViews, record: ImportRecord, now: number): number {
  const store = views.glossaries;
  const glossaryGuid = record.glossaryGuid;
  const written = new Map<string, StoredTerm>();
  for (const row of record.rows) {
    const fields = fieldsOf(row);
    const existing = store.termByName(glossaryGuid, fields.name);
    const term: StoredTerm = existing ? touched({ ...existing, ...termFields(fields) }, now) : {
      status: "Draft",
      ...termFields(fields),
      ...newObject(crypto.randomUUID(), fields.name, now),
      glossaryGuid,
      anchorRelationGuid: crypto.randomUUID(),
    };
    store.putTerm(term, () => views.termQualifiedName(term));
    written.set(term.name, term);
  }
  const byName = (name: string) => written.get(name) ?? store.termByName(glossaryGuid, name)!;
  for (const row of record.rows) {
    const fields = fieldsOf(row);
    const term = byName(fields.name);
    if (record.includeTermHierarchy && fields.parent !== undefined) {
      store.putTerm(
        { ...term, parentTermGuid: byName(fields.parent).guid },
        () => views.termQualifiedName(term),
      );
    }
    for (const attribute of RELATION_COLUMNS) {
      const present = new Set(views.relatedTerms(term)[attribute]?.map((h) => h.termGuid));
      for (const name of list(fields[attribute])) {
        const other = byName(name);
        if (other.guid === term.guid || present.has(other.guid)) continue;
        store.putRelation(relation(`term:${attribute}`, term.guid, other.guid, {}, now));
        present.add(other.guid);
      }
    }
  }
  return written.size;
}

/** The stored fields a row sets (only those with a value, so an update keeps the others). */
function termFields(fields: Record<string, string>): JsonObject {
  const term: JsonObject = {};
  for (const key of ["nickName", "longDescription", "shortDescription", "abbreviation", "usage"]) {
    if (fields[key] !== undefined) term[key] = fields[key];
  }
  if (fields.status !== undefined) {
    term.status = TERM_STATUSES.find((s) => s.toLowerCase() === fields.status.toLowerCase());
  }
  if (fields.examples !== undefined) term.examples = list(fields.examples);
  if (fields.templateName !== undefined) term.templateName = list(fields.templateName);
  if (fields.resources !== undefined) {
    term.resources = list(fields.resources).map((item) => {
      const [displayName, url] = pair(item);
      return { displayName, url };
    });
  }
  const contacts: Record<string, Array<{ id: string; info: string }>> = {};
  for (const role of ["Steward", "Expert"]) {
    if (fields[role] === undefined) continue;
    contacts[role] = list(fields[role]).map((item) => {
      const [id, info] = pair(item);
      return { id, info: info === id ? "" : info };
    });
  }
  if (Object.keys(contacts).length > 0) term.contacts = contacts;
  return term;
}
