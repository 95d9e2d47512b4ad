/**
 * The HTTP core: the one client every catalog client sends through. It owns base URLs per API area, the
 * api-version query parameter, bearer tokens, the client-side rate limiter and the loop of one logical
 * request: attempts (`attempt.ts`, the only `fetch`), retries with backoff (`retry.ts`), per-attempt
 * timeouts and the request's deadline. Tokens never reach a log line or an error.
 *
 * What a catalog (or whatever answers in its place) sends is bounded: bodies are read as streams and
 * refused past `maxResponseBytes` decompressed (CATALOG_MAX_RESPONSE_BYTES), redirects are followed only
 * within the request's own origin (never to another host, port or scheme, so never from https to http),
 * and a Retry-After longer than `maxRetryAfterMs` (CATALOG_MAX_RETRY_WAIT) fails at once with a
 * RetryWaitTooLongError saying when to retry. An answer nested deeper than `maxJsonDepth`
 * (CATALOG_MAX_JSON_DEPTH) is refused before it is parsed, and one logical request, all its attempts and
 * backoff included, ends at `requestDeadlineMs` (CATALOG_REQUEST_DEADLINE) whatever each attempt's timeout.
 *
 * @example
 * ```ts
 * import { HttpClient } from "./client.ts";
 * const http = new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" } });
 * async function entity(guid: string): Promise<unknown> {
 *   return await http.request({ method: "GET", path: `/catalog/api/atlas/v2/entity/guid/${guid}` });
 * }
 * ```
 *
 * @module
 */
import type { CatalogError } from "../core/errors.ts";
import { DEFAULT_MAX_JSON_DEPTH } from "../core/json_depth.ts";
import { type Logger, redactSecrets, silentLogger } from "../core/log.ts";
import { USER_AGENT } from "../core/version.ts";
import { type AttemptResult, sendAttempt } from "./attempt.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, encodeBody, type ResponseType } from "./body_limits.ts";
import { deadlinePassed, finalError, waitTooLong } from "./error_mapping.ts";
import { DEFAULT_PAGING_LIMITS, PagingGuard, type PagingLimits } from "./paging_guard.ts";
import { RateLimiter } from "./rate_limiter.ts";
import { type QueryValue, requestUrl } from "./request_url.ts";
import { type AttemptOutcome, backoffDelayMs, clampDelayMs, shouldRetry, sleep } from "./retry.ts";

/** The catalog's API areas; each has its own base URL, api-version and error body shape. */
export type ApiArea = "datamap" | "unified" | "account" | "scan" | "workflow";

/** The HTTP methods the catalog APIs use. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";

/** Supplies bearer tokens; `undefined` means send none (loopback emulator). */
export interface BearerTokenSource {
  /** A current token (cached or fresh), or `undefined` to send no `Authorization` header. */
  getToken(signal?: AbortSignal): Promise<string | undefined>;
}

/** How an {@link HttpClient} reaches the catalog: base URLs, tokens, retries, limits. */
export interface HttpClientOptions {
  /** Base URL per area; `datamap` is required, the others default to it. */
  baseUrls: Partial<Record<ApiArea, string>> & { datamap: string };
  /** api-version per area; an area without one sends none. */
  apiVersions?: Partial<Record<ApiArea, string>>;
  /** Bearer tokens for every area without its own entry in `areaTokens`; none are sent without it. */
  tokens?: BearerTokenSource;
  /**
   * Token sources of areas that need another than `tokens`: an area whose base URL is a loopback emulator
   * while the others are a real account (or the reverse) must not share one decision about tokens.
   */
  areaTokens?: Partial<Record<ApiArea, BearerTokenSource>>;
  /** Retries after the first attempt (CATALOG_MAX_RETRIES). */
  maxRetries?: number;
  /** Per-attempt timeout in milliseconds (CATALOG_TIMEOUT × 1000). */
  timeoutMs?: number;
  /**
   * Time one logical request may take, every attempt and backoff included, in milliseconds
   * (CATALOG_REQUEST_DEADLINE × 1000); a Retry-After wait the catalog asks for is added to it (that wait
   * has its own bound, `maxRetryAfterMs`). Defaults to {@link DEFAULT_REQUEST_DEADLINE_MS}, or `timeoutMs`
   * when that is longer.
   */
  requestDeadlineMs?: number;
  /** Bounds of every paged walk (CATALOG_MAX_PAGES, CATALOG_MAX_ITEMS, CATALOG_PAGING_TIMEOUT). */
  pagingLimits?: PagingLimits;
  /** Deepest nesting of arrays and objects accepted in an answer (CATALOG_MAX_JSON_DEPTH). */
  maxJsonDepth?: number;
  /** Client-side requests per second; 0 turns the bucket off. */
  rateLimit?: number;
  /** First backoff step; the default suits the service, tests make it small. */
  retryBaseMs?: number;
  /** Longest backoff between two attempts, in milliseconds, when the service gives no Retry-After. */
  retryMaxMs?: number;
  /**
   * A Retry-After longer than this is not waited for: the call fails at once with RetryWaitTooLongError
   * (a RateLimitError) saying when to retry (CATALOG_MAX_RETRY_WAIT × 1000).
   */
  maxRetryAfterMs?: number;
  /**
   * Largest answer read, in bytes once decompressed (CATALOG_MAX_RESPONSE_BYTES); a larger one fails with
   * ResponseTooLargeError and is not read further.
   */
  maxResponseBytes?: number;
  /** Receives one debug line per request (never a token), retries, throttling waits and warnings. */
  logger?: Logger;
}

/** One request of {@link HttpClient.request}. */
export interface RequestOptions {
  /** The HTTP method; it decides, with `idempotent`, whether a failed attempt is retried. */
  method: HttpMethod;
  /** Path below the area's base URL, starting with `/`. */
  path: string;
  /** The API area whose base URL, api-version and error shape apply (default `datamap`). */
  area?: ApiArea;
  /** Query parameters, added after the api-version. */
  query?: Record<string, QueryValue>;
  /** JSON-serialisable body, or a ready `FormData`/`Uint8Array`/string sent as is. */
  body?: unknown;
  /** Extra request headers; `Authorization` and `User-Agent` are the client's own. */
  headers?: Record<string, string>;
  /**
   * Whether repeating the request is harmless. Defaults to true for GET, HEAD, PUT and DELETE. A POST
   * marked idempotent (an upsert by unique attribute, a search) is retried like a GET.
   */
  idempotent?: boolean;
  /** Aborts the request and any wait before a retry. */
  signal?: AbortSignal;
  /** Override the area's api-version; `false` sends none. */
  apiVersion?: string | false;
  /** How to read a successful body (default: JSON when there is one). */
  responseType?: ResponseType;
  /**
   * Receives the status and headers of the successful response, for calls whose answer is a header
   * (an asynchronous operation's `Operation-Location`).
   */
  onResponse?: (status: number, headers: Headers) => void;
}

const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(["GET", "HEAD", "PUT", "DELETE"]);
/**
 * Default of `requestDeadlineMs`: three attempts of the default 30 s timeout. A catalog that sends its
 * headers slowly used to hold a call for four full attempts (124 s); a real answer never takes this long.
 */
export const DEFAULT_REQUEST_DEADLINE_MS = 90_000;

/**
 * The one HTTP core of every catalog client: base URL and api-version per area, bearer tokens, retries with
 * backoff (Retry-After honoured, a client-wide pause on 429), timeouts, size limits and typed errors.
 *
 * @example
 * ```ts
 * import { HttpClient } from "./client.ts";
 * const http = new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" }, maxRetries: 2 });
 * async function typeNames(): Promise<unknown> {
 *   return await http.request({ method: "GET", path: "/datamap/api/atlas/v2/types/typedefs/headers" });
 * }
 * ```
 */
export class HttpClient {
  readonly #options:
    & Required<Omit<HttpClientOptions, "tokens" | "areaTokens" | "apiVersions" | "requestDeadlineMs">>
    & HttpClientOptions;
  readonly #requestDeadlineMs: number;
  readonly #limiter: RateLimiter;
  readonly #throttleListeners = new Set<(delayMs: number) => void>();

  /** A client with `options`; unset options take the defaults the configuration documents. */
  constructor(options: HttpClientOptions) {
    // An option passed as `undefined` (e.g. `retryBaseMs: options.retryBaseMs`) keeps its default: spread
    // as is it would override it, and a NaN backoff makes every retry immediate.
    const given = Object.fromEntries(
      Object.entries(options).filter(([, value]) => value !== undefined),
    ) as HttpClientOptions;
    this.#options = {
      maxRetries: 3,
      timeoutMs: 30_000,
      rateLimit: 0,
      retryBaseMs: 800,
      retryMaxMs: 30_000,
      maxRetryAfterMs: 120_000,
      maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
      pagingLimits: DEFAULT_PAGING_LIMITS,
      maxJsonDepth: DEFAULT_MAX_JSON_DEPTH,
      logger: silentLogger,
      ...given,
    };
    this.#requestDeadlineMs = given.requestDeadlineMs ??
      Math.max(DEFAULT_REQUEST_DEADLINE_MS, this.#options.timeoutMs);
    this.#limiter = new RateLimiter(this.#options.rateLimit);
  }

  /**
   * Calls `listener` with the pause whenever the service answers 429, so bulk jobs can slow down instead
   * of only waiting. Returns the function that unsubscribes.
   */
  onThrottle(listener: (delayMs: number) => void): () => void {
    this.#throttleListeners.add(listener);
    return () => this.#throttleListeners.delete(listener);
  }

  /** A guard of one paged walk named `what` ("the collection list"), with the configured bounds. */
  pagingGuard(what: string): PagingGuard {
    return new PagingGuard(what, this.#options.pagingLimits);
  }

  /** The base URL requests of an area go to. */
  baseUrl(area: ApiArea = "datamap"): string {
    return this.#options.baseUrls[area] ?? this.#options.baseUrls.datamap;
  }

  /** Builds the full URL of a request, with api-version and query parameters. */
  url(options: Pick<RequestOptions, "path" | "area" | "query" | "apiVersion">): URL {
    const area = options.area ?? "datamap";
    const apiVersion = options.apiVersion ?? this.#options.apiVersions?.[area];
    return requestUrl(this.baseUrl(area), options.path, apiVersion || undefined, options.query);
  }

  /** Sends a request with retries and returns the parsed body (undefined for an empty one). */
  async request<T = unknown>(options: RequestOptions): Promise<T> {
    const url = this.url(options);
    const idempotent = options.idempotent ?? IDEMPOTENT_METHODS.has(options.method);
    const { body, contentType } = encodeBody(options.body);
    const clientRequestId = crypto.randomUUID();
    const { logger, maxRetries } = this.#options;
    let deadlineAt = performance.now() + this.#requestDeadlineMs;
    let lastError: CatalogError | undefined;

    for (let attempt = 1;; attempt++) {
      // Waiting for the client's rate limit or throttle pause is not waiting for the catalog's answer: a
      // bulk import paused by a 429 elsewhere must not find its requests' deadlines gone.
      const queued = performance.now();
      await this.#limiter.acquire(options.signal);
      deadlineAt += performance.now() - queued;
      const headers = await this.#headers(options, clientRequestId, contentType);

      const started = performance.now();
      const attemptMs = Math.min(this.#options.timeoutMs, deadlineAt - started);
      // Waiting for a token can take the rest of the deadline.
      if (attemptMs <= 0) throw deadlinePassed(this.#requestDeadlineMs, attempt - 1, lastError);
      const result = await this.#attempt(url, options, headers, body, idempotent, attemptMs);
      const elapsed = Math.round(performance.now() - started);
      const label = `${options.method} ${redactSecrets(url.toString())}`;

      if (result.ok) {
        logger.debug(`${label} -> ${result.status} in ${elapsed} ms (attempt ${attempt})`);
        return result.value as T;
      }
      const { outcome, waitMs } = result;
      // An attempt cut short by the request's deadline tells that, not the per-attempt timeout.
      const error = outcome.kind === "timeout" && attemptMs < this.#options.timeoutMs
        ? deadlinePassed(this.#requestDeadlineMs, attempt, result.error)
        : result.error;
      lastError = error;
      logger.debug(`${label} -> ${describeOutcome(outcome)} in ${elapsed} ms (attempt ${attempt})`);

      const delay = waitMs ?? backoffDelayMs(attempt, {
        baseMs: this.#options.retryBaseMs,
        maxMs: this.#options.retryMaxMs,
      });
      if (outcome.kind === "status" && outcome.status === 429) this.#throttled(delay, waitMs);
      this.#throwUnlessRetried(error, outcome, idempotent, attempt, waitMs);
      // A wait the catalog asked for is bounded by CATALOG_MAX_RETRY_WAIT, not by the deadline: it is not
      // time spent waiting for an answer, and a throttled bulk import must keep waiting as it did.
      if (waitMs !== undefined) deadlineAt += delay;
      else if (performance.now() + delay >= deadlineAt) {
        throw deadlinePassed(this.#requestDeadlineMs, attempt, error);
      }
      logger.info(
        `${label} failed (${describeOutcome(outcome)}); retry ${attempt}/${maxRetries} in ${delay} ms`,
      );
      await sleep(delay, options.signal);
    }
  }

  /** The headers of one attempt, with a current token of the request's area. */
  async #headers(
    options: RequestOptions,
    clientRequestId: string,
    contentType: string | undefined,
  ): Promise<Headers> {
    const headers = new Headers({
      "accept": "application/json",
      "user-agent": USER_AGENT,
      // One id across retries lets the service (and its logs) recognise a repeated request.
      "x-ms-client-request-id": clientRequestId,
      ...options.headers,
    });
    if (contentType && !headers.has("content-type")) headers.set("content-type", contentType);
    const tokens = this.#options.areaTokens?.[options.area ?? "datamap"] ?? this.#options.tokens;
    const token = await tokens?.getToken(options.signal);
    // Not registered with the logger: tokens rotate, and a server would collect them without bound.
    // Log lines carry no headers, and redactSecrets masks any "Bearer …" text that does appear.
    if (token) headers.set("authorization", `Bearer ${token}`);
    return headers;
  }

  /** Sends one attempt within `attemptMs`, with the client's answer limits. */
  #attempt(
    url: URL,
    options: RequestOptions,
    headers: Headers,
    body: BodyInit | undefined,
    idempotent: boolean,
    attemptMs: number,
  ): Promise<AttemptResult> {
    const { method, signal, responseType, onResponse } = options;
    const { timeoutMs, maxResponseBytes, maxJsonDepth } = this.#options;
    return sendAttempt(
      { url, method, headers, body, idempotent, signal, responseType, onResponse },
      { attemptMs, timeoutMs, maxResponseBytes, maxJsonDepth },
    );
  }

  /**
   * A 429 asking for `delay`: a throttle applies to the whole client, not just this call, so every request
   * waits for it, whether or not this one is retried (a wait longer than the client waits at most is not
   * held: the calls fail at once instead).
   */
  #throttled(delay: number, waitMs: number | undefined): void {
    if (delay <= this.#options.maxRetryAfterMs) this.#limiter.throttled(delay);
    for (const listener of this.#throttleListeners) listener(clampDelayMs(waitMs ?? 0));
  }

  /** Throws the error a failed attempt ends the request with, unless it is retried. */
  #throwUnlessRetried(
    error: CatalogError,
    outcome: AttemptOutcome,
    idempotent: boolean,
    attempt: number,
    waitMs: number | undefined,
  ): void {
    if (!shouldRetry(outcome, idempotent)) throw finalError(error, outcome, idempotent, attempt);
    // Checked before the retries run out: whoever catches the error (a bulk import) must not wait it out.
    if (waitMs !== undefined && waitMs > this.#options.maxRetryAfterMs) {
      throw waitTooLong(error, waitMs, this.#options.maxRetryAfterMs);
    }
    if (attempt > this.#options.maxRetries) throw finalError(error, outcome, idempotent, attempt);
  }
}

function describeOutcome(outcome: AttemptOutcome): string {
  switch (outcome.kind) {
    case "status":
      return String(outcome.status);
    case "network":
      return outcome.sent ? "connection broken" : "connection failed";
    case "timeout":
      return "timeout";
  }
}
