/**
 * Bulk commands of the `glossary` group: `import-terms` (terms from CSV, by the service's asynchronous
 * import or with `--mode=batches` through the bulk engine), `read-terms-import` (the status of a service
 * import) and `assign_terms` (term assignments from a CSV of term_guid, entity_guid, through the engine).
 * Every file is checked against its template first, streamed, and nothing is sent while a row is wrong.
 *
 * @module
 */
import { readTextChecked } from "../files/checked_open.ts";
import type { ImportCsvOperation } from "../catalog/glossary_types.ts";
import type { CsvDelimiter } from "../csv/delimiter.ts";
import { unguardCsvText } from "../csv/guarded_text.ts";
import { glossaryTerms } from "../templates/csv/glossary_templates.ts";
import { z } from "../deps/zod.ts";
import { GovcatError, UsageError } from "../core/errors.ts";
import { bulkImportFields, type BulkImportInput, engineOptions } from "./bulk_options.ts";
import { checkFileFirst } from "../imports/csv_prechecks.ts";
import { glossaryAssignmentImport } from "../imports/glossary_assign_import.ts";
import { batchTermsTemplate } from "../imports/glossary_csv.ts";
import { glossaryGuid } from "./glossary_inputs.ts";
import { glossaryTermImport } from "../imports/glossary_term_import.ts";
import { checkPlanInput, planFields, type PlanInput, runImportOrPlan } from "./plan_options.ts";
import { defineOperation, type Operation, type OperationContext, READ, UPSERT } from "./types.ts";

/** How `import-terms` imports: the service's import job, or batches sent by govcat. */
export const TERM_IMPORT_MODES = ["service", "batches"] as const;

/** Options of the engine that the service's import job has no use for. */
const BATCH_ONLY: Array<[keyof BulkImportInput | keyof PlanInput, string]> = [
  ["batchSize", "--batch-size"],
  ["concurrency", "--concurrency"],
  ["skipExisting", "--skip-existing"],
  ["resume", "--resume"],
  ["restart", "--restart"],
  ["errorsFile", "--errors-file"],
  ["checkpointFile", "--checkpoint-file"],
];
/** Options of the service's import job. */
const SERVICE_ONLY: Array<[string, string]> = [
  ["includeTermHierarchy", "--include-term-hierarchy"],
  ["timeoutSeconds", "--timeout-seconds"],
  ["pollMs", "--poll-ms"],
];

function refuseOptionsOfOtherMode(input: Record<string, unknown>, mode: string): void {
  const [others, wanted, why] = mode === "service"
    ? [
      BATCH_ONLY,
      "--mode=batches",
      "The service's import (the default mode) is one job run by the catalog; add --mode=batches to " +
      "import in resumable batches instead.",
    ]
    : [
      SERVICE_ONLY,
      "the service's import (--mode=service, the default)",
      "--mode=batches sends the terms itself and does not wait for a service job; leave the option out.",
    ];
  const given = others.filter(([field]) => input[field] !== undefined).map(([, flag]) => flag);
  if (given.length > 0) {
    throw new UsageError(
      `${given.join(", ")} ${given.length > 1 ? "apply" : "applies"} to ${wanted} only.`,
      why,
    );
  }
}

function fileNameOf(path: string): string {
  return path.split(/[\\/]/).pop() || "terms.csv";
}

export const importTerms = defineOperation({
  id: "glossary.import-terms",
  group: "glossary",
  command: "import-terms",
  summary: "Import terms into a glossary from a CSV file (the service's import, or --mode=batches)",
  description: "Columns: name (required), description, short_description, status (Draft, Approved, " +
    "Alert, Expired), definition, examples; the service's template columns (Nick Name, Acronym, Resources, " +
    "Related Terms, Synonyms, Stewards, Experts, Parent Term Name, …) too. The file is checked first and " +
    "every problem listed as file:line:column; nothing is sent while one remains. By default the file is " +
    "uploaded to the service's import, which runs in the background (read-terms-import shows its status); " +
    "govcat waits for it, showing progress, and prints the finished operation. --mode=batches creates the " +
    "terms itself in resumable batches (POST /glossary/terms), with a reject file and --resume; existing " +
    "terms are updated (or left alone with --skip-existing). --dry-run and --plan report what either mode would do. " +
    "Terms that exist are matched by name, so importing a file again is harmless.",
  input: z.object({
    csvFile: z.string().min(1).describe("CSV file of terms (glossary-terms template)"),
    glossaryGuid,
    mode: z.enum(TERM_IMPORT_MODES).optional().describe(
      "service (default): the service's import job; batches: resumable batches sent by govcat",
    ),
    includeTermHierarchy: z.boolean().optional().describe(
      "Build the term hierarchy from the Parent Term Name column (service mode)",
    ),
    timeoutSeconds: z.number().int().min(1).max(86_400).optional().describe(
      "Stop waiting after this many seconds (default 600); the import goes on (service mode)",
    ),
    pollMs: z.number().int().min(50).max(60_000).optional().describe(
      "Milliseconds between status checks (default 1000; service mode)",
    ),
    ...bulkImportFields,
    ...planFields,
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    const mode = input.mode ?? "service";
    refuseOptionsOfOtherMode(input, mode);
    checkPlanInput("glossary import-terms", input);
    if (mode === "service" && input.applyPlan) {
      throw new UsageError(
        "glossary import-terms: --apply-plan needs --mode=batches: the service's import job takes the " +
          "whole file and cannot be held to a plan's rows; nothing was read.",
        "Plan with --mode=batches --plan --plan-file, review it, and apply it with --mode=batches " +
          "--apply-plan=FILE.",
      );
    }
    const options = await engineOptions(ctx, input, input.csvFile, "--csv-file", {
      glossaryGuid: input.glossaryGuid,
      mode,
    });
    if (mode === "service" && !input.dryRun && !input.plan) {
      return await serviceImport(ctx, input, options.file, options.delimiter);
    }
    const template = mode === "batches" ? batchTermsTemplate() : glossaryTerms;
    // Checked before the glossary is looked up: a bad file is refused without a request.
    await checkFileFirst(options.file, template, {
      displayName: input.csvFile,
      signal: ctx.signal,
      delimiter: options.delimiter,
    });
    // An unknown glossary is one 404 with its hint, not a rejection of every row.
    await ctx.catalog().glossary.get(input.glossaryGuid, ctx.signal);
    const plugin = glossaryTermImport(ctx.catalog(), {
      glossaryGuid: input.glossaryGuid,
      mode,
      template,
      skipExisting: input.skipExisting,
    });
    const result = await runImportOrPlan(ctx, plugin, options, input, {
      skipExisting: input.skipExisting === true,
    });
    return mode === "service" && input.plan ? { ...result, note: SERVICE_PLAN_NOTE } : result;
  },
});

/** What a plan of the service's import can and cannot promise. */
const SERVICE_PLAN_NOTE = "Planned as the service's import would write the term fields; the columns only " +
  "it reads (relations, contacts, term templates) are not compared. The service's import cannot apply a " +
  "plan: to apply exactly what you reviewed, plan with --mode=batches and apply with --mode=batches " +
  "--apply-plan.";

/**
 * Checks the file (read with `delimiter`, else the one detected: the service reads commas only), uploads it
 * to the service's import and waits for the job, reporting its progress.
 */
async function serviceImport(
  ctx: OperationContext,
  input: {
    csvFile: string;
    glossaryGuid: string;
    includeTermHierarchy?: boolean;
    timeoutSeconds?: number;
    pollMs?: number;
  },
  path: string,
  delimiter?: CsvDelimiter,
): Promise<ImportCsvOperation> {
  const report = await checkFileFirst(path, glossaryTerms, {
    displayName: input.csvFile,
    signal: ctx.signal,
    progress: ctx.progress,
    delimiter,
  });
  const text = (await readTextChecked(path, input.csvFile)).replace(/^\uFEFF/, "");
  // The service would keep the "'" that guards a formula-like cell in an export: it is taken off here.
  const csv = unguardCsvText(text, input.csvFile, delimiter);
  try {
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
          ctx.logger.info(`import-terms: operation ${op.id} ${op.status}`);
          ctx.progress?.update({
            phase: `service import ${op.status}`,
            done: Number(op.properties?.importedTerms ?? 0) || 0,
            total: report.rows,
            errors: 0,
          });
        },
      },
    );
    if (operation.status === "Failed") throw importFailed(operation);
    return operation;
  } finally {
    ctx.progress?.finish();
  }
}

function importFailed(operation: ImportCsvOperation): GovcatError {
  const message = operation.error?.errorMessage || operation.error?.message || "no reason given";
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

export const assignTerms = defineOperation({
  id: "glossary.assign-terms",
  group: "glossary",
  command: "assign_terms",
  summary: "Assign terms to entities from a CSV file of term_guid, entity_guid, in resumable batches",
  description: "Every row is checked first (GUIDs, no pair twice) and every problem listed as " +
    "file:line:column before anything is sent. Rows are sent per batch grouped by term " +
    "(POST /glossary/terms/{termGuid}/assignedEntities). An assignment the catalog has already is " +
    "skipped; a row naming a term or entity that does not exist is rejected into the errors file with the " +
    "service's answer while the others are assigned. Prints the summary; exit 1 when a row was rejected.",
  input: z.object({
    csvFile: z.string().min(1).describe("CSV file with the columns term_guid, entity_guid"),
    ...bulkImportFields,
    ...planFields,
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    checkPlanInput("glossary assign_terms", input);
    const options = await engineOptions(ctx, input, input.csvFile, "--csv-file");
    return await runImportOrPlan(ctx, glossaryAssignmentImport(ctx.catalog()), options, input);
  },
});

/** The import and assignment commands, in the order `govcat glossary --help` lists them. */
export const GLOSSARY_IMPORT_OPERATIONS: Operation[] = [importTerms, readTermsImport, assignTerms];
