/**
 * How the bulk engine turns checked rows into batches of units and keeps batches in flight: units are made
 * a row array at a time (one promise a batch, not one a row), and at most the window's size of batches
 * run at once. Both are written for files of millions of rows, where what is allocated a row, and what
 * V8 decides about it, decides the import's memory.
 *
 * @example
 * ```ts
 * import { forEachBatch, unitBatches } from "./batches.ts";
 * import { AdaptiveWindow } from "./adaptive_window.ts";
 * import { checkedRowBatches } from "./check.ts";
 * declare const plugin: import("./types.ts").BulkImport<unknown>;
 * const batches = unitBatches(plugin, checkedRowBatches("entities.csv", plugin.template), 100);
 * const signal = new AbortController().signal;
 * await forEachBatch(batches, new AdaptiveWindow(4), async (units) => {
 *   await plugin.send(units, signal);
 * }, () => false);
 * ```
 *
 * @module
 */
import type { AdaptiveWindow } from "./adaptive_window.ts";
import type { BulkImport, CheckedRow, ImportUnit } from "./types.ts";

/** Rows of arrays one by one, for imports that make their own units. */
async function* eachRow<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

/**
 * The unit of one row, built from an empty object and `Array.of`, which V8 never allocates straight into
 * the old generation, unlike literals with contents: when many units of the first batches outlive a young
 * collection, V8 may decide to, and every later unit, dead there until a full collection, keeps its item
 * and strings alive through each young collection (tens of megabytes on a million rows).
 */
function rowUnit<Item>(line: number, item: Item): ImportUnit<Item> {
  const unit = {} as ImportUnit<Item>;
  unit.lines = Array.of(line);
  unit.item = item;
  return unit;
}

/**
 * The batches of units of a stream of checked rows. With `toItem`, units are made a row array at a time,
 * with no promise per row: at millions of rows, per-row promises and iterator results are most of what
 * the engine allocates.
 */
export function unitBatches<Item>(
  plugin: BulkImport<Item>,
  rows: AsyncIterable<CheckedRow[]>,
  size: number,
): AsyncIterable<ImportUnit<Item>[]> {
  if (plugin.units) return batchesOf(plugin.units(eachRow(rows)), size);
  const toItem = plugin.toItem;
  if (!toItem) throw new Error(`import ${plugin.id} defines neither units nor toItem`);
  return (async function* () {
    let batch: ImportUnit<Item>[] = [];
    for await (const checked of rows) {
      for (const row of checked) {
        batch.push(rowUnit(row.line, toItem(row)));
        if (batch.length >= size) {
          yield batch;
          batch = [];
        }
      }
    }
    if (batch.length > 0) yield batch;
  })();
}

async function* batchesOf<T>(units: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const unit of units) {
    batch.push(unit);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Runs `work` for each batch with at most `window.size` in flight, and stops dispatching when
 * `shouldStop()` says so or a batch fails; the first failure is thrown once the batches in flight end.
 * A counter and one waiting resolver rather than `Promise.race` over the batches in flight: each race
 * would hang a reaction on every batch, and nothing is kept from one batch to the next.
 */
export async function forEachBatch<T>(
  batches: AsyncIterable<T[]>,
  window: AdaptiveWindow,
  work: (batch: T[], index: number) => Promise<void>,
  shouldStop: () => boolean,
): Promise<void> {
  let running = 0;
  let wake: (() => void) | undefined;
  let failure: { error: unknown } | undefined;
  let index = 0;
  const settled = () => {
    running--;
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const failed = (error: unknown) => {
    failure ??= { error };
    settled();
  };
  const oneSettles = () => new Promise<void>((resolve) => wake = resolve);
  try {
    for await (const batch of batches) {
      while (running >= window.size) await oneSettles();
      if (failure || shouldStop()) break;
      running++;
      work(batch, index++).then(settled, failed);
    }
  } finally {
    while (running > 0) await oneSettles();
  }
  if (failure) throw failure.error;
}
