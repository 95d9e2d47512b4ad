/**
 * The request rate a throttling service allows, learnt from its 429s, so a client can pace its requests
 * evenly instead of letting them out in bursts that a sliding-window limit refuses. A window of requests
 * in flight (lib/csv/adaptive_window.ts) bounds concurrency, not rate: against a limit of R requests a
 * second, the requests a pause held back leave together when it ends, the limiter frees its slots one at a
 * time, and every request beyond the free slots draws a 429 of its own (without pacing, half the writes of
 * the default import were refused).
 *
 * What it is based on:
 * - **Client-side rate limiting after a throttle** is the AWS SDKs' "adaptive" retry mode (botocore
 *   `retries/adaptive.py`, the Rust SDK's RFC "Implementing Adaptive Retry Behavior"): no limit until the
 *   first throttle; then a rate that is cut multiplicatively on each throttle and regrown with CUBIC.
 * - **Growth** is CUBIC's (RFC 9438, §4.2), on requests a second instead of a congestion window:
 *   `W(t) = C·(t − K)³ + Wmax` with `K = ∛(Wmax·(1 − β)/C)`, t the seconds since the last cut. The rate
 *   climbs fast back towards the rate that drew the throttle, stays near it (where a sliding window is
 *   fullest), then probes beyond it, so a limit that was raised is found again.
 * - **The cut** keeps β = 0.9 of the rate the service *admitted*: the requests sent over the last second
 *   minus those refused, over that second and the pause the 429 asks for (the time until the service
 *   takes more), not the rate sent: in a burst the client sends far more than the service takes, and the
 *   admitted rate is what the limit is. CUBIC's and AWS's β is 0.7, for a queue that must
 *   drain; here the Retry-After pause drains the overload, so the cut only has to stop the next one, and
 *   a cycle from the cut back to the limit averages `1 − (1 − β)/4` of it: 97.5% rather than 92.5%
 *   (tests/e2e/bulk_import_bench.ts measured 0.8 and 0.9 alike within noise, 0.9 a little higher).
 * - **One cut per throttle**: the requests in flight when the service starts refusing are refused
 *   together; the 429s during the pause the first asked for, and within one request interval of the cut,
 *   belong to it (TCP reduces its window once per round trip, RFC 5681 §3.1, for the same reason), and the
 *   cut is decided when the pause ends, so their refusals count in what was admitted.
 * - **No cut below the rate found** unless the service refuses a clear share: a loss-based rate cut for
 *   every 429 collapses under refusals that come whatever the rate (TCP's throughput under random loss
 *   falls as the loss rate grows, Mathis et al. 1997), so those are left to the pause; and what was
 *   admitted bounds the next rate only while the client sent at the rate paced to, not when backoffs held
 *   it back (see `#cut`).
 * - **Forgetting**: a rate that has regrown to twice the admitted rate without another throttle is
 *   dropped (no limit again), so a brief throttle does not pace a long-running client for ever.
 *
 * @example
 * ```ts
 * import { LearntRate } from "./learnt_rate.ts";
 * const rate = new LearntRate();
 * rate.perSecond; // Infinity: nothing learnt yet
 * rate.sent();
 * rate.throttled(1000); // a 429 asking for a second's pause
 * rate.perSecond; // still Infinity: the cut is decided when the pause has ended
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
const CLEAR_REFUSED = 5;
/** Sending at least this share of the rate paced to over the last second, the client is held by it. */
const PACE_USED = 0.8;
/** A learnt rate regrown to this multiple of the admitted rate is dropped. */
const FORGET_AT = 2;

export interface LearntRateOptions {
  /** Share of the admitted rate kept after a throttle (default {@link RATE_KEPT}). */
  kept?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** A throttle being measured: the last second as it stood at its first 429, and the refusals since. */
interface Throttle {
  at: number;
  pauseMs: number;
  /** Requests sent and refused within the second before `at`, refusals during the pause added. */
  sent: number;
  refused: number;
  /** The span `sent` covers: a second, or the client's age when shorter. */
  spanMs: number;
  /** The rate paced to when it began. */
  paced: number;
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
  /** A throttle whose pause has not ended: the requests in flight when it began are still being refused. */
  #throttle: Throttle | undefined;

  constructor(options: LearntRateOptions = {}) {
    this.#kept = options.kept ?? RATE_KEPT;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Requests a second to pace to now; Infinity when nothing is learnt (no throttle, or forgotten). */
  get perSecond(): number {
    const now = this.#now();
    this.#cutWhenPaused(now);
    return this.#rate(now);
  }

  /** A request leaves. */
  sent(): void {
    const now = this.#now();
    this.#firstSentAt ??= now;
    this.#sentAt.push(now);
    this.#forgetBefore(now - MEASURE_MS);
  }

  /**
   * The service answered 429 and asked for a pause of `pauseMs`. A 429 during that pause, or within one
   * request interval after the cut it led to, belongs to the same throttle. The cut is decided when the
   * pause ends, once the requests in flight at the first 429 have been answered (see {@link #cut}).
   */
  throttled(pauseMs = 0): void {
    const now = this.#now();
    this.#refusedAt.push(now);
    this.#forgetBefore(now - MEASURE_MS);
    if (this.#throttle) {
      this.#throttle.refused++;
      this.#cutWhenPaused(now);
      return;
    }
    if (now < this.#settledAt) return;
    const age = now - (this.#firstSentAt ?? now);
    this.#throttle = {
      at: now,
      pauseMs: Math.max(0, pauseMs),
      sent: this.#sentAt.length,
      refused: this.#refusedAt.length,
      spanMs: Math.min(MEASURE_MS, Math.max(1, age)),
      paced: this.#rate(now),
    };
    this.#cutWhenPaused(now);
  }

  /** Decides the cut of the throttle under way once its pause has passed (at once without a pause). */
  #cutWhenPaused(now: number): void {
    const throttle = this.#throttle;
    if (throttle && now >= throttle.at + throttle.pauseMs) this.#cut(throttle, now);
  }

  /**
   * Cuts the rate to {@link RATE_KEPT} of: what the service admitted, the first time or when it refused a
   * clear share of what was sent (the client is well over its limit); else, when the rate had regrown to
   * the rate of the last cut (probing past the limit, as CUBIC's loss at Wmax), of that or of what was
   * admitted, whichever is lower. A 429 below the rate of the last cut while the service takes nearly
   * everything is not a cut: such refusals come whatever the rate (another client's load, a transient
   * fault), and cutting for each would ratchet the rate down to nothing (with 5% of requests refused, to
   * a few a second), while the pause the 429 asked for already holds every request.
   */
  #cut(throttle: Throttle, now: number): void {
    this.#throttle = undefined;
    const { sent, refused, paced } = throttle;
    // What the service took over the last second (or the client's age, if shorter) and the pause it asked
    // for before it takes more: a window that admitted R at once and asks for the rest of its second
    // reads R a second, not the rate of the burst.
    const admitted = Math.max(MIN_RATE, ((sent - refused) * 1000) / (throttle.spanMs + throttle.pauseMs));
    const clearlyOver = refused >= CLEAR_REFUSED && refused > CLEAR_REFUSAL * sent;
    // Sending at the rate paced to (not held back by backoffs or by the window): what was admitted is
    // what the service takes, not only what the client asked of it.
    const atPace = sent >= PACE_USED * paced * (throttle.spanMs / 1000);
    let ceiling: number;
    if (paced === Infinity || clearlyOver) ceiling = admitted;
    // A sliding window refuses only once the rate has been over it for a while: the rate then is past the
    // limit, what was admitted over the last second is the limit.
    else if (paced >= this.#ceiling!) ceiling = atPace ? Math.min(paced, admitted) : paced;
    else return;
    this.#ceiling = ceiling;
    this.#cutAt = now;
    this.#settledAt = now + 1000 / this.#rate(now);
  }

  /** The rate CUBIC gives at `now` since the last cut. */
  #rate(now: number): number {
    if (this.#ceiling === undefined) return Infinity;
    const ceiling = this.#ceiling;
    const k = Math.cbrt((ceiling * (1 - this.#kept)) / SCALE);
    const t = (now - this.#cutAt) / 1000;
    const rate = SCALE * (t - k) ** 3 + ceiling;
    if (rate >= FORGET_AT * ceiling) {
      this.#ceiling = undefined;
      return Infinity;
    }
    return Math.max(MIN_RATE, rate);
  }

  #forgetBefore(oldest: number): void {
    while (this.#sentAt.length > 0 && this.#sentAt[0] < oldest) this.#sentAt.shift();
    while (this.#refusedAt.length > 0 && this.#refusedAt[0] < oldest) this.#refusedAt.shift();
  }
}
