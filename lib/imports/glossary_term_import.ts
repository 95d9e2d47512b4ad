/**
 * The bulk import of glossary terms through the engine (`glossary import-terms --mode=batches`, and the
 * dry run of both modes): rows of the glossary-terms template become terms of one glossary, created many
 * at once with `POST /glossary/terms`. A term whose name the glossary has already is updated with the
 * row's cells (read, laid over, written back, so its relations stay), or skipped when it holds them
 * already, or with `--skip-existing` left alone. `POST /glossary/terms` creates all or none: a refused
 * call is split until the refused rows are alone, and those are rejected with the service's answer.
 *
 * The glossary's term names are read once (headers, every page) and kept up to date with what the run
 * writes; an interrupted batch reads them again.
 *
 * @example
 * ```ts
 * import { glossaryTermImport } from "./glossary_term_import.ts";
 * import { runBulkImport } from "../csv/engine.ts";
 * import { glossaryTerms } from "../templates/csv/glossary_templates.ts";
 * import type { CatalogClient } from "../catalog/client.ts";
 * async function importTerms(catalog: CatalogClient, glossaryGuid: string) {
 *   const plugin = glossaryTermImport(catalog, { glossaryGuid, mode: "batches", template: glossaryTerms });
 *   const summary = await runBulkImport(plugin, { file: "terms.csv", batchSize: 100, concurrency: 4 });
 *   console.log(summary.created, summary.updated, summary.skipped);
 * }
 * ```
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import type { BulkImport, CsvTemplate, ImportUnit, PlannedAction, UnitDiff } from "../csv/types.ts";
import { isRowRefusal, refusalOutcome, SettledUnits, sharedLookup } from "./bulk_outcomes.ts";
import { mergedTerm, termDiff, termFromRow, termHolds, type TermItem } from "./glossary_csv.ts";
import { offsetPages } from "../http/paging_guard.ts";

/** Term headers read per request. */
const PAGE = 1000;

/** What a term import writes to, and how. */
export interface GlossaryTermImportOptions {
  glossaryGuid: string;
  /**
   * `batches`: this import writes the terms. `service`: the service's import does (this plug-in only
   * plans a dry run, where a term that exists would be updated, as the service's import does).
   */
  mode: "batches" | "service";
  template: CsvTemplate;
  /** Plans existing terms as skipped (the engine skips them itself when it sends). */
  skipExisting?: boolean;
}

type Unit = ImportUnit<TermItem>;

/** The terms of a glossary as name → GUID, every page. */
async function termNames(catalog: CatalogClient, glossaryGuid: string, signal: AbortSignal) {
  const names = new Map<string, string>();
  const pages = offsetPages(
    catalog.http.pagingGuard(`the terms of glossary ${glossaryGuid}`),
    PAGE,
    (offset) => catalog.glossary.listTermHeaders(glossaryGuid, { limit: PAGE, offset, signal }),
    (header) => header.termGuid,
  );
  for await (const page of pages) {
    for (const header of page) {
      if (header.displayText && header.termGuid) names.set(header.displayText, header.termGuid);
    }
  }
  return names;
}

/** The bulk import of glossary terms into `options.glossaryGuid`. */
export function glossaryTermImport(
  catalog: CatalogClient,
  options: GlossaryTermImportOptions,
): BulkImport<TermItem> {
  const glossary = catalog.glossary;
  const settled = new SettledUnits<TermItem>();
  const namesOf = sharedLookup((signal) => termNames(catalog, options.glossaryGuid, signal));
  /** For each unit: whether the glossary has a term of its name that holds every cell of the row. */
  const holding = async (units: Unit[], signal: AbortSignal, known: Map<string, string>) => {
    const result: boolean[] = [];
    for (const unit of units) {
      const guid = known.get(unit.item.name);
      result.push(guid !== undefined && termHolds(await glossary.getTerm(guid, { signal }), unit.item.term));
    }
    return result;
  };

  const create = async (units: Unit[], known: Map<string, string>, signal: AbortSignal): Promise<void> => {
    if (units.length === 0) return;
    try {
      const created = await glossary.createTerms(units.map((unit) => unit.item.term), { signal });
      for (const term of created ?? []) if (term.name && term.guid) known.set(term.name, term.guid);
      for (const unit of units) settled.settle(unit, { status: "created" });
    } catch (error) {
      if (!isRowRefusal(error)) throw error;
      if (units.length === 1) return settled.settle(units[0], refusalOutcome(error));
      const middle = Math.ceil(units.length / 2);
      await create(units.slice(0, middle), known, signal);
      await create(units.slice(middle), known, signal);
    }
  };
  const update = async (unit: Unit, guid: string, signal: AbortSignal): Promise<void> => {
    try {
      // The full term, assignments and relations included: a full update keeps what it is given.
      const stored = await glossary.getTerm(guid, { signal });
      if (termHolds(stored, unit.item.term)) return settled.settle(unit, { status: "skipped" });
      await glossary.updateTerm(guid, mergedTerm(stored, unit.item.term), { signal });
      settled.settle(unit, { status: "updated" });
    } catch (error) {
      if (!isRowRefusal(error)) throw error;
      settled.settle(unit, refusalOutcome(error));
    }
  };

  return {
    id: "glossary.import-terms",
    template: options.template,
    toItem: (row) => termFromRow(row, options.glossaryGuid),
    send: async (units, signal) => {
      const known = await namesOf(signal);
      const pending = settled.pending(units);
      const existing = pending.filter((unit) => known.has(unit.item.name));
      await create(pending.filter((unit) => !known.has(unit.item.name)), known, signal);
      for (const unit of existing) await update(unit, known.get(unit.item.name)!, signal);
      return settled.outcomes(units);
    },
    existing: async (units, signal) => {
      const known = await namesOf(signal);
      return units.map((unit) => known.has(unit.item.name));
    },
    applied: async (units, signal) => await holding(units, signal, await namesOf(signal, true)),
    plan: async (units, signal) => {
      const known = await namesOf(signal);
      if (options.mode === "service" || options.skipExisting) {
        const existing = options.skipExisting ? "skip" : "update";
        return units.map((unit): PlannedAction => known.has(unit.item.name) ? existing : "create");
      }
      const holds = await holding(units, signal, known);
      return units.map((unit, i): PlannedAction =>
        !known.has(unit.item.name) ? "create" : holds[i] ? "skip" : "update"
      );
    },
    diff: async (units, signal) => {
      const known = await namesOf(signal);
      const diffs: UnitDiff[] = [];
      for (const { item } of units) {
        const guid = known.get(item.name);
        if (guid !== undefined && options.skipExisting) {
          diffs.push({
            action: "skip",
            target: item.name,
            changes: [],
            read: { guid },
            reason: "exists already",
          });
        } else {
          diffs.push(
            termDiff(guid === undefined ? undefined : await glossary.getTerm(guid, { signal }), item.term),
          );
        }
      }
      return diffs;
    },
    describe: ({ item }) => {
      const { anchor: _, name, ...fields } = item.term;
      return { name, ...fields };
    },
    onThrottle: (listener) => catalog.http.onThrottle(listener),
  };
}
