/**
 * The shape Purview reads a process's `columnMapping` in, and the check of a mapping given as text or JSON
 * before it is sent. Purview stores any string in the attribute, but draws column lineage only from
 *
 * ```json
 * [{"DatasetMapping": {"Source": "<source qualifiedName>", "Sink": "<target qualifiedName>"},
 *   "ColumnMapping": [{"Source": "<source column>", "Sink": "<target column>"}]}]
 * ```
 *
 * with those keys exactly (they are case-sensitive: `"source"` is not read), as a JSON string. A mapping
 * the service accepts and never shows is the usual result of a lower-case key, a missing level or an
 * object where the array belongs; each gets its own message here, naming where it is and the fix.
 *
 * @example
 * ```ts
 * import { parseColumnMapping } from "./column_mapping_shape.ts";
 * const result = parseColumnMapping('[{"DatasetMapping":{"Source":"a","Sink":"b"},"ColumnMapping":[{"source":"x","Sink":"y"}]}]');
 * console.log("problems" in result ? result.problems[0] : "ok");
 * // [0].ColumnMapping[0] has the key "source": Purview reads "Source" (keys are case-sensitive) …
 * ```
 *
 * @module
 */

/** One entry of Purview's `columnMapping`: the two data sets and their column pairs. */
export interface ColumnMappingEntry {
  DatasetMapping: { Source: string; Sink: string };
  ColumnMapping: Array<{ Source: string; Sink: string }>;
}

/** The shape in one line, for messages. */
export const COLUMN_MAPPING_SHAPE =
  '[{"DatasetMapping":{"Source":"<source qualifiedName>","Sink":"<target qualifiedName>"},' +
  '"ColumnMapping":[{"Source":"<column>","Sink":"<column>"}]}]';

/** Most problems reported for one mapping: past that the mapping is plainly of another shape. */
const MAX_SHAPE_PROBLEMS = 5;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * Reads `key` of `object` where Purview expects it, reporting a key of another case (`source` for
 * `Source`) by name, since that is the mistake that leaves a mapping stored but never drawn.
 */
function field(object: Json, key: string, where: string, problems: string[]): unknown {
  if (key in object) return object[key];
  const near = Object.keys(object).find((k) => k.toLowerCase() === key.toLowerCase());
  problems.push(
    near === undefined
      ? `${where} has no "${key}" key; Purview reads ${COLUMN_MAPPING_SHAPE}`
      : `${where} has the key "${near}": Purview reads "${key}" (keys are case-sensitive) — rename it to "${key}"`,
  );
  return undefined;
}

function text(object: Json, key: string, where: string, problems: string[]): string | undefined {
  const value = field(object, key, where, problems);
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    problems.push(
      `${where}.${key} is ${kindOf(value)}${value === "" ? " (empty)" : ""}; give a non-empty string`,
    );
    return undefined;
  }
  return value;
}

function pair(
  value: unknown,
  where: string,
  problems: string[],
): { Source: string; Sink: string } | undefined {
  if (!isObject(value)) {
    problems.push(`${where} is ${kindOf(value)}; give {"Source":"…","Sink":"…"}`);
    return undefined;
  }
  const source = text(value, "Source", where, problems);
  const sink = text(value, "Sink", where, problems);
  return source !== undefined && sink !== undefined ? { Source: source, Sink: sink } : undefined;
}

function entry(value: unknown, where: string, problems: string[]): ColumnMappingEntry | undefined {
  if (!isObject(value)) {
    problems.push(`${where} is ${kindOf(value)}; each entry is {"DatasetMapping":{…},"ColumnMapping":[…]}`);
    return undefined;
  }
  const datasets = field(value, "DatasetMapping", where, problems);
  const dataset = datasets === undefined ? undefined : pair(datasets, `${where}.DatasetMapping`, problems);
  const columns = field(value, "ColumnMapping", where, problems);
  if (columns === undefined) return undefined;
  if (!Array.isArray(columns) || columns.length === 0) {
    problems.push(
      `${where}.ColumnMapping is ${Array.isArray(columns) ? "empty" : kindOf(columns)}; give an array of ` +
        '{"Source":"<column>","Sink":"<column>"}',
    );
    return undefined;
  }
  const pairs = columns.map((column, i) => pair(column, `${where}.ColumnMapping[${i}]`, problems));
  if (dataset === undefined || pairs.some((p) => p === undefined)) return undefined;
  return { DatasetMapping: dataset, ColumnMapping: pairs as ColumnMappingEntry["ColumnMapping"] };
}

/**
 * The entries of a `columnMapping` given as its JSON text (as the attribute holds it) or as parsed JSON, or
 * every problem of its shape (at most a few), each naming where in the mapping it is.
 */
export function parseColumnMapping(
  value: unknown,
): { entries: ColumnMappingEntry[] } | { problems: string[] } {
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      return {
        problems: [`is not JSON (${(error as Error).message}); write it as ${COLUMN_MAPPING_SHAPE}`],
      };
    }
  }
  if (!Array.isArray(parsed)) {
    const hint = isObject(parsed) && ("DatasetMapping" in parsed || "ColumnMapping" in parsed)
      ? "; put the object inside [ ]"
      : `; write it as ${COLUMN_MAPPING_SHAPE}`;
    return { problems: [`is ${kindOf(parsed)}, not an array${hint}`] };
  }
  if (parsed.length === 0) return { problems: [`is an empty array; write it as ${COLUMN_MAPPING_SHAPE}`] };
  const problems: string[] = [];
  const entries = parsed.map((item, i) => entry(item, `[${i}]`, problems));
  if (problems.length > 0) {
    const more = problems.length - MAX_SHAPE_PROBLEMS;
    return {
      problems: more > 0 ? [...problems.slice(0, MAX_SHAPE_PROBLEMS), `… and ${more} more`] : problems,
    };
  }
  return { entries: entries as ColumnMappingEntry[] };
}
