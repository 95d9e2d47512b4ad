/**
 * Reading and checking the JSON payload files commands take (`--payloadFile`, `--payload-file`). Every
 * problem (missing file, invalid JSON, wrong shape) is a {@link UsageError} naming the file and what is
 * wrong, raised before anything is sent to the catalog.
 *
 * @example
 * ```ts
 * import { describeJson, parseJsonValue } from "./payload_files.ts";
 * parseJsonValue("42"); // 42
 * parseJsonValue("finance"); // "finance"
 * describeJson({}); // "an object"
 * ```
 *
 * @module
 */
import { UsageError } from "../core/errors.ts";
import type { OperationContext } from "./types.ts";

/** Reads a JSON file named by `option`; a missing or unreadable file or invalid JSON is a usage error. */
export async function readJsonFile(ctx: OperationContext, path: string, option: string): Promise<unknown> {
  const text = await ctx.readTextFile(path, option);
  if (text.trim() === "") throw new UsageError(`${path} is empty: ${option} needs a JSON payload.`);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    throw new UsageError(`${path} is not valid JSON: ${(e as Error).message}`);
  }
}

/** A shape error about a payload file, with what was expected and what was found. */
export function payloadError(path: string, expected: string, found: string, hint?: string): UsageError {
  return new UsageError(`${path} has the wrong shape: expected ${expected}, found ${found}.`, hint);
}

/** `an object`, `an array`, `a string`, `null`… for error messages. */
export function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `a string (${JSON.stringify(value.slice(0, 40))})`;
  return `a ${typeof value} (${String(value)})`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Checks a payload is a JSON array of strings (labels). */
export function asStringArray(value: unknown, path: string, what = "label strings"): string[] {
  const expected = `a JSON array of ${what}, e.g. ["finance","gold"]`;
  if (!Array.isArray(value)) throw payloadError(path, expected, describeJson(value));
  value.forEach((item, i) => {
    if (typeof item !== "string") throw payloadError(path, expected, `${describeJson(item)} at index ${i}`);
    if (item.trim() === "") throw payloadError(path, expected, `an empty string at index ${i}`);
  });
  return value as string[];
}

/** Checks a payload is a JSON object (attribute name → value). */
export function asObject(value: unknown, path: string, expected: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw payloadError(path, expected, describeJson(value));
  return value;
}

/** Checks a payload is business metadata: group name → object of attribute name → value. */
export function asBusinessMetadata(value: unknown, path: string): Record<string, Record<string, unknown>> {
  const expected = 'business metadata as {"<bmName>": {"<attribute>": <value>, …}, …}';
  if (!isPlainObject(value)) throw payloadError(path, expected, describeJson(value));
  if (Object.keys(value).length === 0) throw payloadError(path, expected, "an empty object");
  for (const [group, attributes] of Object.entries(value)) {
    if (!isPlainObject(attributes)) {
      throw payloadError(path, expected, `${describeJson(attributes)} for group "${group}"`);
    }
  }
  return value as Record<string, Record<string, unknown>>;
}

/** A command-line value: JSON when it parses as JSON (`42`, `true`, `["a"]`), else the text as is. */
export function parseJsonValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
