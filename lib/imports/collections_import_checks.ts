/**
 * The checks of `collections import` that need more than one row: cycles among the rows of a file, and
 * against the catalog's collections a parent that exists nowhere, a parent for the root, cycles through
 * existing collections and friendly names used twice under one parent. Each problem names its line and,
 * where the header has it, the column at fault.
 *
 * @example
 * ```ts
 * import { cycleProblems } from "./collections_import_checks.ts";
 * const rows = [
 *   { line: 2, name: "a", key: "a", parent: "b" },
 *   { line: 3, name: "b", key: "b", parent: "a" },
 * ];
 * const parents = new Map(rows.map((r) => [r.key, r.parent]));
 * cycleProblems("c.csv", rows, (key) => parents.get(key), () => ({}))[0].message;
 * // "collections form a cycle: a -> b -> a"
 * ```
 *
 * @module
 */
import type { Collection } from "../catalog/collections_types.ts";
import { bindHeader, checkRow, type HeaderBinding } from "../csv/check.ts";
import type { CsvDelimiter } from "../csv/delimiter.ts";
import { columnKey } from "../csv/problems.ts";
import { readCsvFile } from "../csv/reader.ts";
import { cellText } from "../templates/csv/rules.ts";
import type { CsvProblem, CsvTemplate } from "../csv/types.ts";
import { collectionFromRow, type CollectionRow } from "./collections_csv.ts";

/** Where a column is in the header, for problems about its cells. */
export type Place = (column: string) => { column?: number; columnName?: string };

export function placesIn(header: readonly string[], template: CsvTemplate): Place {
  return (column) => {
    const spec = template.columns.find((c) => c.name === column);
    const keys = [column, ...spec?.aliases ?? []].map(columnKey);
    const index = header.findIndex((cell) => keys.includes(columnKey(cell)));
    return index < 0 ? {} : { column: index + 1, columnName: header[index].trim() };
  };
}

/** One problem per cycle the rows take part in, following `parentOf`. */
export function cycleProblems(
  file: string,
  rows: readonly CollectionRow[],
  parentOf: (key: string) => string | undefined,
  place: Place,
): CsvProblem[] {
  const problems: CsvProblem[] = [];
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
          problems.push({
            file,
            line: row.line,
            ...place("parent_collection"),
            message: `collections form a cycle: ${shown}`,
          });
        }
        break;
      }
      chain.push(parent);
    }
  }
  return problems;
}

/** Each row's parent after the import: the one it names, else its current one, else the root (new). */
function finalParents(rows: readonly CollectionRow[], existing: Map<string, Collection>, root: string) {
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

/** Problems only the catalog reveals: unknown parents, a parent for the root, cycles, friendly names. */
export function catalogProblems(
  file: string,
  rows: readonly CollectionRow[],
  existing: Map<string, Collection>,
  root: string,
  place: Place,
): CsvProblem[] {
  const inFile = new Set(rows.map((r) => r.key));
  const problems: CsvProblem[] = [];
  for (const row of rows) {
    if (row.key === root && row.parent) {
      problems.push({
        file,
        line: row.line,
        ...place("parent_collection"),
        message: `"${row.name}" is the root collection and cannot have a parent`,
      });
    } else if (row.parent && !inFile.has(row.parent) && !existing.has(row.parent)) {
      problems.push({
        file,
        line: row.line,
        ...place("parent_collection"),
        message: `"${row.parent}" is neither a row of the file nor a collection of the catalog`,
      });
    }
  }
  if (problems.length > 0) return problems;
  const parents = finalParents(rows, existing, root);
  problems.push(...cycleProblems(file, rows, (key) => parents.get(key), place));
  problems.push(...friendlyNameClashes(file, rows, existing, parents, place));
  return problems;
}

/** Friendly names used twice among the children of one parent once the import is done. */
function friendlyNameClashes(
  file: string,
  rows: readonly CollectionRow[],
  existing: Map<string, Collection>,
  parents: Map<string, string>,
  place: Place,
): CsvProblem[] {
  const friendly = new Map<string, string>();
  for (const [key, collection] of existing) friendly.set(key, collection.friendlyName ?? key);
  for (const row of rows) {
    friendly.set(row.key, row.friendlyName ?? existing.get(row.key)?.friendlyName ?? row.name);
  }
  const lines = new Map(rows.map((r) => [r.key, r.line]));
  const holder = new Map<string, string>();
  const problems: CsvProblem[] = [];
  for (const key of [...existing.keys(), ...rows.map((r) => r.key)]) {
    const parent = parents.get(key);
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
      problems.push({
        file,
        line: lines.get(row)!,
        ...place("friendly_name"),
        message: `friendly name "${friendly.get(row)}" is also used by "${clashing}" under "${parent}"; ` +
          "friendly names must be unique among the children of one collection",
      });
    }
  }
  return problems;
}

/**
 * The rows of a file that pass the template's checks (the others are reported by the check itself), read
 * with `delimiter` (the one the check used), else with the one detected.
 */
export async function readableRows(
  path: string,
  display: string,
  template: CsvTemplate,
  signal?: AbortSignal,
  delimiter?: CsvDelimiter,
): Promise<CollectionRow[]> {
  const rows: CollectionRow[] = [];
  let binding: HeaderBinding | undefined;
  for await (const row of readCsvFile(path, { displayName: display, signal, delimiter })) {
    if (!binding) {
      binding = bindHeader(template, row, display, delimiter).binding;
      continue;
    }
    const checked = checkRow(binding, row);
    const named = cellText(checked.row, "collection_name") !== undefined;
    if (checked.problems.length === 0 && named) rows.push(collectionFromRow(checked.row));
  }
  return rows;
}
