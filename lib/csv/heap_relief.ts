/**
 * Keeps a long bulk import's heap near what it holds. A million-row import holds little at any moment (a
 * few batches in flight), but V8 sizes its heap by what survives collections rather than by what stays
 * alive: every young collection finds the batches in flight and the HTTP client's exchanges still alive,
 * and V8 doubles the young generation each time the bytes that survived since it last grew exceed its
 * size (up to 2 × 32 MB), while what it promoted to the old generation (batches that lived through two
 * young collections, answers being read) waits there for a full collection that V8 puts off until the old
 * generation has doubled. The import's resident memory grew from 85 MB to about 160 MB that way, though
 * its live heap stayed near 17 MB.
 *
 * So while a large import sends, the engine asks V8 for a memory-reducing full collection at the start
 * (after the check pass), then every 5 s while the heap grows (at once if it grows by 40 MB): that frees
 * what was promoted and shrinks the young generation back. Measured on a million-row import against a
 * loopback sink: peak resident memory 122–141 MB instead of 154–167 MB. It is not free: each collection
 * marks a heap of about 17 MB twice and the young generation regrows from 1 MB, so the import's CPU time
 * grows by a fifth to a quarter, and where the import is bound by its own CPU its rows/s drop with it
 * (100,000 rows against the emulator with the adaptive window: 21,100 instead of 24,500 rows/s, 4 runs
 * each). Collected every 2 s or on 48 MB of growth instead, the peak was 142–144 MB and that import 8%
 * slower; every second, 113–115 MB for yet more CPU time. An import waiting on a real service grows its
 * heap slowly and collects seldom.
 *
 * Issue 29 moved the interval from 1.5 s to 5 s: each `gc()` is V8's low-memory notification, two full
 * collections of which the second finds nothing (whatever options `gc` is given), and it cost the
 * default import against the emulator a fifth of its processor time (100,000 rows: 36–44 µs of CPU a row
 * instead of 46–53), while the million rows sent to the sink peaked at 108.5 MB instead of 106.7 MB (both
 * runs on the same loaded machine; the 40 MB bound still collects at once).
 *
 * V8 offers that collection only through `gc()`, which it defines in contexts made after `--expose-gc` is
 * set; the flag can be set while running (node:v8) and reaches the context `node:vm` makes, so no
 * `deno run` flag is needed. Those modules (some 10 MB of Node compatibility code) load with the first
 * collection, and imports of fewer than {@link HEAP_RELIEF_MIN_ROWS} rows, which end before their heap
 * grows, run without any of it. Where `gc()` cannot be had, the import simply runs without it.
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
