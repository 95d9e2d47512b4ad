/**
 * Bulk commands of the `glossary` group: `import-terms` (the service's asynchronous CSV import, checked
 * locally first and polled to completion with progress on stderr), `read-terms-import` (an import's
 * status) and `assign_terms` (term assignments from a CSV of term_guid, entity_guid).
 *
 * @module
 */
import type { ImportCsvOperation } from "../catalog/glossary_types.ts";
import { z } from "../deps/zod.ts";
import { CatalogError, GovcatError } from "../errors.ts";
import { checkTermCsv, readAssignmentCsv } from "./glossary_csv.ts";
import { glossaryGuid } from "./glossary_inputs.ts";
import { defineOperation, type Operation, type OperationContext, READ, UPSERT } from "./types.ts";

const encoder = new TextEncoder();

/**
 * Writes a progress line to stderr. Operations have no progress channel and their logger shows only
 * warnings by default; stdout carries the JSON result, so progress goes straight to stderr.
 */
function progress(line: string): void {
  Deno.stderr.writeSync(encoder.encode(`${line}\n`));
}

function fileNameOf(path: string): string {
  return path.split(/[\\/]/).pop() || "terms.csv";
}

export const importTerms = defineOperation({
  id: "glossary.import-terms",
  group: "glossary",
  command: "import-terms",
  summary: "Import terms into a glossary from a CSV file, waiting until the import has finished",
  description: "The file is checked first (a Name column, a name on every row, no name twice, statuses " +
    "Draft/Approved/Alert/Expired); problems are listed by line and nothing is sent. The service then " +
    "imports it in the background; progress goes to stderr and the finished operation to stdout. Terms " +
    "that exist are updated, so importing a file again is harmless.",
  input: z.object({
    csvFile: z.string().min(1).describe("CSV file of terms (the service's template columns)"),
    glossaryGuid,
    includeTermHierarchy: z.boolean().optional().describe(
      "Build the term hierarchy from the Parent Term Name column",
    ),
    timeoutSeconds: z.number().int().min(1).max(86_400).optional().describe(
      "Stop waiting after this many seconds (default 600); the import goes on",
    ),
    pollMs: z.number().int().min(50).max(60_000).optional().describe(
      "Milliseconds between status checks (default 1000)",
    ),
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    const csv = (await ctx.readTextFile(input.csvFile, "--csv-file")).replace(/^\uFEFF/, "");
    const { rows } = await checkTermCsv(csv, input.csvFile);
    let last = "";
    const operation = await ctx.catalog().glossary.importTermsAndWait(
      input.glossaryGuid,
      csv,
      fileNameOf(input.csvFile),
      {
        includeTermHierarchy: input.includeTermHierarchy,
        timeoutMs: (input.timeoutSeconds ?? 600) * 1000,
        pollMs: input.pollMs,
        signal: ctx.signal,
        onProgress: (op) => {
          const imported = op.properties?.importedTerms ?? "0";
          const line = `import-terms: operation ${op.id} ${op.status} (${imported}/${rows} terms)`;
          if (line !== last) progress(line);
          last = line;
        },
      },
    );
    if (operation.status === "Failed") throw importFailed(operation);
    return operation;
  },
});

function importFailed(operation: ImportCsvOperation): GovcatError {
  const message = operation.error?.message || "no reason given";
  return new GovcatError(`The term import ${operation.id} failed: ${message}`, {
    exitCode: 1,
    hint: "Nothing was imported. Fix the rows named above and run import-terms again.",
  });
}

export const readTermsImport = defineOperation({
  id: "glossary.read-terms-import",
  group: "glossary",
  command: "read-terms-import",
  summary: "Read the status of a term import (NotStarted, Running, Succeeded or Failed)",
  input: z.object({ operationId: z.string().min(1).describe("Id of the import operation") }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().glossary.getImportStatus(input.operationId, ctx.signal),
});

/** The outcome of one row of an assignment file. */
interface RowResult {
  line: number;
  term_guid: string;
  entity_guid: string;
  status: "assigned" | "failed";
  error?: string;
}

export const assignTerms = defineOperation({
  id: "glossary.assign-terms",
  group: "glossary",
  command: "assign_terms",
  summary: "Assign terms to entities from a CSV file of term_guid, entity_guid",
  description: "Every row is checked first (GUID format, no pair twice) and problems are listed by line " +
    "before anything is sent. Rows are then grouped by term and assigned in batches of CATALOG_BATCH_SIZE; " +
    "a refused batch is retried entity by entity, so one bad row fails alone. Prints a summary with the " +
    "outcome of every row. Entities that already carry the term count as assigned.",
  input: z.object({
    csvFile: z.string().min(1).describe("CSV file with the columns term_guid, entity_guid"),
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    const csv = await ctx.readTextFile(input.csvFile, "--csv-file");
    const rows = await readAssignmentCsv(csv, input.csvFile);
    const byTerm = Map.groupBy(rows, (row) => row.termGuid);
    const batchSize = ctx.config().batchSize;
    const results: RowResult[] = [];
    for (const [term, termRows] of byTerm) {
      for (let start = 0; start < termRows.length; start += batchSize) {
        const batch = termRows.slice(start, start + batchSize);
        results.push(...await assignBatch(ctx, term, batch));
      }
    }
    results.sort((a, b) => a.line - b.line);
    const assigned = results.filter((r) => r.status === "assigned").length;
    return { assigned, failed: results.length - assigned, terms: byTerm.size, rows: results };
  },
});

/** Assigns one batch; when the service refuses it, each entity alone, to find the rows at fault. */
async function assignBatch(
  ctx: OperationContext,
  termGuid: string,
  batch: Array<{ line: number; termGuid: string; entityGuid: string }>,
): Promise<RowResult[]> {
  const glossary = ctx.catalog().glossary;
  const result = (row: (typeof batch)[number], error?: string): RowResult => ({
    line: row.line,
    term_guid: row.termGuid,
    entity_guid: row.entityGuid,
    status: error === undefined ? "assigned" : "failed",
    ...(error === undefined ? {} : { error }),
  });
  try {
    await glossary.assignTermToEntities(termGuid, batch.map((row) => ({ guid: row.entityGuid })), ctx.signal);
    return batch.map((row) => result(row));
  } catch (error) {
    // Anything but the service's answer (a cancelled run, a bug) stops the command.
    if (!(error instanceof CatalogError)) throw error;
    if (batch.length === 1) return [result(batch[0], describe(error))];
  }
  const results: RowResult[] = [];
  for (const row of batch) {
    try {
      await glossary.assignTermToEntities(termGuid, [{ guid: row.entityGuid }], ctx.signal);
      results.push(result(row));
    } catch (error) {
      if (!(error instanceof CatalogError)) throw error;
      results.push(result(row, describe(error)));
    }
  }
  return results;
}

function describe(error: CatalogError): string {
  return [error.status || "", error.code, error.message].filter(Boolean).join(" ");
}

/** The import and assignment commands, in the order of spec §4.6. */
export const GLOSSARY_IMPORT_OPERATIONS: Operation[] = [importTerms, readTermsImport, assignTerms];
