/**
 * Finds the rows a command result holds, for the text formats (`--output=table|csv|tsv`): the records of a
 * list and their columns, the paging fields beside them (a search's count and continuation token), or one
 * record as field/value rows. The rules go by shape, not by command:
 *
 * - a list is its records; a list result is the list in a named field (`value`, `entities`, `items`, `list`,
 *   `templates`, `profiles`, `settings`), and the plain fields beside it are its notes (paging);
 * - a typedef list (`{enumDefs: [...], entityDefs: [...], ...}`) is every definition, one row each;
 * - a lineage result (`guidEntityMap` and `relations`) is its edges, with the names and types of both ends;
 * - counts per facet (`{facets: {status: [{value, count}]}}`) are one row per facet value;
 * - a tree (records with `children`) is flattened depth first, with `depth` and `path` columns; one node
 *   with its `ancestors` and `children` is its ancestors, itself and its descendants;
 * - `{entity: {...}}` is that entity; any other record is field/value rows, nested records flattened to
 *   dotted names (`systemData.createdAt`).
 *
 * A list's columns are the fields whose values are plain (text, numbers, booleans, lists of those): a nested
 * record is left out (reach it with `--query`), except an entity's `name` and `qualifiedName`, lifted from
 * its attributes. Atlas times in epoch milliseconds (`createTime`, `updateTime`, `lastModifiedTS`) become
 * ISO 8601; JSON output never goes through here and keeps them as they are.
 *
 * @module
 */

/** One row: column name to value. */
export type Row = Record<string, unknown>;

/** What a result is, for the text formats. */
export type Rows =
  /** A plain value or a list of them: printed one per line, without a header. */
  | { kind: "values"; values: unknown[] }
  /** A list of lists (`--query "value[].[name, id]"`): one row each, without a header. */
  | { kind: "tuples"; rows: unknown[][] }
  /** Records under a header; `notes` are the plain fields of the result beside them (paging). */
  | { kind: "records"; columns: string[]; rows: Row[]; notes: Array<[string, unknown]> };

/**
 * Fields that hold the records of a list result. Named, not guessed: a record that merely holds a list (a
 * term with its assigned entities, a glossary with its terms) is shown as itself.
 */
export const LIST_FIELDS = ["value", "entities", "items", "list", "templates", "profiles", "settings"];

/** Fields that hold counts per facet: `{status: [{value, count}], ...}`. */
const FACET_FIELDS = ["facets", "@search.facets"];

/** The rows of `value`, by the rules of this module. */
export function rowsOf(value: unknown): Rows {
  if (Array.isArray(value)) return listRows(value, []);
  if (!isRecord(value)) return { kind: "values", values: [value] };
  const listField = LIST_FIELDS.find((key) => Array.isArray(value[key]));
  if (listField) return listRows(value[listField] as unknown[], notesOf(value, [listField]));
  if (isTypedefList(value)) {
    return records(Object.values(value).flat().map(asRow), []);
  }
  if (Array.isArray(value.relations) && isRecord(value.guidEntityMap)) {
    return records(lineageEdges(value.relations, value.guidEntityMap), notesOf(value, []), LINEAGE_COLUMNS);
  }
  const facetField = FACET_FIELDS.find((key) => isFacets(value[key]));
  if (facetField) return records(facetRows(value[facetField] as FacetMap), notesOf(value, [facetField]));
  if (isTreeNode(value)) return records(nodeRows(value), []);
  const record = isRecord(value.entity) ? value.entity : value;
  return {
    kind: "records",
    columns: ["field", "value"],
    rows: fieldRows(record, ""),
    notes: [],
  };
}

/** The rows of a list: its records, a tree flattened, or its plain values. */
function listRows(items: unknown[], notes: Array<[string, unknown]>): Rows {
  if (items.length > 0 && notes.length === 0) {
    if (items.every(isPlain)) return { kind: "values", values: items };
    if (items.every((item) => Array.isArray(item) && item.every(isPlain))) {
      return { kind: "tuples", rows: items as unknown[][] };
    }
  }
  if (items.some((item) => isRecord(item) && isChildList(item.children))) {
    const rows: Row[] = [];
    for (const item of items) flattenTree(item, 0, [], rows);
    return records(rows, notes);
  }
  return records(items.map(asRow), notes);
}

/**
 * Records under a header: the given columns, or every field that holds a plain value (or a list of plain
 * values) in every row that has it, in first-seen order.
 */
function records(rows: Row[], notes: Array<[string, unknown]>, given?: string[]): Rows {
  let columns = given;
  if (!columns) {
    const seen: string[] = [];
    const nested = new Set<string>();
    for (const row of rows) {
      for (const [key, v] of Object.entries(row)) {
        if (!seen.includes(key)) seen.push(key);
        if (!isPlainOrPlainList(v)) nested.add(key);
      }
    }
    columns = seen.filter((key) => !nested.has(key));
  }
  const timed = rows.map((row) => Object.fromEntries(columns.map((c) => [c, timeValue(c, row[c])])));
  return { kind: "records", columns, rows: timed, notes };
}

/** A list item as a row: a record (an entity with its name and qualified name lifted), or `{value}`. */
function asRow(item: unknown): Row {
  if (!isRecord(item)) return { value: item };
  const attributes = item.attributes;
  if (!isRecord(attributes)) return item;
  return {
    ...item,
    name: item.name ?? attributes.name,
    qualifiedName: item.qualifiedName ?? attributes.qualifiedName,
  };
}

/** The plain fields of a list result beside its list (a count, a continuation token): its paging notes. */
function notesOf(result: Row, taken: string[]): Array<[string, unknown]> {
  return Object.entries(result)
    .filter(([key, v]) => !taken.includes(key) && v !== null && v !== undefined && isPlain(v))
    .map(([key, v]) => [key, timeValue(key, v)]);
}

/** One record as field/value rows, nested records flattened to dotted field names. */
function fieldRows(record: Row, prefix: string): Row[] {
  const rows: Row[] = [];
  for (const [key, v] of Object.entries(record)) {
    const field = prefix ? `${prefix}.${key}` : key;
    if (isRecord(v) && Object.keys(v).length > 0) rows.push(...fieldRows(v, field));
    else rows.push({ field, value: timeValue(key, v) });
  }
  return rows;
}

// --- typedef lists -------------------------------------------------------------------------------------

/** `{enumDefs: [...], structDefs: [...], ...}`: nothing but lists of definitions. */
function isTypedefList(record: Row): boolean {
  const entries = Object.entries(record);
  return entries.length > 0 && entries.every(([key, v]) => key.endsWith("Defs") && Array.isArray(v));
}

// --- lineage -------------------------------------------------------------------------------------------

const LINEAGE_COLUMNS = [
  "fromName",
  "fromType",
  "toName",
  "toType",
  "fromEntityId",
  "toEntityId",
  "relationshipId",
];

/** The edges of a lineage graph, each end named from the entity map. */
function lineageEdges(relations: unknown[], entities: Row): Row[] {
  const nameOf = (guid: unknown) => {
    const entity = typeof guid === "string" && Object.hasOwn(entities, guid) ? entities[guid] : undefined;
    if (!isRecord(entity)) return { name: undefined, type: undefined };
    const attributes = isRecord(entity.attributes) ? entity.attributes : {};
    return { name: entity.displayText ?? attributes.name, type: entity.typeName };
  };
  return relations.filter(isRecord).map((relation) => {
    const from = nameOf(relation.fromEntityId);
    const to = nameOf(relation.toEntityId);
    return {
      fromName: from.name,
      fromType: from.type,
      toName: to.name,
      toType: to.type,
      fromEntityId: relation.fromEntityId,
      toEntityId: relation.toEntityId,
      relationshipId: relation.relationshipId,
    };
  });
}

// --- facets --------------------------------------------------------------------------------------------

type FacetMap = Record<string, Row[]>;

function isFacets(value: unknown): value is FacetMap {
  return isRecord(value) && Object.keys(value).length > 0 &&
    Object.values(value).every((list) => Array.isArray(list) && list.every(isRecord));
}

/** One row per facet value: `facet`, then the value's fields (`value`, `count`). */
function facetRows(facets: FacetMap): Row[] {
  return Object.entries(facets).flatMap(([facet, list]) => list.map((entry) => ({ facet, ...entry })));
}

// --- trees ---------------------------------------------------------------------------------------------

function isChildList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.every(isRecord);
}

/** One node of a tree: a record whose `children` are records (none, for a leaf). */
function isTreeNode(record: Row): boolean {
  return isChildList(record.children) &&
    (record.ancestors === undefined || isChildList(record.ancestors));
}

/** What a node is called in a path. */
function labelOf(node: Row): string {
  return String(node.name ?? node.displayText ?? node.id ?? node.guid ?? "");
}

/** `node` and its descendants, depth first, each with its depth and its path from the root. */
function flattenTree(node: unknown, depth: number, path: string[], rows: Row[]) {
  if (!isRecord(node)) {
    rows.push({ depth, value: node });
    return;
  }
  const { children, ...fields } = asRow(node);
  const own = [...path, labelOf(node)];
  rows.push({ depth, path: own.join(" / "), ...fields });
  if (!Array.isArray(children)) return;
  for (const child of children) flattenTree(child, depth + 1, own, rows);
}

/** One node with its ancestors (root first) and its descendants. */
function nodeRows(node: Row): Row[] {
  const ancestors = (node.ancestors ?? []) as Row[];
  const rows: Row[] = [];
  const path: string[] = [];
  ancestors.forEach((ancestor, depth) => {
    const { children: _, ...fields } = ancestor;
    path.push(labelOf(ancestor));
    rows.push({ depth, path: path.join(" / "), ...fields });
  });
  const { ancestors: _, ...self } = node;
  flattenTree(self, ancestors.length, path, rows);
  return rows;
}

// --- values --------------------------------------------------------------------------------------------

/**
 * Field names of Atlas times in epoch milliseconds: `createTime`, `updateTime`, `lastModifiedTS`,
 * `startTime`, a bare `time` or `timestamp`.
 */
const TIME_FIELD = /(?:Time|TS|Timestamp)$|^(?:time|timestamp)$/;

/** Epoch milliseconds between 1973 and 5138: anything else (`lastModifiedTS: "1"`, a counter) is left alone. */
const EPOCH_MS = { min: 1e11, max: 1e14 };

/** An epoch-milliseconds time of a time field as ISO 8601; any other value as it is. */
export function timeValue(field: string, value: unknown): unknown {
  if (!TIME_FIELD.test(field)) return value;
  const ms = typeof value === "number"
    ? value
    : typeof value === "string" && /^\d+$/.test(value)
    ? Number(value)
    : NaN;
  if (!Number.isInteger(ms) || ms < EPOCH_MS.min || ms >= EPOCH_MS.max) return value;
  return new Date(ms).toISOString();
}

function isRecord(value: unknown): value is Row {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Text, a number, a boolean, null or nothing. */
export function isPlain(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

function isPlainOrPlainList(value: unknown): boolean {
  return isPlain(value) || (Array.isArray(value) && value.every(isPlain));
}
