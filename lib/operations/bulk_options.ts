/**
 * The options every bulk CSV import shares (`--batch-size`, `--concurrency`, `--dry-run`,
 * `--skip-existing`, `--resume`, `--restart`, `--errors-file`, `--checkpoint-file`, `--overwrite`, `--progress`,
 * `--delimiter`) and their translation into engine options, so each import command declares them once and
 * they read the same everywhere. Without `--delimiter`, the field separator is detected from the file's
 * header line. Hints name `resume` and `restart` as the caller writes them: `--resume` on the command line,
 * `"resume": true` in an MCP call (`invoke_operation`).
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { DELIMITER_OPTION_HELP, delimiterOption } from "../csv/delimiter.ts";
import { CALL_TERMS, CLI_TERMS, type ImportTerms } from "../csv/engine.ts";
import { type BulkImportOptions } from "../csv/import_options.ts";
import type { OperationContext } from "./types.ts";

/**
 * Most batches in flight by default. The engine starts with 4 and finds how many the service takes
 * (lib/csv/adaptive_window.ts): more while answers come back as fast, fewer when they slow down or a 429
 * comes; this only bounds it.
 */
export const DEFAULT_CONCURRENCY = 32;
export const MAX_CONCURRENCY = 64;

/** The shared option fields; spread them into an import's input schema. */
export const bulkImportFields = {
  batchSize: z.number().int().min(1).max(1000).optional().describe(
    "Rows sent per request (default CATALOG_BATCH_SIZE, 100)",
  ),
  concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).optional().describe(
    `Most requests in flight at once (default ${DEFAULT_CONCURRENCY}); the import starts with 4 and adapts ` +
      "to the service's latency and throttling",
  ),
  dryRun: z.boolean().optional().describe(
    "Check the file and report what would be created or updated, changing nothing",
  ),
  skipExisting: z.boolean().optional().describe("Leave rows whose item already exists untouched"),
  resume: z.boolean().optional().describe(
    "Continue an interrupted import from its checkpoint, without sending finished rows again",
  ),
  restart: z.boolean().optional().describe(
    "Start over: discard the checkpoint an interrupted import left (rows already imported are written again)",
  ),
  errorsFile: z.string().min(1).optional().describe(
    "Where rejected rows go, with their reason (default: <input>.rejected.csv beside the input)",
  ),
  checkpointFile: z.string().min(1).optional().describe(
    "Where progress is recorded for --resume (default: <input>.govcat-checkpoint beside the input)",
  ),
  overwrite: z.boolean().optional().describe(
    "Replace an existing reject file (errorsFile), and with restart discard an existing checkpoint; " +
      "without it such a file is left untouched and nothing is sent",
  ),
  progress: z.boolean().optional().describe(
    "Off a terminal, a progress line every five seconds from the start (without it, one every 15 s once a " +
      "job has run that long)",
  ),
  delimiter: z.string().min(1).optional().describe(`Field separator of the file: ${DELIMITER_OPTION_HELP}`),
};

/** The values of {@link bulkImportFields} in a parsed input. */
export interface BulkImportInput {
  batchSize?: number;
  concurrency?: number;
  dryRun?: boolean;
  skipExisting?: boolean;
  resume?: boolean;
  restart?: boolean;
  errorsFile?: string;
  checkpointFile?: string;
  overwrite?: boolean;
  progress?: boolean;
  delimiter?: string;
}

/**
 * Engine options for importing `file` (named by `option`): the path is checked against the front end's
 * file access, and the batch size falls back to the configuration.
 */
export async function engineOptions(
  ctx: OperationContext,
  input: BulkImportInput,
  file: string,
  option: string,
  settings: Record<string, unknown> = {},
): Promise<BulkImportOptions> {
  const delimiter = delimiterOption(input.delimiter);
  const path = await ctx.files?.readable(file, option) ?? file;
  return {
    file: path,
    displayName: file,
    delimiter,
    batchSize: input.batchSize ?? ctx.config().batchSize,
    concurrency: input.concurrency ?? DEFAULT_CONCURRENCY,
    dryRun: input.dryRun,
    skipExisting: input.skipExisting,
    resume: input.resume,
    restart: input.restart,
    terms: importTerms(ctx),
    errorsFile: input.errorsFile,
    checkpointFile: input.checkpointFile,
    overwrite: input.overwrite,
    settings,
    files: ctx.files,
    signal: ctx.signal,
    progress: ctx.progress,
    logger: ctx.logger,
  };
}

/**
 * How the front end writes `resume` and `restart`: the command line (its confirmation names `--confirm`)
 * takes options, an MCP call arguments.
 */
export function importTerms(ctx: OperationContext): ImportTerms {
  return ctx.confirmation?.option.startsWith("--") ? CLI_TERMS : CALL_TERMS;
}
