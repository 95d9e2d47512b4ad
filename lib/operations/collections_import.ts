/**
 * `collections import --csv-file`: creates or updates collections from CSV, in three steps.
 *
 * 1. The file alone is checked (CSV syntax, header, names, duplicates, a row that is its own parent,
 *    cycles among the rows). Any problem stops the import before a single request.
 * 2. The catalog's collections are read (GETs only) and the rows checked against them: unknown parents,
 *    a parent for the root, cycles through existing collections, friendly names used twice under one
 *    parent. Any problem stops the import before anything is written.
 * 3. The rows are written parents first (a child row may come before its parent in the file). Rows that
 *    already match the catalog are skipped, so running the import again changes nothing.
 *
 * An empty cell leaves the current value; an empty parent_collection means the root for a new collection.
 *
 * @module
 */
import type { Collection, CollectionInput } from "../catalog/collections_types.ts";
import { CatalogError } from "../errors.ts";
import {
  EXPORT_ONLY_COLUMNS,
  IMPORT_COLUMNS,
  parseCsvRecords,
  throwProblems,
  unguardCell,
} from "./collections_csv.ts";
import { collectionNameProblem, withDetails } from "./collections_support.ts";
import type { OperationContext } from "./types.ts";

/** One row of the file, its cells unguarded; empty cells are undefined. */
interface ImportRow {
  line: number;
  name: string;
  /** Lower-case name: collection names are compared without regard to case. */
  key: string;
  friendlyName?: string;
  description?: string;
  /** Lower-case parent name, when the row gives one. */
  parent?: string;
}

/** What the import did. */
export interface ImportSummary {
  csvFile: string;
  rows: number;
  created: string[];
  updated: string[];
  unchanged: string[];
}

const HINT = "Fix the rows listed and run the import again.";

/** Runs the import of `file`; see the module documentation for the steps. */
export async function importCollections(ctx: OperationContext, file: string): Promise<ImportSummary> {
  const { rows, problems } = await readRows(ctx, file);
  // A row naming itself as parent is reported already; following it would report it again as a cycle.
  const namedParents = new Map(
    rows.filter((r) => r.parent && r.parent !== r.key).map((r) => [r.key, r.parent!]),
  );
  throwProblems(file, [...problems, ...cycleProblems(file, rows, (key) => namedParents.get(key))], HINT);

  const catalog = ctx.catalog().collections;
  const existing = new Map<string, Collection>();
  for await (const collection of catalog.list({ signal: ctx.signal })) {
    if (collection.name) existing.set(collection.name.toLowerCase(), collection);
  }
  const root = [...existing.values()].find((c) => !c.parentCollection?.referenceName)?.name?.toLowerCase() ??
    ctx.config().accountName.toLowerCase();
  const finalParent = planParents(rows, existing, root);
  throwProblems(file, catalogProblems(file, rows, existing, root, finalParent), HINT);

  const summary: ImportSummary = {
    csvFile: file,
    rows: rows.length,
    created: [],
    updated: [],
    unchanged: [],
  };
  for (const row of parentsFirst(rows, finalParent)) {
    const current = existing.get(row.key);
    const body = changesFor(row, current, finalParent.get(row.key));
    if (!body) {
      summary.unchanged.push(row.name);
      continue;
    }
    try {
      await catalog.createOrUpdate(row.name, body, ctx.signal);
    } catch (error) {
      if (!(error instanceof CatalogError)) throw error;
      const applied = summary.created.length + summary.updated.length;
      throw withDetails(error, {
        message: `${file}:${row.line} (${row.name}): ${error.message} ${applied} row(s) were written ` +
          "before this one.",
        hint: `${error.hint ?? ""} The import can be run again: rows already written are skipped.`.trim(),
      });
    }
    (current ? summary.updated : summary.created).push(row.name);
  }
  return summary;
}

/** The rows of the file and the problems found in them; a file too broken to read rows from throws. */
async function readRows(
  ctx: OperationContext,
  file: string,
): Promise<{ rows: ImportRow[]; problems: string[] }> {
  const records = await parseCsvRecords(await ctx.readTextFile(file, "--csv-file"), file);
  if (records.length === 0) throwProblems(file, [`${file}:1: the file is empty; expected a header row`]);
  const [header, ...data] = records;
  const columns = header.cells.map((cell) => cell.trim().toLowerCase());
  const problems: string[] = [];
  const unknown = columns.filter((c) =>
    !(IMPORT_COLUMNS as readonly string[]).includes(c) && !EXPORT_ONLY_COLUMNS.has(c)
  );
  if (unknown.length > 0) {
    problems.push(
      `${file}:${header.line}: unknown column(s) ${unknown.map((c) => `"${c}"`).join(", ")}; ` +
        `the columns are ${IMPORT_COLUMNS.join(", ")}`,
    );
  }
  if (!columns.includes("collection_name")) {
    problems.push(`${file}:${header.line}: the header has no collection_name column`);
    throwProblems(file, problems, HINT);
  }
  if (data.length === 0) problems.push(`${file}:${header.line}: the file has a header but no rows`);

  const rows: ImportRow[] = [];
  const firstLine = new Map<string, number>();
  for (const record of data) {
    const at = `${file}:${record.line}`;
    if (record.cells.length !== columns.length) {
      problems.push(`${at}: the row has ${record.cells.length} cells; the header has ${columns.length}`);
      continue;
    }
    const cell = (column: string) => {
      const index = columns.indexOf(column);
      const value = index < 0 ? "" : unguardCell(record.cells[index].trim());
      return value === "" ? undefined : value;
    };
    const name = cell("collection_name");
    if (!name) {
      problems.push(`${at}: collection_name is empty`);
      continue;
    }
    const nameProblem = collectionNameProblem(name);
    if (nameProblem) problems.push(`${at}: collection_name "${name}" is not valid: ${nameProblem}`);
    const key = name.toLowerCase();
    const earlier = firstLine.get(key);
    if (earlier !== undefined) problems.push(`${at}: collection "${name}" is also on line ${earlier}`);
    else firstLine.set(key, record.line);
    const parent = cell("parent_collection")?.toLowerCase();
    if (parent === key) problems.push(`${at}: collection "${name}" cannot be its own parent`);
    rows.push({
      line: record.line,
      name,
      key,
      friendlyName: cell("friendly_name"),
      description: cell("description"),
      parent,
    });
  }
  return { rows, problems };
}

/**
 * Each row's parent after the import: the one it names, else its current parent, else the root (a new
 * collection).
 */
function planParents(
  rows: ImportRow[],
  existing: Map<string, Collection>,
  root: string,
): Map<string, string> {
  const parents = new Map<string, string>();
  for (const [key, collection] of existing) {
    const parent = collection.parentCollection?.referenceName;
    if (parent) parents.set(key, parent.toLowerCase());
  }
  for (const row of rows) {
    const parent = row.parent ?? parents.get(row.key) ?? (row.key === root ? undefined : root);
    if (parent) parents.set(row.key, parent);
  }
  return parents;
}

/** One problem per cycle the rows take part in, following `parentOf`. */
function cycleProblems(
  file: string,
  rows: ImportRow[],
  parentOf: (key: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  const reported = new Set<string>();
  const names = new Map(rows.map((r) => [r.key, r.name]));
  for (const row of rows) {
    if (reported.has(row.key)) continue;
    const chain = [row.key];
    for (let parent = parentOf(row.key); parent !== undefined; parent = parentOf(parent)) {
      const repeat = chain.indexOf(parent);
      if (repeat >= 0) {
        const cycle = chain.slice(repeat);
        if (!cycle.some((key) => reported.has(key)) && cycle.includes(row.key)) {
          cycle.forEach((key) => reported.add(key));
          const shown = [...cycle, parent].map((key) => names.get(key) ?? key).join(" -> ");
          problems.push(`${file}:${row.line}: collections form a cycle: ${shown}`);
        }
        break;
      }
      chain.push(parent);
    }
  }
  return problems;
}

function catalogProblems(
  file: string,
  rows: ImportRow[],
  existing: Map<string, Collection>,
  root: string,
  finalParent: Map<string, string>,
): string[] {
  const inFile = new Set(rows.map((r) => r.key));
  const problems: string[] = [];
  for (const row of rows) {
    const at = `${file}:${row.line}`;
    if (row.key === root && row.parent) {
      problems.push(`${at}: "${row.name}" is the root collection and cannot have a parent`);
    } else if (row.parent && !inFile.has(row.parent) && !existing.has(row.parent)) {
      problems.push(
        `${at}: parent_collection "${row.parent}" is neither a row of the file nor a collection of the catalog`,
      );
    }
  }
  if (problems.length > 0) return problems;
  problems.push(...cycleProblems(file, rows, (key) => finalParent.get(key)));
  problems.push(...friendlyNameClashes(file, rows, existing, finalParent));
  return problems;
}

/** Friendly names used twice among the children of one parent once the import is done. */
function friendlyNameClashes(
  file: string,
  rows: ImportRow[],
  existing: Map<string, Collection>,
  finalParent: Map<string, string>,
): string[] {
  const friendly = new Map<string, string>();
  for (const [key, collection] of existing) friendly.set(key, collection.friendlyName ?? key);
  for (const row of rows) {
    friendly.set(row.key, row.friendlyName ?? existing.get(row.key)?.friendlyName ?? row.name);
  }
  const lines = new Map(rows.map((r) => [r.key, r.line]));
  const holder = new Map<string, string>();
  const problems: string[] = [];
  for (const key of [...existing.keys(), ...rows.map((r) => r.key)]) {
    const parent = finalParent.get(key);
    if (parent === undefined) continue;
    const slot = `${parent}\u0000${friendly.get(key)!.toLowerCase()}`;
    const other = holder.get(slot);
    if (other === undefined) {
      holder.set(slot, key);
      continue;
    }
    // A clash the catalog already has is not this file's doing; one a row takes part in is.
    const [row, clashing] = lines.has(key) ? [key, other] : [other, key];
    if (other !== key && lines.has(row)) {
      problems.push(
        `${file}:${lines.get(row)}: friendly name "${friendly.get(row)}" is also used by "${clashing}" ` +
          `under "${parent}"; friendly names must be unique among the children of one collection`,
      );
    }
  }
  return problems;
}

/** The rows in an order where every row's parent, when it is a row too, comes first. */
function parentsFirst(rows: ImportRow[], finalParent: Map<string, string>): ImportRow[] {
  const pending = new Map(rows.map((r) => [r.key, r]));
  const ordered: ImportRow[] = [];
  while (pending.size > 0) {
    const ready = [...pending.values()].filter((r) => !pending.has(finalParent.get(r.key) ?? ""));
    // The checks above rule cycles out; this only guards against looping for ever.
    if (ready.length === 0) throw new Error("collections import: rows form a cycle");
    for (const row of ready) {
      ordered.push(row);
      pending.delete(row.key);
    }
  }
  return ordered;
}

/** The body to send for a row, or undefined when the catalog already matches it. */
function changesFor(
  row: ImportRow,
  current: Collection | undefined,
  parent: string | undefined,
): CollectionInput | undefined {
  const body: CollectionInput = {};
  if (row.friendlyName !== undefined && row.friendlyName !== current?.friendlyName) {
    body.friendlyName = row.friendlyName;
  }
  if (row.description !== undefined && row.description !== (current?.description ?? "")) {
    body.description = row.description;
  }
  const currentParent = current?.parentCollection?.referenceName?.toLowerCase();
  if (parent !== undefined && parent !== currentParent) body.parentCollection = { referenceName: parent };
  if (current && Object.keys(body).length === 0) return undefined;
  return body;
}
