/**
 * Retry policy of the HTTP core: which failures are worth another attempt, and how long to wait.
 * `Retry-After` (seconds or an HTTP date) and `retry-after-ms`/`x-ms-retry-after-ms` come first;
 * otherwise exponential backoff with jitter, as the Azure SDK policies do.
 *
 * @example
 * ```ts
 * import { backoffDelayMs, retryAfterMs } from "./retry.ts";
 * retryAfterMs(new Headers({ "retry-after": "2" })); // 2000
 * backoffDelayMs(3, { baseMs: 500, maxMs: 30_000 }); // about 2000, with jitter
 * ```
 *
 * @module
 */

/** Statuses a retry can fix: throttling and transient gateway or service unavailability. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Statuses that mean the service did not act on the request, so repeating even a non-idempotent POST
 * cannot create a duplicate. 429 is a refusal before processing; the others may have been processed.
 */
export const NOT_PROCESSED_STATUSES: ReadonlySet<number> = new Set([429]);

/** How a failed attempt ended, for {@link shouldRetry}. */
export type AttemptOutcome =
  | { kind: "status"; status: number }
  /** `sent` is false only when the connection could not be opened, so nothing reached the service. */
  | { kind: "network"; sent: boolean }
  | { kind: "timeout" };

/** Whether another attempt is allowed for this outcome. */
export function shouldRetry(outcome: AttemptOutcome, idempotent: boolean): boolean {
  switch (outcome.kind) {
    case "status":
      if (!RETRYABLE_STATUSES.has(outcome.status)) return false;
      return idempotent || NOT_PROCESSED_STATUSES.has(outcome.status);
    case "network":
      return idempotent || !outcome.sent;
    case "timeout":
      return idempotent;
  }
}

/**
 * The longest delay a timer can hold: `setTimeout` keeps delays in a 32-bit signed integer and fires a
 * longer one after 1 ms instead (with a TimeoutOverflowWarning), which turned a huge Retry-After into
 * immediate retries. Every computed wait goes through {@link clampDelayMs}.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A computed delay made safe for a timer: NaN and negatives become 0, anything longer {@link MAX_TIMER_MS}. */
export function clampDelayMs(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(Math.ceil(ms), MAX_TIMER_MS);
}

/** `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), `Sunday, 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`. */
const HTTP_DATE =
  /^(?:[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * The wait the service asked for, in milliseconds, or undefined when it named none or named it in a form
 * that is not valid (`-5`, `soon`, `1e3`, a date in the past): the caller's backoff applies then. A value
 * is never a date unless it has the shape of an HTTP date (`Date.parse("-5")` is a day in 2001). The
 * result may be far longer than any timer holds; callers compare it with their maximum wait.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  for (const name of ["retry-after-ms", "x-ms-retry-after-ms"]) {
    const raw = headers.get(name)?.trim();
    if (raw !== undefined && /^\d+(\.\d+)?$/.test(raw)) return Math.ceil(Number(raw));
  }
  const raw = headers.get("retry-after")?.trim();
  if (raw === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.ceil(Number(raw) * 1000);
  if (!HTTP_DATE.test(raw)) return undefined;
  const date = Date.parse(raw);
  return Number.isNaN(date) || date <= now ? undefined : date - now;
}

export interface BackoffOptions {
  /** Delay before the first retry, before jitter. */
  baseMs: number;
  /** Upper bound of any computed delay. */
  maxMs: number;
  /** Source of randomness in [0, 1); injectable for tests. */
  random?: () => number;
}

/**
 * Exponential backoff with "equal jitter": half the exponential step is fixed, half random, so retries
 * of many clients spread out without collapsing to zero.
 */
export function backoffDelayMs(attempt: number, options: BackoffOptions): number {
  const random = options.random ?? Math.random;
  const exponential = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** Resolves after `ms` (at most {@link MAX_TIMER_MS}), or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, clampDelayMs(ms));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
