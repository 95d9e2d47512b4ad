/**
 * The plan of `entity import-business-metadata` (`--plan`, `--apply-plan`): each row's entity is read by
 * its type and unique attribute (qualifiedName or guid, as the service reads them), its business attribute
 * checked against the entity type's definition (the `businessAttributeDefs` the service lists for it) and
 * its current value compared with the row's. A row is an update (old → new), unchanged, or rejected with
 * the reason the service would give (no such entity, unknown type, an attribute the type does not take).
 *
 * The service's import is one upload, not batches: applying a plan uploads the rows planned to change,
 * and only those. This plug-in is the engine's view of the file for planning; it never sends itself.
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import type { AtlasEntity } from "../catalog/atlas_model.ts";
import { sameValue } from "../csv/plan.ts";
import { isRowRefusal } from "../csv/refusals.ts";
import { businessMetadata } from "../templates/csv/business_metadata_templates.ts";
import { cellText } from "../templates/csv/rules.ts";
import type { BulkImport, UnitDiff } from "../csv/types.ts";

/** One row of the file as the service reads it. */
export interface BusinessMetadataRow {
  typeName: string;
  uniqueName: string;
  uniqueValue: string;
  /** `<group>.<attribute>`, as the row writes it. */
  field: string;
  value: string;
  /** The raw cells, uploaded as they are when the row is applied. */
  cells: string[];
}

/** A stored business attribute as the file writes it: a list `|`-separated, anything else as text. */
function asFileValue(value: unknown): unknown {
  return Array.isArray(value) ? value.map(String).join("|") : value;
}

/** The plan-only import of business metadata values; see the module documentation. */
export function businessMetadataPlanImport(catalog: CatalogClient): BulkImport<BusinessMetadataRow> {
  const typeDefs = new Map<string, Promise<Record<string, Array<{ name: string }>> | undefined>>();
  const attributesOf = (typeName: string, signal: AbortSignal) => {
    if (!typeDefs.has(typeName)) {
      typeDefs.set(
        typeName,
        catalog.types.get("entity", { name: typeName }, signal).then(
          (def) => (def.businessAttributeDefs ?? {}) as Record<string, Array<{ name: string }>>,
          (error) => {
            if (isRowRefusal(error) && error.status === 404) return undefined;
            throw error;
          },
        ),
      );
    }
    return typeDefs.get(typeName)!;
  };
  const entityOf = async (
    row: BusinessMetadataRow,
    signal: AbortSignal,
  ): Promise<AtlasEntity | undefined> => {
    try {
      const found = row.uniqueName === "guid"
        ? await catalog.entity.get(row.uniqueValue, { signal })
        : await catalog.entity.getByUniqueAttribute(row.typeName, row.uniqueValue, { signal });
      const entity = found.entity;
      return entity?.typeName === row.typeName && entity.status !== "DELETED" ? entity : undefined;
    } catch (error) {
      if (isRowRefusal(error) && error.status === 404) return undefined;
      throw error;
    }
  };
  const diffOf = async (row: BusinessMetadataRow, signal: AbortSignal): Promise<UnitDiff> => {
    const target = `${row.typeName} ${row.uniqueValue}`;
    const reject = (reason: string): UnitDiff => ({
      action: "reject",
      target,
      changes: [],
      reason,
      read: {},
    });
    if (!["qualifiedName", "guid"].includes(row.uniqueName)) {
      return reject(
        `a plan reads entities by qualifiedName or guid, not by ${row.uniqueName}; import this row without --plan`,
      );
    }
    const attributes = await attributesOf(row.typeName, signal);
    if (!attributes) return reject(`invalid entity-type '${row.typeName}': the catalog has no such type`);
    const [group, attribute] = [
      row.field.slice(0, row.field.indexOf(".")),
      row.field.slice(row.field.indexOf(".") + 1),
    ];
    if (!attributes[group]?.some((def) => def.name === attribute)) {
      return reject(
        `invalid business-metadata '${row.field}' for entity type '${row.typeName}': ` +
          (attributes[group]
            ? `${group} has no attribute ${attribute} for this type`
            : `no business metadata ${group} applies to this type`),
      );
    }
    const entity = await entityOf(row, signal);
    if (!entity) return reject(`no ${row.typeName} entity found with ${row.uniqueName}=${row.uniqueValue}`);
    const old = asFileValue(entity.businessAttributes?.[group]?.[attribute]) ?? null;
    const read = { guid: entity.guid ?? null, [row.field]: old };
    if (sameValue(old, row.value)) return { action: "unchanged", target, changes: [], read };
    return { action: "update", target, changes: [{ field: row.field, old, new: row.value }], read };
  };

  return {
    id: "entity.import-business-metadata",
    template: businessMetadata,
    toItem: (row) => ({
      typeName: cellText(row, "EntityType")!,
      uniqueValue: cellText(row, "EntityUniqueAttributeValue")!,
      uniqueName: cellText(row, "EntityUniqueAttributeName[optional]") || "qualifiedName",
      field: cellText(row, "BusinessAttributeName")!,
      value: cellText(row, "BusinessAttributeValue")!,
      cells: row.cells,
    }),
    send: () => Promise.reject(new Error("the business metadata plan is applied by one upload, not sent")),
    diff: async (units, signal) => {
      const diffs: UnitDiff[] = [];
      for (const { item } of units) diffs.push(await diffOf(item, signal));
      return diffs;
    },
    describe: ({ item }) => ({
      typeName: item.typeName,
      [item.uniqueName]: item.uniqueValue,
      [item.field]: item.value,
    }),
  };
}
