/**
 * The bulk engine's imports of entities from CSV: `entityCsvImport` (the templates entity-bulk-import,
 * entity-dataset, entity-classified and entity-table) upserts by unique attribute and, by default, skips a
 * row whose entity exists already, leaving it as it is (the upsert would overwrite its description); the
 * check is made batch by batch just before sending, so a row an earlier run wrote still counts as recovered.
 * `entityCsvUpdate` reads the named entities first and writes only the given attributes.
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import type { AtlasEntity } from "../catalog/atlas_model.ts";
import type {
  BulkImport,
  CsvTemplate,
  ImportUnit,
  PlannedAction,
  UnitDiff,
  UnitOutcome,
} from "../csv/types.ts";
import { changeFromRow, type EntityChange, entityFromRow, type EntityItem } from "./entity_csv_rows.ts";
import { entityDiff, type EntityWrite } from "./entity_csv_diff.ts";
import {
  existingKey as key,
  existingKeys,
  existingKeysOfKnownTypes,
  holds,
  LOOKUP_CHUNK,
  writeEntities,
} from "./entity_catalog_io.ts";
import { SharedLookups } from "./entity_lookups.ts";

/** What {@link entityCsvImport} does with a row whose entity exists already. */
export interface EntityImportOptions {
  /** Overwrite it (`--if-exists=update`); by default it is skipped, unchanged. */
  overwrite?: boolean;
}

/** The bulk import of entities from rows of `template`. */
export function entityCsvImport(
  catalog: CatalogClient,
  template: CsvTemplate,
  options: EntityImportOptions = {},
): BulkImport<EntityItem> {
  const pairOf = (unit: ImportUnit<EntityItem>) => ({
    typeName: unit.item.entity.typeName,
    qualifiedName: String(unit.item.entity.attributes.qualifiedName),
  });
  const keyOf = (pair: { typeName: string; qualifiedName: string }) => key(pair.typeName, pair.qualifiedName);
  const existing = async (units: ImportUnit<EntityItem>[], signal: AbortSignal) => {
    const pairs = units.map(pairOf);
    const found = await existingKeysOfKnownTypes(catalog, pairs, signal);
    return pairs.map((pair) => found.has(keyOf(pair)));
  };
  // Batches sent at the same time share their lookups (entity_lookups.ts).
  const lookups = new SharedLookups(catalog);
  const existingBeforeSend = async (units: ImportUnit<EntityItem>[], signal: AbortSignal) => {
    const pairs = units.map(pairOf);
    const found = await lookups.find(pairs, signal);
    return pairs.map((pair) => found.has(keyOf(pair)));
  };
  return {
    id: "entity.bulk-import",
    template,
    toItem: (row) => entityFromRow(template.name, row),
    send: async (units, signal) => {
      const skip = options.overwrite ? units.map(() => false) : await existingBeforeSend(units, signal);
      const writing = units.filter((_, i) => !skip[i]);
      const written = writing.length > 0
        ? await writeEntities(catalog, writing.map((unit) => unit.item), signal)
        : [];
      let next = 0;
      return skip.map((skipped): UnitOutcome => ({ status: skipped ? "skipped" : written[next++] }));
    },
    existing,
    applied: async (units, signal) => {
      const found = await existingKeysOfKnownTypes(catalog, units.map(pairOf), signal);
      return units.map((unit) => {
        const stored = found.get(keyOf(pairOf(unit)));
        return stored !== undefined && holds(stored, unit.item.entity);
      });
    },
    plan: async (units, signal) =>
      (await existing(units, signal)).map((found): PlannedAction =>
        found ? (options.overwrite ? "update" : "skip") : "create"
      ),
    diff: async (units, signal) => {
      const found = await existingKeysOfKnownTypes(catalog, units.map(pairOf), signal);
      return units.map(({ item }) => {
        const { typeName, attributes } = item.entity;
        const { qualifiedName: _key, ...written } = attributes;
        return entityDiff(
          `${typeName} ${attributes.qualifiedName}`,
          found.get(key(typeName, String(attributes.qualifiedName))),
          {
            attributes: written,
            businessAttributes: item.entity.businessAttributes as EntityWrite["businessAttributes"],
            contacts: item.entity.contacts as EntityWrite["contacts"],
            classifications: item.entity.classifications?.map((c) => c.typeName),
            labels: item.entity.labels,
            collection: item.collection,
          },
          options.overwrite ? "update" : "skip",
        );
      });
    },
    describe: ({ item }) => ({
      typeName: item.entity.typeName,
      qualifiedName: item.entity.attributes.qualifiedName,
      name: item.entity.attributes.name,
      ...(item.collection ? { collection: item.collection } : {}),
    }),
    onThrottle: (listener) =>
      catalog.http.onThrottle((pauseMs) => {
        lookups.throttled(pauseMs);
        listener(pauseMs);
      }),
  };
}

/** Resolves update rows to the entities they name: by guid, or by type and qualified name. */
async function resolveChanges(
  catalog: CatalogClient,
  changes: EntityChange[],
  signal: AbortSignal,
): Promise<Array<AtlasEntity | undefined>> {
  const guids = [...new Set(changes.flatMap((c) => c.guid ? [c.guid] : []))];
  const byGuid = new Map<string, AtlasEntity>();
  for (let i = 0; i < guids.length; i += LOOKUP_CHUNK) {
    const result = await catalog.entity.getMany(guids.slice(i, i + LOOKUP_CHUNK), {
      minExtInfo: true,
      ignoreRelationships: true,
      signal,
    });
    for (const entity of result.entities ?? []) {
      if (entity.guid && entity.status !== "DELETED") byGuid.set(entity.guid, entity);
    }
  }
  const pairs = changes.flatMap((c) =>
    c.guid ? [] : [{ typeName: c.typeName!, qualifiedName: c.qualifiedName! }]
  );
  const byKey = pairs.length > 0
    ? await existingKeys(catalog, pairs, signal)
    : new Map<string, AtlasEntity>();
  return changes.map((c) => c.guid ? byGuid.get(c.guid) : byKey.get(key(c.typeName!, c.qualifiedName!)));
}

const missingReason = (change: EntityChange) =>
  change.guid
    ? `no active entity has guid ${change.guid}`
    : `no active ${change.typeName} has qualifiedName ${change.qualifiedName}`;

/** Whether the stored entity already carries every cell an update row writes. */
function holdsChange(stored: AtlasEntity, change: EntityChange): boolean {
  if (
    !holds(stored, {
      typeName: stored.typeName,
      attributes: change.attributes,
      businessAttributes: change.businessAttributes,
    })
  ) {
    return false;
  }
  const contacts = (stored.contacts ?? {}) as Record<string, Array<{ id?: string }>>;
  return Object.entries(change.contacts ?? {}).every(([kind, wanted]) => {
    const ids = new Set((contacts[kind] ?? []).map((contact) => contact.id));
    return wanted.every((contact) => ids.has(contact.id));
  });
}

/**
 * The contacts a full write of `target` carries when a row names its owners: the row's owners (keeping the
 * note each already had) and every other kind of contact as it is, since the write replaces them all.
 */
function mergedContacts(
  target: AtlasEntity,
  wanted: Record<string, Array<{ id: string }>>,
): NonNullable<AtlasEntity["contacts"]> {
  const stored = target.contacts ?? {};
  const merged: NonNullable<AtlasEntity["contacts"]> = { ...stored };
  for (const [kind, contacts] of Object.entries(wanted)) {
    const known = new Map((stored[kind] ?? []).map((contact) => [contact.id, contact]));
    merged[kind] = contacts.map((contact) => known.get(contact.id) ?? contact);
  }
  return merged;
}

/** The bulk update of entities from rows of the entity-bulk-update template. */
export function entityCsvUpdate(catalog: CatalogClient, template: CsvTemplate): BulkImport<EntityChange> {
  return {
    id: "entity.bulk-update-csv",
    template,
    toItem: changeFromRow,
    send: async (units, signal) => {
      const changes = units.map((unit) => unit.item);
      const targets = await resolveChanges(catalog, changes, signal);
      const outcomes: UnitOutcome[] = new Array(units.length);
      const writes: Array<{ entity: AtlasEntity; collection?: string }> = [];
      const writeIndex: number[] = [];
      changes.forEach((change, i) => {
        const target = targets[i];
        if (!target) {
          outcomes[i] = { status: "rejected", reason: `404: ${missingReason(change)}`, httpStatus: 404 };
          return;
        }
        const entity: AtlasEntity = {
          typeName: target.typeName,
          guid: target.guid,
          // A full write must carry the mandatory attributes; everything else keeps its value.
          attributes: {
            qualifiedName: target.attributes?.qualifiedName,
            name: target.attributes?.name,
            ...change.attributes,
          },
        };
        if (change.businessAttributes) entity.businessAttributes = change.businessAttributes;
        if (change.contacts) entity.contacts = mergedContacts(target, change.contacts);
        writes.push({ entity, collection: change.collection });
        writeIndex.push(i);
      });
      if (writes.length > 0) {
        await writeEntities(catalog, writes, signal);
        writeIndex.forEach((i) => outcomes[i] = { status: "updated" });
      }
      return outcomes;
    },
    // A batch whose answer was lost, or that a killed run left in flight, is asked about before it is sent
    // again: an update the entity holds already was applied (sending it again would write it twice).
    applied: async (units, signal) => {
      const targets = await resolveChanges(catalog, units.map((unit) => unit.item), signal);
      return targets.map((target, i) => target !== undefined && holdsChange(target, units[i].item));
    },
    plan: async (units, signal) => {
      const targets = await resolveChanges(catalog, units.map((unit) => unit.item), signal);
      return targets.map((target): PlannedAction => target ? "update" : "reject");
    },
    diff: async (units, signal) => {
      const targets = await resolveChanges(catalog, units.map((unit) => unit.item), signal);
      return units.map(({ item }, i): UnitDiff => {
        const target = item.guid ?? `${item.typeName} ${item.qualifiedName}`;
        const stored = targets[i];
        if (!stored) {
          return { action: "reject", target, changes: [], reason: missingReason(item), read: { guid: null } };
        }
        return entityDiff(target, stored, item);
      });
    },
    describe: ({ item }) => ({
      ...(item.guid ? { guid: item.guid } : { typeName: item.typeName, qualifiedName: item.qualifiedName }),
      attributes: item.attributes,
      ...(item.businessAttributes ? { businessAttributes: item.businessAttributes } : {}),
      ...(item.collection ? { collection: item.collection } : {}),
    }),
    onThrottle: (listener) => catalog.http.onThrottle(listener),
  };
}
