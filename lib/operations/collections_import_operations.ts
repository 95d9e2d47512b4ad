/**
 * `collections import --csv-file`: the operation over the collections import of
 * `lib/imports/collections_import.ts` (its three steps, order and once-only writes: see there).
 *
 * @module
 */
import type { Collection } from "../catalog/collections_types.ts";
import type { CsvDelimiter } from "../csv/delimiter.ts";
import { collections, collectionsExport } from "../templates/csv/collections_templates.ts";
import { detectCsvTemplate } from "../templates/csv/mod.ts";
import type { CsvTemplate } from "../csv/types.ts";
import { z } from "../deps/zod.ts";
import { collectionsImport } from "../imports/collections_import.ts";
import { bulkImportFields, engineOptions } from "./bulk_options.ts";
import { checkPlanInput, planFields, runImportOrPlan } from "./plan_options.ts";
import { type CollectionRow } from "../imports/collections_csv.ts";
import {
  catalogProblems,
  cycleProblems,
  type Place,
  placesIn,
  readableRows,
} from "../imports/collections_import_checks.ts";
import { checkFileFirst, throwProblems } from "../imports/csv_prechecks.ts";
import { readHeader } from "../templates/template_choice.ts";
import { defineOperation, type OperationContext, UPSERT } from "./types.ts";

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
  checkPlanInput("collections import", input);
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
  return await runImportOrPlan(ctx, plugin, options, input, { skipExisting: input.skipExisting === true });
}

const importInput = z.object({
  csvFile: z.string().min(1).describe("CSV file of collections to create or update"),
  ...bulkImportFields,
  ...planFields,
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
