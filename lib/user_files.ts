/**
 * Reading files a user named in an option or a tool argument, with errors that name the option and the
 * path and say what went wrong. The front end's {@link FileAccess} decides first whether the path may be
 * read at all (the MCP server confines file arguments to CATALOG_MCP_FILE_ROOT).
 *
 * @module
 */
import { UsageError } from "./errors.ts";
import type { FileAccess } from "./operations/types.ts";

/**
 * Reads a text file named by `option`, turning file system errors into clear usage errors. With `files`,
 * the path is checked (and resolved) by it before anything is read.
 */
export async function readUserFile(path: string, option: string, files?: FileAccess): Promise<string> {
  const target = files ? await files.readable(path, option) : path;
  try {
    return await Deno.readTextFile(target);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new UsageError(`${option}: file not found: ${path}`);
    if (e instanceof Deno.errors.PermissionDenied || e instanceof Deno.errors.NotCapable) {
      throw new UsageError(`${option}: permission denied reading ${path}`);
    }
    if (e instanceof Deno.errors.IsADirectory) throw new UsageError(`${option}: ${path} is a directory`);
    throw new UsageError(`${option}: cannot read ${path}: ${(e as Error).message}`);
  }
}
