/**
 * Client-side rate limiter shared by every request of one client: a token bucket (steady rate with a
 * one-second burst) plus a shared pause, so that when the service throttles one call the others wait too
 * instead of each discovering the 429 on its own.
 *
 * @example
 * ```ts
 * import { RateLimiter } from "./rate_limiter.ts";
 * const limiter = new RateLimiter(50);
 * await limiter.acquire();
 * limiter.pauseFor(1000); // after a 429 with Retry-After: 1
 * ```
 *
 * @module
 */
import { clampDelayMs, sleep } from "./retry.ts";

export class RateLimiter {
  readonly #ratePerSecond: number;
  readonly #capacity: number;
  readonly #now: () => number;
  #tokens: number;
  #refilledAt: number;
  #pausedUntil = 0;

  /** `ratePerSecond` 0 turns the bucket off (the shared pause still applies). */
  constructor(ratePerSecond: number, now: () => number = Date.now) {
    this.#ratePerSecond = ratePerSecond;
    this.#capacity = Math.max(1, ratePerSecond);
    this.#now = now;
    this.#tokens = this.#capacity;
    this.#refilledAt = now();
  }

  /** Waits until a request may be sent. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const wait = this.#reserve();
      if (wait <= 0) return;
      await sleep(wait, signal);
    }
  }

  /** Holds every caller back for `ms` (the service's Retry-After). Never shortens an existing pause. */
  pauseFor(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + clampDelayMs(ms));
  }

  /** Takes a token when one is free and returns 0, or returns how long to wait before trying again. */
  #reserve(): number {
    const now = this.#now();
    if (now < this.#pausedUntil) return this.#pausedUntil - now;
    if (this.#ratePerSecond <= 0) return 0;
    const elapsed = (now - this.#refilledAt) / 1000;
    this.#tokens = Math.min(this.#capacity, this.#tokens + elapsed * this.#ratePerSecond);
    this.#refilledAt = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.#tokens) / this.#ratePerSecond) * 1000);
  }
}
