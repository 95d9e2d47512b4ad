/**
 * What the account area's routes share: the JSON object body they require, the 400 they answer in the
 * account API's error shape, and the `$skipToken` pages of their lists (`{value, count, nextLink}`, the
 * next link repeating the request's query, filters included).
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";
import { decodeSkipToken, encodeSkipToken, SKIP_TOKEN } from "../skip_tokens.ts";
import type { RouteContext } from "../router.ts";

/** Items per page of the account lists (contact groups, contact assignments, domains). */
export const ACCOUNT_PAGE_SIZE = 100;

/** The request's body as a JSON object; a 400 naming `example` when it is empty, not JSON or not an object. */
export async function objectBody(ctx: RouteContext, example: string): Promise<Record<string, unknown>> {
  const text = await ctx.request.text();
  if (text.trim() === "") throw invalid("InvalidRequestBody", `The request body is empty; send ${example}.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid("InvalidRequestBody", `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(value)) {
    throw invalid("InvalidRequestBody", `The request body must be a JSON object, e.g. ${example}.`);
  }
  return value;
}

/** A 400 in the account API's error shape. */
export function invalid(code: string, message: string, target?: string): EmulatorError {
  return new EmulatorError(400, code, message, { target });
}

/** Whether `value` is a JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * One page of `items` after the request's `$skipToken`: `{value, count}` with `count` the total, and a
 * `nextLink` (the request's URL with the next token) unless this is the last page. Tokens are opaque.
 */
export function skipTokenPage<T>(
  url: URL,
  items: T[],
  pageSize = ACCOUNT_PAGE_SIZE,
): Record<string, unknown> {
  const offset = skipTokenOffset(url.searchParams.get(SKIP_TOKEN));
  const result: Record<string, unknown> = {
    value: items.slice(offset, offset + pageSize),
    count: items.length,
  };
  if (offset + pageSize < items.length) {
    const next = new URL(url.href);
    next.searchParams.set(SKIP_TOKEN, encodeSkipToken("account", offset + pageSize));
    result.nextLink = next.toString();
  }
  return result;
}

function skipTokenOffset(token: string | null): number {
  const offset = decodeSkipToken("account", token);
  if (offset !== undefined) return offset;
  throw invalid(
    "InvalidSkipToken",
    "The $skipToken is not one this list answered; follow the nextLink of the previous page.",
    SKIP_TOKEN,
  );
}
