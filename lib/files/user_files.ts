/**
 * Reading files a user named in an option or a tool argument, with errors that name the option and the
 * path and say what went wrong. The front end's {@link FileAccess} decides first whether the path may be
 * read at all (the MCP server confines file arguments to CATALOG_MCP_FILE_ROOT).
 *
 * @module
 */
import { readTextChecked } from "./checked_open.ts";
import { GovcatError, UsageError } from "../core/errors.ts";
import type { FileAccess } from "./file_access.ts";

/**
 * Reads a text file named by `option`, turning file system errors into clear usage errors. With `files`,
 * the path is checked (and resolved) by it before anything is read.
 */
export async function readUserFile(path: string, option: string, files?: FileAccess): Promise<string> {
  const target = files ? await files.readable(path, option) : path;
  try {
    return await readTextChecked(target, path);
  } catch (e) {
    if (e instanceof GovcatError) throw e;
    if (e instanceof Deno.errors.NotFound) throw new UsageError(`${option}: file not found: ${path}`);
    if (e instanceof Deno.errors.PermissionDenied || e instanceof Deno.errors.NotCapable) {
      throw new UsageError(`${option}: permission denied reading ${path}`);
    }
    if (e instanceof Deno.errors.IsADirectory) throw new UsageError(`${option}: ${path} is a directory`);
    throw new UsageError(`${option}: cannot read ${path}: ${(e as Error).message}`);
  }
}

/**
 * A local file could not be written (a read-only directory, a full disk, a vanished directory). It names
 * the file and says what is safe to do next; exit code 1, as the command did not complete.
 */
export class LocalFileError extends GovcatError {
  /** The file as the user named it (or the path govcat chose for it). */
  readonly path: string;
  constructor(path: string, message: string, hint: string, cause?: unknown) {
    super(message, { exitCode: 1, hint, cause });
    this.path = path;
  }
}

/** Why writing failed, in words: the common cases named, others with the system's message. */
export function writeProblem(error: unknown): string {
  if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
    return "permission denied (is the directory read-only?)";
  }
  if (error instanceof Deno.errors.NotFound) return "its directory does not exist";
  const message = (error as Error)?.message ?? String(error);
  if (/ENOSPC|No space left|os error 28\b/i.test(message)) return "the disk is full";
  if (/EROFS|Read-only file system|os error 30\b/i.test(message)) return "the file system is read-only";
  if (/EDQUOT|quota|os error 122\b/i.test(message)) return "the disk quota is exceeded";
  return message.replace(/\s*\(os error \d+\).*$/s, "");
}
