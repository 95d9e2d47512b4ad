/**
 * What the routes of the scanning API share: its errors (`{"error": {code, message, target, details}}`
 * through {@link EmulatorError}), reading a JSON object body, checking names, and paging a list as
 * `{value, count, nextLink}` with an opaque `$skipToken`.
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";
import { decodeSkipToken, encodeSkipToken, SKIP_TOKEN } from "../skip_tokens.ts";
import type { RouteContext } from "../router.ts";
import { scanNameProblem } from "./kinds.ts";

/** A 400 about the request, naming the offending field when there is one. */
export function scanBadRequest(message: string, target?: string): EmulatorError {
  return new EmulatorError(400, "BadRequest", message, { target });
}

/** A 404 for a resource that does not exist. */
export function scanNotFound(what: string, name: string, code: string): EmulatorError {
  return new EmulatorError(404, code, `${what} '${name}' does not exist.`, { target: name });
}

/** A 409: the request clashes with what is stored. */
export function scanConflict(message: string, code: string, target?: string): EmulatorError {
  return new EmulatorError(409, code, message, { target });
}

/**
 * Refuses a name the service would refuse: by default 3 to 63 letters, digits and single hyphens;
 * `problemOf` gives another rule.
 */
export async function checkName(
  ctx: RouteContext,
  name: string,
  what: string,
  problemOf: (name: string) => string | undefined = scanNameProblem,
): Promise<void> {
  const problem = problemOf(name);
  if (!problem) return;
  await ctx.request.body?.cancel();
  throw scanBadRequest(`'${name}' is not a valid ${what} name: ${problem}.`, name);
}

/** Reads the body as a JSON object; an empty body, invalid JSON or another value is a 400. */
export async function readObjectBody(ctx: RouteContext, example: string): Promise<Record<string, unknown>> {
  const text = await ctx.request.text();
  if (text.trim() === "") throw scanBadRequest(`The request body is empty; it must be ${example}.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw scanBadRequest(`The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(value)) throw scanBadRequest(`The request body must be a JSON object: ${example}.`);
  return value;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The optional object at `field`, or a 400 when it is something else. */
export function optionalObject(
  parent: Record<string, unknown>,
  field: string,
  target: string,
): Record<string, unknown> | undefined {
  const value = parent[field];
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw scanBadRequest(`${target} must be an object.`, target);
  return value;
}

/** The optional string at `field`, one of `allowed` when given, or a 400. */
export function optionalString(
  parent: Record<string, unknown>,
  field: string,
  target: string,
  allowed?: readonly string[],
): string | undefined {
  const value = parent[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw scanBadRequest(`${target} must be a string.`, target);
  if (allowed && !allowed.includes(value)) {
    throw scanBadRequest(`${target} '${value}' is not one of ${allowed.join(", ")}.`, target);
  }
  return value;
}

/** ISO time of epoch milliseconds. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * One page of `items`: `{value, count, nextLink}` where `count` is the total and `nextLink` (absent on the
 * last page) repeats the request's URL with the next `$skipToken`.
 */
export function scanPage<T>(url: URL, items: T[], pageSize: number): Record<string, unknown> {
  const offset = skipTokenOffset(url.searchParams.get(SKIP_TOKEN));
  const value = items.slice(offset, offset + pageSize);
  const result: Record<string, unknown> = { value, count: items.length };
  if (offset + pageSize < items.length) {
    const next = new URL(url.pathname, url.origin);
    const apiVersion = url.searchParams.get("api-version");
    if (apiVersion) next.searchParams.set("api-version", apiVersion);
    next.searchParams.set(SKIP_TOKEN, encodeSkipToken("scan", offset + pageSize));
    result.nextLink = next.toString();
  }
  return result;
}

function skipTokenOffset(token: string | null): number {
  const offset = decodeSkipToken("scan", token);
  if (offset === undefined) throw scanBadRequest(`The ${SKIP_TOKEN} '${token}' is not valid.`, SKIP_TOKEN);
  return offset;
}
