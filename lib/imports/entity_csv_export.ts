/**
 * Entities as rows of the entity-bulk-update template, so that `entity export` writes what
 * `entity bulk-update-csv` reads back: guid, typeName and qualifiedName name the entity, then
 * displayName, description, owner (Entra object IDs separated by `;`), `attr.<name>` for the attributes
 * asked for and `bm.<group>.<attribute>` for every business attribute the exported entities carry.
 *
 * A cell is written as the update reads it: objects and arrays as JSON (the update parses a cell that
 * starts with `{` or `[`), anything else as text. The collection is not written: a `collection` cell makes
 * the update move the entity.
 *
 * @module
 */
import type { AtlasEntity } from "../catalog/atlas_model.ts";

/** The columns every export starts with. */
export const EXPORT_BASE_COLUMNS = [
  "guid",
  "typeName",
  "qualifiedName",
  "displayName",
  "description",
  "owner",
];

/** Attributes the base columns carry already, so `--attribute` does not write them twice. */
const BASE_ATTRIBUTES = new Set(["qualifiedName", "displayName", "description"]);

/** The text of one cell: objects and arrays as JSON, nothing as an empty cell. */
export function exportCell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** The owner ids of an entity, as the owner column holds them. */
export function ownerIds(entity: AtlasEntity): string[] {
  return (entity.contacts?.Owner ?? []).flatMap((contact) => contact.id ? [contact.id] : []);
}

/** The header of an export of `entities`: base columns, the attributes asked for, every business attribute. */
export function exportColumns(entities: readonly AtlasEntity[], attributes: readonly string[]): string[] {
  const business = new Set<string>();
  for (const entity of entities) {
    const groups = (entity.businessAttributes ?? {}) as Record<string, Record<string, unknown>>;
    for (const [group, values] of Object.entries(groups)) {
      for (const name of Object.keys(values ?? {})) business.add(`bm.${group}.${name}`);
    }
  }
  const extra = [...new Set(attributes)].filter((name) => !BASE_ATTRIBUTES.has(name)).map((name) =>
    `attr.${name}`
  );
  return [...EXPORT_BASE_COLUMNS, ...extra, ...[...business].sort()];
}

/** One entity's cells, in the order of `columns`. */
export function exportRow(entity: AtlasEntity, columns: readonly string[]): string[] {
  const attributes = entity.attributes ?? {};
  const groups = (entity.businessAttributes ?? {}) as Record<string, Record<string, unknown>>;
  return columns.map((column) => {
    if (column === "guid") return entity.guid ?? "";
    if (column === "typeName") return entity.typeName ?? "";
    if (column === "owner") return ownerIds(entity).join(";");
    if (column.startsWith("attr.")) return exportCell(attributes[column.slice("attr.".length)]);
    if (column.startsWith("bm.")) {
      const [group, ...name] = column.slice("bm.".length).split(".");
      return exportCell(groups[group]?.[name.join(".")]);
    }
    return exportCell(attributes[column]);
  });
}
