/**
 * The `lineage_csv` group: `process <csv_file>` imports a lineage CSV on the bulk engine (the
 * same import as `lineage import`), `validate <csv_file>` checks it (as `lineage validate`),
 * `generate_sample <output_file>` writes a sample file of any length, and `templates` lists the lineage
 * templates.
 *
 * Sample GUIDs: a lineage file names data sets by GUID, and a sample is only useful with GUIDs of the
 * user's catalog. `--entity-guids` gives them (at least two); without it the GUIDs are random placeholders,
 * the answer says so, and the file passes `validate --offline` but its rows are rejected by an import until
 * the GUIDs are replaced. Each process runs from a GUID to a later one in the list (each to the next first,
 * then skipping one, two, …), so however many rows are asked for, the sample's lineage has no cycle: data
 * never flows back into where it came from.
 *
 * @module
 */
import { LINEAGE_TEMPLATE_NAMES, LINEAGE_TEMPLATES } from "../templates/csv/lineage_templates.ts";
import { csvLine } from "../csv/reader.ts";
import { csvTemplate, sampleHeader } from "../templates/csv/mod.ts";
import type { CsvTemplate } from "../csv/types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import {
  checkLineageCsv,
  lineageImportFields,
  lineageValidateFields,
  runLineageImport,
} from "./lineage_csv_operations.ts";
import { CREATE, defineOperation, type Operation, type OperationContext, READ, UPSERT } from "./types.ts";
import { writeOutputFile } from "../files/output_files.ts";
import { GUID_PATTERN } from "../core/guid.ts";

/** Most rows `generate_sample` writes. */
export const MAX_SAMPLE_ROWS = 100_000;
/** Column rows per process in column-level samples. */
const COLUMNS_PER_PROCESS = 3;
const COLUMN_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["order_id", "OrderId"],
  ["customer_id", "CustomerId"],
  ["amount", "OrderTotal"],
];
const RELATIONSHIP_TYPES = ["transformation", "copy", "derived"];

const csvFile = z.string().min(1).describe("The lineage CSV file");

export const processLineageCsv = defineOperation({
  id: "lineage_csv.process",
  group: "lineage_csv",
  command: "process",
  summary: "Record lineage from a CSV file in resumable batches: one process per source, target and name",
  description: "The lineage import of `lineage import`: every row is checked first (nothing is sent when " +
    "any is malformed), then one process is recorded per source, target and process name, its column " +
    "rows merged into one column mapping. Rows naming missing, deleted or (with --validate-entities, the " +
    "default) non-data-set entities go to the reject file; the others are recorded. Idempotent.",
  input: z.object({ csvFile, ...lineageImportFields }),
  positionals: ["csvFile"],
  annotations: UPSERT,
  run: (ctx, input) =>
    runLineageImport(ctx, input.csvFile, "<csv_file>", input, "lineage_csv.process", "lineage_csv process"),
});

export const validateLineageCsvFile = defineOperation({
  id: "lineage_csv.validate",
  group: "lineage_csv",
  command: "validate",
  summary:
    "Check a lineage CSV: every row's format, that every entity exists and that column lineage renders",
  description: "Every problem is listed as file:line:column with its fix (exit 2). Entities, their columns " +
    "and the process type are read, never written; --offline checks the file alone.",
  input: z.object({ csvFile, ...lineageValidateFields }),
  positionals: ["csvFile"],
  annotations: READ,
  run: (ctx, input) => checkLineageCsv(ctx, input.csvFile, "<csv_file>", input, "lineage_csv validate"),
});

const sampleInput = z.object({
  outputFile: z.string().min(1).describe(
    "Where to write the sample CSV (an existing file only with overwrite)",
  ),
  overwrite: z.boolean().optional().describe("Replace the file when it exists"),
  numSamples: z.number().int().min(1).max(MAX_SAMPLE_ROWS).default(10).describe("Rows to write (default 10)"),
  template: z.enum(LINEAGE_TEMPLATE_NAMES).default("lineage-table").describe(
    "lineage-table (default), lineage-column, lineage-basic or lineage-column-sample",
  ),
  entityGuids: z.array(z.string()).optional().describe(
    "GUIDs of data sets of your catalog to use, at least two (several may also be separated with commas); " +
      "without them the GUIDs are random placeholders to replace",
  ),
});

/** What `generate_sample` wrote. */
export interface SampleSummary {
  outputFile: string;
  template: string;
  rows: number;
  processes: number;
  columns: string[];
  /** `given` (from --entity-guids) or `placeholders` (random: replace them before importing). */
  entityGuids: "given" | "placeholders";
  note?: string;
}

/** The GUIDs rows chain through: the given ones (checked) or random placeholders. */
function samplePool(given: string[] | undefined, processes: number): string[] {
  if (given === undefined) {
    return Array.from({ length: Math.min(Math.max(processes + 1, 2), 100) }, () => crypto.randomUUID());
  }
  const guids = given.flatMap((value) => value.split(",")).map((value) => value.trim()).filter(Boolean);
  const bad = guids.find((guid) => !GUID_PATTERN.test(guid));
  if (bad !== undefined) {
    throw new UsageError(
      `--entity-guids: "${bad}" is not a GUID (8-4-4-4-12 hexadecimal digits).`,
      "Give GUIDs of data sets of your catalog; `govcat search query --keywords=<name>` finds them.",
    );
  }
  const distinct = [...new Set(guids.map((guid) => guid.toLowerCase()))];
  if (distinct.length < 2) {
    throw new UsageError(
      "--entity-guids needs at least two different GUIDs: each process runs from one data set to another.",
      "E.g. --entity-guids=<source guid>,<target guid>",
    );
  }
  return distinct;
}

/**
 * The ends of each process, as positions in a pool of `size` GUIDs (at least two): every pair `i < j`,
 * nearest first (0→1, 1→2, …, then 0→2, 1→3, …), then all of them again. A process always runs from an
 * earlier GUID to a later one, so no chain of processes leads back to where it started.
 */
export function* processEnds(size: number): Generator<[number, number]> {
  if (size < 2) throw new Error("processEnds: a process needs two data sets");
  while (true) {
    for (let gap = 1; gap < size; gap++) {
      for (let source = 0; source + gap < size; source++) yield [source, source + gap];
    }
  }
}

/** The sample's data rows, one array of cells each, in the template's column order. */
export function* sampleRows(template: CsvTemplate, rows: number, pool: string[]): Generator<string[]> {
  const columnLevel = template.columns.some((column) => column.name === "source_column");
  const perProcess = columnLevel ? COLUMNS_PER_PROCESS : 1;
  const ends = processEnds(pool.length);
  let [source, target] = [0, 1];
  for (let i = 0; i < rows; i++) {
    const process = Math.floor(i / perProcess);
    const first = i % perProcess === 0;
    if (first) [source, target] = ends.next().value!;
    const [sourceColumn, targetColumn] = COLUMN_PAIRS[i % perProcess];
    const cells: Record<string, string> = {
      source_entity_guid: pool[source],
      target_entity_guid: pool[target],
      relationship_type: RELATIONSHIP_TYPES[process % RELATIONSHIP_TYPES.length],
      process_name: `sample_process_${process + 1}`,
      description: first ? `Sample process ${process + 1}: say what it does` : "",
      confidence_score: first ? "0.9" : "",
      owner: first ? "data-engineering" : "",
      metadata: first ? JSON.stringify({ generated_by: "govcat", sample: process + 1 }) : "",
      source_column: sourceColumn,
      target_column: targetColumn,
    };
    yield template.columns.map((column) => cells[column.name] ?? "");
  }
}

export const generateLineageSample = defineOperation({
  id: "lineage_csv.generate_sample",
  group: "lineage_csv",
  command: "generate_sample",
  aliases: ["generate-sample", "generateSample"],
  summary: "Write a sample lineage CSV of any length for a lineage template",
  description: "Rows chain through the GUIDs of --entity-guids, one process from each to the next " +
    "(column templates: three column rows per process). Without --entity-guids the GUIDs are random " +
    "placeholders: replace them with GUIDs of data sets of your catalog before importing.",
  input: sampleInput,
  positionals: ["outputFile"],
  // Writes a local file only; repeating it writes the same file (placeholder GUIDs aside).
  annotations: { ...CREATE, openWorld: false, idempotent: true, writesLocalFile: ["outputFile"] },
  run: async (ctx: OperationContext, input): Promise<SampleSummary> => {
    const template = csvTemplate(input.template)!;
    const columnLevel = template.columns.some((column) => column.name === "source_column");
    const processes = Math.ceil(input.numSamples / (columnLevel ? COLUMNS_PER_PROCESS : 1));
    const pool = samplePool(input.entityGuids, processes);
    const header = sampleHeader(template);
    await writeOutputFile(ctx, input.outputFile, "<output_file>", async (write) => {
      await write(csvLine(header) + "\r\n");
      for (const row of sampleRows(template, input.numSamples, pool)) await write(csvLine(row) + "\r\n");
    }, { overwrite: input.overwrite === true });
    return {
      outputFile: input.outputFile,
      template: template.name,
      rows: input.numSamples,
      processes,
      columns: header,
      entityGuids: input.entityGuids === undefined ? "placeholders" : "given",
      ...(input.entityGuids === undefined
        ? {
          note: "The GUIDs are random placeholders: replace them with GUIDs of data sets of your catalog " +
            "(or generate again with --entity-guids) before importing; `govcat lineage_csv validate " +
            `${input.outputFile}\` lists every GUID not found.`,
        }
        : {}),
    };
  },
});

export const listLineageTemplates = defineOperation({
  id: "lineage_csv.templates",
  group: "lineage_csv",
  command: "templates",
  summary: "List the lineage CSV templates with their columns",
  description: "`govcat lineage_csv generate_sample <file> --template=<name>` writes a sample of one; " +
    "`govcat templates show <name>` prints its sample file.",
  input: z.object({}),
  annotations: { ...READ, openWorld: false },
  run: () =>
    Promise.resolve({
      templates: LINEAGE_TEMPLATES.map((template) => ({
        name: template.name,
        summary: template.summary,
        usage: template.usage,
        columns: template.columns.map((column) => ({
          name: column.name,
          kind: column.kind,
          ...(column.required ? { required: true } : {}),
          ...(column.required || column.requiredColumn ? { headerRequired: true } : {}),
          description: column.description,
        })),
      })),
    }),
});

/** Every operation of the `lineage_csv` group. */
export const LINEAGE_CSV_OPERATIONS: Operation[] = [
  processLineageCsv,
  generateLineageSample,
  validateLineageCsvFile,
  listLineageTemplates,
];
