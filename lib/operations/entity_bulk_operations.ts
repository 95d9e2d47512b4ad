/**
 * `entity bulk-import` and `entity bulk-update-csv`: entities from CSV files through the bulk engine
 * (`lib/csv`), in batches sent as `POST /entity/bulk` upserts by unique attribute. The import takes the
 * templates entity-bulk-import, entity-dataset, entity-classified and entity-table (detected from the header
 * when `--template` is not given); the update reads the named entities first and writes only the given
 * attributes, so a row never blanks what it does not mention.
 *
 * The import adds: a row whose entity exists already is skipped, leaving it as it is (a plain
 * upsert would overwrite its description), unless `--if-exists=update`, confirmed as every overwrite is
 * (`confirmation.ts`). The check is made by the import itself, batch by batch just before sending, rather
 * than by the engine's `--skip-existing`, which runs before the engine asks whether an interrupted batch was
 * applied: a row an earlier run wrote still counts as recovered, not skipped.
 *
 * Both offer `--plan` and `--apply-plan` (`plan_options.ts`): each import's `diff` says what a row would
 * change, field by field (`lib/imports/entity_csv_diff.ts`). Reads and writes of the catalog are in
 * `lib/imports/entity_catalog_io.ts`.
 *
 * @module
 */
import { chooseTemplate, templateNamed } from "../templates/template_choice.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { bulkImportFields, engineOptions } from "./bulk_options.ts";
import { confirmOverwrite, overwriteConfirmField } from "./if_exists.ts";
import { checkPlanInput, planFields, runImportOrPlan } from "./plan_options.ts";
import { defineOperation, type OperationContext, UPSERT } from "./types.ts";
import { entityCsvImport, entityCsvUpdate } from "../imports/entity_csv_import.ts";

/** The templates `entity bulk-import` accepts. */
export const ENTITY_IMPORT_TEMPLATES = [
  "entity-bulk-import",
  "entity-dataset",
  "entity-classified",
  "entity-table",
] as const;

const csvFile = z.string().min(1).describe("The CSV file to import");

export const bulkImportEntities = defineOperation({
  id: "entity.bulk-import",
  group: "entity",
  command: "bulk-import",
  aliases: ["bulkImport", "bulk-create-csv"],
  summary: "Create entities from a CSV file, in resumable batches; existing ones are skipped unless " +
    "--if-exists=update",
  description: "Templates: entity-bulk-import (typeName, qualifiedName, displayName, description, owner, " +
    "source, collection, attr.<attribute>, bm.<group>.<attribute>), entity-dataset (name, description, " +
    "owner_email, source_system, tags, location, format), entity-classified (name, typeName, qualifiedName, " +
    "classifications) and entity-table (name, typeName, qualifiedName, description); detected from the " +
    "header unless --template names one. Every row is checked first (nothing is sent when any is wrong); " +
    "rows the catalog refuses go to the errors file with its answer. A row whose entity (same type and " +
    "qualified name) exists already is skipped and the entity left as it is, unless --if-exists=update: " +
    "then its attributes are overwritten, once confirmed (--confirm; a dry run needs no confirmation).",
  input: z.object({
    csvFile,
    template: z.enum(ENTITY_IMPORT_TEMPLATES).optional().describe("Template of the file (default: detected)"),
    ...bulkImportFields,
    ...planFields,
    ifExists: z.enum(["skip", "update"]).default("skip").describe(
      "Rows whose entity exists already: skip (default; the entity is left as it is) or update " +
        "(overwrites its attributes; needs confirmation)",
    ),
    confirm: overwriteConfirmField,
  }),
  // Not destructive by default; --if-exists=update overwrites, once confirmed (if_exists.ts), and the MCP
  // listing shows the operation as destructive.
  annotations: UPSERT,
  run: async (ctx: OperationContext, input) => {
    const { ifExists, confirm, plan: _plan, planFile: _planFile, applyPlan: _applyPlan, ...rest } = input;
    checkPlanInput("entity bulk-import", input);
    const overwrite = ifExists === "update";
    if (overwrite && rest.skipExisting) {
      throw new UsageError(
        "entity bulk-import: --if-exists=update and --skip-existing contradict each other; nothing was read.",
        "Leave out --skip-existing to overwrite existing entities, or --if-exists to skip them.",
      );
    }
    if (overwrite && !rest.dryRun && !input.plan) {
      await confirmOverwrite(ctx, `entity bulk-import --if-exists=update ${input.csvFile}`, confirm);
    }
    const options = await engineOptions(ctx, rest, input.csvFile, "--csv-file");
    const template = await chooseTemplate(
      options.file,
      input.csvFile,
      input.template,
      ENTITY_IMPORT_TEMPLATES,
      { delimiter: options.delimiter, signal: ctx.signal },
    );
    options.settings = { template: template.name };
    return await runImportOrPlan(
      ctx,
      entityCsvImport(ctx.catalog(), template, { overwrite }),
      options,
      input,
      { ifExists },
    );
  },
});

export const bulkUpdateEntitiesCsv = defineOperation({
  id: "entity.bulk-update-csv",
  group: "entity",
  command: "bulk-update-csv",
  aliases: ["bulkUpdateCsv"],
  summary: "Update attributes of existing entities from a CSV file, in resumable batches",
  description: "Columns: guid, or typeName and qualifiedName, to name the entity; then any of " +
    "displayName, description, owner, source, collection, attr.<attribute>, bm.<group>.<attribute>. Only " +
    "the cells given are written; rows naming no existing entity are rejected into the errors file.",
  input: z.object({ csvFile, ...bulkImportFields, ...planFields }),
  annotations: UPSERT,
  run: async (ctx: OperationContext, input) => {
    checkPlanInput("entity bulk-update-csv", input);
    const options = await engineOptions(ctx, input, input.csvFile, "--csv-file");
    const template = templateNamed("entity-bulk-update", ["entity-bulk-update"]);
    return await runImportOrPlan(ctx, entityCsvUpdate(ctx.catalog(), template), options, input);
  },
});

export const ENTITY_BULK_OPERATIONS = [bulkImportEntities, bulkUpdateEntitiesCsv];
