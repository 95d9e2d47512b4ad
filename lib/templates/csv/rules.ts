/**
 * Row rules several CSV templates share: Entra ID object IDs (never e-mail addresses) and JSON objects.
 * (The names of pattern columns, `attr.<name>` and `bm.<group>.<attribute>`, are checked with the header.)
 * Each returns problems in the shape `CsvTemplate.checkRow` answers: `[column name, message]`.
 *
 * @example
 * ```ts
 * import { objectIdProblems } from "./rules.ts";
 * objectIdProblems("owner_id", ["jane@contoso.com"]);
 * // [["owner_id", '"jane@contoso.com" is an e-mail address; owner_id takes Entra ID object IDs (GUIDs) …']]
 * ```
 *
 * @module
 */
import type { CellValue, CheckedRow } from "../../csv/types.ts";
import { GUID_PATTERN } from "../../core/guid.ts";

/** One problem of a row: the column it is about (or undefined for the whole row) and what is wrong. */
export type RowProblem = [string | undefined, string];

/** The values of a cell as a list: a multi cell's values, a single value, or nothing for an empty cell. */
export function cellValues(value: CellValue): string[] {
  if (value === undefined || value === null) return [];
  const values = Array.isArray(value) ? value : String(value).split(";");
  return values.map((v) => String(v).trim()).filter((v) => v !== "");
}

/** A character that is neither `;` nor white space (`\s` is what `trim` removes). */
const VALUE_CHARACTER = /[^;\s]/;

/**
 * Whether {@link cellValues} finds at least one value, without building the list: row rules run on every
 * row of files of millions, twice.
 */
export function hasCellValue(value: CellValue): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return VALUE_CHARACTER.test(value);
  return cellValues(value).length > 0;
}

/** The text of a cell, or undefined when it is empty. */
export function cellText(row: CheckedRow, column: string): string | undefined {
  const value = row.values[column];
  if (value === undefined || value === null) return undefined;
  const text = Array.isArray(value) ? value.join(";") : String(value).trim();
  return text === "" ? undefined : text;
}

/**
 * Problems of a cell of Entra ID object IDs (owners, contacts): each value must be a GUID. An e-mail
 * address gets its own message, because it is the usual mistake — Purview contacts take object IDs.
 */
export function objectIdProblems(column: string, value: CellValue): RowProblem[] {
  const problems: RowProblem[] = [];
  for (const id of cellValues(value)) {
    if (id.includes("@")) {
      problems.push([
        column,
        `"${id}" is an e-mail address; ${column} takes Entra ID object IDs (GUIDs), not e-mail ` +
        "addresses (find one with `az ad user show --id <e-mail> --query id`)",
      ]);
    } else if (!GUID_PATTERN.test(id)) {
      problems.push([column, `"${id}" is not an Entra ID object ID (a GUID, 8-4-4-4-12 hexadecimal digits)`]);
    }
  }
  return problems;
}

/** The object-ID problems of every listed column of a row. */
export function rowObjectIdProblems(row: CheckedRow, columns: readonly string[]): RowProblem[] {
  const problems: RowProblem[] = [];
  for (const column of columns) {
    const value = row.values[column];
    if (hasCellValue(value)) problems.push(...objectIdProblems(column, value));
  }
  return problems;
}

/** A problem when a `json` cell holds JSON that is not an object (an array, a number, …). */
export function jsonObjectProblem(row: CheckedRow, column: string, example: string): RowProblem[] {
  const value = row.values[column];
  if (value === undefined || value === null) return [];
  if (typeof value === "string") {
    // The checker may hand the text over unparsed; parse it here so the rule holds either way.
    try {
      return jsonObjectProblem({ ...row, values: { [column]: JSON.parse(value) } }, column, example);
    } catch {
      return []; // Not JSON at all: the column's kind check reports it.
    }
  }
  return typeof value === "object" && !Array.isArray(value)
    ? []
    : [[column, `must be a JSON object, e.g. ${example}`]];
}
