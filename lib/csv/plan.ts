/**
 * `--plan`: what an import would do, row by row and field by field, with nothing written. The file is
 * checked as an import checks it, read in batches, and each batch's current state looked up as the import
 * looks it up (the import's `diff`); every row becomes create, update (each changed field, old → new),
 * unchanged, skip or reject (why). The plan records the file's SHA-256 and, per row, every field it read
 * with its value then, so that `--apply-plan` (`plan_apply.ts`) can apply exactly that plan or refuse when
 * the file or the catalog changed since.
 *
 * @module
 */
import { UsageError } from "../core/errors.ts";
import { AdaptiveWindow } from "./adaptive_window.ts";
import { forEachBatch, unitBatches } from "./batches.ts";
import { checkCsvFile, checkedRowBatches } from "./check.ts";
import { type CsvDelimiter, delimiterName } from "./delimiter.ts";
import type { BulkImportOptions } from "./import_options.ts";
import { problemsError } from "./problems.ts";
import { isRowRefusal } from "./refusals.ts";
import type { BulkImport, FieldChange, ImportUnit, UnitDiff } from "./types.ts";

/** The format a plan file declares, so a file of another kind (or version) is refused by name. */
export const PLAN_FORMAT = "govcat-import-plan/1";
/** Rows one plan holds at most: a plan is kept in memory and written as one JSON file. */
export const MAX_PLAN_ROWS = 100_000;
/** Change rows a plan result lists (the plan file holds them all). */
export const PLAN_RESULT_ROWS = 1000;

/** One row (or unit of rows) of a plan. */
export interface PlanRow extends UnitDiff {
  /** The file's physical lines the unit came from. */
  lines: number[];
}

/** What `--plan` writes to `--plan-file`, and `--apply-plan` reads. */
export interface ImportPlan {
  format: typeof PLAN_FORMAT;
  operation: string;
  file: string;
  sha256: string;
  size: number;
  template: string;
  /** Import options that change what is sent (a template, `--if-exists`); the apply must use the same. */
  settings: Record<string, unknown>;
  createdAt: string;
  counts: Record<UnitDiff["action"], number>;
  rows: PlanRow[];
}

const isScalar = (value: unknown) => ["string", "number", "boolean"].includes(typeof value);

/** Whether a stored value already is what a row writes: scalars by their text (`"30"` is `30`). */
export function sameValue(stored: unknown, written: unknown): boolean {
  if (isScalar(stored) && isScalar(written)) return String(stored) === String(written);
  return JSON.stringify(stored ?? null) === JSON.stringify(written ?? null);
}

/** The file checked as an import checks it: problems stop the plan, listed; an empty file too. */
export async function checkPlannableFile<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
  signal: AbortSignal,
) {
  const display = options.displayName ?? options.file;
  const report = await checkCsvFile(options.file, plugin.template, {
    displayName: display,
    maxProblems: 30,
    signal,
    delimiter: options.delimiter,
  });
  if (report.problemCount > 0) {
    const delimiter = options.delimiter ? ` --delimiter=${delimiterName(options.delimiter)}` : "";
    throw problemsError(
      report,
      `Fix the rows above and plan again; \`govcat validate csv --csv-file ${display} --template ` +
        `${plugin.template.name}${delimiter} --report-file report.json\` lists every problem.`,
    );
  }
  if (report.rows === 0) throw new UsageError(`${display} has a header but no rows to import.`);
  if (report.rows > MAX_PLAN_ROWS) {
    throw new UsageError(
      `${display} has ${report.rows} rows; a plan holds at most ${MAX_PLAN_ROWS}. Nothing was read from the catalog.`,
      "Split the file and plan each part, or import it without --plan (--dry-run counts what would happen).",
    );
  }
  return report;
}

/** What names a unit, from its description, for a row whose lookup the catalog refused. */
function targetOf(described: Record<string, unknown>): string {
  const named = [described.typeName, described.qualifiedName].filter((part) => typeof part === "string");
  return String(described.guid ?? (named.length > 0 ? named.join(" ") : described.name ?? ""));
}

/**
 * The diffs of `units`; a lookup the catalog refuses (a 404 for one unknown GUID refuses a whole bulk read)
 * is asked again in halves, and a single unit it refuses is planned rejected, with the catalog's answer:
 * as the import's send would do with it.
 */
async function safeDiffs<Item>(
  plugin: BulkImport<Item>,
  units: ImportUnit<Item>[],
  signal: AbortSignal,
): Promise<UnitDiff[]> {
  try {
    return await plugin.diff!(units, signal);
  } catch (error) {
    if (!isRowRefusal(error) || error.status < 400 || error.status >= 500) throw error;
    if (units.length === 1) {
      const reason = `${error.status}: ${error.message}`;
      return [{
        action: "reject",
        target: targetOf(plugin.describe(units[0])),
        changes: [],
        reason,
        read: { guid: null },
      }];
    }
    const middle = Math.ceil(units.length / 2);
    return [
      ...await safeDiffs(plugin, units.slice(0, middle), signal),
      ...await safeDiffs(plugin, units.slice(middle), signal),
    ];
  }
}

/** The diffs of every unit of the file, in file order, as the import would see the catalog now. */
export async function diffFile<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
  delimiter: CsvDelimiter,
  signal: AbortSignal,
): Promise<PlanRow[]> {
  if (!plugin.diff) throw new UsageError(`${plugin.id} cannot make a plan.`);
  const rows: PlanRow[] = [];
  const batches = unitBatches(
    plugin,
    checkedRowBatches(options.file, plugin.template, {
      displayName: options.displayName ?? options.file,
      signal,
      delimiter,
    }),
    options.batchSize,
  );
  let done = 0;
  await forEachBatch(batches, new AdaptiveWindow(options.concurrency), async (units) => {
    const diffs = await safeDiffs(plugin, units, signal);
    units.forEach((unit, i) => rows.push({ lines: unit.lines, ...diffs[i] }));
    done += units.length;
    options.progress?.update({ phase: "planning", done, errors: 0 });
  }, () => signal.aborted);
  signal.throwIfAborted();
  return rows.sort((a, b) => a.lines[0] - b.lines[0]);
}

/** Makes the plan of importing `options.file` through `plugin`; nothing is written to the catalog. */
export async function makePlan<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
): Promise<ImportPlan> {
  const signal = options.signal ?? new AbortController().signal;
  const report = await checkPlannableFile(plugin, options, signal);
  try {
    const rows = await diffFile(plugin, options, report.delimiter, signal);
    const counts = { create: 0, update: 0, unchanged: 0, skip: 0, reject: 0 };
    for (const row of rows) counts[row.action] += row.lines.length;
    return {
      format: PLAN_FORMAT,
      operation: plugin.id,
      file: options.displayName ?? options.file,
      sha256: report.sha256,
      size: report.size,
      template: plugin.template.name,
      settings: options.settings ?? {},
      createdAt: new Date().toISOString(),
      counts,
      rows,
    };
  } finally {
    options.progress?.finish();
  }
}

/** One line of a plan as shown: a changed field, or the row itself when nothing changes. */
export interface PlanChangeRow {
  line: number;
  action: UnitDiff["action"];
  target: string;
  field: string;
  old: string;
  new: string;
  reason: string;
}

const shownValue = (value: unknown) =>
  value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);

/** The plan as rows of a table (one per changed field), at most `limit`. */
export function planChangeRows(plan: ImportPlan, limit = PLAN_RESULT_ROWS): PlanChangeRow[] {
  const shown: PlanChangeRow[] = [];
  const row = (planRow: PlanRow, change?: FieldChange): PlanChangeRow => ({
    line: planRow.lines[0],
    action: planRow.action,
    target: planRow.target,
    field: change?.field ?? "",
    old: shownValue(change?.old),
    new: shownValue(change?.new),
    reason: planRow.reason ?? "",
  });
  for (const planRow of plan.rows) {
    const changes = planRow.changes.length > 0 ? planRow.changes : [undefined];
    for (const change of changes) {
      if (shown.length >= limit) return shown;
      shown.push(row(planRow, change));
    }
  }
  return shown;
}

/** The one-line account of a plan, for stderr. */
export function planSummaryLine(plan: ImportPlan): string {
  const { create, update, unchanged, skip, reject } = plan.counts;
  return `${plan.operation} plan of ${plan.file}: ${create} to create, ${update} to update, ${unchanged} ` +
    `unchanged, ${skip} skipped, ${reject} rejected; nothing was written`;
}
