/**
 * Lineage CSV on the bulk engine: the {@link BulkImport} that records one process (of the group's
 * `process_type`, `Process` by default) per (source, target, process name) group of a lineage file through
 * the lineage builder. A group that records column lineage is first checked as Purview needs it to draw it
 * (`lib/lineage/`), and rejected, naming the line, the column and the fix, when it would not render.
 *
 * Units are whole groups (`lineage_csv_rows.ts`), so a process covers every line of its group and is
 * rejected or recorded as one. Writes are upserts by a qualified name derived from the ends and the
 * process name, so a second import updates the same process; within an import each process is written
 * once: a write is never repeated by the HTTP core, and after a lost answer or a resume the engine asks
 * whether the process is there (`applied`) before sending it again.
 *
 * Every end is read once per run and checked (`lineage_end_checker.ts`): a row naming a missing or deleted
 * entity, or with entity validation one that is not a data set, is rejected, never sent. Writes go through
 * `lineage_process_writes.ts`. Memory grows with the number of distinct entities and, through the
 * grouping, of processes.
 *
 * @example
 * ```ts
 * import { lineageCsvImport } from "./lineage_csv_import.ts";
 * import { runBulkImport } from "../csv/engine.ts";
 * import { lineageTable } from "../templates/csv/lineage_templates.ts";
 * import type { CatalogClient } from "../catalog/client.ts";
 * declare const catalog: CatalogClient;
 * const run = lineageCsvImport(catalog, lineageTable, { validateEntities: true });
 * const summary = await runBulkImport(run.plugin, { file: "lineage.csv", batchSize: 100, concurrency: 4 });
 * ```
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import {
  columnMappingJson,
  derivedProcessName,
  type LineageEnd,
  processQualifiedName,
} from "../catalog/lineage_builder.ts";
import type { AtlasEntity } from "../catalog/atlas_model.ts";
import type { BulkImport, CsvTemplate, ImportUnit, PlannedAction, UnitOutcome } from "../csv/types.ts";
import { NotFoundError } from "../core/errors.ts";
import { groupLineageRows, type LineageProcessItem } from "./lineage_csv_rows.ts";
import { lineageDiff, refGuids, type Resolved, sameJson } from "./lineage_csv_diff.ts";
import { LineageEndChecker } from "./lineage_end_checker.ts";
import { MAX_REASON, writeProcess, writingOnce } from "./lineage_process_writes.ts";
import { ColumnLineageChecker } from "../lineage/column_mapping_check.ts";
import {
  columnRequest,
  describeIssue,
  entriesOf,
  hasColumnLineage,
  processTypeOf,
} from "./column_lineage_items.ts";

/** Qualified names asked for in one unique-attribute lookup, to keep the URL short. */
const LOOKUP_CHUNK = 50;

/** The name the builder gives the process of `item`. */
export function processNameOf(item: LineageProcessItem, source: LineageEnd, target: LineageEnd): string {
  return item.processName?.trim() || derivedProcessName([source], [target]);
}

/** Options of {@link lineageCsvImport}. */
export interface LineageImportOptions {
  /** Check that every end is a data set before writing (ends are always read). */
  validateEntities: boolean;
  /** Dry runs plan "skip" rather than "update" for processes already recorded. */
  skipExisting?: boolean;
  /** Operation id recorded in the checkpoint (default `lineage.import`). */
  id?: string;
}

/** The import and what it learnt while running. */
export interface LineageImportRun {
  plugin: BulkImport<LineageProcessItem>;
  /** Processes the file describes (known once the file is grouped). */
  processes(): number;
  /** Attributes of the rows the process type does not define, so they were not stored. */
  attributesNotStored(): string[];
}

/** The process a row makes: its ends checked, its qualified name, and the stored process of that name. */
class LineageProcesses {
  readonly #catalog: CatalogClient;
  readonly #checker: LineageEndChecker;
  readonly #columns: ColumnLineageChecker;

  constructor(catalog: CatalogClient, checker: LineageEndChecker) {
    this.#catalog = catalog;
    this.#checker = checker;
    this.#columns = new ColumnLineageChecker(catalog);
  }

  /** Reads, in bulk, the schemas of the ends of the units that record column lineage. */
  async loadSchemas(units: ImportUnit<LineageProcessItem>[], signal: AbortSignal): Promise<void> {
    const guids = units.flatMap(({ item }) =>
      hasColumnLineage(item) ? [item.sourceGuid, item.targetGuid] : []
    );
    if (guids.length > 0) await this.#columns.load(guids, signal);
  }

  async resolve(item: LineageProcessItem, signal: AbortSignal): Promise<Resolved> {
    const ends = await this.#checker.ends(item, signal);
    if ("reason" in ends) return ends;
    if (hasColumnLineage(item)) {
      const { issues } = await this.#columns.check(columnRequest(item, ends.source, ends.target), signal);
      if (issues.length > 0) return { reason: issues.map(describeIssue).join("; ") };
    }
    const name = processNameOf(item, ends.source, ends.target);
    return { ...ends, qualifiedName: processQualifiedName([ends.source], [ends.target], name) };
  }

  /** Each unit's resolution and its stored process, when there is one. */
  async lookup(units: ImportUnit<LineageProcessItem>[], signal: AbortSignal) {
    await this.loadSchemas(units, signal);
    const resolved: Resolved[] = [];
    for (const unit of units) resolved.push(await this.resolve(unit.item, signal));
    const namesByType = new Map<string, string[]>();
    resolved.forEach((r, i) => {
      if (!("qualifiedName" in r)) return;
      const type = processTypeOf(units[i].item);
      namesByType.set(type, [...namesByType.get(type) ?? [], r.qualifiedName]);
    });
    const stored = new Map<string, AtlasEntity>();
    for (const [type, names] of namesByType) {
      for (const [name, entity] of await this.#stored(type, names, signal)) {
        stored.set(`${type}\u0000${name}`, entity);
      }
    }
    return resolved.map((r, i) => ({
      resolved: r,
      stored: "qualifiedName" in r
        ? stored.get(`${processTypeOf(units[i].item)}\u0000${r.qualifiedName}`)
        : undefined,
    }));
  }

  /** Stored processes of `type` by qualified name. */
  async #stored(type: string, names: string[], signal: AbortSignal): Promise<Map<string, AtlasEntity>> {
    const found = new Map<string, AtlasEntity>();
    const unique = [...new Set(names)];
    for (let i = 0; i < unique.length; i += LOOKUP_CHUNK) {
      try {
        const result = await this.#catalog.entity.listByUniqueAttributes(
          type,
          unique.slice(i, i + LOOKUP_CHUNK),
          { minExtInfo: true, signal },
        );
        for (const entity of result.entities ?? []) {
          const name = entity.attributes?.qualifiedName;
          if (entity.status !== "DELETED" && typeof name === "string") found.set(name, entity);
        }
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    return found;
  }
}

/** Whether a stored process joins the row's two ends, and only them, with the row's column mapping. */
function processHolds(
  stored: AtlasEntity,
  item: LineageProcessItem,
  source: LineageEnd,
  target: LineageEnd,
): boolean {
  const inputs = refGuids(stored, "inputs");
  const outputs = refGuids(stored, "outputs");
  if (inputs.length !== 1 || inputs[0] !== source.guid.toLowerCase()) return false;
  if (outputs.length !== 1 || outputs[0] !== target.guid.toLowerCase()) return false;
  if (!hasColumnLineage(item)) return true;
  return sameJson(
    stored.attributes?.columnMapping,
    columnMappingJson(item.columnMappings, [source], [target], entriesOf(item)),
  );
}

/** The bulk import of lineage rows of `template` (one of the lineage templates). */
export function lineageCsvImport(
  client: CatalogClient,
  template: CsvTemplate,
  options: LineageImportOptions,
): LineageImportRun {
  const catalog = writingOnce(client);
  const checker = new LineageEndChecker(catalog, options.validateEntities);
  const notStored = new Set<string>();
  const planReasons = new WeakMap<LineageProcessItem, string>();
  let processes = 0;

  const processesOf = new LineageProcesses(catalog, checker);

  const plugin: BulkImport<LineageProcessItem> = {
    id: options.id ?? "lineage.import",
    template,
    units: (rows) =>
      (async function* () {
        for await (const unit of groupLineageRows(rows)) {
          processes++;
          yield unit;
        }
      })(),
    send: async (units, signal) => {
      await processesOf.loadSchemas(units, signal);
      const outcomes: UnitOutcome[] = [];
      for (const { item } of units) {
        const resolved = await processesOf.resolve(item, signal);
        outcomes.push(
          "reason" in resolved
            ? { status: "rejected", reason: resolved.reason.slice(0, MAX_REASON) }
            : await writeProcess(catalog, item, { cache: checker.cache, signal, notStored }),
        );
      }
      return outcomes;
    },
    existing: async (units, signal) =>
      (await processesOf.lookup(units, signal)).map(({ stored }) => stored !== undefined),
    applied: async (units, signal) =>
      (await processesOf.lookup(units, signal)).map(({ resolved, stored }, i) =>
        stored !== undefined && "source" in resolved &&
        processHolds(stored, units[i].item, resolved.source, resolved.target)
      ),
    plan: async (units, signal) =>
      (await processesOf.lookup(units, signal)).map(({ resolved, stored }, i): PlannedAction => {
        if ("reason" in resolved) {
          planReasons.set(units[i].item, resolved.reason);
          return "reject";
        }
        if (stored === undefined) return "create";
        return options.skipExisting ? "skip" : "update";
      }),
    diff: async (units, signal) =>
      (await processesOf.lookup(units, signal)).map(({ resolved, stored }, i) =>
        lineageDiff(units[i].item, resolved, stored, options.skipExisting === true)
      ),
    describe: ({ item }) => {
      const reason = planReasons.get(item);
      return {
        sourceGuid: item.sourceGuid,
        targetGuid: item.targetGuid,
        ...(item.processName ? { processName: item.processName } : {}),
        columnMappings: item.columnMappings.length +
          (entriesOf(item) ?? []).reduce((sum, entry) => sum + entry.ColumnMapping.length, 0),
        ...(reason ? { reason } : {}),
      };
    },
    onThrottle: (listener) => catalog.http.onThrottle(listener),
  };
  return { plugin, processes: () => processes, attributesNotStored: () => [...notStored].sort() };
}
