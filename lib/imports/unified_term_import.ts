/**
 * `uc term import-csv`: terms of one governance domain from a CSV file, through the bulk engine. The file
 * is one of the uc-term templates (bulk, all fields, bulk update, multi-value; detected from the header
 * unless `--template` names one), checked first with every problem listed as file:line:column.
 *
 * A row with a term_id changes that term, and only the fields it gives. A row without one creates the
 * term of its name, or, when the domain has a term of that name already, updates it with the row's fields
 * (skipped when it holds them, left alone with `--skip-existing`), so running an import again changes
 * nothing. Each unit is one call (the unified catalog has no bulk create); a refused row is rejected into
 * the errors file with the service's answer.
 *
 * Synonyms name other terms of the domain, rows of the file or terms already there (checked before
 * anything is sent). Each link is made by the later of the two rows once both terms exist, so rows may
 * name terms further down the file; a file with such links is sent one batch at a time, in file order.
 *
 * `--plan` reads each row's term as the import would and shows each field it gives, old → new, and the
 * synonym links the term lacks (`uc_term_diff.ts`); a row whose term_id the service refuses is planned
 * rejected with its answer.
 *
 * @module
 */
import { checkedRows } from "../csv/check.ts";
import type { CsvDelimiter } from "../csv/delimiter.ts";
import { columnKey } from "../csv/problems.ts";
import { cellText, cellValues } from "../templates/csv/rules.ts";
import type {
  BulkImport,
  CsvProblem,
  CsvTemplate,
  ImportUnit,
  PlannedAction,
  UnitDiff,
  UnitOutcome,
} from "../csv/types.ts";
import type { UnifiedCatalogClient } from "../catalog/unified_api.ts";
import type { ListParams } from "../catalog/unified_resource.ts";
import type { Term } from "../catalog/unified_term_schemas.ts";
import {
  isRowRefusal,
  refusalOutcome,
  rejectedOutcome,
  SettledUnits,
  sharedLookup,
} from "./bulk_outcomes.ts";
import { throwProblems } from "./csv_prechecks.ts";
import { readHeader } from "../templates/template_choice.ts";
import { unifiedTermDiff } from "./unified_term_diff.ts";
import {
  type LinkTarget,
  newTermBody,
  type TermChange,
  termChangeFromRow,
  termHolds,
  updatedTermBody,
} from "./unified_term_rows.ts";

/** The templates `uc term import-csv` reads. */
export const UNIFIED_TERM_IMPORT_TEMPLATES = [
  "uc-term-bulk",
  "uc-term-all-fields",
  "uc-term-bulk-update",
  "uc-term-multi-value",
] as const;

const key = (name: string) => name.trim().toLowerCase();
const describeLink = (link: LinkTarget) => "termId" in link ? link.termId : link.name;

/** The terms of a domain by lower-case name, every page. */
async function domainTerms(
  unified: UnifiedCatalogClient,
  domainId: string,
  signal?: AbortSignal,
): Promise<Map<string, Term>> {
  const terms = new Map<string, Term>();
  for await (const term of unified.terms.list({ domainId, signal } as ListParams)) {
    if (term.name) terms.set(key(term.name), term);
  }
  return terms;
}

/**
 * The synonym links of a file, by the line whose unit makes each: the later of two rows that name each
 * other, the naming row for a term the domain has already. Throws a UsageError listing the synonyms that
 * name neither a row nor a term of the domain, or the row's own term. The file is read with `delimiter`
 * (the one its check used), else with the one detected.
 */
export async function synonymLinks(
  unified: UnifiedCatalogClient,
  path: string,
  display: string,
  template: CsvTemplate,
  domainId: string,
  signal?: AbortSignal,
  delimiter?: CsvDelimiter,
): Promise<Map<number, LinkTarget[]>> {
  const links = new Map<number, LinkTarget[]>();
  if (!template.columns.some((column) => column.name === "synonyms")) return links;
  const lines = new Map<string, number>();
  const references: Array<{ line: number; own?: string; termId?: string; targets: string[] }> = [];
  for await (const row of checkedRows(path, template, { displayName: display, signal, delimiter })) {
    const own = cellText(row, "name");
    if (own !== undefined) lines.set(key(own), row.line);
    const targets = cellValues(row.values.synonyms);
    if (targets.length > 0) {
      references.push({ line: row.line, own, termId: cellText(row, "term_id"), targets });
    }
  }
  if (references.length === 0) return links;
  const header = await readHeader(path, display, { delimiter, signal });
  const index = header.findIndex((cell) => columnKey(cell) === columnKey("synonyms"));
  const at = { column: index + 1, columnName: header[index]?.trim() };
  const existing = await domainTerms(unified, domainId, signal);
  const problems: CsvProblem[] = [];
  const add = (line: number, link: LinkTarget) => links.set(line, [...links.get(line) ?? [], link]);
  for (const { line, own, termId, targets } of references) {
    for (const target of targets) {
      const targetLine = lines.get(key(target));
      if (own !== undefined && key(target) === key(own)) {
        problems.push({ file: display, line, ...at, message: `"${target}" is this row's own term` });
      } else if (targetLine === undefined && !existing.has(key(target))) {
        problems.push({
          file: display,
          line,
          ...at,
          message: `"${target}" is neither a row of the file nor a term of governance domain ${domainId}`,
        });
      } else if (targetLine !== undefined && targetLine > line) {
        // The other term is created later: its row makes the link, back to this one.
        add(targetLine, termId ? { termId: termId.toLowerCase() } : { name: own! });
      } else add(line, { name: target });
    }
  }
  throwProblems(display, template, problems);
  return links;
}

/** What a term import writes to, and how. */
export interface UnifiedTermImportOptions {
  domainId: string;
  template: CsvTemplate;
  /** The synonym links each line's unit makes ({@link synonymLinks}). */
  links: Map<number, LinkTarget[]>;
  /** Plans terms found by name as skipped (the engine skips them itself when it sends). */
  skipExisting?: boolean;
}

type Unit = ImportUnit<TermChange>;

/** One domain's terms as the import sees them: the term a row is about, whether it holds the row, the write. */
class DomainTerms {
  readonly #unified: UnifiedCatalogClient;
  readonly #domainId: string;

  constructor(unified: UnifiedCatalogClient, domainId: string) {
    this.#unified = unified;
    this.#domainId = domainId;
  }

  /** The ids of the terms `termId` has Synonym links to, in lower case. */
  async synonymsOf(termId: string, signal: AbortSignal): Promise<Set<string>> {
    const links = await this.#unified.terms.listRelationships(termId, {
      relationshipType: "Synonym",
      entityType: "TERM",
      signal,
    });
    return new Set(links.map((link) => String(link.entityId).toLowerCase()));
  }

  /** The id of a link's term: its own, or the one of its name in the domain (undefined: not there yet). */
  resolve(link: LinkTarget, byName: Map<string, Term>): string | undefined {
    return "termId" in link ? link.termId : byName.get(key(link.name))?.id?.toLowerCase();
  }

  /** The stored term a change is about (by term_id, or by name), or why the row is refused. */
  async stored(
    change: TermChange,
    byName: Map<string, Term>,
    signal: AbortSignal,
  ): Promise<{ term?: Term } | { refused: UnitOutcome }> {
    if (!change.termId) return { term: byName.get(key(change.name!)) };
    try {
      const term = await this.#unified.terms.get(change.termId, { signal });
      if (term.domain && term.domain.toLowerCase() !== this.#domainId.toLowerCase()) {
        return {
          refused: rejectedOutcome(
            `term ${change.termId} is in governance domain ${term.domain}, not in --domain-id ` +
              `${this.#domainId}; import its row with that domain`,
          ),
        };
      }
      return { term };
    } catch (error) {
      if (!isRowRefusal(error)) throw error;
      return { refused: refusalOutcome(error) };
    }
  }

  /** Whether `term` has every field and every synonym link of `change`. */
  async complete(
    term: Term,
    change: TermChange,
    byName: Map<string, Term>,
    signal: AbortSignal,
  ): Promise<boolean> {
    if (!termHolds(term, change)) return false;
    if (change.links.length === 0) return true;
    const present = await this.synonymsOf(term.id, signal);
    return change.links.every((link) => present.has(this.resolve(link, byName) ?? ""));
  }

  /** Creates or updates the row's term (skipped when it holds the row already), then its synonym links. */
  async write(change: TermChange, byName: Map<string, Term>, signal: AbortSignal): Promise<UnitOutcome> {
    const found = await this.stored(change, byName, signal);
    if ("refused" in found) return found.refused;
    const terms = this.#unified.terms;
    let term = found.term;
    let status: "created" | "updated" | "skipped" = "skipped";
    if (!term) {
      term = await terms.create(newTermBody(change, this.#domainId), { signal });
      status = "created";
    } else if (!termHolds(term, change)) {
      const before = term.name;
      term = await terms.update(term.id, updatedTermBody(term, change), { signal });
      if (before && key(before) !== key(term.name ?? before)) byName.delete(key(before));
      status = "updated";
    }
    if (term.name) byName.set(key(term.name), term);
    if (change.links.length === 0) return { status };
    return await this.#link(term, change.links, status, byName, signal);
  }

  /** Adds the synonym links `term` lacks; a link to a term that is nowhere rejects the row, saying so. */
  async #link(
    term: Term,
    links: LinkTarget[],
    status: "created" | "updated" | "skipped",
    byName: Map<string, Term>,
    signal: AbortSignal,
  ): Promise<UnitOutcome> {
    const present = status === "created" ? new Set<string>() : await this.synonymsOf(term.id, signal);
    for (const link of links) {
      const id = this.resolve(link, byName);
      if (!id) {
        return rejectedOutcome(
          `synonym "${describeLink(link)}" is not a term of the domain (its row was not imported); the ` +
            `term was ${status === "skipped" ? "left as it was" : status}, without this link`,
        );
      }
      if (present.has(id) || id === term.id.toLowerCase()) continue;
      await this.#unified.terms.createRelationship(term.id, { entityId: id, relationshipType: "Synonym" }, {
        entityType: "TERM",
        signal,
      });
      present.add(id);
      if (status === "skipped") status = "updated";
    }
    return { status };
  }
}

/** The bulk import of unified catalog terms into `options.domainId`; see the module documentation. */
export function unifiedTermImport(
  unified: UnifiedCatalogClient,
  options: UnifiedTermImportOptions,
): BulkImport<TermChange> {
  const domain = new DomainTerms(unified, options.domainId);
  const settled = new SettledUnits<TermChange>();
  const namesOf = sharedLookup((signal) => domainTerms(unified, options.domainId, signal));

  const diffOf = async (
    item: TermChange,
    byName: Map<string, Term>,
    signal: AbortSignal,
  ): Promise<UnitDiff> => {
    const target = await domain.stored(item, byName, signal);
    const named = item.termId ?? item.name ?? "";
    if ("refused" in target) {
      const reason = target.refused.status === "rejected" ? target.refused.reason : "refused";
      return { action: "reject", target: named, changes: [], reason, read: { guid: null } };
    }
    const term = target.term;
    if (term && options.skipExisting && !item.termId) {
      return {
        action: "skip",
        target: named,
        changes: [],
        reason: "exists already",
        read: { guid: term.id.toLowerCase() },
      };
    }
    const present = term && item.links.length > 0
      ? await domain.synonymsOf(term.id, signal)
      : new Set<string>();
    const missing = item.links.filter((link) => !present.has(domain.resolve(link, byName) ?? "")).map(
      describeLink,
    );
    return unifiedTermDiff(term, item, { present: [...present].sort(), missing });
  };

  return {
    id: "uc.term-import-csv",
    template: options.template,
    sequential: options.links.size > 0,
    toItem: (row) => termChangeFromRow(row, options.links.get(row.line) ?? []),
    send: async (units, signal) => {
      const byName = await namesOf(signal);
      for (const unit of settled.pending(units)) {
        try {
          settled.settle(unit, await domain.write(unit.item, byName, signal));
        } catch (error) {
          if (!isRowRefusal(error)) throw error;
          settled.settle(unit, refusalOutcome(error));
        }
      }
      return settled.outcomes(units);
    },
    existing: async (units, signal) => {
      const byName = await namesOf(signal);
      return units.map(({ item }) => !item.termId && byName.has(key(item.name!)));
    },
    applied: async (units: Unit[], signal) => {
      const byName = await namesOf(signal, true);
      const found: boolean[] = [];
      for (const { item } of units) {
        const target = await domain.stored(item, byName, signal);
        found.push(
          "term" in target && target.term !== undefined &&
            await domain.complete(target.term, item, byName, signal),
        );
      }
      return found;
    },
    plan: async (units: Unit[], signal) => {
      const byName = await namesOf(signal);
      const actions: PlannedAction[] = [];
      for (const { item } of units) {
        const target = await domain.stored(item, byName, signal);
        if ("refused" in target) actions.push("reject");
        else if (!target.term) actions.push("create");
        else if (options.skipExisting && !item.termId) actions.push("skip");
        else actions.push(await domain.complete(target.term, item, byName, signal) ? "skip" : "update");
      }
      return actions;
    },
    diff: async (units: Unit[], signal) => {
      const byName = await namesOf(signal);
      const diffs: UnitDiff[] = [];
      for (const { item } of units) diffs.push(await diffOf(item, byName, signal));
      return diffs;
    },
    describe: ({ item }) => {
      const { links, termId, ...fields } = item;
      return {
        ...(termId ? { term_id: termId } : {}),
        ...fields,
        ...(links.length > 0 ? { synonyms: links.map(describeLink) } : {}),
      };
    },
    onThrottle: (listener) => unified.http.onThrottle(listener),
  };
}
