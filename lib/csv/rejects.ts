/**
 * The reject file of a bulk import: the input's header and every rejected row exactly as it was, plus the
 * columns `source_line` and `import_error`, so the user fixes those rows and imports the file again (the
 * checker ignores the two added columns). It is written after the run from the rejected line numbers,
 * re-reading the input, so no row text is held in memory during the import; it is written to a temporary
 * file first and renamed, so it is never half-written.
 *
 * @example
 * ```ts
 * import { defaultSidePath, writeRejectFile } from "./rejects.ts";
 * const target = defaultSidePath("/data/terms.csv", ".rejected.csv"); // "/data/terms.rejected.csv"
 * await writeRejectFile("/data/terms.csv", target, new Map([[7, "400 ATLAS-400-00-01A: bad value"]]));
 * ```
 *
 * @module
 */
import { openChecked } from "../files/checked_open.ts";
import { UsageError } from "../core/errors.ts";
import type { CsvDelimiter } from "./delimiter.ts";
import { csvLine, readCsvFile } from "./reader.ts";
import { REJECT_COLUMNS } from "./check.ts";
import { columnKey } from "./problems.ts";
import { LocalFileError, writeProblem } from "../files/user_files.ts";

/** A file beside `input` with its extension replaced by `suffix` (`terms.csv` → `terms.rejected.csv`). */
export function defaultSidePath(input: string, suffix: string): string {
  const slash = Math.max(input.lastIndexOf("/"), input.lastIndexOf("\\"));
  const dot = input.lastIndexOf(".");
  const stem = dot > slash + 1 ? input.slice(0, dot) : input;
  return stem + suffix;
}

/**
 * Writes the rows of `input` whose line is a key of `reasons` to `target`, with their line and reason.
 * Returns how many rows were written. When the file cannot be written (a read-only directory, a full
 * disk) the error is a {@link LocalFileError} naming it; an earlier reject file is left as it was.
 */
export async function writeRejectFile(
  input: string,
  target: string,
  reasons: ReadonlyMap<number, string>,
  options: { displayName?: string; signal?: AbortSignal; delimiter?: CsvDelimiter } = {},
): Promise<number> {
  const temporary = `${target}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  let file: Deno.FsFile;
  try {
    // Checked: created where a link swapped into the directory's path led, it is removed and refused.
    file = await openChecked(temporary, { write: true, createNew: true }, target);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw rejectFileError(target, reasons.size, error);
  }
  const encoder = new TextEncoder();
  let written = 0;
  const writer = file.writable.getWriter();
  try {
    let keep: number[] = [];
    let header = true;
    // Written with the input's separator, so the file opens as the input did and imports the same way.
    let delimiter = options.delimiter ?? ",";
    const rows = readCsvFile(input, { ...options, onDelimiter: (found) => delimiter = found });
    for await (const row of rows) {
      if (header) {
        // A reject file imported again carries the added columns already: keep them once.
        keep = row.cells.flatMap((cell, i) =>
          REJECT_COLUMNS.some((column) => columnKey(column) === columnKey(cell)) ? [] : [i]
        );
        await writer.write(
          encoder.encode(csvLine([...keep.map((i) => row.cells[i]), ...REJECT_COLUMNS], delimiter) + "\r\n"),
        );
        header = false;
        continue;
      }
      const reason = reasons.get(row.line);
      if (reason === undefined) continue;
      const cells = keep.map((i) => row.cells[i] ?? "");
      await writer.write(encoder.encode(csvLine([...cells, String(row.line), reason], delimiter) + "\r\n"));
      written++;
    }
    await writer.close();
    await Deno.rename(temporary, target);
  } catch (error) {
    // Aborting the writer closes the file, so the half-written temporary can go.
    await writer.abort(error).catch(() => {});
    await Deno.remove(temporary).catch(() => {});
    if (isWriteFailure(error)) throw rejectFileError(target, reasons.size, error);
    throw error;
  }
  return written;
}

/** A failure of the file system (not of reading the input, which names its own file). */
function isWriteFailure(error: unknown): boolean {
  return Object.values(Deno.errors).some((type) => error instanceof type) ||
    (error instanceof Error && /\(os error \d+\)/.test(error.message));
}

function rejectFileError(target: string, rows: number, error: unknown): LocalFileError {
  return new LocalFileError(
    target,
    `could not write the reject file ${target} (${
      rows === 1 ? "1 rejected row" : `${rows} rejected rows`
    }): ` +
      `${writeProblem(error)}`,
    "No outcome is lost: the import's checkpoint records every batch sent. Make room or name a writable " +
      "file with --errors-file, then run the same command with --resume: finished batches are not sent " +
      "again and the reject file is written.",
    error,
  );
}
