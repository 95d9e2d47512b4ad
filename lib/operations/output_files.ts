/**
 * Writing a file the user named (`--output-file`, `--output`) so that it is never left half written: the
 * content goes to a temporary file beside the target, which is then renamed over it. The front end's
 * {@link FileAccess} is asked first whether the path may be written.
 *
 * @example
 * ```ts
 * import { writeOutputFile } from "./output_files.ts";
 * declare const ctx: import("./types.ts").OperationContext;
 * await writeOutputFile(ctx, "terms.csv", "--output-file", async (write) => await write("name\r\n"), {
 *   overwrite: false,
 * });
 * ```
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import type { OperationContext } from "./types.ts";

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
 * Writes `path` through `produce` and a temporary file. Without `overwrite`, an existing file is a usage
 * error and is left untouched. File system failures are usage errors naming `option` and the path.
 */
export async function writeOutputFile(
  ctx: Pick<OperationContext, "files">,
  path: string,
  option: string,
  produce: (write: WriteText) => Promise<void>,
  options: { overwrite: boolean },
): Promise<WrittenFile> {
  const target = ctx.files ? await ctx.files.writable(path, option) : path;
  if (!options.overwrite && await exists(target)) {
    throw new UsageError(
      `${option}: ${path} already exists; nothing was written.`,
      "Add --overwrite to replace it, or choose another file name.",
    );
  }
  const temporary = `${target}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const encoder = new TextEncoder();
  let bytes = 0;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(temporary, { write: true, createNew: true });
  } catch (error) {
    throw fileError(option, path, error);
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
    } finally {
      file.close();
    }
    // Checked again just before the rename: the file may have appeared while the content was produced.
    if (!options.overwrite && await exists(target)) {
      throw new UsageError(
        `${option}: ${path} already exists; nothing was written.`,
        "Add --overwrite to replace it, or choose another file name.",
      );
    }
    await Deno.rename(temporary, target);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    if (error instanceof UsageError) throw error;
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied) {
      throw fileError(option, path, error);
    }
    throw error;
  }
  return { path, bytes };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

function fileError(option: string, path: string, error: unknown): UsageError {
  if (error instanceof Deno.errors.NotFound) {
    return new UsageError(`${option}: cannot write ${path}: its directory does not exist.`);
  }
  if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
    return new UsageError(`${option}: permission denied writing ${path}.`);
  }
  return new UsageError(`${option}: cannot write ${path}: ${(error as Error).message}`);
}
