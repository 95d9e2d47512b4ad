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
import type { CsvDelimiter } from "../csv/delimiter.ts";
import { runBulkImport } from "../csv/engine.ts";
import { collections, collectionsExport } from "../csv/templates/collections_templates.ts";
import { detectCsvTemplate } from "../csv/templates/mod.ts";
import type { BulkImport, CsvTemplate, ImportUnit, PlannedAction } from "../csv/types.ts";
import { z } from "../deps/zod.ts";
import { bulkImportFields, engineOptions } from "./bulk_options.ts";
import { isRowRefusal, refusalOutcome, SettledUnits } from "./bulk_outcomes.ts";
import { collectionFromRow, type CollectionRow } from "./collections_csv.ts";
import {
  catalogProblems,
  cycleProblems,
  type Place,
  placesIn,
  readableRows,
} from "./collections_import_checks.ts";
import { getCollectionIfExists } from "./collections_support.ts";
import { checkFileFirst, throwProblems } from "./csv_prechecks.ts";
import { readHeader } from "../csv/template_choice.ts";
import { defineOperation, type OperationContext, UPSERT } from "./types.ts";

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
    describe: ({ item }) => ({
      collection_name: item.name,
      ...(item.friendlyName !== undefined ? { friendly_name: item.friendlyName } : {}),
      ...(item.description !== undefined ? { description: item.description } : {}),
      ...(item.parent !== undefined ? { parent_collection: item.parent } : {}),
    }),
    onThrottle: (listener) => catalog.http.onThrottle(listener),
  };
}

/**
 * The template of a file: collections-export for a file the export wrote, else collections. The header is
 * read with `delimiter` (`--delimiter`), else with the one detected.
 */
async function templateOf(path: string, display: string, delimiter?: CsvDelimiter): Promise<CsvTemplate> {
  let header: string[];
  try {
    header = await readHeader(path, display, { delimiter });
  } catch {
    // An empty or unreadable file: the check against collections says what is wrong, with its place.
    return collections;
  }
  // A header fitting neither is checked against collections, whose problems say what is missing.
  return detectCsvTemplate(header, [collections, collectionsExport]) ?? collections;
}

/** Runs the import of `input.csvFile`; see the module documentation for the steps. */
async function importCollections(
  ctx: OperationContext,
  input: z.infer<typeof importInput>,
) {
  const options = await engineOptions(ctx, input, input.csvFile, "--csv-file");
  const display = input.csvFile;
  const template = await templateOf(options.file, display, options.delimiter);
  let place: Place = () => ({});
  let rows: CollectionRow[] = [];
  await checkFileFirst(options.file, template, {
    displayName: display,
    signal: ctx.signal,
    delimiter: options.delimiter,
    // Cycles among the rows are the file's own problems too: listed with the others, in one go.
    extra: async (report) => {
      if (report.rows === 0) return [];
      // Read as the check read it.
      const read = { delimiter: report.delimiter, signal: ctx.signal };
      place = placesIn(await readHeader(options.file, display, read), template);
      rows = await readableRows(options.file, display, template, ctx.signal, report.delimiter);
      // A row naming itself as parent is refused by the template; following it would report it again.
      const named = new Map(
        rows.filter((r) => r.parent && r.parent !== r.key).map((r) => [r.key, r.parent!]),
      );
      return cycleProblems(display, rows, (key) => named.get(key), place);
    },
  });

  const catalog = ctx.catalog();
  const existing = new Map<string, Collection>();
  for await (const collection of catalog.collections.list({ signal: ctx.signal })) {
    if (collection.name) existing.set(collection.name.toLowerCase(), collection);
  }
  const root = [...existing.values()].find((c) => !c.parentCollection?.referenceName)?.name?.toLowerCase() ??
    ctx.config().accountName.toLowerCase();
  throwProblems(display, template, catalogProblems(display, rows, existing, root, place));
  const plugin = collectionsImport(catalog, { template, root, existing, skipExisting: input.skipExisting });
  return await runBulkImport(plugin, options);
}

const importInput = z.object({
  csvFile: z.string().min(1).describe("CSV file of collections to create or update"),
  ...bulkImportFields,
});

export const importCollectionsOperation = defineOperation({
  id: "collections.import",
  group: "collections",
  command: "import",
  summary: "Create or update collections from a CSV file, parents before children, in resumable batches",
  description: "Columns: collection_name (required), friendly_name, description, parent_collection (a file " +
    "written by `collections export --include-hierarchy --include-metadata` imports as it is). Every row " +
    "is checked before anything is written (names, duplicates, unknown parents, cycles, friendly names); " +
    "problems are listed as file:line:column. Rows may come in any order; parents are written first. An " +
    "empty parent_collection means the root for a new collection and no move for an existing one. Rows " +
    "that match the catalog already are skipped, so the import can be run again; rows the catalog refuses " +
    "go to the errors file with its answer.",
  input: importInput,
  annotations: UPSERT,
  run: importCollections,
});
