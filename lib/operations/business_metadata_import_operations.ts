/**
 * `entity import-business-metadata --bm-file`: the service's bulk business metadata import, with the file
 * checked first (`lib/imports/business_metadata_csv.ts` says how a short last field and the separator are
 * handled) so nothing is uploaded while a row is wrong; `--dry-run` stops after the check.
 *
 * @module
 */
import { readTextChecked } from "../files/checked_open.ts";
import { delimiterOption } from "../csv/delimiter.ts";
import { unguardCsvText } from "../csv/guarded_text.ts";
import { businessMetadata } from "../templates/csv/business_metadata_templates.ts";
import { z } from "../deps/zod.ts";
import {
  BUSINESS_METADATA_IMPORT_COLUMNS,
  columnOrderProblems,
  headerForm,
  paddedCopy,
} from "../imports/business_metadata_csv.ts";
import { bulkImportFields, DEFAULT_CONCURRENCY } from "./bulk_options.ts";
import { checkFileFirst } from "../imports/csv_prechecks.ts";
import { readHeader } from "../templates/template_choice.ts";
import { defineOperation, type OperationContext, UPSERT } from "./types.ts";
import { type CsvDelimiter } from "../csv/delimiter.ts";
import type { BulkImportOptions } from "../csv/import_options.ts";
import { checkPlanHolds, parsePlan } from "../csv/plan_apply.ts";
import { checkedRows } from "../csv/check.ts";
import { csvLine } from "../csv/reader.ts";
import { businessMetadataPlanImport } from "../imports/business_metadata_plan.ts";
import { checkPlanInput, planFields, runImportOrPlan } from "./plan_options.ts";
import type { BulkImportResult } from "../catalog/atlas_model.ts";

const importInput = z.object({
  bmFile: z.string().min(1).describe("CSV file of business metadata values"),
  dryRun: z.boolean().optional().describe("Check the file and report it, uploading nothing"),
  delimiter: bulkImportFields.delimiter,
  ...planFields,
  overwrite: bulkImportFields.overwrite,
});

export const importBusinessMetadata = defineOperation({
  id: "entity.import-business-metadata",
  group: "entity",
  command: "import-business-metadata",
  aliases: ["importBusinessMetadata"],
  summary: "Import business metadata values of many entities from a CSV file",
  description: "The CSV has the columns of getBusinessMetadataTemplate, in that order (the service reads " +
    "them by position): EntityType, EntityUniqueAttributeValue, BusinessAttributeName (group.attribute), " +
    "BusinessAttributeValue and an optional EntityUniqueAttributeName (qualifiedName, guid or another unique " +
    "attribute); Apache Atlas's header names (TypeName, UniqueAttributeValue, …, UniqueAttributeName" +
    "[optional]) are read too, and the form read is reported (--dry-run's header, an info log line). The file is " +
    "checked first and every problem listed as file:line:column; nothing is uploaded while one remains. " +
    "--dry-run stops after the check; --plan shows each row's value (old → new), unchanged or rejected " +
    "(why), and --apply-plan uploads only the rows it plans to change. The answer counts the rows read, imported and failed (exit 1 when " +
    "any failed) and lists each.",
  input: importInput,
  annotations: UPSERT,
  run: async (ctx, input) => {
    checkPlanInput("entity import-business-metadata", input);
    const delimiter = delimiterOption(input.delimiter);
    const path = await ctx.files?.readable(input.bmFile, "--bm-file") ?? input.bmFile;
    const padded = await paddedCopy(path, input.bmFile, ctx.signal, delimiter);
    try {
      return await importFile(ctx, input, path, padded, delimiter);
    } finally {
      if (padded) await Deno.remove(padded).catch(() => {});
    }
  },
});

type ImportInput = z.infer<typeof importInput>;

/** Checks the file (its padded copy, when short rows needed one), then plans, applies a plan or uploads it. */
async function importFile(
  ctx: OperationContext,
  input: ImportInput,
  path: string,
  padded: string | undefined,
  delimiter: CsvDelimiter | undefined,
) {
  let header: string[] = [];
  const report = await checkFileFirst(padded ?? path, businessMetadata, {
    displayName: input.bmFile,
    signal: ctx.signal,
    delimiter,
    extra: async (checked) => {
      if (checked.rows === 0) return [];
      // Read as the check read it.
      const read = { delimiter: checked.delimiter, signal: ctx.signal };
      header = await readHeader(path, input.bmFile, read);
      return columnOrderProblems(input.bmFile, header);
    },
  });
  const rows = report.rows;
  // The service reads the columns by position whatever the header says: say which form was read.
  const form = header.length > 0 ? headerForm(header) : undefined;
  if (form) ctx.logger.info(`import-business-metadata: ${input.bmFile}: read ${form}`);
  if (input.dryRun) {
    return {
      file: input.bmFile,
      template: businessMetadata.name,
      header: form,
      dryRun: true,
      valid: true,
      rows,
    };
  }
  if (input.plan || input.applyPlan) {
    return await planOrApply(ctx, input, padded ?? path, report.delimiter);
  }
  // The service would keep the "'" that guards a formula-like cell in an export: it is taken off here.
  const csv = unguardCsvText(
    (await readTextChecked(path, input.bmFile)).replace(/^\uFEFF/, ""),
    input.bmFile,
    delimiter,
  );
  const fileName = input.bmFile.split(/[\\/]/).pop() || "business_metadata.csv";
  const answer = await ctx.catalog().entity.importBusinessMetadata(csv, fileName, ctx.signal);
  return importSummary(input.bmFile, rows, answer);
}

/**
 * `--plan`: each row's change, read from the catalog, nothing written. `--apply-plan`: refused when a value
 * the plan read changed since; else the rows planned to change, and only those, are uploaded.
 */
async function planOrApply(ctx: OperationContext, input: ImportInput, file: string, delimiter: CsvDelimiter) {
  const plugin = businessMetadataPlanImport(ctx.catalog());
  const options: BulkImportOptions = {
    file,
    displayName: input.bmFile,
    delimiter,
    batchSize: ctx.config().batchSize,
    concurrency: DEFAULT_CONCURRENCY,
    settings: {},
    signal: ctx.signal,
    progress: ctx.progress,
  };
  if (input.plan) return await runImportOrPlan(ctx, plugin, options, input);
  const text = await ctx.readTextFile(input.applyPlan!, "--apply-plan");
  const plan = parsePlan(text, input.applyPlan!, plugin.id, {});
  await checkPlanHolds(plugin, plan, { ...options, planShown: input.applyPlan! }, false);
  const changing = new Set(plan.rows.filter((row) => row.action === "update").map((row) => row.lines[0]));
  const lines = [BUSINESS_METADATA_IMPORT_COLUMNS.join(",")];
  const display = input.bmFile;
  for await (
    const row of checkedRows(file, businessMetadata, { displayName: display, signal: ctx.signal, delimiter })
  ) {
    if (changing.has(row.line)) lines.push(csvLine(row.cells, ","));
  }
  const planned = { unchanged: plan.counts.unchanged, rejected: plan.counts.reject };
  if (changing.size === 0) {
    return { file: display, rows: plan.rows.length, imported: 0, failed: 0, planned, uploaded: 0 };
  }
  const csv = unguardCsvText(lines.join("\r\n") + "\r\n", display, ",");
  const fileName = display.split(/[\\/]/).pop() || "business_metadata.csv";
  const answer = await ctx.catalog().entity.importBusinessMetadata(csv, fileName, ctx.signal);
  return { ...importSummary(display, changing.size, answer), planned, uploaded: changing.size };
}

/**
 * The service's answer with the summary every import ends with: rows read, imported and failed. A count of
 * failed rows makes the command line exit 1, as for the other imports; the answer's lists stay as sent.
 */
function importSummary(file: string, rows: number, answer: BulkImportResult) {
  const failed = answer?.failedImportInfoList?.length ?? 0;
  const imported = answer?.successImportInfoList?.length ?? Math.max(0, rows - failed);
  return { file, rows, imported, failed, ...answer };
}
