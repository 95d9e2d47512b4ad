/**
 * Typed errors. Callers branch on the class (or `status`), users read `message` and `hint`. Exit codes
 * follow the design notes: 2 for bad usage or input caught before anything is sent, 1 for a refusal or
 * failure of the service.
 *
 * @example
 * ```ts
 * import { NotFoundError } from "./errors.ts";
 * try {
 *   throw new NotFoundError({ message: "no entity", code: "ATLAS-404-00-005" });
 * } catch (e) {
 *   if (e instanceof NotFoundError) console.error(e.hint);
 * }
 * ```
 *
 * @module
 */
import { hintFor } from "./error_hints.ts";

/**
 * Base of every error govcat raises on purpose: a message for people, a `hint` that says what to do, and
 * the process `exitCode` the CLI ends with. Anything else that escapes govcat is a bug.
 *
 * @example Telling govcat's errors from the unexpected
 * ```ts
 * import assert from "node:assert/strict";
 * import { GovcatError, NotFoundError, UsageError } from "./errors.ts";
 *
 * function explain(error: unknown): string {
 *   if (error instanceof NotFoundError) return `missing (${error.status}): ${error.message}`;
 *   if (error instanceof GovcatError) return error.hint ? `${error.message} ${error.hint}` : error.message;
 *   throw error;
 * }
 *
 * const usage = new UsageError("guid is required.", "Pass the entity's GUID.");
 * assert.equal(explain(usage), "guid is required. Pass the entity's GUID.");
 * assert.equal(usage.exitCode, 2);
 * const missing = new NotFoundError({ status: 404, message: "No such entity." });
 * assert.equal(explain(missing), "missing (404): No such entity.");
 * ```
 */
export class GovcatError extends Error {
  /** Process exit code this error maps to. */
  readonly exitCode: number;
  /** What the user can do about it. */
  readonly hint?: string;

  /** An error with `message`; `exitCode` defaults to 1, `cause` keeps the error that led to this one. */
  constructor(message: string, options: { exitCode?: number; hint?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options.exitCode ?? 1;
    this.hint = options.hint;
  }
}

/** A missing or invalid configuration value, refused at start-up. */
export class ConfigError extends GovcatError {
  /** The environment variable (or profile key) at fault. */
  readonly variable?: string;
  /** A configuration error about `variable`; exit code 2. */
  constructor(message: string, variable?: string) {
    super(message, { exitCode: 2 });
    this.variable = variable;
  }
}

/** Bad command line or bad input, found before anything was sent. */
export class UsageError extends GovcatError {
  /** A usage error with what to do about it in `hint`; exit code 2. */
  constructor(message: string, hint?: string) {
    super(message, { exitCode: 2, hint });
  }
}

/** What the service said, as carried by every {@link CatalogError}. */
export interface ServiceErrorDetails {
  /** HTTP status; 0 when no response arrived. */
  status?: number;
  /** The service's own error code, e.g. `ATLAS-404-00-005` or `Throttled`. */
  code?: string;
  /** The service's message, or ours when it sent none. */
  message: string;
  /** Request id for support cases (`x-ms-request-id` or the body's `requestId`). */
  requestId?: string;
  /** HTTP method of the failed request. */
  method?: string;
  /** URL without query secrets. */
  url?: string;
  /** What the user can do about it; derived from the status and URL when not given. */
  hint?: string;
  /** Seconds the service asked us to wait (429/503). */
  retryAfterSeconds?: number;
  /** The underlying error (a network or abort error), kept for debugging. */
  cause?: unknown;
}

/** A request to the catalog failed: the service refused it, or it never completed. */
export class CatalogError extends GovcatError {
  /** HTTP status of the answer; 0 when none arrived (network failure, timeout). */
  readonly status: number;
  /** The service's own error code, such as `ATLAS-404-00-005` or `Throttled`. */
  readonly code?: string;
  /** Request id to quote in a support case. */
  readonly requestId?: string;
  /** HTTP method of the failed request. */
  readonly method?: string;
  /** URL of the failed request, with secret query parameters masked. */
  readonly url?: string;
  /** Seconds the service asked to wait before retrying (429, 503). */
  readonly retryAfterSeconds?: number;

  /** An error from what the service said; usually built by {@link errorForStatus}. Exit code 1. */
  constructor(details: ServiceErrorDetails) {
    super(details.message, { exitCode: 1, hint: details.hint, cause: details.cause });
    this.status = details.status ?? 0;
    this.code = details.code;
    this.requestId = details.requestId;
    this.method = details.method;
    this.url = details.url;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }

  /** A plain object for JSON output and MCP error results. */
  toJSON(): Record<string, unknown> {
    return {
      error: this.name,
      status: this.status,
      code: this.code,
      message: this.message,
      hint: this.hint,
      requestId: this.requestId,
      method: this.method,
      url: this.url,
    };
  }
}

/** 400: the request was malformed or failed the service's validation. */
export class BadRequestError extends CatalogError {}
/** 401: no valid credential. */
export class AuthenticationError extends CatalogError {}
/** 403: authenticated but the role is too low. */
export class AuthorizationError extends CatalogError {}
/** 404: wrong GUID, name or path. */
export class NotFoundError extends CatalogError {}
/** 409: conflicts with the current state (exists already, concurrent change). */
export class ConflictError extends CatalogError {}
/** 429: throttled after every retry. */
export class RateLimitError extends CatalogError {}
/** 5xx: the service failed. */
export class ServerError extends CatalogError {}
/** The connection failed or was dropped; `status` is 0. */
export class NetworkError extends CatalogError {}
/** No answer within `CATALOG_TIMEOUT`. */
export class TimeoutError extends CatalogError {}
/** No complete answer within `CATALOG_REQUEST_DEADLINE`, every attempt and backoff of one request included. */
export class RequestDeadlineError extends TimeoutError {}
/** Any other unexpected status. */
export class UnexpectedStatusError extends CatalogError {}
/** The answer was larger than `CATALOG_MAX_RESPONSE_BYTES` once decompressed; it was not read further. */
export class ResponseTooLargeError extends CatalogError {}
/** The catalog redirected to another origin (or from https to http); the redirect was not followed. */
export class RedirectRefusedError extends CatalogError {}
/**
 * Throttled with a wait longer than `CATALOG_MAX_RETRY_WAIT`: not waited for. The message says when to
 * retry; `retryAfterSeconds` is the wait the service asked for.
 */
export class RetryWaitTooLongError extends RateLimitError {}
/**
 * A paged list the client stopped following: the catalog repeated a continuation token, a `nextLink` or a
 * page, or the list passed `CATALOG_MAX_PAGES`, `CATALOG_MAX_ITEMS` or `CATALOG_PAGING_TIMEOUT`. The
 * message says how far it got.
 */
export class PagingError extends CatalogError {}
/** An answer nested deeper than `CATALOG_MAX_JSON_DEPTH`: not used, since nothing real is that deep. */
export class AnswerTooDeepError extends CatalogError {}

/**
 * The fix hint for a status alone: the fallback row of the hint table
 * (`error_hints.ts`) for that status and method.
 */
export function hintForStatus(status: number, method = "GET"): string | undefined {
  return hintFor({ status, method });
}

/**
 * Builds the typed error for an HTTP status. Its hint, unless given, is the one the hint table
 * (`error_hints.ts`) has for the resource the URL addresses, the status, and the service's code and message.
 */
export function errorForStatus(details: ServiceErrorDetails & { status: number }): CatalogError {
  const withHint = { ...details, hint: details.hint ?? hintFor(details) };
  switch (details.status) {
    case 400:
      return new BadRequestError(withHint);
    case 401:
      return new AuthenticationError(withHint);
    case 403:
      return new AuthorizationError(withHint);
    case 404:
      return new NotFoundError(withHint);
    case 409:
      return new ConflictError(withHint);
    case 429:
      return new RateLimitError(withHint);
    default:
      return details.status >= 500 ? new ServerError(withHint) : new UnexpectedStatusError(withHint);
  }
}
