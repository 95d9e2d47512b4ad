/**
 * Lineage CSV on the bulk engine: the {@link BulkImport} that records one process (of the group's
 * `process_type`, `Process` by default) per (source, target, process name) group of a lineage file through
 * the lineage builder, and the entity checks `import`, `process` and `validate` share. A group that records
 * column lineage is first checked as Purview needs it to draw it (`lib/lineage/`), and rejected, naming the
 * line, the column and the fix, when it would not render.
 *
 * Units are whole groups (`lineage_csv_rows.ts`), so a process covers every line of its group and is
 * rejected or recorded as one. Writes are upserts by a qualified name derived from the ends and the
 * process name, so a second import updates the same process; within an import each process is written
 * once: a write is never repeated by the HTTP core, and after a lost answer or a resume the engine asks
 * whether the process is there (`applied`) before sending it again.
 *
 * Entity checks. Every end is read (once per run): the process's qualified name is made from the ends'
 * qualified names, so a row naming a missing or deleted entity is always rejected, never sent. With entity
 * validation (the default) each end must also be a data set — `DataSet` or a type derived from it, what a
 * process's inputs and outputs take — checked on the type definitions before anything is written; without
 * it such rows are sent and the catalog's answer decides. Ends and type answers are kept for the run:
 * memory grows with the number of distinct entities (and, through the grouping, of processes).
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
  createLineage,
  createLineageCache,
  derivedProcessName,
  type LineageEnd,
  lookupEnd,
  processQualifiedName,
} from "../catalog/lineage_builder.ts";
import type { AtlasEntity } from "../catalog/atlas_model.ts";
import type { BulkImport, CsvTemplate, ImportUnit, PlannedAction, UnitOutcome } from "../csv/types.ts";
import {
  AuthenticationError,
  AuthorizationError,
  CatalogError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UsageError,
} from "../core/errors.ts";
import { groupLineageRows, type LineageProcessItem } from "./lineage_csv_rows.ts";
import { lineageDiff, refGuids, type Resolved, sameJson } from "./lineage_csv_diff.ts";
import { ColumnLineageChecker } from "../lineage/column_mapping_check.ts";
import { metadataWithoutMapping } from "../lineage/column_mapping_rows.ts";
import {
  columnRequest,
  describeIssue,
  entriesOf,
  hasColumnLineage,
  processTypeOf,
} from "./column_lineage_items.ts";

/** Qualified names asked for in one unique-attribute lookup, to keep the URL short. */
const LOOKUP_CHUNK = 50;
/** Super types followed at most when deciding whether a type is a data set. */
const MAX_TYPE_DEPTH = 16;
const MAX_REASON = 500;

/** Why an end cannot be used: it is missing, deleted, or (with validation) not a data set. */
export interface EndProblem {
  kind: "missing" | "deleted" | "not-a-data-set";
  message: string;
}

/** Reads lineage ends once per run and checks them; shares the lineage builder's cache. */
export class LineageEndChecker {
  readonly cache = createLineageCache();
  readonly #dataSets = new Map<string, Promise<boolean>>();

  constructor(readonly catalog: CatalogClient, readonly validate: boolean) {}

  /** The end with this GUID, or why rows cannot name it. Failures other than "not found" are thrown. */
  async check(guid: string, signal?: AbortSignal): Promise<{ end: LineageEnd } | { problem: EndProblem }> {
    const lookup = await lookupEnd(this.catalog, { guid }, this.cache, signal);
    if ("problem" in lookup) {
      const deleted = lookup.problem === "is deleted";
      return { problem: { kind: deleted ? "deleted" : "missing", message: lookup.problem } };
    }
    if (this.validate && !await this.#isDataSet(lookup.end.typeName, signal, 0)) {
      return {
        problem: {
          kind: "not-a-data-set",
          message:
            `is a ${lookup.end.typeName}, not a data set: lineage runs between data sets (DataSet or ` +
            "a type derived from it), such as tables, files and folders",
        },
      };
    }
    return lookup;
  }

  /** The ends of a process, or why its rows are rejected (every bad end named). */
  async ends(
    item: LineageProcessItem,
    signal?: AbortSignal,
  ): Promise<{ source: LineageEnd; target: LineageEnd } | { reason: string }> {
    const [source, target] = await Promise.all([
      this.check(item.sourceGuid, signal),
      this.check(item.targetGuid, signal),
    ]);
    if ("end" in source && "end" in target) return { source: source.end, target: target.end };
    const reasons: string[] = [];
    if ("problem" in source) reasons.push(`source_entity_guid ${item.sourceGuid} ${source.problem.message}`);
    if ("problem" in target) reasons.push(`target_entity_guid ${item.targetGuid} ${target.problem.message}`);
    return { reason: reasons.join("; ") };
  }

  #isDataSet(typeName: string, signal: AbortSignal | undefined, depth: number): Promise<boolean> {
    if (typeName === "DataSet") return Promise.resolve(true);
    if (depth > MAX_TYPE_DEPTH) return Promise.resolve(false);
    let answer = this.#dataSets.get(typeName);
    if (!answer) {
      answer = (async () => {
        try {
          const def = await this.catalog.types.get("entity", { name: typeName }, signal);
          for (const superType of def.superTypes ?? []) {
            if (await this.#isDataSet(superType, signal, depth + 1)) return true;
          }
          return false;
        } catch (error) {
          // A type the catalog cannot show is left to the catalog to judge when the process is written.
          if (error instanceof NotFoundError) return true;
          throw error;
        }
      })();
      this.#dataSets.set(typeName, answer);
      answer.catch(() => this.#dataSets.delete(typeName));
    }
    return answer;
  }
}

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

/** A refusal of one process (bad request, conflict, …): only that unit is rejected. */
function refusesUnit(error: unknown): error is CatalogError | UsageError {
  if (error instanceof UsageError) return true;
  if (!(error instanceof CatalogError)) return false;
  if (
    error instanceof AuthenticationError || error instanceof AuthorizationError ||
    error instanceof RateLimitError || error instanceof NetworkError || error instanceof TimeoutError
  ) return false;
  return !(error instanceof ServerError && [502, 503, 504].includes(error.status));
}

function refusalReason(error: CatalogError | UsageError): string {
  const prefix = error instanceof CatalogError
    ? `${error.status}${error.code ? ` ${error.code}` : ""}: `
    : "";
  return `${prefix}${error.message}`.replace(/\s+/g, " ").slice(0, MAX_REASON);
}

/**
 * `catalog` whose process writes are never repeated by the HTTP core: the upsert goes as a bulk write of
 * one entity marked not idempotent, so an answer lost after the service wrote the process reaches the engine,
 * which asks whether the process is there (`applied`) instead of writing it again.
 */
function writingOnce(catalog: CatalogClient): CatalogClient {
  // An import built only to group rows into units is given no client.
  if (catalog === undefined) return catalog;
  const bound = <T extends object>(target: T, override: Record<string | symbol, unknown>): T =>
    new Proxy(target, {
      get: (object, key) => {
        if (key in override) return override[key];
        const value = Reflect.get(object, key, object);
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  const entity = bound(catalog.entity, {
    createOrUpdate: (written: AtlasEntity, signal?: AbortSignal) =>
      catalog.entity.createOrUpdateMany([written], signal, { idempotent: false }),
  });
  return bound(catalog, { entity });
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

/**
 * Creates or updates the process of one row group whose ends resolved; a refusal of the catalog is the
 * group's rejection, anything else stops the import. Attributes the type did not store go to `notStored`.
 */
async function writeProcess(
  catalog: CatalogClient,
  item: LineageProcessItem,
  options: { cache: LineageEndChecker["cache"]; signal?: AbortSignal; notStored: Set<string> },
): Promise<UnitOutcome> {
  const extraAttributes: Record<string, unknown> = { ...metadataWithoutMapping(item.metadata) };
  if (item.relationshipType !== undefined) extraAttributes.relationshipType = item.relationshipType;
  try {
    const result = await createLineage(catalog, {
      sources: [{ guid: item.sourceGuid }],
      targets: [{ guid: item.targetGuid }],
      processName: item.processName,
      processType: item.processType,
      description: item.description,
      owner: item.owner,
      confidenceScore: item.confidenceScore,
      extraAttributes,
      columnMappings: item.columnMappings,
      columnMappingEntries: entriesOf(item),
    }, { cache: options.cache, signal: options.signal });
    result.attributesNotStored.forEach((name) => options.notStored.add(name));
    return { status: result.created ? "created" : "updated" };
  } catch (error) {
    if (!refusesUnit(error)) throw error;
    return {
      status: "rejected",
      reason: refusalReason(error),
      httpStatus: error instanceof CatalogError ? error.status : undefined,
      code: error instanceof CatalogError ? error.code : undefined,
    };
  }
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
