/**
 * Request parts the unified catalog routes read: JSON bodies (optional for query, facets and count,
 * required for create and update) and the `maxDepth` query parameter, with the API's 400 when malformed.
 *
 * @module
 */
import type { RouteContext } from "../router.ts";
import { invalidField } from "./errors.ts";

/** The `maxDepth` query parameter (unbounded when absent). */
export function maxDepth(url: URL): number {
  const raw = url.searchParams.get("maxDepth");
  if (raw === null || raw === "") return Number.POSITIVE_INFINITY;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw invalidField("maxDepth", `maxDepth must be a non-negative integer; got '${raw}'.`);
  }
  return value;
}

/** The JSON body, or undefined for an empty one (query, facets and count take an optional body). */
export async function optionalJson(ctx: RouteContext): Promise<unknown> {
  const text = await ctx.request.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidField("body", `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** The JSON body of a create or update; empty or malformed bodies get the API's 400. */
export async function requiredJson(ctx: RouteContext): Promise<unknown> {
  const body = await optionalJson(ctx);
  if (body === undefined) throw invalidField("body", "The request body is empty; a JSON object is required.");
  return body;
}
