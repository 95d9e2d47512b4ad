/**
 * Errors and request bodies of the data quality area.
 *
 * Error shape: neither data quality contract declares an error response (every operation lists its success
 * status only), and Microsoft Learn's 2026-01-12-preview pages say only that other statuses carry an
 * `x-ms-error-code` header. The emulator answers the azure data-plane shape the other governance APIs
 * (account, scanning, unified catalog) use, `{"error": {code, message, target, details}}` (the server picks it
 * for every `/purviewdataquality` path), and sets `x-ms-error-code` to the same code, so a client reading
 * either the header or the body finds it.
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";
import type { RouteContext } from "../router.ts";
import type { Doc } from "./store.ts";

/** An error of the data quality API, with its code in `x-ms-error-code` too. */
export function qualityError(status: number, code: string, message: string, target?: string): EmulatorError {
  return new EmulatorError(status, code, message, { target, headers: { "x-ms-error-code": code } });
}

/** A request field is missing or invalid (400). */
export function invalidField(target: string, message: string): EmulatorError {
  return qualityError(400, "InvalidRequest", message, target);
}

/** What a path names does not exist (404). */
export function notFound(label: string, id: string): EmulatorError {
  return qualityError(404, "NotFound", `The ${label} '${id}' was not found.`, "id");
}

/** The request conflicts with the stored state (409). */
export function conflict(code: string, message: string, target?: string): EmulatorError {
  return qualityError(409, code, message, target);
}

/** The body as JSON; an empty or malformed body is a 400 naming what to send. */
export async function jsonBody(ctx: RouteContext, example: string): Promise<unknown> {
  const text = await ctx.request.text();
  if (text.trim() === "") throw invalidField("body", `The request body is empty; send ${example}.`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidField(
      "body",
      `The request body is not valid JSON (${(error as Error).message}); send ${example}.`,
    );
  }
}

/** The body as a JSON object (an untyped body of the contract: stored as sent). */
export async function objectBody(ctx: RouteContext, example = "a JSON object"): Promise<Doc> {
  const value = await jsonBody(ctx, example);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidField("body", `The request body must be a JSON object; send ${example}.`);
  }
  return value as Doc;
}

/** The body as an object, or an empty one when none was sent (actions whose body is optional). */
export async function optionalObjectBody(ctx: RouteContext): Promise<Doc> {
  const text = await ctx.request.text();
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidField("body", `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidField("body", "The request body must be a JSON object.");
  }
  return value as Doc;
}
