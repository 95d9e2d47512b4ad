/**
 * How rows of the glossary CSV templates become catalog objects: a term of the glossary-terms template
 * (written by `glossary import-terms --mode=batches`, compared by dry runs) and an assignment of the
 * glossary-assignments template (`glossary assign_terms`); whether a stored term already holds what a
 * row would write; and the template as `--mode=batches` reads it, refusing values in the columns only the
 * service's own import reads.
 *
 * A row's `description` is the term's definition when the `definition` cell is empty, as the service's
 * import reads it; resources are `<name>:<url>` (a bare URL names itself).
 *
 * @example
 * ```ts
 * import { termFromRow } from "./glossary_csv.ts";
 * const { term } = termFromRow({
 *   line: 2, cells: [], extras: {},
 *   values: { name: "Revenue", description: "Money in", status: "Approved" },
 * }, "9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f");
 * console.log(term.longDescription, term.status); // "Money in" "Approved"
 * ```
 *
 * @module
 */
import type { AtlasGlossaryTerm } from "../catalog/glossary_types.ts";
import { glossaryTerms, SERVICE_ONLY_TERM_COLUMNS } from "../templates/csv/glossary_templates.ts";
import { cellText, cellValues } from "../templates/csv/rules.ts";
import type { CheckedRow, CsvTemplate, FieldChange, UnitDiff } from "../csv/types.ts";

/** A term a row describes, by its name in the glossary. */
export interface TermItem {
  name: string;
  /** The fields the row sets, with the glossary as anchor; fields of empty cells are left out. */
  term: AtlasGlossaryTerm & { name: string };
}

/** One assignment of a term to an entity. */
export interface AssignmentItem {
  termGuid: string;
  entityGuid: string;
}

/** The fields a term row may set, in the order they are compared. */
const TERM_FIELDS = [
  "shortDescription",
  "longDescription",
  "status",
  "examples",
  "nickName",
  "abbreviation",
  "usage",
  "resources",
] as const;

/** `Wiki:https://x` → Wiki and https://x; a bare URL (or text without `:`) names itself. */
function resource(item: string): { displayName: string; url: string } {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(item)) return { displayName: item, url: item };
  const at = item.indexOf(":");
  return at <= 0
    ? { displayName: item, url: item }
    : { displayName: item.slice(0, at).trim(), url: item.slice(at + 1).trim() };
}

/** The term a row of the glossary-terms template writes into `glossaryGuid`. */
export function termFromRow(row: CheckedRow, glossaryGuid: string): TermItem {
  const name = cellText(row, "name")!;
  const term: TermItem["term"] = { name, anchor: { glossaryGuid } };
  const set = (field: keyof AtlasGlossaryTerm, column: string) => {
    const value = cellText(row, column);
    if (value !== undefined) (term as Record<string, unknown>)[field] = value;
  };
  set("shortDescription", "short_description");
  set("longDescription", "definition");
  if (term.longDescription === undefined) set("longDescription", "description");
  set("status", "status");
  set("nickName", "nick_name");
  set("abbreviation", "acronym");
  set("usage", "usage");
  const examples = cellValues(row.values.examples);
  if (examples.length > 0) term.examples = examples;
  const resources = cellValues(row.values.resources);
  if (resources.length > 0) term.resources = resources.map(resource);
  return { name, term };
}

/** The assignment a row of the glossary-assignments template asks for (GUIDs in lower case). */
export function assignmentFromRow(row: CheckedRow): AssignmentItem {
  return {
    termGuid: cellText(row, "term_guid")!.toLowerCase(),
    entityGuid: cellText(row, "entity_guid")!.toLowerCase(),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Whether `stored` already has every field `wanted` sets (the fields it leaves out do not matter). */
export function termHolds(stored: AtlasGlossaryTerm, wanted: AtlasGlossaryTerm): boolean {
  return TERM_FIELDS.every((field) => {
    if (wanted[field] === undefined) return true;
    if (field === "resources") {
      const pairs = (list: AtlasGlossaryTerm["resources"]) =>
        (list ?? []).map((r) => ({ displayName: r.displayName ?? "", url: r.url ?? "" }));
      return same(pairs(stored.resources), pairs(wanted.resources));
    }
    return same(stored[field], wanted[field]);
  });
}

/** A term field as compared: resources as name and URL pairs, anything else as it is. */
function comparable(term: AtlasGlossaryTerm | undefined, field: typeof TERM_FIELDS[number]): unknown {
  if (field !== "resources") return term?.[field] ?? null;
  return term?.resources?.map((r) => ({ displayName: r.displayName ?? "", url: r.url ?? "" })) ?? null;
}

/**
 * What writing `wanted` (a row's term) does to `stored` (undefined: no term of that name), for `--plan`:
 * each field the row sets, with its stored value and the row's, and every such field read.
 */
export function termDiff(stored: AtlasGlossaryTerm | undefined, wanted: AtlasGlossaryTerm): UnitDiff {
  const target = wanted.name ?? "";
  const read: Record<string, unknown> = { guid: stored?.guid ?? null };
  const changes: FieldChange[] = [];
  for (const field of TERM_FIELDS) {
    if (wanted[field] === undefined) continue;
    const old = comparable(stored, field);
    if (stored) read[field] = old;
    if (!same(old, comparable(wanted, field))) changes.push({ field, old, new: comparable(wanted, field) });
  }
  if (!stored) return { action: "create", target, changes, read };
  return { action: changes.length > 0 ? "update" : "unchanged", target, changes, read };
}

/** The term `stored` with the fields of `wanted` laid over it (a full update keeps the rest). */
export function mergedTerm(stored: AtlasGlossaryTerm, wanted: AtlasGlossaryTerm): AtlasGlossaryTerm {
  const merged: AtlasGlossaryTerm = { ...stored };
  for (const field of TERM_FIELDS) {
    if (wanted[field] !== undefined) (merged as Record<string, unknown>)[field] = wanted[field];
  }
  return merged;
}

/**
 * The glossary-terms template as `--mode=batches` reads it: a value in a column only the service's import
 * reads (relations, contacts, term templates) is a problem of its row, found before anything is sent. Any
 * field separator is read: the terms are sent as JSON, not as the file, so the service's comma-only rule
 * does not apply.
 */
export function batchTermsTemplate(): CsvTemplate {
  const serviceOnly = (row: CheckedRow) =>
    SERVICE_ONLY_TERM_COLUMNS.filter((column) => cellValues(row.values[column]).length > 0).map((
      column,
    ): [string, string] => [column, SERVICE_ONLY_MESSAGE]);
  return {
    ...glossaryTerms,
    delimiters: undefined,
    checkRow: (row) => [...glossaryTerms.checkRow?.(row) ?? [], ...serviceOnly(row)],
  };
}

const SERVICE_ONLY_MESSAGE =
  "only the service's import reads this column; leave it empty with --mode=batches, " +
  "or import the file without --mode=batches";
