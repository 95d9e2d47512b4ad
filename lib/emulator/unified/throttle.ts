/**
 * The unified catalog's published rate limits: a sliding window (20 seconds on the service) per operation,
 * each operation limited by its own documented figure or by the default of its class (read or write).
 * Each operation keeps a ring of the timestamps of its last `limit` admitted requests, so a check costs
 * O(1): the request is admitted when the ring is not full or its oldest entry has left the window.
 *
 * @module
 */
import { throttled } from "./errors.ts";

/** Operation classes of the rate limits. */
export type OperationClass = "read" | "write";

/** Rate limits of the unified catalog area. */
export interface UnifiedThrottleLimits {
  /** Requests per window of a read operation without a figure of its own (list, get, query, facets…). */
  read?: number;
  /** Requests per window of a write operation without a figure of its own (create, update, delete). */
  write?: number;
  /** Per-operation figures, by operation name such as `terms.list` or `criticalDataElements.create`. */
  operations?: Record<string, number>;
}

/** The length of the service's sliding window. */
export const DEFAULT_WINDOW_MS = 20_000;

/**
 * Defaults: the documented figures (terms list 100, critical data element list 100 and create 200 per
 * 20 s; the data asset and data column figures of 2026-03-20-preview) and, for everything else, a read default of 1,000 and a write default of 300 per 20 s (inside the
 * published ranges of 100–2,000 reads and 80–600 writes).
 */
export const DEFAULT_LIMITS: Required<UnifiedThrottleLimits> = {
  read: 1000,
  write: 300,
  operations: {
    "terms.list": 100,
    "criticalDataElements.list": 100,
    "criticalDataElements.create": 200,
    // 2026-03-20-preview, from the SDK's docstrings (../shared/reference/unified-catalog-2026.md).
    "dataAssets.list": 150,
    "dataAssets.create": 500,
    "dataAssets.query": 800,
    "dataAssets.get": 1000,
    "dataAssets.update": 350,
    "dataAssets.delete": 80,
    "dataAssets.relationships.list": 1500,
    "dataAssets.relationships.create": 600,
    "dataAssets.relationships.delete": 80,
    "dataColumns.get": 1500,
    "dataColumns.ingest": 200,
    "dataColumns.query": 100,
    "dataColumns.relationships.list": 1500,
    "dataColumns.relationships.create": 600,
    "dataColumns.relationships.delete": 80,
  },
};

class Ring {
  readonly #times: Float64Array;
  #head = 0;
  #count = 0;

  constructor(readonly limit: number) {
    this.#times = new Float64Array(limit);
  }

  /** Admits the request at `now` (undefined) or answers the milliseconds until a slot frees. */
  admit(now: number, windowMs: number): number | undefined {
    const size = this.#times.length;
    if (this.#count < size) {
      this.#times[(this.#head + this.#count) % size] = now;
      this.#count++;
      return undefined;
    }
    const oldest = this.#times[this.#head];
    if (now - oldest >= windowMs) {
      this.#times[this.#head] = now;
      this.#head = (this.#head + 1) % size;
      return undefined;
    }
    return oldest + windowMs - now;
  }
}

/** The rate limiter of one emulator's unified catalog area. */
export class UnifiedThrottle {
  readonly #rings = new Map<string, Ring>();
  readonly #limits: Required<UnifiedThrottleLimits>;
  readonly #windowMs: number;

  constructor(limits: UnifiedThrottleLimits = {}, windowMs = DEFAULT_WINDOW_MS) {
    this.#limits = {
      read: limits.read ?? DEFAULT_LIMITS.read,
      write: limits.write ?? DEFAULT_LIMITS.write,
      operations: { ...DEFAULT_LIMITS.operations, ...limits.operations },
    };
    this.#windowMs = Math.max(1, windowMs);
  }

  /** The limit of an operation per window. */
  limitOf(operation: string, operationClass: OperationClass): number {
    return Math.max(1, Math.floor(this.#limits.operations[operation] ?? this.#limits[operationClass]));
  }

  /** Counts one request of `operation`; throws the 429 (with `Retry-After`) when over the limit. */
  check(operation: string, operationClass: OperationClass, now: number): void {
    let ring = this.#rings.get(operation);
    if (!ring) {
      ring = new Ring(this.limitOf(operation, operationClass));
      this.#rings.set(operation, ring);
    }
    const waitMs = ring.admit(now, this.#windowMs);
    if (waitMs !== undefined) {
      throw throttled(operation, ring.limit, this.#windowMs, Math.max(1, Math.ceil(waitMs / 1000)));
    }
  }
}
