/**
 * The HTTP core: the only module of govcat that calls `fetch`. It owns base URLs per API area, the
 * api-version query parameter, bearer tokens, timeouts, retries (see `retry.ts`), the client-side rate
 * limiter, and mapping of error bodies to typed errors. Tokens never reach a log line or an error.
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
import {
  AnswerTooDeepError,
  CatalogError,
  errorForStatus,
  NetworkError,
  RateLimitError,
  RedirectRefusedError,
  RequestDeadlineError,
  ResponseTooLargeError,
  RetryWaitTooLongError,
  ServerError,
  TimeoutError,
  UsageError,
} from "../core/errors.ts";
import { DEFAULT_MAX_JSON_DEPTH, jsonBytesExceedDepth } from "../core/json_depth.ts";
import { type Logger, redactSecrets, silentLogger } from "../core/log.ts";
import { counted } from "../core/plural.ts";
import { DEFAULT_PAGING_LIMITS, PagingGuard, type PagingLimits } from "./paging_guard.ts";
import { RateLimiter } from "./rate_limiter.ts";
import {
  type AttemptOutcome,
  backoffDelayMs,
  clampDelayMs,
  retryAfterMs,
  shouldRetry,
  sleep,
} from "./retry.ts";
import { USER_AGENT } from "../core/version.ts";

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

/** A query parameter's value: an array repeats the parameter; `undefined` leaves it out. */
export type QueryValue = string | number | boolean | undefined | ReadonlyArray<string | number>;

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
  responseType?: "json" | "text" | "bytes";
  /**
   * Receives the status and headers of the successful response, for calls whose answer is a header
   * (an asynchronous operation's `Operation-Location`).
   */
  onResponse?: (status: number, headers: Headers) => void;
}

/** One decoder for every answer: decoding without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder();
const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(["GET", "HEAD", "PUT", "DELETE"]);
/** Error body text kept in a message when the service sent no structured error. */
const MAX_ERROR_TEXT = 500;
/**
 * Default of `maxResponseBytes` (64 MiB, decompressed). The largest real answers are pages: a search page
 * of 1,000 results, a bulk entity read with its referred entities, a full typedef list or a deep lineage
 * graph, a few MB each on large accounts. 64 MiB leaves ten times that, while a hostile or broken peer
 * (a gzip bomb expands 1,000-fold) cannot take more than about that much memory per request in flight.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** Error bodies are read up to this size (the rest is dropped, not refused): messages are short. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;
/** Same-origin redirects followed for one attempt before the answer counts as a refusal. */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
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
    // URL parsing resolves `.` and `..` segments (`%2e` spellings too), so an id of ".." would send the
    // request to another resource (`DELETE …/collections/..` to `/`): refused before anything is sent.
    const dots = options.path.split("/").find((part) => /^(?:\.|%2e){1,2}$/i.test(part));
    if (dots !== undefined) {
      throw new UsageError(
        `"${decodeURIComponent(dots)}" is not a valid name or id: in the request path ${options.path} it ` +
          "would address another resource.",
        "Give the GUID or name of the resource itself; search and list commands show them.",
      );
    }
    const area = options.area ?? "datamap";
    const href = this.baseUrl(area).replace(/\/+$/, "") + options.path;
    const apiVersion = options.apiVersion ?? this.#options.apiVersions?.[area];
    // Without a query, fragment or trailing blank of its own, the address takes the query as it is and is
    // parsed once (a lookup's address is long); otherwise the parsed query is set, as before.
    if (!hasOwnQueryOrTrailingBlank(href)) {
      const search = withQuery("", apiVersion || undefined, options.query);
      return new URL(search ? `${href}?${search}` : href);
    }
    const url = new URL(href);
    const search = withQuery(url.search, apiVersion || undefined, options.query);
    if (search !== undefined) url.search = search;
    return url;
  }

  /** Sends a request with retries and returns the parsed body (undefined for an empty one). */
  async request<T = unknown>(options: RequestOptions): Promise<T> {
    const url = this.url(options);
    const idempotent = options.idempotent ?? IDEMPOTENT_METHODS.has(options.method);
    const { body, contentType } = encodeBody(options.body);
    const clientRequestId = crypto.randomUUID();
    const { logger, maxRetries } = this.#options;
    const tokens = this.#options.areaTokens?.[options.area ?? "datamap"] ?? this.#options.tokens;
    let deadlineAt = performance.now() + this.#requestDeadlineMs;
    let lastError: CatalogError | undefined;

    for (let attempt = 1;; attempt++) {
      // Waiting for the client's rate limit or throttle pause is not waiting for the catalog's answer: a
      // bulk import paused by a 429 elsewhere must not find its requests' deadlines gone.
      const queued = performance.now();
      await this.#limiter.acquire(options.signal);
      deadlineAt += performance.now() - queued;
      const headers = new Headers({
        "accept": "application/json",
        "user-agent": USER_AGENT,
        // One id across retries lets the service (and its logs) recognise a repeated request.
        "x-ms-client-request-id": clientRequestId,
        ...options.headers,
      });
      if (contentType && !headers.has("content-type")) headers.set("content-type", contentType);
      const token = await tokens?.getToken(options.signal);
      // Not registered with the logger: tokens rotate, and a server would collect them without bound.
      // Log lines carry no headers, and redactSecrets masks any "Bearer …" text that does appear.
      if (token) headers.set("authorization", `Bearer ${token}`);

      const started = performance.now();
      const attemptMs = Math.min(this.#options.timeoutMs, deadlineAt - started);
      // Waiting for a token can take the rest of the deadline.
      if (attemptMs <= 0) throw this.#deadlinePassed(attempt - 1, lastError);
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
        ? this.#deadlinePassed(attempt, result.error)
        : result.error;
      lastError = error;
      logger.debug(`${label} -> ${describeOutcome(outcome)} in ${elapsed} ms (attempt ${attempt})`);

      const delay = waitMs ?? backoffDelayMs(attempt, {
        baseMs: this.#options.retryBaseMs,
        maxMs: this.#options.retryMaxMs,
      });
      if (outcome.kind === "status" && outcome.status === 429) {
        // A throttle applies to the whole client, not just this call: every request waits for it, whether
        // or not this one is retried (a wait longer than the client waits at most is not held: the calls
        // fail at once instead).
        if (delay <= this.#options.maxRetryAfterMs) this.#limiter.throttled(delay);
        for (const listener of this.#throttleListeners) listener(clampDelayMs(waitMs ?? 0));
      }
      if (!shouldRetry(outcome, idempotent)) throw this.#finalError(error, outcome, idempotent, attempt);
      // Checked before the retries run out: whoever catches the error (a bulk import) must not wait it out.
      if (waitMs !== undefined && waitMs > this.#options.maxRetryAfterMs) {
        throw this.#waitTooLong(error, waitMs);
      }
      if (attempt > maxRetries) throw this.#finalError(error, outcome, idempotent, attempt);
      // A wait the catalog asked for is bounded by CATALOG_MAX_RETRY_WAIT, not by the deadline: it is not
      // time spent waiting for an answer, and a throttled bulk import must keep waiting as it did.
      if (waitMs !== undefined) deadlineAt += delay;
      else if (performance.now() + delay >= deadlineAt) throw this.#deadlinePassed(attempt, error);
      logger.info(
        `${label} failed (${describeOutcome(outcome)}); retry ${attempt}/${maxRetries} in ${delay} ms`,
      );
      await sleep(delay, options.signal);
    }
  }

  async #attempt(
    url: URL,
    options: RequestOptions,
    headers: Headers,
    body: BodyInit | undefined,
    idempotent: boolean,
    timeoutMs: number,
  ): Promise<
    | { ok: true; status: number; value: unknown }
    | { ok: false; error: CatalogError; outcome: AttemptOutcome; waitMs?: number }
  > {
    // A request that must not be sent twice gets a connection of its own. On a connection taken from the
    // pool, Deno's fetch sends a request again when the connection closes before the answer (it takes the
    // connection for a stale one the service never read), so a write the service applied just before
    // failing was sent twice, or, with the service gone, ended in "connection refused", which reads as
    // "nothing was sent" and made this core send it yet again.
    const client = idempotent ? undefined : Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
    // Not AbortSignal.timeout: its timer, and through it the exchange it could abort, would stay alive for
    // the whole timeout after the answer arrived, so a busy client kept every recent request in memory.
    const timer = new AbortController();
    const timeoutId = setTimeout(
      () => timer.abort(new DOMException("The request timed out.", "TimeoutError")),
      timeoutMs,
    );
    try {
      return await this.#exchange(url, options, headers, body, timer.signal, client);
    } finally {
      clearTimeout(timeoutId);
      client?.close();
    }
  }

  async #exchange(
    url: URL,
    options: RequestOptions,
    headers: Headers,
    body: BodyInit | undefined,
    timeout: AbortSignal,
    client: Deno.HttpClient | undefined,
  ): Promise<
    | { ok: true; status: number; value: unknown }
    | { ok: false; error: CatalogError; outcome: AttemptOutcome; waitMs?: number }
  > {
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const context = { method: options.method, url: redactSecrets(url.toString()) };
    let response: Response;
    let target = url;
    let method: string = options.method;
    let sending = body;
    for (let redirects = 0;; redirects++) {
      try {
        // "manual": fetch would follow a redirect to any host, re-sending a 307's body there, and from
        // https to http. Only redirects within the request's origin are followed, here.
        const init: RequestInit = { method, headers, body: sending, signal, redirect: "manual" };
        response = await (client ? fetch(target, { ...init, client }) : fetch(target, init));
      } catch (cause) {
        return this.#transportFailure(cause, timeout, options.signal, context, isConnectFailure(cause));
      }
      if (!REDIRECT_STATUSES.has(response.status)) break;
      await response.body?.cancel().catch(() => {});
      const location = response.headers.get("location");
      const next = redirects < MAX_REDIRECTS
        ? redirectTarget(target, location)
        : { refusal: `more than ${MAX_REDIRECTS} redirects in a row` };
      if ("refusal" in next) {
        const shown = location === null ? "(no Location header)" : JSON.stringify(redactSecrets(location));
        const error = new RedirectRefusedError({
          ...context,
          status: response.status,
          message: `The catalog answered ${response.status} with a redirect to ${shown}, which was not ` +
            `followed: ${next.refusal}. Redirects are followed only within ${target.origin}.`,
          hint: "Point CATALOG_ENDPOINT (or CATALOG_UNIFIED_ENDPOINT) at the address the service answers " +
            "on itself; a gateway that sends requests elsewhere is not followed, so tokens and bodies " +
            "stay with the catalog.",
        });
        return { ok: false, error, outcome: { kind: "status", status: response.status } };
      }
      // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
      if (response.status === 303 || (response.status <= 302 && method === "POST")) {
        method = "GET";
        sending = undefined;
        headers.delete("content-type");
      }
      target = next.url;
    }
    try {
      if (response.ok) {
        options.onResponse?.(response.status, response.headers);
        const limit = this.#options.maxResponseBytes;
        const bytes = await readLimited(response, limit, "refuse");
        if (bytes === undefined) {
          const error = new ResponseTooLargeError({
            ...context,
            status: response.status,
            message: `The catalog's answer is larger than ${describeBytes(limit)} once decompressed ` +
              `(CATALOG_MAX_RESPONSE_BYTES=${limit}); it was not read further.`,
            hint: "Ask for less at a time (a smaller --limit or page size, fewer GUIDs per call), or raise " +
              "CATALOG_MAX_RESPONSE_BYTES if answers this large are expected from this catalog.",
          });
          return { ok: false, error, outcome: { kind: "status", status: response.status } };
        }
        const type = options.responseType ?? "json";
        // Counted before parsing, without recursion: what reads the parsed answer afterwards recurses.
        if (type === "json" && jsonBytesExceedDepth(bytes, this.#options.maxJsonDepth)) {
          const depth = this.#options.maxJsonDepth;
          const error = new AnswerTooDeepError({
            ...context,
            status: response.status,
            message: `The catalog's answer nests arrays and objects more than ${depth} levels deep ` +
              `(CATALOG_MAX_JSON_DEPTH=${depth}); no real answer is that deep, so it was not used.`,
            hint: "Check that CATALOG_ENDPOINT points at the catalog; raise CATALOG_MAX_JSON_DEPTH only if " +
              "answers this deep are expected from it.",
          });
          return { ok: false, error, outcome: { kind: "status", status: response.status } };
        }
        return { ok: true, status: response.status, value: decodeBody(bytes, type) };
      }
      // A gateway or service may echo the request back: the token we sent never reaches a message.
      const sent = headers.get("authorization")?.replace(/^Bearer\s+/i, "");
      const raw = await readLimited(response, MAX_ERROR_BODY_BYTES, "truncate");
      const text = redactSecrets(UTF8.decode(raw), sent ? [sent] : []);
      const waitMs = retryAfterMs(response.headers);
      const error = errorForStatus({
        ...parseErrorBody(text, response.status),
        ...context,
        status: response.status,
        requestId: requestIdOf(text, response.headers),
        retryAfterSeconds: waitMs === undefined ? undefined : Math.ceil(waitMs / 1000),
      });
      return { ok: false, error, outcome: { kind: "status", status: response.status }, waitMs };
    } catch (cause) {
      // The response started but broke off: the request certainly reached the service.
      return this.#transportFailure(cause, timeout, options.signal, context, false);
    }
  }

  #transportFailure(
    cause: unknown,
    timeout: AbortSignal,
    callerSignal: AbortSignal | undefined,
    context: { method: string; url: string },
    notSent: boolean,
  ): { ok: false; error: CatalogError; outcome: AttemptOutcome } {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timeout.aborted) {
      const seconds = this.#options.timeoutMs / 1000;
      return {
        ok: false,
        outcome: { kind: "timeout" },
        error: new TimeoutError({
          ...context,
          message: `No answer from the catalog within ${seconds} s.`,
          hint: "Raise CATALOG_TIMEOUT, or retry when the service is less busy.",
          cause,
        }),
      };
    }
    const reason = cause instanceof Error ? cause.message : String(cause);
    return {
      ok: false,
      outcome: { kind: "network", sent: !notSent },
      error: new NetworkError({
        ...context,
        message: `Could not reach the catalog at ${originOf(context.url)}: ${redactSecrets(reason)}`,
        hint: notSent
          ? "Check the account name (CATALOG_ACCOUNT_NAME), CATALOG_ENDPOINT, and the network or proxy."
          : "The connection broke during the exchange; retry, and check the result first if it was a write.",
        cause,
      }),
    };
  }

  /** The failure of a request whose deadline passed after `attempts` attempts; `last` is the last one's. */
  #deadlinePassed(attempts: number, last: CatalogError | undefined): RequestDeadlineError {
    if (last instanceof RequestDeadlineError) return last;
    const seconds = this.#requestDeadlineMs / 1000;
    const lastText = last ? ` The last attempt: ${last.message}` : "";
    return new RequestDeadlineError({
      method: last?.method,
      url: last?.url,
      status: last?.status,
      code: last?.code,
      requestId: last?.requestId,
      cause: last,
      message: `No complete answer from the catalog within the ${seconds} s deadline of one request ` +
        `(CATALOG_REQUEST_DEADLINE), after ${counted(attempts, "attempt")}.` +
        lastText,
      hint: "Retry when the catalog is less busy; if its answers really take this long, raise " +
        "CATALOG_REQUEST_DEADLINE (and CATALOG_TIMEOUT, the bound of each attempt).",
    });
  }

  /** A throttle whose wait is longer than the configured maximum: not waited for, and says until when. */
  #waitTooLong(error: CatalogError, waitMs: number): RetryWaitTooLongError {
    const seconds = Math.ceil(waitMs / 1000);
    const at = Date.now() + waitMs;
    const until = at < 8.64e15 ? new Date(at).toISOString() : "a time too far ahead to name";
    const limit = Math.round(this.#options.maxRetryAfterMs / 1000);
    return new RetryWaitTooLongError({
      status: error.status,
      code: error.code,
      requestId: error.requestId,
      method: error.method,
      url: error.url,
      retryAfterSeconds: seconds,
      cause: error,
      message: `${error.message} The catalog asked to wait ${seconds} s before retrying (until ${until}), ` +
        `longer than the ${limit} s this client waits at most (CATALOG_MAX_RETRY_WAIT); not retried.`,
      hint: `Retry after ${until}; to have govcat wait that long, raise CATALOG_MAX_RETRY_WAIT.`,
    });
  }

  /** The error to throw when no retry follows, with a warning when a write's outcome is unknown. */
  #finalError(
    error: CatalogError,
    outcome: AttemptOutcome,
    idempotent: boolean,
    attempts: number,
  ): CatalogError {
    const unknownOutcome = !idempotent && (outcome.kind === "timeout" ||
      (outcome.kind === "network" && outcome.sent) ||
      (outcome.kind === "status" && outcome.status >= 500));
    if (unknownOutcome) {
      const note = " The request was not repeated because it may already have been applied;" +
        " check the catalog before sending it again.";
      return rebuild(error, { message: error.message + note });
    }
    if (attempts > 1 && !(error instanceof RequestDeadlineError)) {
      const note = ` (after ${attempts} attempts)`;
      if (error instanceof RateLimitError || error instanceof ServerError || outcome.kind !== "status") {
        return rebuild(error, { message: error.message + note });
      }
    }
    return error;
  }
}

/** Re-creates a typed error with a changed message, keeping its class and fields. */
function rebuild(error: CatalogError, change: { message: string }): CatalogError {
  const Kind = error.constructor as new (
    details: ConstructorParameters<typeof CatalogError>[0],
  ) => CatalogError;
  return new Kind({
    status: error.status,
    code: error.code,
    requestId: error.requestId,
    method: error.method,
    url: error.url,
    hint: error.hint,
    retryAfterSeconds: error.retryAfterSeconds,
    cause: error.cause,
    message: change.message,
  });
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

/** Whether an address has a query, a fragment or trailing blanks (which parsing strips) of its own. */
function hasOwnQueryOrTrailingBlank(href: string): boolean {
  return href.includes("?") || href.includes("#") || href.charCodeAt(href.length - 1) <= 0x20;
}

/**
 * The query of a request: `search` (the path's own, if any) with `api-version` set, then each parameter of
 * `query` set (an array appended item by item, `undefined` left out), serialised once; undefined when
 * nothing is set, so a path's query stays as written. The same as setting each on `url.searchParams`, whose
 * every call serialises the whole query again (a lookup of 50 names spent a quarter of a bulk import's
 * processor time there). Exported for tests.
 */
export function withQuery(
  search: string,
  apiVersion: string | undefined,
  query: Record<string, QueryValue> | undefined,
): string | undefined {
  let params: URLSearchParams | undefined;
  // Not bound to a URL, so a change is not serialised until asked.
  const list = () => params ??= new URLSearchParams(search);
  if (apiVersion !== undefined) list().set("api-version", apiVersion);
  if (query === undefined) return params?.toString();
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) { for (const item of value) list().append(key, String(item)); }
    else list().set(key, String(value));
  }
  return params?.toString();
}

function encodeBody(body: unknown): { body?: BodyInit; contentType?: string } {
  if (body === undefined) return {};
  if (body instanceof FormData || body instanceof Uint8Array || typeof body === "string") {
    return { body: body as BodyInit };
  }
  return { body: JSON.stringify(body), contentType: "application/json" };
}

/**
 * Reads a body as a stream, decompressed, up to `limit` bytes: past it the read stops and the rest is
 * cancelled, and the answer is undefined ("refuse") or the first `limit` bytes ("truncate"). Bytes are read
 * into one buffer that grows to at most `limit + 1`, so memory stays near `limit` whatever the peer sends
 * (keeping the chunks fetch hands out would not: each 4 KiB of a decompressed body holds a 64 KiB buffer).
 */
async function readLimited(
  response: Response,
  limit: number,
  over: "refuse" | "truncate",
): Promise<Uint8Array | undefined> {
  if (!response.body) return new Uint8Array(0);
  // A declared length tells the size of a body sent as is (a compressed size proves nothing).
  const declared = response.headers.has("content-encoding")
    ? NaN
    : Number(response.headers.get("content-length") ?? NaN);
  if (over === "refuse" && declared > limit) {
    await response.body.cancel().catch(() => {});
    return undefined;
  }
  // Read into blocks of at most 1 MiB, filled in place: at most `limit + 1` bytes are ever held.
  const capacity = limit + 1;
  const blocks: Uint8Array[] = [];
  let block = new Uint8Array(Math.min(capacity, declared >= 0 ? declared + 1 : 64 * 1024));
  let filled = 0;
  let size = 0;
  let reader: ReadableStreamBYOBReader;
  try {
    reader = response.body.getReader({ mode: "byob" });
  } catch {
    // Not a byte stream (a Response built from a string or a plain stream): chunks are copied instead.
    return await readCopying(response.body, limit, over);
  }
  try {
    for (;;) {
      if (filled === block.byteLength) {
        blocks.push(block);
        if (size === capacity) {
          await reader.cancel().catch(() => {});
          return over === "refuse" ? undefined : concatenate(blocks, limit);
        }
        block = new Uint8Array(Math.min(READ_BLOCK_BYTES, capacity - size));
        filled = 0;
      }
      // The read takes the block over and hands it back in `value`.
      const { done, value } = await reader.read(block.subarray(filled));
      if (value === undefined) break;
      block = new Uint8Array(value.buffer);
      filled += value.byteLength;
      size += value.byteLength;
      if (done) break;
    }
  } finally {
    reader.releaseLock();
  }
  blocks.push(block.subarray(0, filled));
  return concatenate(blocks, size);
}

const READ_BLOCK_BYTES = 1024 * 1024;

/** {@link readLimited} for a stream that has no BYOB reader: each chunk is copied (views may pin more). */
async function readCopying(
  body: ReadableStream<Uint8Array>,
  limit: number,
  over: "refuse" | "truncate",
): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > limit) {
        await reader.cancel().catch(() => {});
        if (over === "refuse") return undefined;
        chunks.push(value.slice(0, limit - size));
        return concatenate(chunks, limit);
      }
      chunks.push(value.slice());
      size += value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
  return concatenate(chunks, size);
}

/** The first `size` bytes of `blocks`, as one array (the block itself when there is one). */
function concatenate(blocks: Uint8Array[], size: number): Uint8Array {
  if (blocks.length === 1) return blocks[0].subarray(0, size);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const block of blocks) {
    if (offset >= size) break;
    const part = block.subarray(0, Math.min(block.byteLength, size - offset));
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

function describeBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

/**
 * Where a redirect from `from` may go: only the same origin (scheme, host and port), so never to another
 * host and never from https to http. Exported for tests.
 */
export function redirectTarget(from: URL, location: string | null): { url: URL } | { refusal: string } {
  if (location === null || location.trim() === "") return { refusal: "the answer names no location" };
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    return { refusal: "the location is not a valid URL" };
  }
  if (from.protocol === "https:" && to.protocol !== "https:") {
    return { refusal: `it would downgrade the connection from https to ${to.protocol.replace(":", "")}` };
  }
  if (to.origin !== from.origin) return { refusal: `it leads to another origin (${to.origin})` };
  return { url: to };
}

function decodeBody(bytes: Uint8Array, type: RequestOptions["responseType"]): unknown {
  if (type === "bytes") return bytes;
  const text = UTF8.decode(bytes);
  if (type === "text") return text;
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Deno reports refused or unresolvable connections this way; nothing was sent then. */
function isConnectFailure(cause: unknown): boolean {
  const text = `${cause instanceof Error ? cause.message : cause} ${
    cause instanceof Error && cause.cause ? String(cause.cause) : ""
  }`.toLowerCase();
  return /connection refused|tcp connect error|dns error|failed to lookup|name or service not known|connect\)/
    .test(text);
}

/** Reads `{requestId, errorCode, errorMessage}` (Atlas) or `{error: {code, message}}` (ARM style). */
export function parseErrorBody(text: string, status: number): { code?: string; message: string } {
  try {
    const body = JSON.parse(text);
    if (body && typeof body === "object") {
      if (typeof body.errorMessage === "string" || typeof body.errorCode === "string") {
        return { code: body.errorCode, message: body.errorMessage ?? `HTTP ${status}` };
      }
      const inner = body.error;
      if (inner && typeof inner === "object") {
        const details = Array.isArray(inner.details)
          ? inner.details.map((d: { message?: string }) => d?.message).filter(Boolean)
          : [];
        const message = [inner.message ?? `HTTP ${status}`, ...details].join(" ");
        return { code: inner.code, message: inner.target ? `${message} (target: ${inner.target})` : message };
      }
      if (typeof body.message === "string") return { code: body.code, message: body.message };
    }
  } catch {
    // Not JSON: fall through to the raw text.
  }
  const trimmed = text.trim().slice(0, MAX_ERROR_TEXT);
  return { message: trimmed ? `HTTP ${status}: ${trimmed}` : `HTTP ${status} with an empty body` };
}

function requestIdOf(text: string, headers: Headers): string | undefined {
  try {
    const body = JSON.parse(text);
    if (typeof body?.requestId === "string") return body.requestId;
  } catch {
    // No body id; use the header.
  }
  return headers.get("x-ms-request-id") ?? headers.get("x-ms-correlation-request-id") ?? undefined;
}

/** Where a request went, without its path and query (which may be long, or carry a token's kin). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(an invalid URL)";
  }
}
