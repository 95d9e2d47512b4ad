/**
 * `govcat lineage validate <file>` and `govcat lineage import <file>`: lineage from a CSV of relationships
 * (table level, and column level with source_column and target_column), on the bulk CSV engine. The
 * `lineage_csv` group (`lineage_csv_group_operations.ts`) runs the same checks and import.
 *
 * Both check every row first against the lineage template the header matches (`lineage-table`,
 * `lineage-column`, `lineage-basic`, `lineage-column-sample`); a malformed file is refused with every
 * problem listed as `file:line:column` and exit code 2, before anything is sent.
 *
 * `validate` then reads each entity the rows name (unless `--offline`) and lists every row naming one that
 * is missing, deleted or not a data set, again as `file:line:column` with exit code 2; and it checks the
 * column lineage the way Purview needs it to draw it (`lib/lineage/`): a process type (`process_type`,
 * default Process) with a columnMapping attribute, each column one of its end's columns, a mapping given
 * whole (`metadata` `{"columnMapping": …}`) in Purview's shape. The imports run the same check: a mapping of
 * the wrong shape stops them before anything is sent, and a process whose columns would not render is
 * rejected, naming the line, the column and the fix.
 *
 * `import` records one process per (source, target, process name) through the lineage builder
 * (`lineage_csv_import.ts`), in resumable batches: rows naming unusable entities are rejected into the
 * reject file beside the input and the others recorded; the summary counts rows (created, updated,
 * skipped, rejected) and exits 1 when any was rejected. Importing the file again creates nothing new.
 *
 * `--create-missing-entities`: the file names entities by GUID, and the catalog assigns GUIDs itself, so
 * an entity a row names cannot be created with that GUID. With the option, an import whose rows name a
 * missing or deleted entity is refused as a whole (exit 2, every such row listed, nothing written) rather
 * than importing the other rows; when every entity exists, the option changes nothing.
 *
 * @module
 */
import { checkCsvFile, type CsvCheckReport } from "../csv/check.ts";
import type { CsvDelimiter } from "../csv/delimiter.ts";
import type { BulkImportSummary } from "../csv/engine.ts";
import { problemsError } from "../csv/problems.ts";
import { LINEAGE_TEMPLATE_NAMES, LINEAGE_TEMPLATES } from "../templates/csv/lineage_templates.ts";
import { rankCsvTemplates } from "../templates/csv/mod.ts";
import type { CsvProblem, CsvTemplate } from "../csv/types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { bulkImportFields, engineOptions } from "./bulk_options.ts";
import { checkPlanInput, planFields, type PlanResult, runImportOrPlan } from "./plan_options.ts";
import { chooseTemplate, readHeader } from "../templates/template_choice.ts";
import { type LineageEntityScan, scanLineageEntities } from "../imports/lineage_csv_entities.ts";
import { lineageCsvImport } from "../imports/lineage_csv_import.ts";
import { LineageEndChecker } from "../imports/lineage_end_checker.ts";
import { scanColumnLineage } from "../imports/column_lineage_scan.ts";
import { isMappingShapeProblem, withoutMappingShapeCheck } from "../lineage/column_mapping_rows.ts";
import { COLUMN_MAPPING_SHAPE } from "../lineage/column_mapping_shape.ts";
import { defineOperation, type OperationContext, READ, UPSERT } from "./types.ts";

/** The `--template` option of the lineage CSV commands. */
export const lineageTemplateField = z.enum(LINEAGE_TEMPLATE_NAMES).optional().describe(
  "Template of the file: lineage-table, lineage-column, lineage-basic or lineage-column-sample " +
    "(default: detected from the header)",
);

/** Options of the lineage CSV imports besides the file. */
export const lineageImportFields = {
  template: lineageTemplateField,
  validateEntities: z.boolean().default(true).describe(
    "Check that every entity is a data set (DataSet or a type derived from it) before writing its " +
      "process; rows naming missing or deleted entities are rejected either way (default true)",
  ),
  createMissingEntities: z.boolean().optional().describe(
    "Entities are named by GUID and the catalog assigns GUIDs, so missing ones cannot be created: with " +
      "this option a file naming any missing or deleted entity is refused whole (nothing written) " +
      "instead of rejecting those rows",
  ),
  ...bulkImportFields,
  ...planFields,
};

/** Options of the lineage CSV checks besides the file. */
export const lineageValidateFields = {
  template: lineageTemplateField,
  offline: z.boolean().optional().describe(
    "Check the file only, without reading the entities it names from the catalog",
  ),
};

type ImportInput = z.output<z.ZodObject<typeof lineageImportFields>>;
type ValidateInput = z.output<z.ZodObject<typeof lineageValidateFields>>;

/** The engine's summary of a lineage import, with what only lineage knows. */
export type LineageImportSummary = BulkImportSummary & {
  /** Processes the file describes (each covers the rows of one source, target and process name). */
  processes: number;
  /** Row values (metadata keys, confidence_score, relationship_type) the process type has no attribute for. */
  attributesNotStored?: string[];
};

/** What `validate` reports for a file without problems. */
export interface LineageValidation {
  file: string;
  valid: true;
  template: string;
  rows: number;
  columnLevel: boolean;
  processes: number;
  entitiesChecked: number;
  /** Processes whose column lineage was checked against the catalog (absent offline). */
  columnLineageChecked?: number;
  /** Ends the catalog relates no columns to, so their column names could not be checked. */
  endsWithoutSchema?: string[];
}

const isColumnLevel = (template: CsvTemplate) => template.columns.some((c) => c.name === "source_column");

/**
 * The template `--template` names, else the one the header matches, else the closest one: checking the
 * file against it then lists each header problem (a misspelt column, a missing one) with a suggestion.
 * The header is read with `delimiter` (`--delimiter`), else with the one detected.
 */
export async function lineageTemplateFor(
  path: string,
  file: string,
  given: string | undefined,
  delimiter?: CsvDelimiter,
): Promise<CsvTemplate> {
  if (given) return await chooseTemplate(path, file, given, LINEAGE_TEMPLATE_NAMES);
  const [closest] = rankCsvTemplates(await readHeader(path, file, { delimiter }), LINEAGE_TEMPLATES);
  return closest.template;
}

function fixHint(command: string, file: string): string {
  return `Fix the rows above, then run \`govcat ${command} ${file}\` again; \`govcat lineage_csv templates\` ` +
    "shows the columns of each lineage template.";
}

/**
 * Checks the format of `path` against its template, read with `delimiter` (else the one detected); throws
 * listing every problem. The report says the separator it was read with: read the file again with that.
 */
async function checkFormat(
  ctx: OperationContext,
  path: string,
  file: string,
  template: CsvTemplate,
  command: string,
  delimiter?: CsvDelimiter,
  keepMappingShape = false,
): Promise<CsvCheckReport> {
  const report = await checkCsvFile(path, template, {
    displayName: file,
    signal: ctx.signal,
    delimiter,
    onRows: (rows) => ctx.progress?.update({ phase: "validating", done: rows, errors: 0 }),
  });
  // Validate goes on past mappings of the wrong shape, so the file's catalog problems are listed with them.
  const shapeOnly = keepMappingShape && report.problemCount === report.problems.length &&
    report.problems.every(isMappingShapeProblem);
  if (report.problemCount > 0 && !shapeOnly) throw problemsError(report, fixHint(command, file));
  if (report.rows === 0) {
    throw new UsageError(`${file} has a header but no rows.`, "Add a row per lineage link under the header.");
  }
  return report;
}

/**
 * `validate`: the format of every row, then (unless offline) the entities the rows name and the column
 * lineage the rows record (`lib/lineage/`): all problems are listed together, in file order.
 */
export async function checkLineageCsv(
  ctx: OperationContext,
  file: string,
  option: string,
  input: ValidateInput,
  command = "lineage validate",
): Promise<LineageValidation> {
  const path = await ctx.files?.readable(file, option) ?? file;
  try {
    const template = await lineageTemplateFor(path, file, input.template);
    const report = await checkFormat(ctx, path, file, template, command, undefined, true);
    const shapeProblems = report.problems;
    const rowsTemplate = shapeProblems.length > 0 ? withoutMappingShapeCheck(template) : template;
    const ends = input.offline ? undefined : new LineageEndChecker(ctx.catalog(), true);
    const read = { displayName: file, delimiter: report.delimiter, signal: ctx.signal };
    const scan: LineageEntityScan = await scanLineageEntities(path, rowsTemplate, { ...read, checker: ends });
    if (scan.problemCount > 0) {
      throw problemsError(
        combined(file, shapeProblems, scan),
        `${fixHint(command, file)} Entities were only read; \`govcat search query --keywords=<name>\` ` +
          "finds an entity's GUID.",
      );
    }
    const columns = ends ? await scanColumnLineage(path, rowsTemplate, { ...read, ends }) : undefined;
    if (shapeProblems.length > 0 || (columns?.problemCount ?? 0) > 0) {
      throw problemsError(
        combined(file, shapeProblems, columns),
        `${fixHint(command, file)} Column lineage renders only when the process type has a columnMapping ` +
          `attribute, each column is one of its end's columns and a mapping given whole has the shape ` +
          `${COLUMN_MAPPING_SHAPE}.`,
      );
    }
    return {
      file,
      valid: true,
      template: template.name,
      rows: scan.rows,
      columnLevel: isColumnLevel(template),
      processes: scan.processes,
      entitiesChecked: scan.entitiesChecked,
      ...(columns?.processesChecked ? { columnLineageChecked: columns.processesChecked } : {}),
      ...(columns?.unchecked.length ? { endsWithoutSchema: columns.unchecked } : {}),
    };
  } finally {
    ctx.progress?.finish();
  }
}

/** The mapping shape problems of the row check with those of a later scan, in file order. */
function combined(
  file: string,
  shapeProblems: readonly CsvProblem[],
  scan?: { problems: CsvProblem[]; problemCount: number },
): { file: string; problems: CsvProblem[]; problemCount: number } {
  const problems = [...shapeProblems, ...scan?.problems ?? []]
    .sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
  return { file, problems, problemCount: shapeProblems.length + (scan?.problemCount ?? 0) };
}

/** `--create-missing-entities`: refuses the file when a row names an entity that does not exist. */
async function refuseMissingEntities(
  ctx: OperationContext,
  path: string,
  file: string,
  template: CsvTemplate,
  command: string,
  delimiter?: CsvDelimiter,
): Promise<void> {
  const report = await checkFormat(ctx, path, file, template, command, delimiter);
  const scan = await scanLineageEntities(path, template, {
    displayName: file,
    delimiter: report.delimiter,
    checker: new LineageEndChecker(ctx.catalog(), false),
    keep: (problem) => problem.kind !== "not-a-data-set",
    explain: () =>
      "; --create-missing-entities cannot create it: the catalog assigns the GUID of a new entity, so " +
      "no entity can be created with the GUID this row names",
    signal: ctx.signal,
  });
  if (scan.problemCount > 0) {
    throw problemsError(
      { file, problems: scan.problems, problemCount: scan.problemCount },
      "Create the entities first (`govcat entity bulk-import` or `govcat entity create`) and put the GUIDs " +
        "the catalog gives them in the file; or run without --create-missing-entities to record the other " +
        "rows and get these in the reject file.",
    );
  }
}

/** Runs a lineage CSV import (`lineage import`, `lineage_csv process`) on the bulk engine. */
export async function runLineageImport(
  ctx: OperationContext,
  file: string,
  option: string,
  input: ImportInput,
  id: string,
  command: string,
): Promise<LineageImportSummary | PlanResult> {
  checkPlanInput(command, input);
  const options = await engineOptions(ctx, input, file, option);
  const template = await lineageTemplateFor(options.file, file, input.template, options.delimiter);
  if (input.createMissingEntities) {
    try {
      await refuseMissingEntities(ctx, options.file, file, template, command, options.delimiter);
    } finally {
      ctx.progress?.finish();
    }
  }
  options.settings = { template: template.name, validateEntities: input.validateEntities };
  const run = lineageCsvImport(ctx.catalog(), template, {
    validateEntities: input.validateEntities,
    skipExisting: input.skipExisting,
    id,
  });
  const summary = await runImportOrPlan(ctx, run.plugin, options, input, {
    skipExisting: input.skipExisting === true,
  });
  if ("items" in summary) return summary;
  const notStored = run.attributesNotStored();
  return {
    ...summary,
    processes: run.processes(),
    ...(notStored.length > 0 ? { attributesNotStored: notStored } : {}),
  };
}

const fileField = z.string().min(1).describe(
  "Lineage CSV: source_entity_guid, target_entity_guid and optionally relationship_type, process_name, " +
    "description, confidence_score, owner, metadata (JSON object), source_column, target_column, process_type",
);

export const validateLineageCsv = defineOperation({
  id: "lineage.validate",
  group: "lineage",
  command: "validate",
  summary:
    "Check a lineage CSV: format of every row, that every entity exists and that column lineage renders",
  description: "Reports every problem as file:line:column with its fix and exits 2 when there is any. " +
    "Malformed rows are found without contacting the catalog; entities are then read (never written) to " +
    "check they exist, are not deleted and are data sets, and column lineage is checked as Purview draws " +
    "it: the process type has a columnMapping attribute, each column is one of its end's columns. " +
    "--offline checks the file only.",
  input: z.object({ file: fileField, ...lineageValidateFields }),
  positionals: ["file"],
  annotations: READ,
  run: (ctx, input) => checkLineageCsv(ctx, input.file, "lineage validate <file>", input),
});

export const importLineageCsv = defineOperation({
  id: "lineage.import",
  group: "lineage",
  command: "import",
  summary: "Record lineage from a CSV: one process per source, target and process name",
  description: "Every row is checked first; when any is malformed nothing is sent and each problem is " +
    "listed (exit 2). Column rows of the same source, target and process name become that process's " +
    "column mapping. Rows naming a missing, deleted or (with --validate-entities, the default) non-data-set " +
    "entity are rejected into the reject file and the others recorded (exit 1). Importing the same file " +
    "again creates nothing new; --resume continues an interrupted import.",
  input: z.object({ file: fileField, ...lineageImportFields }),
  positionals: ["file"],
  // Processes are upserted by a qualified name derived from their ends and name.
  annotations: UPSERT,
  run: (ctx, input) =>
    runLineageImport(ctx, input.file, "lineage import <file>", input, "lineage.import", "lineage import"),
});
