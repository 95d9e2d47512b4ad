/**
 * How the bulk engine and its imports tell errors apart: the service refusing the rows sent (a 400, 404,
 * 409, a 500 about the row), which rejects those rows into the reject file, from the service being
 * unreachable, throttling or refusing the caller, which concerns every row and is handled for the whole
 * batch (retry, slow down, or stop with a checkpoint).
 *
 * @example
 * ```ts
 * import { isRowRefusal, refusalOutcome } from "./refusals.ts";
 * import { NotFoundError } from "../core/errors.ts";
 * const error = new NotFoundError({ status: 404, message: "no such parent" });
 * if (isRowRefusal(error)) console.log(refusalOutcome(error).reason); // "404: no such parent"
 * ```
 *
 * @module
 */
import {
  AuthenticationError,
  AuthorizationError,
  CatalogError,
  NetworkError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from "../core/errors.ts";
import type { UnitOutcome } from "./types.ts";

/** No answer, or the service is unavailable: nothing is wrong with the rows themselves. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof NetworkError || error instanceof TimeoutError ||
    (error instanceof ServerError && [502, 503, 504].includes(error.status));
}

/** The caller is refused (401, 403): every row would be. */
export function isCallerRefused(error: unknown): error is CatalogError {
  return error instanceof AuthenticationError || error instanceof AuthorizationError;
}

/** Whether the service refused what was sent, as opposed to being unreachable, throttling or refusing the caller. */
export function isRowRefusal(error: unknown): error is CatalogError {
  return error instanceof CatalogError && !(error instanceof RateLimitError) && !isUnreachable(error) &&
    !isCallerRefused(error);
}

/** The rejected outcome of a refusal: its status, the service's code and message on one line. */
export function refusalOutcome(error: CatalogError): Extract<UnitOutcome, { status: "rejected" }> {
  const code = error.code ? ` ${error.code}` : "";
  return {
    status: "rejected",
    reason: `${error.status || "network"}${code}: ${error.message}`.replace(/\s+/g, " "),
    httpStatus: error.status,
    code: error.code,
  };
}
