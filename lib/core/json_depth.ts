/**
 * Nesting depth of JSON, measured without recursion, so a hostile answer of a million nested arrays is
 * refused before any recursive code (rendering, secret masking, schema checks) meets it and overflows the
 * stack. `JSON.parse` itself is iterative and would take it; what comes after is not.
 *
 * @example
 * ```ts
 * import { jsonBytesExceedDepth, valueExceedsDepth } from "./json_depth.ts";
 * jsonBytesExceedDepth(new TextEncoder().encode("[[[1]]]"), 2); // true
 * valueExceedsDepth({ a: { b: 1 } }, 2); // false
 * ```
 *
 * @module
 */
import { AnswerTooDeepError } from "./errors.ts";

/**
 * Default bound of the nesting depth of a catalog answer (CATALOG_MAX_JSON_DEPTH). Real answers nest about
 * ten levels (an entity, its attributes, a relationship's header, its attributes); 256 leaves room for any
 * of them and stays far below what the recursive code after parsing can take.
 */
export const DEFAULT_MAX_JSON_DEPTH = 256;
/** Largest allowed CATALOG_MAX_JSON_DEPTH, and the bound of what is rendered (output formats, tool results). */
export const MAX_JSON_DEPTH_LIMIT = 1000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * True when the JSON text in `bytes` (UTF-8) opens more than `limit` arrays or objects inside one
 * another. Brackets inside strings do not count. The text need not be valid JSON: the scan only counts.
 */
export function jsonBytesExceedDepth(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth--;
  }
  return false;
}

/** True when `value` nests arrays or objects more than `limit` deep; walked with a stack of its own. */
export function valueExceedsDepth(value: unknown, limit: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  // A cycle counts as too deep: it passes any limit, and nothing could render it anyway.
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (child !== null && typeof child === "object") pending.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/**
 * Throws {@link AnswerTooDeepError} when a result about to be rendered (an output format, a tool result)
 * nests deeper than {@link MAX_JSON_DEPTH_LIMIT}: the renderers recurse, and would overflow the stack.
 */
export function assertRenderableDepth(value: unknown): void {
  if (!valueExceedsDepth(value, MAX_JSON_DEPTH_LIMIT)) return;
  throw new AnswerTooDeepError({
    message: `The result nests arrays and objects more than ${MAX_JSON_DEPTH_LIMIT} levels deep; it was ` +
      "not rendered.",
    hint: "Check that CATALOG_ENDPOINT points at the catalog; no real result is that deep.",
  });
}
