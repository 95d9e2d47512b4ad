/**
 * The discovery API's `filter` language, compiled to a predicate over {@link SearchDocument}s: `and`, `or`,
 * `not`, field conditions (`entityType`, `objectType`, `classification`, `collectionId`, `assetType`, `id`,
 * `label`, `term`, `termGuid`, `contactId`, `contactType`, `fileExtension`, `createTime`, `updateTime`,
 * `glossaryType`, `termStatus`, `termTemplate`) and attribute conditions (`attributeName`, `operator`,
 * `attributeValue`). Anything else is a 400 that names the offending key, so a typo never silently
 * matches everything.
 *
 * @example
 * ```ts
 * import { compileFilter } from "./filter.ts";
 * const matches = compileFilter({ and: [{ entityType: "azure_sql_table" }, { not: { label: "Archived" } }] }, Date.now());
 * ```
 *
 * @module
 */
import { isObject, type JsonObject } from "../entity/model.ts";
import { EmulatorError } from "../errors.ts";
import type { SearchDocument } from "./document.ts";

/** True when a document passes the filter. */
export type SearchPredicate = (document: SearchDocument) => boolean;

const DAY_MS = 24 * 60 * 60 * 1000;
const TIME_RANGES: Record<string, (ageMs: number) => boolean> = {
  LAST_24H: (age) => age <= DAY_MS,
  LAST_7D: (age) => age <= 7 * DAY_MS,
  LAST_30D: (age) => age <= 30 * DAY_MS,
  LAST_365D: (age) => age <= 365 * DAY_MS,
  MORE_THAN_365D: (age) => age > 365 * DAY_MS,
};

const equalsIgnoreCase = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();

/**
 * A case-insensitive test for one expected value, lower-cased once: filters run on every document of a
 * `*` search, so the per-document cost is what counts.
 */
function sameText(expected: unknown): (actual: string | undefined) => boolean {
  const exact = String(expected);
  const lower = exact.toLowerCase();
  return (actual) => actual === exact || (actual !== undefined && actual.toLowerCase() === lower);
}

function anySameText(expected: unknown): (actual: readonly string[]) => boolean {
  const same = sameText(expected);
  return (actual) => actual.some(same);
}

type ConditionCompiler = (
  value: unknown,
  condition: JsonObject,
  path: string,
  now: number,
) => SearchPredicate;

const CONDITIONS: Record<string, ConditionCompiler> = {
  entityType: (v) => {
    const same = sameText(v);
    return (d) => same(d.entityType);
  },
  objectType: (v) => {
    const same = sameText(v);
    return (d) => same(d.objectType);
  },
  classification: (v, c) => {
    const prefix = `${String(v).toLowerCase()}.`;
    const some = anySameText(v);
    return (d) =>
      some(d.classification) ||
      (c.includeSubClassifications === true &&
        d.classification.some((n) => n.toLowerCase().startsWith(prefix)));
  },
  collectionId: (v) => {
    const same = sameText(v);
    return (d) => same(d.collectionId);
  },
  assetType: (v) => {
    const some = anySameText(v);
    return (d) => some(d.assetType);
  },
  id: (v) => (d) => d.id === v,
  label: (v) => {
    const some = anySameText(v);
    return (d) => some(d.label);
  },
  term: (v, c) => (d) =>
    d.term.some((t) =>
      equalsIgnoreCase(t.name, v) &&
      (c.glossary === undefined || equalsIgnoreCase(t.glossaryName, c.glossary))
    ),
  termGuid: (v) => (d) => d.term.some((t) => t.guid === v),
  contactId: (v) => (d) => d.contact.some((c) => c.id === v),
  contactType: (v) => (d) => d.contact.some((c) => equalsIgnoreCase(c.contactType, v)),
  fileExtension: (v) => {
    const suffix = `.${String(v).replace(/^\./, "").toLowerCase()}`;
    return (d) => d.qualifiedName.toLowerCase().endsWith(suffix);
  },
  // Glossaries and terms (of the glossary API, or entities of the AtlasGlossary* types) have glossary
  // fields; other entities have none.
  glossaryType: (v) => {
    const same = sameText(v);
    return (d) => same(d.glossaryType);
  },
  termStatus: (v) => {
    const same = sameText(v);
    return (d) => same(d.termStatus);
  },
  termTemplate: (v) => {
    const some = anySameText(v);
    return (d) => some(d.termTemplate ?? []);
  },
  createTime: (v, _c, path, now) => timeCondition((d) => d.createTime, v, `${path}.createTime`, now),
  updateTime: (v, _c, path, now) => timeCondition((d) => d.updateTime, v, `${path}.updateTime`, now),
};

// Keys that qualify a condition rather than being one.
const MODIFIERS = new Set(["includeSubTypes", "includeSubClassifications", "glossary"]);

const OPERATORS: Record<string, (actual: unknown, expected: unknown) => boolean> = {
  eq: (a, e) => a !== undefined && (typeof e === "string" ? equalsIgnoreCase(a, e) : a === e),
  ne: (a, e) => !(a !== undefined && (typeof e === "string" ? equalsIgnoreCase(a, e) : a === e)),
  contains: (a, e) => typeof a === "string" && a.toLowerCase().includes(String(e).toLowerCase()),
  prefix: (a, e) => typeof a === "string" && a.toLowerCase().startsWith(String(e).toLowerCase()),
  gt: (a, e) => compare(a, e) > 0,
  ge: (a, e) => compare(a, e) >= 0,
  lt: (a, e) => compare(a, e) < 0,
  le: (a, e) => compare(a, e) <= 0,
};

/** Compiles a filter; `undefined` or `null` matches everything. Throws a 400 {@link EmulatorError} when invalid. */
export function compileFilter(filter: unknown, now: number, path = "filter"): SearchPredicate {
  if (filter === undefined || filter === null) return () => true;
  if (!isObject(filter)) throw invalid(path, "must be a JSON object");
  const keys = Object.keys(filter);
  if (keys.length === 0) return () => true;

  for (const combinator of ["and", "or"] as const) {
    if (!(combinator in filter)) continue;
    onlyKey(filter, combinator, path);
    const parts = filter[combinator];
    if (!Array.isArray(parts)) throw invalid(`${path}.${combinator}`, "must be an array of filters");
    const predicates = parts.map((part, i) => compileFilter(part, now, `${path}.${combinator}[${i}]`));
    return combinator === "and" ? allOf(predicates) : anyOf(predicates);
  }
  if ("not" in filter) {
    onlyKey(filter, "not", path);
    const inner = compileFilter(filter.not, now, `${path}.not`);
    return (d) => !inner(d);
  }
  if ("attributeName" in filter) return attributeCondition(filter, path, now);

  const primary = keys.filter((key) => !MODIFIERS.has(key));
  if (primary.length !== 1) {
    throw invalid(path, `must hold exactly one condition, found ${primary.join(", ") || "only modifiers"}`);
  }
  const [key] = primary;
  const compile = CONDITIONS[key];
  if (!compile) {
    throw invalid(
      `${path}.${key}`,
      `is not a supported filter; use one of and, or, not, attributeName, ${
        Object.keys(CONDITIONS).join(", ")
      }`,
    );
  }
  const value = filter[key];
  if (key !== "createTime" && key !== "updateTime" && typeof value !== "string") {
    throw invalid(`${path}.${key}`, "must be a string");
  }
  return compile(value, filter, path, now);
}

/**
 * Entity types one of which every match of `filter` must have, when the filter says so (an `entityType`
 * condition, alone, in an `and`, or in every branch of an `or`); undefined when any type may match. The
 * engine visits only documents of these types, then applies the whole filter as usual.
 */
export function requiredEntityTypes(filter: unknown): string[] | undefined {
  if (!isObject(filter)) return undefined;
  if (typeof filter.entityType === "string") return [filter.entityType];
  if (Array.isArray(filter.and)) {
    for (const part of filter.and) {
      const types = requiredEntityTypes(part);
      if (types) return types;
    }
  }
  if (Array.isArray(filter.or) && filter.or.length > 0) {
    const branches = filter.or.map(requiredEntityTypes);
    if (branches.every((types) => types !== undefined)) return branches.flat() as string[];
  }
  return undefined;
}

// Plain loops: these run once per document of a search, and every() with a closure costs measurably more.
function allOf(predicates: SearchPredicate[]): SearchPredicate {
  return (d) => {
    for (const predicate of predicates) if (!predicate(d)) return false;
    return true;
  };
}

function anyOf(predicates: SearchPredicate[]): SearchPredicate {
  return (d) => {
    for (const predicate of predicates) if (predicate(d)) return true;
    return false;
  };
}

function attributeCondition(filter: JsonObject, path: string, now: number): SearchPredicate {
  for (const key of Object.keys(filter)) {
    if (!["attributeName", "operator", "attributeValue"].includes(key)) {
      throw invalid(`${path}.${key}`, "is not allowed next to attributeName");
    }
  }
  const name = filter.attributeName;
  if (typeof name !== "string" || name === "") {
    throw invalid(`${path}.attributeName`, "must be a non-empty string");
  }
  const operator = String(filter.operator ?? "eq");
  const expected = filter.attributeValue;
  const read = (d: SearchDocument) => attributeValue(d, name);
  if (operator === "timerange") {
    // An attribute without a value is never in a time range (Number(undefined) is NaN; null would be 0).
    return timeRange(
      (d) => {
        const value = read(d);
        if (value === null || value === undefined || value === "") return Number.NaN;
        return typeof value === "string" && Number.isNaN(Number(value)) ? Date.parse(value) : Number(value);
      },
      expected,
      `${path}.attributeValue`,
      now,
    );
  }
  const test = OPERATORS[operator];
  if (!test) {
    throw invalid(`${path}.operator`, `must be one of ${Object.keys(OPERATORS).join(", ")}, timerange`);
  }
  // A multi-valued attribute (a list of labels, an array business attribute) matches when one of its
  // values does; `ne` when none equals.
  if (operator === "ne") {
    return (d) => {
      const actual = read(d);
      return Array.isArray(actual) ? actual.every((item) => test(item, expected)) : test(actual, expected);
    };
  }
  return (d) => {
    const actual = read(d);
    return Array.isArray(actual) ? actual.some((item) => test(item, expected)) : test(actual, expected);
  };
}

const INTERNAL_FIELDS = new Set(["entity", "businessAttributes"]);

// Top-level search fields first, then the entity's attributes, then "BusinessMetadata.attribute".
function attributeValue(document: SearchDocument, name: string): unknown {
  const topLevel = (document as unknown as JsonObject)[name];
  if (topLevel !== undefined && !INTERNAL_FIELDS.has(name)) return topLevel;
  const attributes = document.entity.attributes;
  if (name in attributes) return attributes[name];
  return document.businessAttributes[name];
}

function timeCondition(
  read: (d: SearchDocument) => number,
  value: unknown,
  path: string,
  now: number,
): SearchPredicate {
  if (typeof value === "string") return timeRange(read, value, path, now);
  if (!isObject(value) || typeof value.timeThreshold !== "number") {
    throw invalid(path, "must be a time range (LAST_24H, LAST_7D, ...) or {operator, timeThreshold}");
  }
  const test = OPERATORS[String(value.operator ?? "eq")];
  if (!test) throw invalid(`${path}.operator`, `must be one of ${Object.keys(OPERATORS).join(", ")}`);
  const threshold = value.timeThreshold;
  return (d) => test(read(d), threshold);
}

function timeRange(
  read: (d: SearchDocument) => number,
  value: unknown,
  path: string,
  now: number,
): SearchPredicate {
  const names = String(value).split("|");
  const tests = names.map((name) => {
    const test = TIME_RANGES[name.trim().toUpperCase()];
    if (!test) throw invalid(path, `must be one of ${Object.keys(TIME_RANGES).join(", ")}`);
    return test;
  });
  return (d) => {
    const time = read(d);
    return Number.isFinite(time) && tests.some((test) => test(now - time));
  };
}

function compare(actual: unknown, expected: unknown): number {
  if (actual === undefined || actual === null) return Number.NaN;
  if (typeof actual === "number" || typeof expected === "number") return Number(actual) - Number(expected);
  return String(actual).localeCompare(String(expected));
}

function onlyKey(filter: JsonObject, key: string, path: string): void {
  const others = Object.keys(filter).filter((k) => k !== key);
  if (others.length > 0) {
    throw invalid(`${path}.${others[0]}`, `cannot be combined with ${key} in one object`);
  }
}

function invalid(path: string, problem: string): EmulatorError {
  return EmulatorError.invalidParameters(`${path} ${problem}`, path);
}
