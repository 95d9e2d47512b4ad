/**
 * Errors of the unified catalog API, in its `{"error": {code, message, target, details}}` shape (the server
 * renders every {@link EmulatorError} raised under `/datagovernance` that way).
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";

/** A request field or parameter is missing or invalid (400). */
export function invalidField(target: string, message: string): EmulatorError {
  return new EmulatorError(400, "InvalidRequest", message, { target });
}

/** The `api-version` query parameter is not a date version (400). */
export function invalidApiVersion(value: string): EmulatorError {
  return new EmulatorError(
    400,
    "InvalidApiVersionParameter",
    `The api-version '${value}' is invalid; expected a version such as 2025-09-15-preview (YYYY-MM-DD or YYYY-MM-DD-preview).`,
    { target: "api-version" },
  );
}

/** An entity of the unified catalog does not exist (404). */
export function entityNotFound(label: string, id: string): EmulatorError {
  return new EmulatorError(404, "EntityNotFound", `The ${label} with id '${id}' was not found.`, {
    target: "id",
  });
}

/** A conflicting create, update or delete (409). */
export function conflict(message: string, target?: string): EmulatorError {
  return new EmulatorError(409, "Conflict", message, { target });
}

/** Too many requests of one operation in the sliding window (429 with `Retry-After`). */
export function throttled(
  operation: string,
  limit: number,
  windowMs: number,
  retryAfter: number,
): EmulatorError {
  const seconds = windowMs / 1000;
  return new EmulatorError(
    429,
    "TooManyRequests",
    `Rate limit exceeded for ${operation}: at most ${limit} requests per ${seconds} seconds. ` +
      `Retry after ${retryAfter} seconds.`,
    { headers: { "retry-after": String(retryAfter) } },
  );
}
