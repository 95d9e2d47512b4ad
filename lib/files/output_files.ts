/**
 * Writing a file the user named (`--output-file`, `--output`) so that it is never left half written: the
 * content goes to a temporary file beside the target, which is then renamed over it. The front end's
 * {@link FileAccess} is asked first whether the path may be written.
 *
 * @example
 * ```ts
 * import { writeOutputFile } from "./output_files.ts";
 * declare const ctx: { files?: import("./file_access.ts").FileAccess };
 * await writeOutputFile(ctx, "terms.csv", "--output-file", async (write) => await write("name\r\n"), {
 *   overwrite: false,
 * });
 * ```
 *
 * @module
 */
import { openChecked } from "./checked_open.ts";
import { GovcatError, UsageError } from "../core/errors.ts";
import { consentToReplace, refusedReplace } from "./file_consent.ts";
import { LocalFileError, writeProblem } from "./user_files.ts";
import type { FileAccess } from "./file_access.ts";

const FLUSH_CHARS = 64 * 1024;

/** Writes text to the temporary file; called as often as needed. */
export type WriteText = (text: string) => Promise<void>;

/** What {@link writeOutputFile} wrote. */
export interface WrittenFile {
  /** The path as the user gave it. */
  path: string;
  bytes: number;
}

/**
 * Writes `path` through `produce` and a temporary file beside it, renamed into place at the end, so the
 * file is whole or untouched. Without `overwrite` an existing file is a usage error and is left untouched,
 * also when it appears while the content is produced (the temporary file is hard-linked into place, which
 * fails when the name is taken); the rule is {@link consentToReplace}'s, the same for every file an
 * operation writes. The temporary file is opened checked (`checked_open.ts`): created where a swapped-in
 * link led, it is removed and the write refused. File system failures are {@link LocalFileError}s naming `option` and the
 * path and saying whether an earlier file was kept; the temporary file is removed.
 */
export async function writeOutputFile(
  ctx: { files?: FileAccess },
  path: string,
  option: string,
  produce: (write: WriteText) => Promise<void>,
  options: { overwrite: boolean },
): Promise<WrittenFile> {
  const target = ctx.files ? await ctx.files.writable(path, option) : path;
  const existed = await consentToReplace(target, { shown: path, option, overwrite: options.overwrite });
  const temporary = `${target}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const encoder = new TextEncoder();
  let bytes = 0;
  let file: Deno.FsFile;
  try {
    file = await openChecked(temporary, { write: true, createNew: true, mode: 0o644 }, path);
  } catch (error) {
    if (error instanceof GovcatError) throw error;
    throw writeError(option, path, error, existed);
  }
  // Small writes (one report line each) are gathered into chunks of about 64 KiB.
  let pending = "";
  const flush = async () => {
    const data = encoder.encode(pending);
    pending = "";
    let written = 0;
    while (written < data.length) written += await file.write(data.subarray(written));
    bytes += data.length;
  };
  try {
    try {
      await produce(async (text) => {
        pending += text;
        if (pending.length >= FLUSH_CHARS) await flush();
      });
      await flush();
      await file.syncData();
    } finally {
      file.close();
    }
    if (options.overwrite) await Deno.rename(temporary, target);
    else await placeNew(temporary, target, option, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    if (error instanceof GovcatError || !isFileSystemError(error)) throw error;
    throw writeError(option, path, error, existed);
  }
  return { path, bytes };
}

/**
 * The checks {@link writeOutputFile} makes first (the front end's file access, an existing file without
 * `overwrite`), for an operation that works long before it writes and should be refused before that.
 */
export async function checkOutputFile(
  ctx: { files?: FileAccess },
  path: string,
  option: string,
  options: { overwrite: boolean },
): Promise<void> {
  const target = ctx.files ? await ctx.files.writable(path, option) : path;
  await consentToReplace(target, { shown: path, option, overwrite: options.overwrite });
}

/**
 * Moves `temporary` to `target` only if nothing is there: a hard link fails when the name is taken, so a
 * file that appeared meanwhile is never replaced. File systems without hard links get a check and a rename.
 */
async function placeNew(temporary: string, target: string, option: string, path: string): Promise<void> {
  try {
    await Deno.link(temporary, target);
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) throw refusedReplace({ option, shown: path });
    await consentToReplace(target, { shown: path, option, overwrite: false });
    await Deno.rename(temporary, target);
    return;
  }
  await Deno.remove(temporary);
}

/** An error of the file system (as opposed to one of the producer: a catalog error, an abort). */
export function isFileSystemError(error: unknown): boolean {
  return Object.values(Deno.errors).some((type) => error instanceof type) ||
    (error instanceof Error && /\(os error \d+\)/.test(error.message));
}

/**
 * A missing directory is bad input (exit 2, nothing was done); other failures of the file system are
 * {@link LocalFileError}s (exit 1) saying what became of an earlier file.
 */
function writeError(option: string, path: string, error: unknown, existed: boolean): GovcatError {
  if (error instanceof Deno.errors.NotFound) {
    return new UsageError(`${option}: cannot write ${path}: its directory does not exist.`);
  }
  return new LocalFileError(
    path,
    `${option}: could not write ${path}: ${writeProblem(error)}; ${
      existed ? "the existing file was left as it was" : "no file was created"
    }.`,
    "Make room or choose a directory you can write to, then run the command again; nothing else was changed.",
    error,
  );
}
