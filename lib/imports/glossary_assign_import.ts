/**
 * The bulk import of `glossary assign_terms`: rows of term_guid and entity_guid, sent per batch grouped by
 * term as `POST /glossary/terms/{termGuid}/assignedEntities`. An assignment the catalog already has is
 * skipped (the service would ignore it anyway); a term that does not exist rejects only its own rows; an
 * entity that does not exist fails the whole call (the service assigns all or none), so the call is split
 * until the rows at fault are alone and rejected with the service's answer.
 *
 * Which entities carry a term is read once per term (all pages) and kept up to date with the
 * assignments this run makes; a resumed or interrupted batch reads it again. Each row is sent once: a call
 * is never repeated by the HTTP core, and after a lost answer the engine reads the term's assignments
 * before sending again.
 *
 * @example
 * ```ts
 * import { glossaryAssignmentImport } from "./glossary_assign_import.ts";
 * import { runBulkImport } from "../csv/engine.ts";
 * import type { CatalogClient } from "../catalog/client.ts";
 * async function assign(catalog: CatalogClient) {
 *   const plugin = glossaryAssignmentImport(catalog);
 *   const summary = await runBulkImport(plugin, { file: "assignments.csv", batchSize: 100, concurrency: 4 });
 *   console.log(summary.created, summary.skipped, summary.rejected);
 * }
 * ```
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import { ATLAS_V2, segment } from "../catalog/paths.ts";
import { glossaryAssignments } from "../templates/csv/glossary_templates.ts";
import type {
  BulkImport,
  CsvTemplate,
  ImportUnit,
  PlannedAction,
  UnitDiff,
  UnitOutcome,
} from "../csv/types.ts";
import { NotFoundError } from "../core/errors.ts";
import { isRowRefusal, refusalOutcome, SettledUnits } from "./bulk_outcomes.ts";
import { assignmentFromRow, type AssignmentItem } from "./glossary_csv.ts";
import { offsetPages } from "../http/paging_guard.ts";

/** Assigned entities read per request. */
const PAGE = 1000;
/** Entity GUIDs asked for in one lookup, to keep the URL short. */
const LOOKUP_CHUNK = 50;

/** What is known of a term: the entities it is assigned to, or the service's answer that it is missing. */
type TermState = { present: Set<string> } | { missing: UnitOutcome };

type Unit = ImportUnit<AssignmentItem>;

/** The GUIDs (lower case) of the entities a term is assigned to, every page. */
async function assignedEntities(catalog: CatalogClient, termGuid: string, signal: AbortSignal) {
  const present = new Set<string>();
  const pages = offsetPages(
    catalog.http.pagingGuard(`the entities assigned term ${termGuid}`),
    PAGE,
    (offset) => catalog.glossary.getTermAssignedEntities(termGuid, { limit: PAGE, offset, signal }),
    (entity) => entity.guid === undefined ? undefined : String(entity.guid),
  );
  for await (const page of pages) {
    for (const entity of page) if (entity.guid) present.add(String(entity.guid).toLowerCase());
  }
  return present;
}

/** Which of `guids` name active entities; a lookup that finds one missing is split to find it. */
export async function activeEntities(
  catalog: CatalogClient,
  guids: readonly string[],
  signal: AbortSignal,
): Promise<Set<string>> {
  const found = new Set<string>();
  const visit = async (part: readonly string[]): Promise<void> => {
    if (part.length === 0) return;
    try {
      const result = await catalog.entity.getMany([...part], {
        minExtInfo: true,
        ignoreRelationships: true,
        signal,
      });
      for (const entity of result.entities ?? []) {
        if (entity.guid && entity.status !== "DELETED") found.add(entity.guid.toLowerCase());
      }
    } catch (error) {
      // The lookup is all or nothing too: a 404 means one of the GUIDs is unknown.
      if (!(error instanceof NotFoundError)) throw error;
      if (part.length === 1) return;
      const middle = Math.ceil(part.length / 2);
      await visit(part.slice(0, middle));
      await visit(part.slice(middle));
    }
  };
  for (let i = 0; i < guids.length; i += LOOKUP_CHUNK) await visit(guids.slice(i, i + LOOKUP_CHUNK));
  return found;
}

/**
 * `glossary.assignTermToEntities`, sent once: the HTTP core repeats a call whose answer was lost, which sends
 * the assignments a second time; marked not idempotent, the lost answer reaches the engine instead, which
 * reads the term's assignments (`applied`) before sending again.
 */
async function assignOnce(
  catalog: CatalogClient,
  termGuid: string,
  entityGuids: string[],
  signal: AbortSignal,
): Promise<void> {
  await catalog.http.request({
    method: "POST",
    path: `${ATLAS_V2}/glossary/terms/${segment(termGuid)}/assignedEntities`,
    body: entityGuids.map((guid) => ({ guid })),
    idempotent: false,
    signal,
  });
}

/** Each term's assigned entities, read once per import (again when asked for `fresh`); a failed read is not kept. */
class TermStates {
  readonly #catalog: CatalogClient;
  readonly #terms = new Map<string, Promise<TermState>>();

  constructor(catalog: CatalogClient) {
    this.#catalog = catalog;
  }

  async #load(termGuid: string, signal: AbortSignal): Promise<TermState> {
    try {
      return { present: await assignedEntities(this.#catalog, termGuid, signal) };
    } catch (error) {
      if (error instanceof NotFoundError) return { missing: refusalOutcome(error) };
      throw error;
    }
  }

  stateOf(termGuid: string, signal: AbortSignal, fresh = false): Promise<TermState> {
    let state = this.#terms.get(termGuid);
    if (!state || fresh) {
      const loading = this.#load(termGuid, signal);
      loading.catch(() => {
        if (this.#terms.get(termGuid) === loading) this.#terms.delete(termGuid);
      });
      this.#terms.set(termGuid, loading);
      state = loading;
    }
    return state;
  }

  async statesOf(units: Unit[], signal: AbortSignal, fresh: boolean): Promise<Map<string, TermState>> {
    const states = new Map<string, TermState>();
    for (const termGuid of new Set(units.map((unit) => unit.item.termGuid))) {
      states.set(termGuid, await this.stateOf(termGuid, signal, fresh));
    }
    return states;
  }

  /** Whether each unit's entity has its term already. */
  async assigned(units: Unit[], signal: AbortSignal, fresh: boolean): Promise<boolean[]> {
    const states = await this.statesOf(units, signal, fresh);
    return units.map(({ item }) => {
      const state = states.get(item.termGuid)!;
      return "present" in state && state.present.has(item.entityGuid);
    });
  }
}

/**
 * What a row would do (`--plan`): assign the term (create), nothing (assigned already), or be rejected (no
 * such term, no such entity). It reads whether the term exists, whether it is assigned, whether the entity is.
 */
function assignmentDiff(item: AssignmentItem, state: TermState, entities: Set<string>): UnitDiff {
  const target = `${item.termGuid} → ${item.entityGuid}`;
  if ("missing" in state) {
    const reason = state.missing.status === "rejected" ? state.missing.reason : "no such term";
    return { action: "reject", target, changes: [], reason, read: { term: false } };
  }
  if (state.present.has(item.entityGuid)) {
    return { action: "unchanged", target, changes: [], read: { term: true, assigned: true } };
  }
  const read = { term: true, assigned: false, entity: entities.has(item.entityGuid) };
  if (!read.entity) {
    return {
      action: "reject",
      target,
      changes: [],
      reason: `no active entity has guid ${item.entityGuid}`,
      read,
    };
  }
  return { action: "create", target, changes: [{ field: "assigned", old: false, new: true }], read };
}

/** The bulk import of term assignments from rows of the glossary-assignments template. */
export function glossaryAssignmentImport(
  catalog: CatalogClient,
  template: CsvTemplate = glossaryAssignments,
): BulkImport<AssignmentItem> {
  const settled = new SettledUnits<AssignmentItem>();
  const terms = new TermStates(catalog);

  /** Assigns the term to the units' entities; a refused call is split until the refused rows are alone. */
  const assign = async (termGuid: string, units: Unit[], present: Set<string>, signal: AbortSignal) => {
    if (units.length === 0) return;
    try {
      await assignOnce(catalog, termGuid, units.map((unit) => unit.item.entityGuid), signal);
      for (const unit of units) {
        present.add(unit.item.entityGuid);
        settled.settle(unit, { status: "created" });
      }
    } catch (error) {
      if (!isRowRefusal(error)) throw error;
      if (units.length === 1) return settled.settle(units[0], refusalOutcome(error));
      const middle = Math.ceil(units.length / 2);
      await assign(termGuid, units.slice(0, middle), present, signal);
      await assign(termGuid, units.slice(middle), present, signal);
    }
  };

  const diff = async (units: Unit[], signal: AbortSignal): Promise<UnitDiff[]> => {
    const states = await terms.statesOf(units, signal, false);
    const open = units.filter(({ item }) => {
      const state = states.get(item.termGuid)!;
      return "present" in state && !state.present.has(item.entityGuid);
    });
    const entities = await activeEntities(
      catalog,
      [...new Set(open.map((u) => u.item.entityGuid))],
      signal,
    );
    return units.map(({ item }) => assignmentDiff(item, states.get(item.termGuid)!, entities));
  };

  return {
    id: "glossary.assign-terms",
    template,
    toItem: assignmentFromRow,
    send: async (units, signal) => {
      for (const [termGuid, group] of Map.groupBy(settled.pending(units), (unit) => unit.item.termGuid)) {
        const state = await terms.stateOf(termGuid, signal);
        if ("missing" in state) {
          for (const unit of group) settled.settle(unit, state.missing);
          continue;
        }
        const fresh = group.filter((unit) => {
          if (!state.present.has(unit.item.entityGuid)) return true;
          settled.settle(unit, { status: "skipped" });
          return false;
        });
        await assign(termGuid, fresh, state.present, signal);
      }
      return settled.outcomes(units);
    },
    existing: (units, signal) => terms.assigned(units, signal, false),
    applied: (units, signal) => terms.assigned(units, signal, true),
    diff,
    plan: async (units, signal) =>
      (await diff(units, signal)).map((planned): PlannedAction =>
        planned.action === "unchanged" ? "skip" : planned.action === "create" ? "create" : "reject"
      ),
    describe: ({ item }) => ({ term_guid: item.termGuid, entity_guid: item.entityGuid }),
    onThrottle: (listener) => catalog.http.onThrottle(listener),
  };
}
