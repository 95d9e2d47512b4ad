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
import { UsageError } from "../../errors.ts";
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
  preview: z.array(z.record(z.string(), z.unknown())).optional(),
  ignoredColumns: z.array(z.string()).describe("Columns of the file the mapping does not use"),
});

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
  confirmWhen: (input) => input.if_exists === "update" && !input.dry_run,
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
      ifExists: input.if_exists,
      resume: input.resume,
      restart: input.restart,
      overwrite: input.overwrite,
    }) as BulkImportSummary & { ignoredColumns: string[] };
    const { template: _template, checkpointFile: _checkpoint, ...rest } = summary;
    return rest;
  },
});
