/**
 * `govcat lineage validate <file>` and `govcat lineage import <file>`: lineage from a CSV of spec §2.7
 * (table level, and column level with source_column and target_column).
 *
 * Both check every row first (see `lineage_csv_rows.ts`); a file with any malformed row is refused with
 * every problem listed as `file:line:column` and exit code 2, before anything is sent. Then both read each
 * entity the rows name; `validate` reports missing or deleted ones, and `import` refuses to write anything
 * while any is missing. `import` then records one process per (source, target, process name) through the
 * lineage builder, so importing a file again updates the same processes and creates none.
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import {
  createLineage,
  createLineageCache,
  type LineageBuilderCache,
  lookupEnd,
} from "../catalog/lineage_builder.ts";
import { z } from "../deps/zod.ts";
import { CatalogError, GovcatError, UsageError } from "../errors.ts";
import {
  type CsvProblem,
  formatCsvProblem,
  groupLineageRows,
  type LineageCsvGroup,
  type LineageCsvReading,
  readLineageCsv,
} from "./lineage_csv_rows.ts";
import { defineOperation, type OperationContext, READ, UPSERT } from "./types.ts";

/** Problems listed in one error message; the rest are counted. */
const MAX_LISTED_PROBLEMS = 200;
/** Catalog calls in flight at once while checking entities and recording processes. */
const CONCURRENCY = 4;

const fileInput = z.object({
  file: z.string().min(1).describe(
    "Lineage CSV: source_entity_guid, target_entity_guid and optionally relationship_type, process_name, " +
      "description, confidence_score, owner, metadata (JSON), source_column, target_column",
  ),
});

export const validateLineageCsv = defineOperation({
  id: "lineage.validate",
  group: "lineage",
  command: "validate",
  summary: "Check a lineage CSV: format of every row, and that every entity it names exists",
  description: "Reports every problem as file:line:column and exits 2 when there is any. Malformed rows " +
    "are found without contacting the catalog; entities are then read (never written) to check they exist.",
  input: fileInput,
  positionals: ["file"],
  annotations: READ,
  run: async (ctx, input) => {
    const { reading, groups, entitiesChecked } = await checkLineageFile(
      ctx,
      input.file,
      "validate",
      createLineageCache(),
    );
    return {
      file: input.file,
      valid: true,
      rows: reading.rowCount,
      columnLevel: reading.columnLevel,
      processes: groups.length,
      entitiesChecked,
    };
  },
});

export const importLineageCsv = defineOperation({
  id: "lineage.import",
  group: "lineage",
  command: "import",
  summary: "Record lineage from a CSV: one process per source, target and process name",
  description: "Every row is checked first, and every entity read; when anything is wrong, nothing is " +
    "written and each problem is listed (exit 2). Column rows of the same source, target and process " +
    "name become that process's column mapping. Importing the same file again creates nothing new.",
  input: fileInput,
  positionals: ["file"],
  // Processes are upserted by a qualified name derived from their ends and name.
  annotations: UPSERT,
  run: async (ctx, input) => {
    const cache = createLineageCache();
    const { reading, groups } = await checkLineageFile(ctx, input.file, "import", cache);
    const catalog = ctx.catalog();
    const outcomes = await mapConcurrently(
      groups,
      CONCURRENCY,
      (group) => recordGroup(catalog, group, cache, ctx),
    );
    const processes = outcomes.filter((o): o is ProcessOutcome => "processGuid" in o);
    const failures = outcomes.filter((o): o is GroupFailure => "error" in o);
    const summary = {
      file: input.file,
      rows: reading.rowCount,
      created: processes.filter((p) => p.created).length,
      updated: processes.filter((p) => !p.created).length,
      failed: failures.length,
      processes,
      failures,
    };
    if (failures.length > 0) {
      throw new GovcatError(
        `lineage import: ${failures.length} of ${groups.length} processes failed; the others were recorded ` +
          `and importing the file again retries only what is missing:\n${JSON.stringify(summary, null, 2)}`,
        { exitCode: 1, hint: "Each failure names its rows and the catalog's answer." },
      );
    }
    return summary;
  },
});

interface ProcessOutcome {
  processGuid: string;
  qualifiedName: string;
  processName?: string;
  sourceGuid: string;
  targetGuid: string;
  created: boolean;
  /** Lines of the rows this process records. */
  lines: number[];
  columnMappings: number;
  attributesNotStored?: string[];
}

interface GroupFailure {
  lines: number[];
  sourceGuid: string;
  targetGuid: string;
  processName?: string;
  status?: number;
  error: string;
}

async function recordGroup(
  catalog: CatalogClient,
  group: LineageCsvGroup,
  cache: LineageBuilderCache,
  ctx: OperationContext,
): Promise<ProcessOutcome | GroupFailure> {
  const extraAttributes: Record<string, unknown> = { ...group.metadata };
  if (group.relationshipType !== undefined) extraAttributes.relationshipType = group.relationshipType;
  try {
    const result = await createLineage(catalog, {
      sources: [{ guid: group.sourceGuid }],
      targets: [{ guid: group.targetGuid }],
      processName: group.processName,
      description: group.description,
      owner: group.owner,
      confidenceScore: group.confidenceScore,
      extraAttributes,
      columnMappings: group.columnMappings,
    }, { cache, signal: ctx.signal });
    return {
      processGuid: result.processGuid,
      qualifiedName: result.qualifiedName,
      processName: group.processName,
      sourceGuid: group.sourceGuid,
      targetGuid: group.targetGuid,
      created: result.created,
      lines: group.lines,
      columnMappings: group.columnMappings.length,
      ...(result.attributesNotStored.length > 0 ? { attributesNotStored: result.attributesNotStored } : {}),
    };
  } catch (error) {
    if (!(error instanceof GovcatError)) throw error;
    return {
      lines: group.lines,
      sourceGuid: group.sourceGuid,
      targetGuid: group.targetGuid,
      processName: group.processName,
      status: error instanceof CatalogError ? error.status : undefined,
      error: error.message,
    };
  }
}

/**
 * Reads and checks the file: row format first (no request when any row is malformed), then the existence
 * of every entity named. Throws a {@link UsageError} listing every problem.
 */
async function checkLineageFile(
  ctx: OperationContext,
  file: string,
  command: "validate" | "import",
  cache: LineageBuilderCache,
): Promise<{ reading: LineageCsvReading; groups: LineageCsvGroup[]; entitiesChecked: number }> {
  const reading = await readLineageCsv(await ctx.readTextFile(file, `lineage ${command} <file>`));
  if (reading.problems.length > 0) {
    throw problemsError(command, file, reading.problems, "Nothing was sent to the catalog.");
  }
  const catalog = ctx.catalog();
  const guids = [...new Set(reading.rows.flatMap((row) => [row.sourceGuid, row.targetGuid]))];
  const lookups = await mapConcurrently(
    guids,
    CONCURRENCY,
    (guid) => lookupEnd(catalog, { guid }, cache, ctx.signal),
  );
  const missing = new Map<string, string>();
  lookups.forEach((lookup, i) => {
    if ("problem" in lookup) missing.set(guids[i], lookup.problem);
  });
  const problems: CsvProblem[] = [];
  for (const row of reading.rows) {
    for (
      const [name, guid] of [["source_entity_guid", row.sourceGuid], ["target_entity_guid", row.targetGuid]]
    ) {
      const problem = missing.get(guid);
      if (problem) {
        problems.push({
          line: row.line,
          column: (reading.header.get(name) ?? 0) + 1,
          message: `${name}: ${guid} ${problem}`,
        });
      }
    }
  }
  if (problems.length > 0) {
    throw problemsError(
      command,
      file,
      problems,
      command === "import" ? "Nothing was written to the catalog." : "Entities were only read.",
    );
  }
  return { reading, groups: groupLineageRows(reading.rows), entitiesChecked: guids.length };
}

function problemsError(command: string, file: string, problems: CsvProblem[], after: string): UsageError {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `  ${formatCsvProblem(file, p)}`);
  if (problems.length > MAX_LISTED_PROBLEMS) {
    listed.push(`  … and ${problems.length - MAX_LISTED_PROBLEMS} more`);
  }
  return new UsageError(
    `lineage ${command}: ${problems.length} problem${
      problems.length === 1 ? "" : "s"
    } in ${file}. ${after}\n` +
      listed.join("\n"),
    `Fix the rows above, then run "govcat lineage validate ${file}" again.`,
  );
}

/** `work` over `items` with at most `limit` in flight; results in input order. */
async function mapConcurrently<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
