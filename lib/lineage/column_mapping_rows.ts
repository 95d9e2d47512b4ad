/**
 * Column lineage given whole in a lineage CSV row: the `columnMapping` key of the row's `metadata` JSON,
 * Purview's own mapping (a JSON string, or the array itself). Its shape is checked with the row, offline;
 * what it names is checked against the catalog with the rest of the column lineage
 * (`column_mapping_check.ts`).
 *
 * @example
 * ```ts
 * import { metadataColumnMapping } from "./column_mapping_rows.ts";
 * console.log(metadataColumnMapping({ pipeline: "nightly" })); // undefined: no mapping given
 * ```
 *
 * @module
 */
import type { CsvTemplate } from "../csv/types.ts";
import { type ColumnMappingEntry, parseColumnMapping } from "./column_mapping_shape.ts";

/** The metadata key of a mapping given whole: the process attribute's name. */
export const MAPPING_KEY = "columnMapping";

/** How a row problem about the shape of a mapping given whole begins (on the `metadata` column). */
export const MAPPING_PROBLEM_PREFIX = `${MAPPING_KEY} `;

/** The row problems of `metadata`'s mapping, as `CsvTemplate.checkRow` answers them. */
export function mappingShapeProblems(metadata: unknown): Array<[string, string]> {
  const mapping = metadataColumnMapping(metadata);
  if (!mapping || !("problems" in mapping)) return [];
  return mapping.problems.map((problem) => ["metadata", `${MAPPING_PROBLEM_PREFIX}${problem}`]);
}

/** Whether a problem of the row check is about the shape of a mapping given whole. */
export function isMappingShapeProblem(problem: { columnName?: string; message: string }): boolean {
  return problem.columnName === "metadata" && problem.message.startsWith(MAPPING_PROBLEM_PREFIX);
}

/**
 * `template` without the shape check of mappings given whole, so the rest of a file whose only problems are
 * such mappings can still be checked against the catalog (the rows' mappings are then left out).
 */
export function withoutMappingShapeCheck(template: CsvTemplate): CsvTemplate {
  const checkRow = template.checkRow;
  if (!checkRow) return template;
  return {
    ...template,
    checkRow: (row) =>
      checkRow(row).filter(([column, message]) => !isMappingShapeProblem({ columnName: column, message })),
  };
}

/**
 * The mapping in a row's `metadata` (an object, or its JSON text), undefined when it has none. A key of
 * another case (`ColumnMapping`) is a problem: it would be sent as an attribute no process type has.
 */
export function metadataColumnMapping(
  metadata: unknown,
): { entries: ColumnMappingEntry[] } | { problems: string[] } | undefined {
  let value = metadata;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined; // Not JSON: the column's own check reports it.
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (MAPPING_KEY in record) return parseColumnMapping(record[MAPPING_KEY]);
  const near = Object.keys(record).find((key) => key.toLowerCase() === MAPPING_KEY.toLowerCase());
  if (near === undefined) return undefined;
  return {
    problems: [
      `is under the key "${near}": the process attribute is "${MAPPING_KEY}" (keys are case-sensitive) — ` +
      `rename the key to "${MAPPING_KEY}"`,
    ],
  };
}

/** `metadata` without the mapping, which is recorded as column lineage rather than as an attribute. */
export function metadataWithoutMapping(
  metadata: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (metadata === undefined || !(MAPPING_KEY in metadata)) return metadata;
  const { [MAPPING_KEY]: _mapping, ...rest } = metadata;
  return rest;
}
