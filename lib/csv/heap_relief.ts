/**
 * Keeps a long bulk import's heap near what it holds: while an import of at least
 * {@link HEAP_RELIEF_MIN_ROWS} rows sends, V8 is asked for a memory-reducing full collection every 5 s
 * while the heap grows (at once on 40 MB of growth), through the `gc()` that `--expose-gc` defines in a
 * `node:vm` context. Where `gc()` cannot be had, the import runs without it.
 *
 * Design: docs/design/bulk-engine.md
 *
 * @example
 * ```ts
 * import { startHeapRelief } from "./heap_relief.ts";
 * const relief = await startHeapRelief();
 * try {
 *   // … send the batches …
 * } finally {
 *   relief.stop();
 * }
 * ```
 *
 * @module
 */

/** How often the heap's size is looked at while an import sends. */
export const HEAP_CHECK_INTERVAL_MS = 100;

/**
 * When the next collection comes: `intervalMs` after the last one if the heap has grown by `settledBytes`
 * since (an import waiting on a slow service may not have), at once if it has grown by `urgentBytes`.
 */
export interface HeapReliefLimits {
  /** Least time between two collections while the heap grows by less than `urgentBytes`. */
  intervalMs: number;
  settledBytes: number;
  urgentBytes: number;
}

const MB = 1024 * 1024;

export const HEAP_RELIEF_LIMITS: HeapReliefLimits = {
  intervalMs: 5000,
  settledBytes: 12 * MB,
  urgentBytes: 40 * MB,
};

/** Imports of fewer rows run without heap relief: they end before their heap grows. */
export const HEAP_RELIEF_MIN_ROWS = 10_000;

/** Collections under way while an import sends; `stop` ends them. */
export interface HeapRelief {
  /** Memory-reducing collections made so far. */
  readonly collections: number;
  stop(): void;
}

/** What heap relief needs of V8: a memory-reducing full collection, and the heap's size. */
interface HeapTools {
  collect(): void;
  heapBytes(): number;
}

let tools: Promise<HeapTools | undefined> | undefined;

/** V8's `gc()` and heap statistics, made available once per process; undefined where not allowed. */
function heapTools(): Promise<HeapTools | undefined> {
  tools ??= (async () => {
    try {
      const [{ default: v8 }, { default: vm }] = await Promise.all([import("node:v8"), import("node:vm")]);
      v8.setFlagsFromString("--expose-gc");
      const gc: unknown = vm.runInNewContext("gc");
      if (typeof gc !== "function") return undefined;
      return { collect: () => gc(), heapBytes: () => v8.getHeapStatistics().total_heap_size };
    } catch {
      return undefined;
    }
  })();
  return tools;
}

/**
 * Starts memory-reducing collections: the first before it returns (once V8's `gc()` is at hand; without it,
 * none), then as `limits` say, until `stop`. The timer never keeps the process alive.
 */
export async function startHeapRelief(limits: HeapReliefLimits = HEAP_RELIEF_LIMITS): Promise<HeapRelief> {
  const found = await heapTools();
  let stopped = false;
  let collections = 0;
  let left = 0;
  let at = 0;
  const collect = () => {
    if (stopped || !found) return;
    found.collect();
    collections++;
    left = found.heapBytes();
    at = performance.now();
  };
  collect();
  const timer = found
    ? setInterval(() => {
      const grown = found.heapBytes() - left;
      const due = performance.now() - at >= limits.intervalMs;
      if (grown >= limits.urgentBytes || (due && grown >= limits.settledBytes)) collect();
    }, HEAP_CHECK_INTERVAL_MS)
    : undefined;
  if (timer !== undefined) Deno.unrefTimer(timer);
  return {
    get collections() {
      return collections;
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
