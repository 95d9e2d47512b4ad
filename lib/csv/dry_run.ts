/**
 * A dry run of a bulk import: the checked file is read in batches, each batch's rows are looked up (the
 * import's `plan`, or `existing`), and the summary counts what would be created, updated, skipped or
 * rejected, with a preview of the first units. Nothing is written.
 *
 * @module
 */
import { AdaptiveWindow } from "./adaptive_window.ts";
import { rowsIn } from "./batch_sender.ts";
import { forEachBatch, unitBatches } from "./batches.ts";
import { checkedRowBatches } from "./check.ts";
import type { BulkImportOptions } from "./import_options.ts";
import { type BulkImportSummary, finishSummary, type PreviewEntry } from "./summary.ts";
import type { BulkImport, ImportUnit, PlannedAction } from "./types.ts";

/** What `plugin` would do with `options.file`, counted into `summary`. */

export async function dryRun<Item>(
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
  summary: BulkImportSummary,
  signal: AbortSignal,
  started: number,
): Promise<BulkImportSummary> {
  const preview: PreviewEntry[] = [];
  const limit = options.previewLimit ?? 20;
  let wouldCreate = 0, wouldUpdate = 0, wouldSkip = 0, wouldReject = 0, done = 0;
  const rows = checkedRowBatches(options.file, plugin.template, {
    displayName: summary.file,
    signal,
    delimiter: options.delimiter,
  });
  const window = new AdaptiveWindow(options.concurrency);
  const planned: Array<{ units: ImportUnit<Item>[]; actions: PlannedAction[] }> = [];
  await forEachBatch(unitBatches(plugin, rows, options.batchSize), window, async (units) => {
    let actions: PlannedAction[];
    if (plugin.plan) actions = await plugin.plan(units, signal);
    else {
      const exists = plugin.existing ? await plugin.existing(units, signal) : units.map(() => false);
      actions = exists.map((found): PlannedAction =>
        found ? (options.skipExisting ? "skip" : "update") : "create"
      );
    }
    units.forEach((unit, i) => {
      const rowCount = unit.lines.length;
      if (actions[i] === "create") wouldCreate += rowCount;
      else if (actions[i] === "update") wouldUpdate += rowCount;
      else if (actions[i] === "skip") wouldSkip += rowCount;
      else wouldReject += rowCount;
    });
    if (preview.length < limit) planned.push({ units, actions });
    done += rowsIn(units);
    options.progress?.update({ phase: "planning", done, total: summary.rows, errors: 0 });
  }, () => signal.aborted);
  signal.throwIfAborted();
  for (const { units, actions } of planned) {
    for (const [i, unit] of units.entries()) {
      if (preview.length >= limit) break;
      preview.push({ lines: unit.lines, action: actions[i], ...plugin.describe(unit) });
    }
  }
  preview.sort((a, b) => a.lines[0] - b.lines[0]);
  return finishSummary(summary, started, {
    pending: 0,
    wouldCreate,
    wouldUpdate,
    wouldSkip,
    wouldReject,
    preview,
  });
}
