/**
 * How rows of the unified catalog term templates become term bodies (`uc term import-csv`): the fields a
 * row gives, the body of a new term, the body that updates an existing term with only those fields, and
 * whether a stored term holds them already.
 *
 * Cells map to the term as: name, description, status (a new term is DRAFT when empty), acronym →
 * `acronyms`, resource_name/resource_url → `resources` (in pairs), owner_id → `contacts.owner`, contacts →
 * `contacts.expert` (Entra ID object IDs, never e-mail addresses). synonyms become Synonym relationships,
 * made by the import once both terms exist. An update keeps the contacts of other roles, and the note of a
 * contact it keeps.
 *
 * @example
 * ```ts
 * import { newTermBody, termChangeFromRow } from "./unified_term_rows.ts";
 * const change = termChangeFromRow({
 *   line: 2, cells: [], extras: {},
 *   values: { name: "Revenue", acronym: ["REV"], owner_id: ["6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f"] },
 * }, []);
 * newTermBody(change, "d-1");
 * // { name: "Revenue", status: "DRAFT", domain: "d-1", acronyms: ["REV"],
 * //   contacts: { owner: [{ id: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f" }] } }
 * ```
 *
 * @module
 */
import { cellText, cellValues } from "../templates/csv/rules.ts";
import type { CheckedRow } from "../csv/types.ts";
import type { Contact } from "../catalog/unified_schemas.ts";
import type { Term, TermInput } from "../catalog/unified_term_schemas.ts";

/** The other end of a Synonym relationship: a term by name (of the domain), or by id. */
export type LinkTarget = { name: string } | { termId: string };

/** What a row asks for: the fields it gives (absent = leave as is) and the synonyms its unit links. */
export interface TermChange {
  /** The term to change; absent for a row that creates (or updates by name). */
  termId?: string;
  name?: string;
  description?: string;
  /** In the API's spelling (DRAFT, PUBLISHED, EXPIRED). */
  status?: string;
  acronyms?: string[];
  resources?: Array<{ name: string; url: string }>;
  /** contacts.owner ids. */
  owners?: string[];
  /** contacts.expert ids. */
  experts?: string[];
  /** Synonym relationships this row's unit makes (the import decides which row makes each link). */
  links: LinkTarget[];
}

/** The fields a row of any uc-term template gives, and the links it is to make. */
export function termChangeFromRow(row: CheckedRow, links: LinkTarget[]): TermChange {
  const change: TermChange = { links };
  const termId = cellText(row, "term_id");
  if (termId) change.termId = termId.toLowerCase();
  const name = cellText(row, "name");
  if (name !== undefined) change.name = name;
  const description = cellText(row, "description");
  if (description !== undefined) change.description = description;
  const status = cellText(row, "status");
  if (status !== undefined) change.status = status.toUpperCase();
  const list = (column: string) => {
    const values = cellValues(row.values[column]);
    return values.length > 0 ? values : undefined;
  };
  change.acronyms = list("acronym");
  const names = list("resource_name");
  const urls = list("resource_url");
  if (names && urls) change.resources = names.map((n, i) => ({ name: n, url: urls[i] }));
  change.owners = list("owner_id");
  change.experts = list("contacts");
  for (const key of Object.keys(change) as Array<keyof TermChange>) {
    if (change[key] === undefined) delete change[key];
  }
  return change;
}

const people = (ids: string[], current: Contact[] = []): Contact[] =>
  ids.map((id) => current.find((c) => c.id.toLowerCase() === id.toLowerCase()) ?? { id });

/** The body of a new term of `domainId`. */
export function newTermBody(change: TermChange, domainId: string): TermInput {
  const body: TermInput = { name: change.name!, status: change.status ?? "DRAFT", domain: domainId };
  if (change.description !== undefined) body.description = change.description;
  if (change.acronyms) body.acronyms = change.acronyms;
  if (change.resources) body.resources = change.resources;
  const contacts: Record<string, Contact[]> = {};
  if (change.owners) contacts.owner = people(change.owners);
  if (change.experts) contacts.expert = people(change.experts);
  if (Object.keys(contacts).length > 0) body.contacts = contacts;
  return body;
}

const ids = (list: Array<{ id: string }> | string[] | undefined) =>
  (list ?? []).map((c) => (typeof c === "string" ? c : c.id).toLowerCase()).sort();
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const sorted = (list: string[] | undefined) => [...list ?? []].sort();

/** Whether `stored` has every field `change` gives. */
export function termHolds(stored: Term, change: TermChange): boolean {
  if (change.name !== undefined && stored.name !== change.name) return false;
  if (change.description !== undefined && stored.description !== change.description) return false;
  if (change.status !== undefined && stored.status?.toUpperCase() !== change.status) return false;
  if (change.acronyms && !same(sorted(stored.acronyms), sorted(change.acronyms))) return false;
  if (change.resources) {
    const stored_ = (stored.resources ?? []).map((r) => ({ name: r.name ?? "", url: r.url ?? "" }));
    if (!same(stored_, change.resources)) return false;
  }
  if (change.owners && !same(ids(stored.contacts?.owner), ids(change.owners))) return false;
  if (change.experts && !same(ids(stored.contacts?.expert), ids(change.experts))) return false;
  return true;
}

/** Fields the service keeps itself; an update does not send them back. */
const READ_ONLY = ["systemData", "isLeaf", "additionalProperties"];

/** The full body that updates `stored` with the fields `change` gives, keeping everything else. */
export function updatedTermBody(stored: Term, change: TermChange): Partial<TermInput> {
  const body: Record<string, unknown> = { ...stored };
  for (const field of READ_ONLY) delete body[field];
  if (change.name !== undefined) body.name = change.name;
  if (change.description !== undefined) body.description = change.description;
  if (change.status !== undefined) body.status = change.status;
  if (change.acronyms) body.acronyms = change.acronyms;
  if (change.resources) body.resources = change.resources;
  if (change.owners || change.experts) {
    const contacts: Record<string, Contact[]> = { ...(stored.contacts as Record<string, Contact[]>) };
    if (change.owners) contacts.owner = people(change.owners, contacts.owner);
    if (change.experts) contacts.expert = people(change.experts, contacts.expert);
    body.contacts = contacts;
  }
  return body as Partial<TermInput>;
}
