/**
 * The request rate a throttling service allows, learnt from its 429s, so a client can pace its requests
 * evenly instead of letting them out in bursts that a sliding-window limit refuses. A window of requests
 * in flight (lib/csv/adaptive_window.ts) bounds concurrency, not rate: against a limit of R requests a
 * second, the requests a pause held back leave together when it ends, the limiter frees its slots one at a
 * time, and every request beyond the free slots draws a 429 of its own (issue 16: half the writes of the
 * default import were refused).
 *
 * What it is based on:
 * - **Client-side rate limiting after a throttle** is the AWS SDKs' "adaptive" retry mode (botocore
 *   `retries/adaptive.py`, the Rust SDK's RFC "Implementing Adaptive Retry Behavior"): no limit until the
 *   first throttle; then a rate that is cut multiplicatively on each throttle and regrown with CUBIC.
 * - **Growth** is CUBIC's (RFC 9438, §4.2), on requests a second instead of a congestion window:
 *   `W(t) = C·(t − K)³ + Wmax` with `K = ∛(Wmax·(1 − β)/C)`, t the seconds since the last cut. The rate
 *   climbs fast back towards the rate that drew the throttle, stays near it (where a sliding window is
 *   fullest), then probes beyond it, so a limit that was raised is found again.
 * - **The cut** keeps β = 0.9 of the rate the service *admitted* over the last second (requests sent
 *   minus those refused), not of the rate sent: in a burst the client sends far more than the service
 *   takes, and the admitted rate is what the limit is. CUBIC's and AWS's β is 0.7, for a queue that must
 *   drain; here the Retry-After pause drains the overload, so the cut only has to stop the next one, and
 *   a cycle from the cut back to the limit averages `1 − (1 − β)/4` of it: 97.5% rather than 92.5%
 *   (tests/e2e/bulk_import_bench.ts measured 0.8 and 0.9 alike within noise, 0.9 a little higher).
 * - **One cut per throttle**: the requests in flight when the service starts refusing are refused
 *   together; a 429 counts as a new throttle only after the pause it asked for and one request interval at
 *   the new rate (TCP reduces its window once per round trip, RFC 5681 §3.1, for the same reason).
 * - **No cut below the rate found** unless the service refuses a clear share: a loss-based rate cut for
 *   every 429 collapses under refusals that come whatever the rate (TCP's throughput under random loss
 *   falls as the loss rate grows, Mathis et al. 1997), so those are left to the pause (see `throttled`).
 * - **Forgetting**: a rate that has regrown to twice the admitted rate without another throttle is
 *   dropped (no limit again), so a brief throttle does not pace a long-running client for ever.
 *
 * @example
 * ```ts
 * import { LearntRate } from "./learnt_rate.ts";
 * const rate = new LearntRate();
 * rate.perSecond; // Infinity: nothing learnt yet
 * for (let i = 0; i < 30; i++) rate.sent();
 * rate.throttled(); // a 429: 0.9 × the 29 admitted in the last second
 * ```
 *
 * @module
 */

/** Share of the admitted rate kept after a throttle (CUBIC's β, see above). */
export const RATE_KEPT = 0.9;
/** CUBIC's scaling constant C (RFC 9438 §5; AWS's SCALE_CONSTANT). */
const SCALE = 0.4;
/** The slowest rate a throttle can cut to, in requests a second (AWS's MIN_FILL_RATE). */
const MIN_RATE = 0.5;
/** The span the admitted rate is measured over. */
const MEASURE_MS = 1000;
/**
 * Refusing more than this share of the requests of the last second, and at least {@link CLEAR_REFUSED} of
 * them (a share of a handful is chance), the service is well over the client.
 */
const CLEAR_REFUSAL = 0.2;
const CLEAR_REFUSED = 3;
/** A learnt rate regrown to this multiple of the admitted rate is dropped. */
const FORGET_AT = 2;

export interface LearntRateOptions {
  /** Share of the admitted rate kept after a throttle (default {@link RATE_KEPT}). */
  kept?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

export class LearntRate {
  readonly #kept: number;
  readonly #now: () => number;
  /** Times of the requests sent and of the 429s seen within the last {@link MEASURE_MS}. */
  readonly #sentAt: number[] = [];
  readonly #refusedAt: number[] = [];
  /** When the first request left: a client younger than a second measures over its own age. */
  #firstSentAt: number | undefined;
  /** The admitted rate at the last cut (CUBIC's Wmax), or undefined while nothing is learnt. */
  #ceiling: number | undefined;
  #cutAt = -Infinity;
  /** 429s before this time belong to the throttle already cut for. */
  #settledAt = -Infinity;

  constructor(options: LearntRateOptions = {}) {
    this.#kept = options.kept ?? RATE_KEPT;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Requests a second to pace to now; Infinity when nothing is learnt (no throttle, or forgotten). */
  get perSecond(): number {
    if (this.#ceiling === undefined) return Infinity;
    const ceiling = this.#ceiling;
    const k = Math.cbrt((ceiling * (1 - this.#kept)) / SCALE);
    const t = (this.#now() - this.#cutAt) / 1000;
    const rate = SCALE * (t - k) ** 3 + ceiling;
    if (rate >= FORGET_AT * ceiling) {
      this.#ceiling = undefined;
      return Infinity;
    }
    return Math.max(MIN_RATE, rate);
  }

  /** A request leaves. */
  sent(): void {
    const now = this.#now();
    this.#firstSentAt ??= now;
    this.#sentAt.push(now);
    this.#forgetBefore(now - MEASURE_MS);
  }

  /**
   * The service answered 429 and asked for a pause of `pauseMs`. Unless the throttle was already cut for,
   * the rate is cut to {@link RATE_KEPT} of: what the service admitted over the last second, the first
   * time or when it refused a clear share of what was sent (the client is well over its limit); else the
   * rate paced to, when that has regrown to the rate of the last cut (probing past the limit, as CUBIC's
   * loss at Wmax). A 429 below the rate of the last cut while the service takes nearly everything is not
   * a cut: such refusals come whatever the rate (another client's load, a transient fault), and cutting for
   * each would ratchet the rate down to nothing (with 5% of requests refused, to a few a second), while the
   * pause the 429 asked for already holds every request.
   */
  throttled(pauseMs = 0): void {
    const now = this.#now();
    this.#refusedAt.push(now);
    this.#forgetBefore(now - MEASURE_MS);
    if (now < this.#settledAt) return;
    const sent = this.#sentAt.length, refused = this.#refusedAt.length;
    const span = Math.min(MEASURE_MS, Math.max(1, now - (this.#firstSentAt ?? now)));
    const admitted = Math.max(MIN_RATE, ((sent - refused) * 1000) / span);
    const paced = this.perSecond;
    const clearlyOver = refused >= CLEAR_REFUSED && refused > CLEAR_REFUSAL * sent;
    let ceiling: number;
    if (paced === Infinity || clearlyOver) ceiling = admitted;
    else if (paced >= this.#ceiling!) ceiling = paced;
    else return;
    this.#ceiling = ceiling;
    this.#cutAt = now;
    this.#settledAt = now + Math.max(0, pauseMs) + 1000 / this.perSecond;
  }

  #forgetBefore(oldest: number): void {
    while (this.#sentAt.length > 0 && this.#sentAt[0] < oldest) this.#sentAt.shift();
    while (this.#refusedAt.length > 0 && this.#refusedAt[0] < oldest) this.#refusedAt.shift();
  }
}
