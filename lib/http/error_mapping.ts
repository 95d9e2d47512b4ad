/**
 * The typed errors of the HTTP core: an error answer's body mapped to the error of its status (with the
 * service's code, message and request id), a broken or timed-out exchange to NetworkError or TimeoutError,
 * and the error a request ends with: past its deadline, told to wait longer than the client waits, or
 * after its last attempt (a write whose outcome is unknown says so). Tokens never reach a message.
 *
 * @example
 * ```ts
 * import { parseErrorBody } from "./error_mapping.ts";
 * console.log(parseErrorBody('{"error":{"code":"Forbidden","message":"no"}}', 403));
 * // { code: "Forbidden", message: "no" }
 * ```
 *
 * @module
 */
import {
  CatalogError,
  errorForStatus,
  NetworkError,
  RateLimitError,
  RequestDeadlineError,
  RetryWaitTooLongError,
  ServerError,
  TimeoutError,
} from "../core/errors.ts";
import { redactSecrets } from "../core/log.ts";
import { counted } from "../core/plural.ts";
import { type AttemptOutcome, retryAfterMs } from "./retry.ts";

/** The request an error belongs to, as its message names it (the URL with secrets masked). */
export interface RequestContext {
  /** The request's method. */
  method: string;
  /** The request's URL, secrets masked. */
  url: string;
}

/** A failed attempt: the error, what happened (for the retry decision) and any wait the service asked. */
export interface AttemptFailure {
  ok: false;
  error: CatalogError;
  outcome: AttemptOutcome;
  waitMs?: number;
}

/** Error body text kept in a message when the service sent no structured error. */
const MAX_ERROR_TEXT = 500;

/**
 * The failure of an error answer whose body reads `bodyText`; the token sent in `requestHeaders` is masked,
 * since a gateway or service may echo the request back.
 */
export function statusFailure(
  response: Response,
  bodyText: string,
  requestHeaders: Headers,
  context: RequestContext,
): AttemptFailure {
  const sent = requestHeaders.get("authorization")?.replace(/^Bearer\s+/i, "");
  const text = redactSecrets(bodyText, sent ? [sent] : []);
  const waitMs = retryAfterMs(response.headers);
  const error = errorForStatus({
    ...parseErrorBody(text, response.status),
    ...context,
    status: response.status,
    requestId: requestIdOf(text, response.headers),
    retryAfterSeconds: waitMs === undefined ? undefined : Math.ceil(waitMs / 1000),
  });
  return { ok: false, error, outcome: { kind: "status", status: response.status }, waitMs };
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

/** How an exchange that threw `cause` failed, and what the attempt knew when it did. */
export interface TransportFailure {
  cause: unknown;
  /** The attempt's own timeout signal. */
  timeout: AbortSignal;
  /** The caller's signal: an abort by the caller is rethrown as it is. */
  callerSignal: AbortSignal | undefined;
  context: RequestContext;
  /** Whether the request certainly never left (the connection was not made). */
  notSent: boolean;
  /** The per-attempt timeout the message names (CATALOG_TIMEOUT). */
  timeoutMs: number;
}

/** A failed exchange as a TimeoutError or NetworkError; the caller's own abort is thrown instead. */
export function transportFailure(failure: TransportFailure): AttemptFailure {
  const { cause, context, notSent } = failure;
  if (failure.callerSignal?.aborted) throw failure.callerSignal.reason;
  if (failure.timeout.aborted) {
    const seconds = failure.timeoutMs / 1000;
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

/** Deno reports refused or unresolvable connections this way; nothing was sent then. */
export function isConnectFailure(cause: unknown): boolean {
  const text = `${cause instanceof Error ? cause.message : cause} ${
    cause instanceof Error && cause.cause ? String(cause.cause) : ""
  }`.toLowerCase();
  return /connection refused|tcp connect error|dns error|failed to lookup|name or service not known|connect\)/
    .test(text);
}

/** Where a request went, without its path and query (which may be long, or carry a token's kin). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(an invalid URL)";
  }
}

/**
 * The failure of a request whose deadline of `deadlineMs` passed after `attempts` attempts; `last` is the
 * last one's.
 */
export function deadlinePassed(
  deadlineMs: number,
  attempts: number,
  last: CatalogError | undefined,
): RequestDeadlineError {
  if (last instanceof RequestDeadlineError) return last;
  const seconds = deadlineMs / 1000;
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

/**
 * A throttle whose wait is longer than `maxRetryAfterMs`, the most the client waits: not waited for, and
 * says until when.
 */
export function waitTooLong(
  error: CatalogError,
  waitMs: number,
  maxRetryAfterMs: number,
): RetryWaitTooLongError {
  const seconds = Math.ceil(waitMs / 1000);
  const at = Date.now() + waitMs;
  const until = at < 8.64e15 ? new Date(at).toISOString() : "a time too far ahead to name";
  const limit = Math.round(maxRetryAfterMs / 1000);
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
export function finalError(
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
