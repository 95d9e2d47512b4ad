/**
 * How many batches a bulk import keeps in flight: additive increase, multiplicative decrease, as TCP does.
 * A 429 halves the window (at most once per cool-down, since one throttle is usually seen by every call in
 * flight at once); a run of successes as long as the window grows it by one, up to the configured maximum.
 *
 * @example
 * ```ts
 * import { AdaptiveWindow } from "./adaptive_window.ts";
 * const window = new AdaptiveWindow(8);
 * window.throttled(); // window.size === 4
 * for (let i = 0; i < 4; i++) window.succeeded(); // window.size === 5
 * ```
 *
 * @module
 */

export class AdaptiveWindow {
  readonly max: number;
  #size: number;
  #successes = 0;
  #lastCut = -Infinity;
  readonly #coolDownMs: number;
  readonly #now: () => number;

  constructor(max: number, options: { coolDownMs?: number; now?: () => number } = {}) {
    this.max = Math.max(1, Math.floor(max));
    this.#size = this.max;
    this.#coolDownMs = options.coolDownMs ?? 1000;
    this.#now = options.now ?? Date.now;
  }

  /** Batches allowed in flight now. */
  get size(): number {
    return this.#size;
  }

  throttled(): void {
    const now = this.#now();
    if (now - this.#lastCut < this.#coolDownMs) return;
    this.#lastCut = now;
    this.#size = Math.max(1, Math.floor(this.#size / 2));
    this.#successes = 0;
  }

  succeeded(): void {
    if (this.#size >= this.max) return;
    if (++this.#successes >= this.#size) {
      this.#size++;
      this.#successes = 0;
    }
  }
}
