/**
 * `collections import --csv-file`: collections created or updated from CSV through the bulk engine, in
 * three steps.
 *
 * 1. The file alone is checked: the template (collections, or collections-export for a file the export
 *    wrote), names, duplicates, a row that is its own parent, cycles among the rows. Any problem stops the
 *    import before a single request, every problem listed as file:line:column.
 * 2. The catalog's collections are read (GETs only) and the rows checked against them: a parent that is
 *    neither a row nor a collection, a parent for the root, cycles through existing collections, friendly
 *    names used twice under one parent. Any problem stops the import before anything is written.
 * 3. The engine writes the rows one batch at a time (`sequential`), parents first: rows may come in any
 *    order, and are sent level by level of the file's own hierarchy, in file order within a level. A row
 *    the catalog matches already is skipped, so running the import again changes nothing; a row the
 *    catalog refuses goes to the reject file with its answer (and so do its children, which the catalog
 *    then refuses for want of a parent). Each row is written once: a write is never repeated by the HTTP
 *    core, and after a lost answer or a resume the engine asks whether the collection holds the row.
 *
 * An empty cell leaves the current value; an empty parent_collection means the root for a new collection.
 * Collections are matched by name, without regard to letter case.
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import type { Collection, CollectionInput } from "../catalog/collections_types.ts";
import type { BulkImport, CsvTemplate, ImportUnit, PlannedAction, UnitDiff } from "../csv/types.ts";
import { isRowRefusal, refusalOutcome, SettledUnits } from "./bulk_outcomes.ts";
import { collectionFromRow, type CollectionRow } from "./collections_csv.ts";
import { getCollectionIfExists } from "../catalog/collections_support.ts";

/** The body to send for a row, or undefined when the catalog already matches it. */
export function changesFor(
  row: CollectionRow,
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

/** The rows, level by level of the hierarchy they name among themselves, in file order within a level. */
export function parentsFirst<T extends { item: CollectionRow }>(units: readonly T[]): T[] {
  const pending = new Map(units.map((unit) => [unit.item.key, unit]));
  const ordered: T[] = [];
  while (pending.size > 0) {
    const ready = [...pending.values()].filter((unit) => !pending.has(unit.item.parent ?? ""));
    // The checks rule cycles out before the import; this only guards against looping for ever.
    if (ready.length === 0) throw new Error("collections import: rows form a cycle");
    for (const unit of ready) {
      ordered.push(unit);
      pending.delete(unit.item.key);
    }
  }
  return ordered;
}

/** What the collection import works with: the catalog as read before the import, and its root. */
export interface CollectionsImportOptions {
  template: CsvTemplate;
  /** Name (lower case) of the root collection, the parent of new collections that name none. */
  root: string;
  /** The catalog's collections by lower-case name; kept up to date with what the import writes. */
  existing: Map<string, Collection>;
  /** Plans existing collections as skipped (the engine skips them itself when it sends). */
  skipExisting?: boolean;
}

/**
 * `collections.createOrUpdate`, sent once: the HTTP core repeats a PUT whose answer was lost, which writes
 * the collection a second time; marked not idempotent, the lost answer reaches the engine instead, which
 * asks whether the collection holds the row (`applied`) before sending it again.
 */
function writeCollectionOnce(
  catalog: CatalogClient,
  name: string,
  body: CollectionInput,
  signal: AbortSignal,
): Promise<Collection> {
  return catalog.http.request<Collection>({
    method: "PUT",
    area: "account",
    path: `/account/collections/${encodeURIComponent(name)}`,
    body,
    idempotent: false,
    signal,
  });
}

/** The row's fields as the file names them, each with the collection's value now (`null`: none). */
function currentFields(row: CollectionRow, current: Collection | undefined): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (row.friendlyName !== undefined) fields.friendly_name = current?.friendlyName ?? null;
  if (row.description !== undefined) fields.description = current?.description ?? null;
  fields.parent_collection = current?.parentCollection?.referenceName?.toLowerCase() ?? null;
  return fields;
}

/** What a row would change (`--plan`): the fields its body writes, old → new, and every field read. */
function collectionDiff(
  row: CollectionRow,
  current: Collection | undefined,
  bodyFor: (row: CollectionRow, current: Collection | undefined) => CollectionInput | undefined,
  options: CollectionsImportOptions,
): UnitDiff {
  const now = currentFields(row, current);
  const read = current ? { guid: current.name ?? row.name, ...now } : { guid: null };
  if (current && options.skipExisting) {
    return {
      action: "skip",
      target: row.name,
      changes: [],
      read: { guid: read.guid },
      reason: "exists already",
    };
  }
  const body = bodyFor(row, current);
  const written: Record<string, unknown> = {
    friendly_name: body?.friendlyName,
    description: body?.description,
    parent_collection: body?.parentCollection?.referenceName,
  };
  const changes = Object.entries(written).filter(([, value]) => value !== undefined).map((
    [field, value],
  ) => ({
    field,
    old: now[field] ?? null,
    new: value,
  }));
  if (!current) return { action: "create", target: row.name, changes, read };
  return { action: changes.length > 0 ? "update" : "unchanged", target: row.name, changes, read };
}

/** The bulk import of collections; see the module documentation. */
export function collectionsImport(
  catalog: CatalogClient,
  options: CollectionsImportOptions,
): BulkImport<CollectionRow> {
  const known = options.existing;
  const settled = new SettledUnits<CollectionRow>();
  const bodyFor = (row: CollectionRow, current: Collection | undefined) => {
    const parent = row.parent ?? current?.parentCollection?.referenceName?.toLowerCase() ??
      (row.key === options.root ? undefined : options.root);
    return changesFor(row, current, parent);
  };
  return {
    id: "collections.import",
    template: options.template,
    sequential: true,
    units: async function* (rows) {
      const units: ImportUnit<CollectionRow>[] = [];
      for await (const row of rows) units.push({ lines: [row.line], item: collectionFromRow(row) });
      yield* parentsFirst(units);
    },
    send: async (units, signal) => {
      for (const unit of settled.pending(units)) {
        const current = known.get(unit.item.key);
        const body = bodyFor(unit.item, current);
        if (!body) {
          settled.settle(unit, { status: "skipped" });
          continue;
        }
        try {
          const written = await writeCollectionOnce(catalog, unit.item.name, body, signal);
          known.set(unit.item.key, written ?? { name: unit.item.name, ...body });
          settled.settle(unit, { status: current ? "updated" : "created" });
        } catch (error) {
          if (!isRowRefusal(error)) throw error;
          settled.settle(unit, refusalOutcome(error));
        }
      }
      return settled.outcomes(units);
    },
    existing: (units) => Promise.resolve(units.map((unit) => known.has(unit.item.key))),
    applied: async (units, signal) => {
      const found: boolean[] = [];
      for (const { item } of units) {
        const current = await getCollectionIfExists(catalog, item.name, signal);
        if (current) known.set(item.key, current);
        found.push(current !== undefined && bodyFor(item, current) === undefined);
      }
      return found;
    },
    plan: (units) =>
      Promise.resolve(units.map(({ item }): PlannedAction => {
        const current = known.get(item.key);
        if (!current) return "create";
        return bodyFor(item, current) === undefined || options.skipExisting ? "skip" : "update";
      })),
    diff: (units) =>
      Promise.resolve(units.map(({ item }) => collectionDiff(item, known.get(item.key), bodyFor, options))),
    describe: ({ item }) => ({
      collection_name: item.name,
      ...(item.friendlyName !== undefined ? { friendly_name: item.friendlyName } : {}),
      ...(item.description !== undefined ? { description: item.description } : {}),
      ...(item.parent !== undefined ? { parent_collection: item.parent } : {}),
    }),
    onThrottle: (listener) => catalog.http.onThrottle(listener),
  };
}
