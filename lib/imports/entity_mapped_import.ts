/**
 * Entities from any CSV file through a column mapping (CSV column → attribute), for the MCP tool
 * `import_entities_from_csv`: the file need not follow a template, so one is built from the mapping and the
 * header. Mapping targets are attribute names, plus `collection`, `classifications` and `labels` (several
 * values separated by `;`) and `bm.<group>.<attribute>` for business metadata. Without a mapping every
 * column maps to the attribute of the same name.
 *
 * @example
 * ```ts
 * import { mappedEntityTemplate } from "./entity_mapped_import.ts";
 * const { template } = mappedEntityTemplate(["path", "title"], { path: "qualifiedName", title: "name" }, "assets.csv");
 * console.log(template.columns.map((c) => c.name)); // ["path", "title"]
 * ```
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import type { BulkImport, CheckedRow, ColumnSpec, CsvTemplate } from "../csv/types.ts";
import { reservedNamePart } from "../csv/check.ts";
import { columnKey } from "../csv/problems.ts";
import { UsageError } from "../core/errors.ts";
import { entityCsvImport } from "./entity_csv_import.ts";
import { type EntityItem, nameFromQualifiedName, ownGroup } from "./entity_csv_rows.ts";

/** Targets that are not attributes. */
const MULTI_TARGETS = new Set(["classifications", "labels"]);

/** A file read through a column mapping: its template, each column's target, and the columns left unused. */
export interface MappedFile {
  template: CsvTemplate;
  /** Target (attribute, `collection`, …) of each template column, by the column's header name. */
  targets: Map<string, string>;
  ignoredColumns: string[];
}

/** The template a mapping implies for a file with `header`. */
export function mappedEntityTemplate(
  header: string[],
  mapping: Record<string, string> | undefined,
  file: string,
): MappedFile {
  const effective = mapping && Object.keys(mapping).length > 0
    ? mapping
    : Object.fromEntries(header.map((column) => [column, column.trim()]));
  const byKey = new Map(header.map((column) => [columnKey(column), column]));
  const missing = Object.keys(effective).filter((column) => !byKey.has(columnKey(column)));
  if (missing.length > 0) {
    throw new UsageError(
      `${file}:1: column_mapping names column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}, ` +
        `not in the header (${header.join(", ")}).`,
      "Map columns by their header names exactly as written in the file's first line.",
    );
  }
  const named = Object.values(effective);
  if (!named.includes("qualifiedName")) {
    throw new UsageError(
      "column_mapping maps no column to qualifiedName, the unique name every entity needs.",
      'Add e.g. {"<column>": "qualifiedName"}.',
    );
  }
  const unusable = named.filter((target) => reservedNamePart(target) !== undefined);
  if (unusable.length > 0) {
    throw new UsageError(
      `column_mapping maps to ${unusable.map((t) => `"${t}"`).join(", ")}, which cannot name an attribute ` +
        `("${reservedNamePart(unusable[0])}").`,
      "Map each column to the name of an attribute of the entity type.",
    );
  }
  const duplicated = named.filter((target, i) => named.indexOf(target) !== i);
  if (duplicated.length > 0) {
    throw new UsageError(`column_mapping maps several columns to ${[...new Set(duplicated)].join(", ")}.`);
  }
  const columns: ColumnSpec[] = Object.entries(effective).map(([column, target]) => ({
    name: byKey.get(columnKey(column))!,
    kind: "text",
    required: target === "qualifiedName",
    multi: MULTI_TARGETS.has(target),
    description: `Written to ${target}`,
  }));
  const targets = new Map(
    Object.entries(effective).map(([column, target]) => [byKey.get(columnKey(column))!, target]),
  );
  const mapped = new Set(columns.map((column) => columnKey(column.name)));
  const template: CsvTemplate = {
    name: "column-mapping",
    summary: "Columns mapped to attributes by the caller",
    usage: "MCP tool import_entities_from_csv",
    columns,
    strictColumns: false,
    unique: [[columns.find((column) => column.required)!.name]],
    sample: [],
  };
  return { template, targets, ignoredColumns: header.filter((column) => !mapped.has(columnKey(column))) };
}

/** The entity of one row, each column written to its target. */
function mappedEntity(row: CheckedRow, typeName: string, targets: Map<string, string>): EntityItem {
  const attributes: Record<string, unknown> = {};
  const item: EntityItem = { entity: { typeName, attributes } };
  const businessAttributes: Record<string, Record<string, unknown>> = {};
  for (const [column, target] of targets) {
    const value = row.values[column];
    if (value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) continue;
    if (target === "collection") item.collection = String(value);
    else if (target === "classifications") {
      item.entity.classifications = (value as string[]).map((name) => ({ typeName: name }));
    } else if (target === "labels") item.entity.labels = value as string[];
    else if (target.startsWith("bm.") && target.split(".").length >= 3) {
      const [, group, ...attribute] = target.split(".");
      ownGroup(businessAttributes, group)[attribute.join(".")] = value;
    } else attributes[target] = value;
  }
  attributes.name ??= nameFromQualifiedName(String(attributes.qualifiedName));
  if (Object.keys(businessAttributes).length > 0) item.entity.businessAttributes = businessAttributes;
  return item;
}

/**
 * The bulk import of `typeName` entities from a file read through {@link mappedEntityTemplate};
 * `whenExists` is what a plan shows for a row whose entity exists (the engine skips or sends it).
 */
export function mappedEntityImport(
  catalog: CatalogClient,
  mapped: MappedFile,
  typeName: string,
  whenExists: "skip" | "update" = "skip",
): BulkImport<EntityItem> {
  return {
    // Existing entities are skipped by the engine (`skipExisting`, the tool's default), so the import
    // itself writes what it is given.
    ...entityCsvImport(catalog, mapped.template, { overwrite: true }),
    diff: entityCsvImport(catalog, mapped.template, { overwrite: whenExists === "update" }).diff,
    id: "mcp.import_entities_from_csv",
    toItem: (row) => mappedEntity(row, typeName, mapped.targets),
  };
}
