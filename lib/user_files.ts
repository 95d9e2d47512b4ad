/**
 * Reading files a user named in an option or a tool argument, with errors that name the option and the
 * path and say what went wrong.
 *
 * @module
 */
import { UsageError } from "./errors.ts";

/** Reads a text file named by `option`, turning file system errors into clear usage errors. */
export async function readUserFile(path: string, option: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new UsageError(`${option}: file not found: ${path}`);
    if (e instanceof Deno.errors.PermissionDenied) {
      throw new UsageError(`${option}: permission denied reading ${path}`);
    }
    if (e instanceof Deno.errors.IsADirectory) throw new UsageError(`${option}: ${path} is a directory`);
    throw new UsageError(`${option}: cannot read ${path}: ${(e as Error).message}`);
  }
}
