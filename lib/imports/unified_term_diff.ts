/**
 * What a row of `uc term import-csv` would change (`--plan`): each field the row gives, with the stored
 * term's value and the row's, compared as the import compares them (`termHolds`), and the synonym links
 * the term lacks. Every field given is read, so `--apply-plan` refuses when one changed since.
 *
 * @module
 */
import type { FieldChange, UnitDiff } from "../csv/types.ts";
import type { Term } from "../catalog/unified_term_schemas.ts";
import type { TermChange } from "./unified_term_rows.ts";

const ids = (list: Array<{ id: string }> | undefined) => (list ?? []).map((c) => c.id.toLowerCase()).sort();
const sorted = (list: string[] | undefined) => [...list ?? []].sort();

/** A field of a term as compared: lists sorted where order does not matter, contacts by id. */
function fieldValues(term: Term | undefined, change: TermChange): Array<[string, unknown, unknown]> {
  const fields: Array<[string, unknown, unknown]> = [];
  const add = (field: string, old: unknown, wanted: unknown) => fields.push([field, old ?? null, wanted]);
  if (change.name !== undefined) add("name", term?.name, change.name);
  if (change.description !== undefined) add("description", term?.description, change.description);
  if (change.status !== undefined) add("status", term?.status?.toUpperCase(), change.status);
  if (change.acronyms) add("acronyms", term ? sorted(term.acronyms) : null, sorted(change.acronyms));
  if (change.resources) {
    const stored = term?.resources?.map((r) => ({ name: r.name ?? "", url: r.url ?? "" }));
    add("resources", stored, change.resources);
  }
  if (change.owners) {
    add("owners", term ? ids(term.contacts?.owner) : null, change.owners.map((o) => o.toLowerCase()).sort());
  }
  if (change.experts) {
    add(
      "experts",
      term ? ids(term.contacts?.expert) : null,
      change.experts.map((o) => o.toLowerCase()).sort(),
    );
  }
  return fields;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The diff of writing `change` over `stored` (undefined: the term is created). `synonyms`: the ids the
 * stored term is linked to now; `missing`: the links it lacks (names or ids, as the row gives them).
 */
export function unifiedTermDiff(
  stored: Term | undefined,
  change: TermChange,
  synonyms: { present: string[]; missing: string[] } = { present: [], missing: [] },
): UnitDiff {
  const target = change.termId ?? change.name ?? "";
  const read: Record<string, unknown> = { guid: stored?.id?.toLowerCase() ?? null };
  const changes: FieldChange[] = [];
  for (const [field, old, wanted] of fieldValues(stored, change)) {
    if (stored) read[field] = old;
    if (!same(old, wanted)) changes.push({ field, old, new: wanted });
  }
  if (change.links.length > 0) {
    if (stored) read.synonyms = synonyms.present;
    if (synonyms.missing.length > 0) {
      changes.push({
        field: "synonyms",
        old: synonyms.present,
        new: [...synonyms.present, ...synonyms.missing],
      });
    }
  }
  if (!stored) return { action: "create", target, changes, read };
  return { action: changes.length > 0 ? "update" : "unchanged", target, changes, read };
}
