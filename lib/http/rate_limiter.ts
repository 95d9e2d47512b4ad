/**
 * Client-side rate limiter shared by every request of one client: an optional fixed cap (a token bucket:
 * steady rate with a one-second burst, CATALOG_RATE_LIMIT), a shared pause, so that when the service
 * throttles one call the others wait too instead of each discovering the 429 on its own, and, once the
 * service has throttled, even pacing at the rate it was found to allow (lib/http/learnt_rate.ts), so the
 * requests held by a pause leave one interval apart instead of in a burst the service refuses again.
 *
 * @example
 * ```ts
 * import { RateLimiter } from "./rate_limiter.ts";
 * const limiter = new RateLimiter(50);
 * await limiter.acquire();
 * limiter.throttled(1000); // after a 429 with Retry-After: 1
 * ```
 *
 * @module
 */
import { LearntRate } from "./learnt_rate.ts";
import { clampDelayMs, sleep } from "./retry.ts";

export interface RateLimiterOptions {
  /** Learn the service's rate from its 429s and pace to it (default true). */
  learn?: boolean;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

export class RateLimiter {
  readonly #ratePerSecond: number;
  readonly #capacity: number;
  readonly #now: () => number;
  readonly #learnt: LearntRate | undefined;
  #tokens: number;
  #refilledAt: number;
  #pausedUntil = 0;
  /** The earliest time the next paced request may leave. */
  #nextSlot = 0;

  /** `ratePerSecond` 0 turns the fixed cap off (the shared pause and the learnt rate still apply). */
  constructor(ratePerSecond: number, options: RateLimiterOptions = {}) {
    this.#ratePerSecond = ratePerSecond;
    this.#capacity = Math.max(1, ratePerSecond);
    this.#now = options.now ?? (() => performance.now());
    this.#learnt = options.learn === false ? undefined : new LearntRate({ now: this.#now });
    this.#tokens = this.#capacity;
    this.#refilledAt = this.#now();
  }

  /** Requests a second the limiter paces to now (Infinity when it does not pace). */
  get pacedPerSecond(): number {
    return this.#learnt?.perSecond ?? Infinity;
  }

  /** Waits until a request may be sent. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const wait = this.#reserve();
      if (wait <= 0) break;
      await sleep(wait, signal);
    }
    for (;;) {
      // Each caller books its own slot, so callers released together leave one interval apart.
      const slot = this.#bookSlot();
      const now = this.#now();
      if (slot > now) await sleep(slot - now, signal);
      // A throttle during the wait: the slot was booked at a rate the service refused.
      const paused = this.#pausedUntil - this.#now();
      if (paused <= 0) break;
      await sleep(paused, signal);
    }
    this.#learnt?.sent();
  }

  /** Holds every caller back for `ms` (the service's Retry-After). Never shortens an existing pause. */
  pauseFor(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + clampDelayMs(ms));
  }

  /** The service answered 429 asking for a pause of `ms`: every caller waits it out, then paces slower. */
  throttled(ms: number): void {
    this.pauseFor(ms);
    this.#learnt?.throttled(ms);
  }

  /** The time the next request may leave at the learnt rate, booked for the caller. */
  #bookSlot(): number {
    const rate = this.pacedPerSecond;
    const now = this.#now();
    if (rate === Infinity) return now;
    const slot = Math.max(now, this.#pausedUntil, this.#nextSlot);
    this.#nextSlot = slot + 1000 / rate;
    return slot;
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
