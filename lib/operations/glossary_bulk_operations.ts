/**
 * The catalog API's bulk term operations of the `glossary` group: read terms by GUID, update many terms
 * from a JSON file, delete many terms (a job whose status is returned, and can be read again), and
 * export terms to a CSV file in the import template's columns (so it imports back with `import-terms`).
 *
 * @module
 */
import type { AtlasGlossaryTerm } from "../catalog/glossary_types.ts";
import { z } from "../deps/zod.ts";
import { guardCsvText } from "../csv/guarded_text.ts";
import { glossaryGuid } from "./glossary_inputs.ts";
import { guidListField } from "./guid_fields.ts";
import { offsetPages } from "../http/paging_guard.ts";
import { writeOutputFile } from "../files/output_files.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import { defineOperation, DELETE, type Operation, type OperationContext, READ, UPSERT } from "./types.ts";

const termGuids = guidListField("GUID of a term").min(1);

export const readTermsByGuids = defineOperation({
  id: "glossary.read-terms-by-guids",
  group: "glossary",
  command: "read-terms-by-guids",
  aliases: ["list-terms-by-guids", "listTermsByGuids"],
  summary: "Read many terms by GUID in one call (a GUID naming no term is left out)",
  input: z.object({
    termGuid: termGuids,
    excludeAssignments: z.boolean().optional().describe("Leave out the entities each term is assigned to"),
  }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().glossary.listTermsByGuids(input.termGuid, {
      excludeAssignments: input.excludeAssignments,
      signal: ctx.signal,
    }),
});

export const putTerms = defineOperation({
  id: "glossary.put-terms",
  group: "glossary",
  command: "put-terms",
  aliases: ["update-terms", "bulk-update-terms"],
  summary: "Update many terms at once from a JSON file of terms, each with its guid (full updates)",
  description: "The file holds an array of AtlasGlossaryTerm, each naming its guid and anchor (as " +
    "read-terms-by-guids prints them). Each term becomes what the file says: fields, categories and related " +
    "terms left out are removed. Every guid is checked before any term is written.",
  input: z.object({
    payloadFile: z.string().min(1).describe("JSON file with an array of terms, each with its guid"),
  }),
  // Full updates: what the file leaves out is removed from the terms.
  annotations: { ...UPSERT, destructive: true },
  run: async (ctx, input) => {
    const terms = await readTerms(ctx, input.payloadFile);
    return ctx.catalog().glossary.bulkUpdateTerms(terms, ctx.signal);
  },
});

async function readTerms(ctx: OperationContext, path: string): Promise<AtlasGlossaryTerm[]> {
  const payload = await readJsonFile(ctx, path, "--payload-file");
  const expected = 'a JSON array of terms, each with its "guid"';
  if (!Array.isArray(payload) || payload.length === 0) {
    throw payloadError(path, expected, describeJson(payload));
  }
  payload.forEach((term, i) => {
    if (!isPlainObject(term)) throw payloadError(path, expected, `${describeJson(term)} at index ${i}`);
    if (typeof term.guid !== "string" || term.guid === "") {
      throw payloadError(path, expected, `a term without a guid at index ${i}`);
    }
  });
  return payload as AtlasGlossaryTerm[];
}

export const deleteTerms = defineOperation({
  id: "glossary.delete-terms",
  group: "glossary",
  command: "delete-terms",
  aliases: ["bulk-delete-terms", "deleteTerms"],
  summary: "Delete many terms by GUID; returns the delete job's status (Succeeded, or Failed with why)",
  description: "A term below one of them stays, without its parent, unless --force-delete-child; a term " +
    "assigned to entities is kept (the job fails for it) unless --force-delete-entity-assignment, which " +
    "removes the assignments. Read the job again with read-terms-delete.",
  input: z.object({
    termGuid: termGuids,
    forceDeleteChild: z.boolean().optional().describe("Delete the terms below each term too"),
    forceDeleteEntityAssignment: z.boolean().optional().describe(
      "Delete terms assigned to entities too, removing the assignments",
    ),
  }),
  annotations: DELETE,
  run: (ctx, input) =>
    ctx.catalog().glossary.deleteTermsInBulk(input.termGuid, {
      forceDeleteChild: input.forceDeleteChild,
      forceDeleteEntityAssignment: input.forceDeleteEntityAssignment,
      signal: ctx.signal,
    }),
});

export const readTermsDelete = defineOperation({
  id: "glossary.read-terms-delete",
  group: "glossary",
  command: "read-terms-delete",
  aliases: ["read-bulk-delete-status"],
  summary: "Read the status of a bulk term delete (NotStarted, Running, Succeeded or Failed)",
  input: z.object({ operationId: z.string().min(1).describe("Id of the delete job") }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().glossary.getBulkDeleteStatus(input.operationId, ctx.signal),
});

/** Term headers per page when the export reads a whole glossary. */
const PAGE = 1000;

export const exportTerms = defineOperation({
  id: "glossary.export-terms",
  group: "glossary",
  command: "export-terms",
  aliases: ["exportTerms", "export-terms-csv"],
  summary: "Write terms of a glossary (all, or those given) to a CSV file that import-terms reads back",
  description: "The catalog writes the CSV (its import template's columns); formula-like cells get a " +
    "leading ' (import-terms takes it off); --include-term-hierarchy adds " +
    "each term's parent. A whole glossary is exported a page of terms at a time, each page written as it " +
    "arrives. The file is written whole or not at all; an existing file is replaced only with --overwrite.",
  input: z.object({
    glossaryGuid,
    termGuid: guidListField("GUID of a term (default: every term of the glossary)").optional(),
    outputFile: z.string().min(1).describe("CSV file to write (an existing file only with overwrite)"),
    overwrite: z.boolean().optional().describe("Replace the file when it exists"),
    includeTermHierarchy: z.boolean().optional().describe("Add each term's parent term"),
  }),
  // It reads the catalog only, but writes a local file: not read-only (read-only mode refuses it).
  annotations: { ...READ, readOnly: false, writesLocalFile: ["outputFile"] },
  run: async (ctx, input) => {
    const glossary = ctx.catalog().glossary;
    const exportCsv = (guids: string[]) =>
      glossary.exportTermsCsv(input.glossaryGuid, guids, {
        includeTermHierarchy: input.includeTermHierarchy,
        signal: ctx.signal,
      });
    const pages = input.termGuid?.length
      ? givenTerms(input.termGuid)
      : termGuidPages(ctx, input.glossaryGuid);
    let terms = 0;
    let endedLine = true;
    const written = await writeOutputFile(ctx, input.outputFile, "--output-file", async (write) => {
      // Each page is exported and written as it arrives, so memory holds one page, not the glossary.
      for await (const guids of pages) {
        if (guids.length === 0) continue;
        // The catalog writes cells as they are: those a spreadsheet would run as formulas are guarded here.
        const csv = guardCsvText(await exportCsv(guids), "the catalog's term export");
        const rows = terms === 0 ? csv : withoutHeader(csv);
        // A page that ends without a line break must not run into the next page's first row.
        if (terms > 0 && !endedLine && rows !== "") await write("\n");
        await write(rows);
        if (rows !== "") endedLine = /[\r\n]$/.test(rows);
        terms += guids.length;
      }
    }, { overwrite: input.overwrite === true });
    return { outputFile: input.outputFile, terms, bytes: written.bytes };
  },
});

async function* givenTerms(guids: string[]): AsyncGenerator<string[]> {
  yield guids;
}

/** The term GUIDs of a glossary, a page at a time, through the client's paging guard. */
async function* termGuidPages(ctx: OperationContext, glossary: string): AsyncGenerator<string[]> {
  const catalog = ctx.catalog();
  const pages = offsetPages(
    catalog.http.pagingGuard(`the terms of glossary ${glossary}`),
    PAGE,
    (offset) => catalog.glossary.listTermHeaders(glossary, { limit: PAGE, offset, signal: ctx.signal }),
    (header) => header.termGuid,
  );
  for await (const page of pages) {
    yield page.flatMap((header) => header.termGuid ? [header.termGuid] : []);
  }
}

/**
 * A page's CSV after its header record: every page repeats the header, the file has it once. The header
 * ends at the first line break outside quotes.
 */
export function withoutHeader(csv: string): string {
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const char = csv[i];
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) {
      const next = char === "\r" && csv[i + 1] === "\n" ? i + 2 : i + 1;
      return csv.slice(next);
    }
  }
  return "";
}

/** The bulk term operations, in the order `--help` lists them. */
export const GLOSSARY_BULK_OPERATIONS: Operation[] = [
  readTermsByGuids,
  putTerms,
  deleteTerms,
  readTermsDelete,
  exportTerms,
];
