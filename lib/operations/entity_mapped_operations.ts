/**
 * `entity import-mapped`: entities of one type from any CSV file through a column mapping (CSV column →
 * attribute; `entity_mapped_import.ts`), on the bulk engine: checked first, batches, reject file,
 * checkpoint. The MCP tool import_entities_from_csv is this operation. Rows whose entity exists already
 * are skipped, changing nothing, unless `--if-exists=update` (confirmed; a dry run needs no confirmation).
 *
 * @module
 */
import { readHeader } from "../templates/template_choice.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { bulkImportFields, engineOptions } from "./bulk_options.ts";
import { mappedEntityImport, mappedEntityTemplate } from "../imports/entity_mapped_import.ts";
import { confirmOverwrite, overwriteConfirmField } from "./if_exists.ts";
import { checkPlanInput, planFields, runImportOrPlan } from "./plan_options.ts";
import { defineOperation, UPSERT } from "./types.ts";

export const importMappedEntities = defineOperation({
  id: "entity.import-mapped",
  group: "entity",
  command: "import-mapped",
  aliases: ["importMapped"],
  summary: "Create entities of one type from any CSV file through a column mapping, in resumable batches",
  description: "--column-mapping maps CSV columns to attributes as JSON, e.g. " +
    '{"path": "qualifiedName", "title": "name", "team": "owner"}; one column must map to qualifiedName. ' +
    "Other targets: collection, classifications and labels (';' separates several), and " +
    "bm.<group>.<attribute>. Without a mapping, columns map to attributes of the same name. Rows whose " +
    "entity exists already are skipped unless --if-exists=update (confirmed: --confirm; not for a dry run).",
  input: z.object({
    csvFile: z.string().min(1).describe("The CSV file to import"),
    entityType: z.string().min(1).describe("Type of every entity, e.g. DataSet or azure_sql_table"),
    columnMapping: z.record(z.string(), z.string().min(1)).optional().describe(
      "CSV column → attribute name, as a JSON object",
    ),
    ...bulkImportFields,
    ...planFields,
    ifExists: z.enum(["skip", "update"]).default("skip").describe(
      "Rows whose entity exists already: skip (default; left as it is) or update (overwrites its " +
        "attributes; needs confirmation)",
    ),
    confirm: overwriteConfirmField,
  }),
  // Not destructive by default; --if-exists=update overwrites, once confirmed (if_exists.ts), and the MCP
  // listing shows the operation as destructive.
  annotations: UPSERT,
  run: async (ctx, input) => {
    const { ifExists, confirm, plan: _plan, planFile: _planFile, applyPlan: _applyPlan, ...rest } = input;
    checkPlanInput("entity import-mapped", input);
    if (ifExists === "update" && rest.skipExisting) {
      throw new UsageError(
        "--if-exists=update and --skip-existing contradict each other; nothing was read.",
        "Leave out --skip-existing to overwrite existing entities, or --if-exists to skip them.",
      );
    }
    if (ifExists === "update" && !rest.dryRun && !input.plan) {
      await confirmOverwrite(ctx, `entity import-mapped --if-exists=update ${input.csvFile}`, confirm);
    }
    const options = await engineOptions(
      ctx,
      { ...rest, skipExisting: ifExists !== "update" },
      input.csvFile,
      "--csv-file",
      {
        entityType: input.entityType,
        mapping: input.columnMapping ?? null,
      },
    );
    const header = await readHeader(options.file, input.csvFile);
    const mapped = mappedEntityTemplate(header, input.columnMapping, input.csvFile);
    const result = await runImportOrPlan(
      ctx,
      mappedEntityImport(ctx.catalog(), mapped, input.entityType, ifExists),
      options,
      input,
      { ifExists },
    );
    return { ...result, ignoredColumns: mapped.ignoredColumns };
  },
});
