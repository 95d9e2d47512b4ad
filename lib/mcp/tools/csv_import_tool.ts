/**
 * `import_entities_from_csv`: entities from a CSV file on the server's machine, through a column mapping,
 * on the bulk engine (checked first, batches, reject file, checkpoint): the `entity import-mapped`
 * operation. The file must lie under CATALOG_MCP_FILE_ROOT: a model must not be able to read or write
 * anywhere else on the machine.
 *
 * @module
 */
import type { BulkImportSummary } from "../../csv/engine.ts";
import { z } from "../../deps/zod.ts";
import { importMappedEntities } from "../../operations/entity_mapped_operations.ts";
import { UsageError } from "../../core/errors.ts";
import type { PlanResult } from "../../operations/plan_options.ts";
import { composedTool } from "../tool_operation.ts";

const summaryOutput = z.object({
  operation: z.string(),
  file: z.string(),
  dryRun: z.boolean(),
  rows: z.number().describe("Data rows in the file"),
  created: z.number(),
  updated: z.number(),
  skipped: z.number(),
  recovered: z.number().describe("Rows of an interrupted run found already imported"),
  rejected: z.number().describe("Rows the catalog refused; they are in errorsFile with the reason"),
  failed: z.number(),
  pending: z.number(),
  batches: z.number(),
  resumed: z.boolean(),
  throttled: z.number(),
  elapsedMs: z.number(),
  rowsPerSecond: z.number(),
  errorsFile: z.string().optional(),
  wouldCreate: z.number().optional(),
  wouldUpdate: z.number().optional(),
  wouldSkip: z.number().optional(),
  wouldReject: z.number().optional(),
  unchanged: z.number().optional().describe("plan: rows that would change nothing"),
  preview: z.array(z.record(z.string(), z.unknown())).optional(),
  ignoredColumns: z.array(z.string()).describe("Columns of the file the mapping does not use"),
});

/** Changed fields a plan answer lists, and characters kept of each value: an answer stays small. */
const PLAN_PREVIEW_ROWS = 20;
const PLAN_VALUE_CHARS = 200;

const cut = (text: string) =>
  text.length > PLAN_VALUE_CHARS ? `${text.slice(0, PLAN_VALUE_CHARS - 1)}…` : text;

/** A plan as the tool's summary: the counts, and the first changed fields (old → new) as the preview. */
function planAnswer(plan: PlanResult & { ignoredColumns: string[] }): z.infer<typeof summaryOutput> {
  const rows = plan.create + plan.update + plan.unchanged + plan.skip + plan.reject;
  return {
    operation: plan.operation,
    file: plan.file,
    dryRun: true,
    rows,
    created: 0,
    updated: 0,
    skipped: 0,
    recovered: 0,
    rejected: 0,
    failed: 0,
    pending: 0,
    batches: 0,
    resumed: false,
    throttled: 0,
    elapsedMs: 0,
    rowsPerSecond: 0,
    wouldCreate: plan.create,
    wouldUpdate: plan.update,
    wouldSkip: plan.skip,
    wouldReject: plan.reject,
    unchanged: plan.unchanged,
    preview: plan.items.filter((item) => item.action !== "unchanged" && item.action !== "skip")
      .slice(0, PLAN_PREVIEW_ROWS)
      .map((item) => ({ ...item, old: cut(item.old), new: cut(item.new) })),
    ignoredColumns: plan.ignoredColumns,
  };
}

export const importEntitiesFromCsvTool = composedTool({
  name: "import_entities_from_csv",
  title: "Import entities from a CSV file",
  description:
    "Create entities of one type from a CSV file. column_mapping maps columns to attributes (one to " +
    "qualifiedName; also collection, classifications, labels, bm.<group>.<attribute>); default: same " +
    "names. Refused rows go to a reject file; existing entities are skipped unless if_exists is " +
    '"update". Try dry_run first; resume continues a stopped import.',
  input: z.object({
    file_path: z.string().min(1).describe("CSV path under CATALOG_MCP_FILE_ROOT"),
    entity_type: z.string().min(1).describe("Type of every entity, e.g. DataSet"),
    column_mapping: z.record(z.string(), z.string().min(1)).optional().describe(
      "CSV column → attribute name",
    ),
    batch_size: z.number().int().min(1).max(1000).optional().describe(
      "Entities per request",
    ),
    dry_run: z.boolean().optional().describe("Report what would happen, changing nothing"),
    plan: z.boolean().optional().describe("dry_run plus old → new per changed field"),
    skip_existing: z.boolean().optional().describe(
      "Leave existing entities alone (default)",
    ),
    if_exists: z.enum(["skip", "update"]).default("skip").describe(
      'Existing entities: "skip" or "update" (needs "confirm": true)',
    ),
    resume: z.boolean().optional().describe("Continue a stopped import of the file"),
    restart: z.boolean().optional().describe(
      'Start a stopped import over (with "overwrite": true)',
    ),
    overwrite: z.boolean().optional().describe(
      "Replace an earlier reject file (with restart: the checkpoint)",
    ),
  }),
  output: summaryOutput,
  operations: [importMappedEntities],
  // Only an overwrite changes what exists, and a dry run changes nothing: only such a call is confirmed.
  confirmWhen: (input) => input.if_exists === "update" && !input.dry_run && !input.plan,
  compose: async (run, input, ctx) => {
    if (input.if_exists === "update" && input.skip_existing) {
      throw new UsageError(
        'if_exists "update" and skip_existing true contradict each other; nothing was read.',
        "Leave out skip_existing to overwrite existing entities, or if_exists to skip them.",
      );
    }
    // The path is checked here first so a refusal names this tool's argument, file_path.
    await ctx.services.operationContext(ctx.signal).files?.readable(input.file_path, "file_path");
    const summary = await run(importMappedEntities, {
      csvFile: input.file_path,
      entityType: input.entity_type,
      columnMapping: input.column_mapping,
      batchSize: input.batch_size,
      dryRun: input.dry_run,
      plan: input.plan,
      ifExists: input.if_exists,
      resume: input.resume,
      restart: input.restart,
      overwrite: input.overwrite,
    }) as (BulkImportSummary | PlanResult) & { ignoredColumns: string[] };
    if ("items" in summary) return planAnswer(summary);
    const { template: _template, checkpointFile: _checkpoint, ...rest } = summary;
    return rest;
  },
});
