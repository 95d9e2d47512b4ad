/**
 * Fault injection and request accounting. For every non-admin request the server asks the
 * {@link FaultInjector} for a {@link FaultDecision}: the first matching scripted step wins; otherwise the
 * requests-per-second limit, then the random throttle, error and drop rates apply, in that order. Each
 * request, faulted or not, is counted and logged, so tests can prove how often a client really sent it.
 *
 * @example
 * ```ts
 * import { FaultInjector } from "./faults.ts";
 * const faults = new FaultInjector();
 * faults.script([{ status: 429, retryAfterSeconds: 2, method: "POST" }]);
 * console.log(faults.plan("POST", "/datamap/api/atlas/v2/entity", Date.now()).status); // 429
 * ```
 *
 * @module
 */
import {
  DEFAULT_FAULT_SETTINGS,
  type FaultSettings,
  type FaultStep,
  validateFaultScript,
  validateFaultSettings,
} from "./fault_settings.ts";

/** One request as the emulator saw it. `status` is 0 when the response was dropped. */
export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  /** Which fault answered, if any: script, rps, throttle, error or drop. */
  fault?: string;
}

/** Counters of non-admin requests since start or the last reset. */
export interface EmulatorStats {
  total: number;
  /** Requests per `"METHOD /path"` (the path without query). */
  byRoute: Record<string, number>;
  /** The latest requests, oldest first, capped at {@link MAX_LOG_ENTRIES}. */
  log: RequestLogEntry[];
}

/** In-process control of fault injection; the same operations as the `/_emulator` admin endpoints. */
export interface FaultController {
  /** Changes some settings (validated; throws `FaultSettingsError`) and returns them all. */
  set(changes: Partial<FaultSettings>): FaultSettings;
  /** The current settings. */
  get(): FaultSettings;
  /** Replaces the pending script with `steps` (validated; throws `FaultSettingsError`). */
  script(steps: FaultStep[]): void;
  /** Scripted steps not yet consumed. */
  pendingSteps(): FaultStep[];
  /** Clears settings, script, rate-limit window and stats. */
  reset(): void;
  /** A snapshot of the request counters and log. */
  stats(): EmulatorStats;
}

/** What to do with one request. */
export interface FaultDecision {
  /** Total delay before the response (latency plus a step's delay). */
  delayMs: number;
  /** Answer this error status instead of the real response. */
  status?: number;
  retryAfterSeconds?: number;
  retryAfterMs?: number;
  /** Cut the response off mid-body. */
  drop: boolean;
  /** Perform the request before answering `status` or dropping. */
  afterHandling: boolean;
  /** Which fault applies, for the log. */
  fault?: string;
}

/** Entries kept in {@link EmulatorStats.log}. */
export const MAX_LOG_ENTRIES = 10_000;

/** Small, fast, seedable PRNG (mulberry32); returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The emulator's fault state; the server uses {@link plan} and {@link record}, callers the controller API. */
export class FaultInjector implements FaultController {
  #settings: FaultSettings = { ...DEFAULT_FAULT_SETTINGS };
  #steps: FaultStep[] = [];
  #random: () => number = Math.random;
  #admitted: number[] = [];
  #total = 0;
  #byRoute = new Map<string, number>();
  #log: RequestLogEntry[] = [];

  constructor(initial: Partial<FaultSettings> = {}) {
    this.set(initial);
  }

  set(changes: Partial<FaultSettings>): FaultSettings {
    const valid = validateFaultSettings(changes) as Partial<FaultSettings> & { randomSeed?: number | null };
    const next: FaultSettings = { ...this.#settings };
    for (const [field, value] of Object.entries(valid)) {
      if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
    }
    if (valid.randomSeed === null) delete next.randomSeed;
    this.#settings = next;
    if ("randomSeed" in valid) {
      this.#random = next.randomSeed === undefined ? Math.random : mulberry32(next.randomSeed);
    }
    if ("requestsPerSecond" in valid) this.#admitted = [];
    return this.get();
  }

  get(): FaultSettings {
    return { ...this.#settings };
  }

  script(steps: FaultStep[]): void {
    this.#steps = validateFaultScript(steps).map((step) => ({ ...step }));
  }

  pendingSteps(): FaultStep[] {
    return this.#steps.map((step) => ({ ...step }));
  }

  reset(): void {
    this.#settings = { ...DEFAULT_FAULT_SETTINGS };
    this.#random = Math.random;
    this.#steps = [];
    this.#admitted = [];
    this.#total = 0;
    this.#byRoute.clear();
    this.#log = [];
  }

  stats(): EmulatorStats {
    return {
      total: this.#total,
      byRoute: Object.fromEntries(this.#byRoute),
      log: this.#log.map((entry) => ({ ...entry })),
    };
  }

  /** Decides the faults of one request at time `now` (epoch ms); consumes a matching scripted step. */
  plan(method: string, path: string, now: number): FaultDecision {
    const settings = this.#settings;
    const index = this.#steps.findIndex((step) =>
      (step.path === undefined || path.includes(step.path)) &&
      (step.method === undefined || step.method.toUpperCase() === method.toUpperCase())
    );
    if (index >= 0) {
      const [step] = this.#steps.splice(index, 1);
      return {
        delayMs: settings.latencyMs + (step.delayMs ?? 0),
        status: step.status,
        retryAfterSeconds: step.retryAfterSeconds,
        retryAfterMs: step.retryAfterMs,
        drop: step.drop === true,
        afterHandling: step.afterHandling === true,
        fault: step.status !== undefined || step.drop ? "script" : undefined,
      };
    }

    const decision: FaultDecision = { delayMs: settings.latencyMs, drop: false, afterHandling: false };
    const waitMs = this.#rateLimitWait(now);
    // Always draw the same number of values so a seeded run is reproducible whatever rates are set.
    const [throttleDraw, errorDraw, dropDraw] = [this.#random(), this.#random(), this.#random()];
    if (waitMs > 0) {
      return {
        ...decision,
        status: 429,
        retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
        retryAfterMs: waitMs,
        fault: "rps",
      };
    }
    if (throttleDraw < settings.throttleRate) {
      return { ...decision, status: 429, retryAfterSeconds: settings.retryAfterSeconds, fault: "throttle" };
    }
    if (errorDraw < settings.errorRate) {
      const retryAfterSeconds = settings.errorStatus === 503 ? settings.retryAfterSeconds : undefined;
      return { ...decision, status: settings.errorStatus, retryAfterSeconds, fault: "error" };
    }
    if (dropDraw < settings.dropRate) return { ...decision, drop: true, fault: "drop" };
    return decision;
  }

  /** Counts one answered request. */
  record(entry: RequestLogEntry): void {
    this.#total += 1;
    const route = `${entry.method} ${entry.path}`;
    this.#byRoute.set(route, (this.#byRoute.get(route) ?? 0) + 1);
    this.#log.push(entry);
    if (this.#log.length > MAX_LOG_ENTRIES) this.#log.splice(0, this.#log.length - MAX_LOG_ENTRIES);
  }

  // Sliding window: `capacity` requests per window, sized so the long-run rate is requestsPerSecond.
  // Returns 0 when the request is admitted, else the milliseconds until the oldest slot frees.
  #rateLimitWait(now: number): number {
    const rps = this.#settings.requestsPerSecond;
    if (rps <= 0) return 0;
    const capacity = Math.max(1, Math.floor(rps));
    const windowMs = (capacity / rps) * 1000;
    while (this.#admitted.length > 0 && this.#admitted[0] <= now - windowMs) this.#admitted.shift();
    if (this.#admitted.length < capacity) {
      this.#admitted.push(now);
      return 0;
    }
    return Math.max(1, Math.ceil(this.#admitted[0] + windowMs - now));
  }
}
