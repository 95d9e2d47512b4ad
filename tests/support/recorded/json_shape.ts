/**
 * The JSON shape of an answer (keys and value types, recursively; values ignored) and how two shapes
 * differ, for comparing the emulator's answers with answers the real service gave.
 *
 * - `null` matches every type: a service answers null for a value that is not set, and which values are set
 *   depends on the data, not on the contract.
 * - An array's elements are merged into one shape (the union of their keys and types), so a list whose items
 *   differ in which optional keys they carry compares as one item; an empty array matches any array.
 * - An object whose keys are all guids (`referredEntities`, `guidAssignments`) is a map: its values are
 *   merged and compared, its keys are data. So is a type definition's `options`, which Atlas declares as a
 *   map of strings whose keys differ from type to type.
 * - A key the service sent that the emulator's answer lacks is a difference; so is a value of another type.
 *   Keys only the emulator sends are returned apart ({@link ShapeComparison.extra}): a recorded answer
 *   leaves out what the recorded account did not have set, so an extra key is not by itself a disagreement.
 *
 * @module
 */

type Kind = "null" | "string" | "number" | "boolean" | "array" | "object";

/** The shape of a JSON value: the kinds seen there, the fields of its objects, the items of its arrays. */
export interface Shape {
  kinds: Set<Kind>;
  fields?: Map<string, Shape>;
  /** True when every key of every object seen here is a guid. */
  map?: boolean;
  items?: Shape;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a guid (any case). */
export function isGuidText(value: string): boolean {
  return GUID.test(value);
}

function kindOf(value: unknown): Kind {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  const kind = typeof value;
  if (kind === "string" || kind === "number" || kind === "boolean") return kind;
  return "object";
}

/** The shape of one JSON value. */
export function shapeOf(value: unknown, key?: string): Shape {
  const kind = kindOf(value);
  const shape: Shape = { kinds: new Set([kind]) };
  if (kind === "array") {
    for (const item of value as unknown[]) shape.items = merge(shape.items, shapeOf(item, key));
  } else if (kind === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    shape.map = key === "options" || (entries.length > 0 && entries.every(([name]) => isGuidText(name)));
    shape.fields = new Map(entries.map(([name, item]) => [name, shapeOf(item, name)]));
  }
  return shape;
}

function merge(a: Shape | undefined, b: Shape): Shape {
  if (!a) return b;
  const merged: Shape = { kinds: new Set([...a.kinds, ...b.kinds]) };
  if (a.fields || b.fields) {
    merged.fields = new Map(a.fields ?? []);
    for (const [key, shape] of b.fields ?? []) merged.fields.set(key, merge(merged.fields.get(key), shape));
    merged.map = (a.fields ? a.map : true) && (b.fields ? b.map : true);
  }
  if (a.items || b.items) merged.items = b.items ? merge(a.items, b.items) : a.items;
  return merged;
}

/** One map's values merged into one shape. */
function mapValues(shape: Shape): Shape | undefined {
  let values: Shape | undefined;
  for (const value of shape.fields?.values() ?? []) values = merge(values, value);
  return values;
}

/** How an answer's shape differs from the recorded one's. */
export interface ShapeComparison {
  /** Missing keys and values of another type, each `"$.a.b: …"`. */
  differences: string[];
  /** Keys only the emulator's answer has. */
  extra: string[];
}

/** Compares the shape of `actual` with the shape of `recorded`. */
export function compareShapes(recorded: unknown, actual: unknown): ShapeComparison {
  const comparison: ShapeComparison = { differences: [], extra: [] };
  compareAt(shapeOf(recorded), shapeOf(actual), "$", comparison);
  return comparison;
}

function describeKinds(kinds: Set<Kind>): string {
  return [...kinds].filter((kind) => kind !== "null").join("|");
}

function compareAt(recorded: Shape, actual: Shape, at: string, out: ShapeComparison): void {
  const recordedKinds = new Set([...recorded.kinds].filter((kind) => kind !== "null"));
  const actualKinds = new Set([...actual.kinds].filter((kind) => kind !== "null"));
  if (recordedKinds.size === 0 || actualKinds.size === 0) return;
  if (![...recordedKinds].some((kind) => actualKinds.has(kind))) {
    out.differences.push(
      `${at}: the service sent ${describeKinds(recorded.kinds)}, the emulator ${describeKinds(actual.kinds)}`,
    );
    return;
  }
  if (recorded.items && actual.items) compareAt(recorded.items, actual.items, `${at}[]`, out);
  if (!recorded.fields || !actual.fields) return;
  if (recorded.map && (actual.map || actual.fields.size === 0)) {
    const recordedValues = mapValues(recorded);
    const actualValues = mapValues(actual);
    if (recordedValues && actualValues) compareAt(recordedValues, actualValues, `${at}{key}`, out);
    return;
  }
  for (const [key, shape] of recorded.fields) {
    const other = actual.fields.get(key);
    if (!other) {
      out.differences.push(
        `${at}.${key}: missing (the service sent ${describeKinds(shape.kinds) || "null"})`,
      );
    } else compareAt(shape, other, `${at}.${key}`, out);
  }
  for (const key of actual.fields.keys()) {
    if (!recorded.fields.has(key)) out.extra.push(`${at}.${key}`);
  }
}
