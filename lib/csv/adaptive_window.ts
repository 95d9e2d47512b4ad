/**
 * How many batches a bulk import keeps in flight: it starts small, grows while answers come back as fast
 * as they did unloaded, and shrinks when they slow down or the service answers 429. Bounded by
 * `--concurrency`, never below one batch.
 *
 * Design: docs/design/rate-limits.md
 *
 * @example
 * ```ts
 * import { AdaptiveWindow } from "./adaptive_window.ts";
 * const window = new AdaptiveWindow(32); // window.size === 4: it starts small
 * const requests = [window.sent(), window.sent(), window.sent(), window.sent()];
 * for (const request of requests) window.answered(request); // window.size === 8 (slow start)
 * window.throttled(); // a 429: window.size === 4
 * ```
 *
 * @module
 */

/** Batches in flight at the start: as many as a fixed window held before the window adapted. */
export const INITIAL_WINDOW = 4;
/** A round trip up to this multiple of the long-term average is not queueing (GradientLimit's rttTolerance). */
const TOLERANCE = 2;
/** Share of the gradient's cut applied per answer (Gradient2Limit's default smoothing). */
const SMOOTHING = 0.2;
/** Answers the long-term average spans once warmed up (an exponential average over about this many). */
const LONG_WINDOW = 300;
/** Answers averaged plainly before the exponential average takes over. */
const WARM_UP = 10;

/** A request in flight: when it was sent, and how many were in flight then (itself included). */
export interface SentRequest {
  at: number;
  inFlight: number;
}

export interface AdaptiveWindowOptions {
  /** Batches in flight at the start (default {@link INITIAL_WINDOW}, at most `max`). */
  initial?: number;
  /** After a 429 halves the window, further 429s within this time do not (default 1 s). */
  coolDownMs?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

export class AdaptiveWindow {
  readonly max: number;
  #estimate: number;
  #slowStart = true;
  #inFlight = 0;
  /** Long-term average round trip, and how many answers it holds (to {@link WARM_UP}). */
  #longRtt = 0;
  #samples = 0;
  #lastCut = -Infinity;
  /** Requests sent before this time overlap a throttle or its pause: their round trips are not samples. */
  #throttledUntil = -Infinity;
  readonly #coolDownMs: number;
  readonly #now: () => number;

  constructor(max: number, options: AdaptiveWindowOptions = {}) {
    this.max = Math.max(1, Math.floor(max));
    this.#estimate = Math.min(this.max, Math.max(1, Math.floor(options.initial ?? INITIAL_WINDOW)));
    this.#coolDownMs = options.coolDownMs ?? 1000;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Batches allowed in flight now. */
  get size(): number {
    return Math.max(1, Math.min(this.max, Math.floor(this.#estimate)));
  }

  /** The long-term average round trip in milliseconds (0 before the first answer). */
  get baselineMs(): number {
    return this.#longRtt;
  }

  /** A request leaves; returns what to hand back to {@link answered} or {@link ended}. */
  sent(): SentRequest {
    return { at: this.#now(), inFlight: ++this.#inFlight };
  }

  /**
   * The request ended without a round trip to learn from (it failed, was retried, or
   * was a half of a refused batch): it is no longer in flight.
   */
  ended(_request: SentRequest): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
  }

  /** The request was answered: its round trip grows or shrinks the window. */
  answered(request: SentRequest): void {
    // In flight while it was: when it left or when it came back, whichever was more.
    const inFlight = Math.max(request.inFlight, this.#inFlight);
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    const startedAt = request.at;
    // Karn's rule: a round trip that overlaps a throttle measured the pause.
    if (startedAt <= this.#throttledUntil) return;
    const now = this.#now();
    const rtt = Math.max(0.001, now - startedAt);
    if (this.#samples < WARM_UP) {
      this.#samples++;
      this.#longRtt += (rtt - this.#longRtt) / this.#samples;
    } else {
      this.#longRtt += (rtt - this.#longRtt) * (2 / (LONG_WINDOW + 1));
    }
    // Answers far faster than the average: a busy spell is over, let the baseline catch up.
    if (this.#longRtt / rtt > 2) this.#longRtt *= 0.9;
    const gradient = Math.max(0.5, Math.min(1, (TOLERANCE * this.#longRtt) / rtt));
    if (gradient < 1) {
      this.#slowStart = false;
      this.#estimate = Math.max(1, this.#estimate * (1 - SMOOTHING * (1 - gradient)));
      return;
    }
    // The import, not the service, limited what was in flight: nothing learnt about a larger window.
    if (inFlight < this.#estimate / 2) return;
    this.#estimate = Math.min(this.max, this.#estimate + (this.#slowStart ? 1 : 1 / this.#estimate));
  }

  /**
   * The service answered 429, asking for a pause of `pauseMs` when known: halve the window (once per
   * cool-down), and leave slow start.
   */
  throttled(pauseMs = 0): void {
    const now = this.#now();
    this.#throttledUntil = Math.max(this.#throttledUntil, now + Math.max(this.#coolDownMs, pauseMs));
    this.#slowStart = false;
    if (now - this.#lastCut < this.#coolDownMs) return;
    this.#lastCut = now;
    this.#estimate = Math.max(1, Math.floor(this.#estimate / 2));
  }

  /**
   * A batch completed. The window learns from each request's answer ({@link answered}), since a batch can
   * take several (lookups, halves of a refused batch); this says nothing more.
   */
  succeeded(): void {}
}
