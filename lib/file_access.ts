/**
 * Which local files a front end lets operations read and write. The CLI runs as the user who typed the
 * command, so it allows any path; the MCP server takes file names from a model and confines them to one
 * directory tree, CATALOG_MCP_FILE_ROOT (the working directory at start-up by default), checked on real
 * paths so that `..`, absolute paths and symbolic links cannot step outside it.
 *
 * @example
 * ```ts
 * import { confinedFileAccess } from "./file_access.ts";
 * const files = confinedFileAccess(Deno.cwd());
 * await files.readable("fixtures/collections.csv", "--csv-file"); // the file's real path
 * await files.readable("../../etc/passwd", "--csv-file"); // UsageError: outside the file root
 * ```
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ConfigError, UsageError } from "./errors.ts";
import type { FileAccess } from "./operations/types.ts";

/** The variable that sets the MCP server's file root. */
export const FILE_ROOT_VARIABLE = "CATALOG_MCP_FILE_ROOT";

/** The CLI's file access: every path is allowed, as given. */
export const unrestrictedFileAccess: FileAccess = {
  readable: (path) => Promise.resolve(path),
  writable: (path) => Promise.resolve(path),
};

/** True when `path` is `root` or below it; both absolute. `/root2` is not inside `/root`. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Checks that the file root exists and is a directory; returns its real path. A root that cannot be
 * checked for lack of read permission is returned as given: every file argument then fails with the
 * permission error, which says more than a refusal to start.
 */
export function checkFileRoot(root: string): string {
  const absolute = resolve(root);
  try {
    const real = Deno.realPathSync(absolute);
    if (!Deno.statSync(real).isDirectory) throw rootError(root, "is not a directory");
    return real;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw rootError(root, "does not exist");
    if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
      return absolute;
    }
    throw error;
  }
}

function rootError(root: string, problem: string): ConfigError {
  return new ConfigError(
    `${FILE_ROOT_VARIABLE} is "${root}", which ${problem}: set it to an existing directory holding the ` +
      "files the tool server may read and write, or unset it to use the working directory.",
    FILE_ROOT_VARIABLE,
  );
}

/**
 * The MCP server's file access: paths relative to `root` (relative paths are resolved against it), whose
 * real path (symbolic links followed) lies inside the root's real path. `readable` returns the file's
 * real path; `writable` the path to write, its directory's real path joined with the file name.
 */
export function confinedFileAccess(root: string): FileAccess {
  const rootPath = resolve(root);
  let rootReal: Promise<string> | undefined;
  // Resolved on first use and kept: the root is fixed for the life of the server.
  const realRoot = () => (rootReal ??= Deno.realPath(rootPath).catch(() => checkFileRoot(root)));

  const outside = (path: string, option: string, real: string, resolvedRoot: string) =>
    new UsageError(
      `${option}: ${path} is outside the directory this server may use (${resolvedRoot})` +
        (real === resolve(rootPath, path) ? "." : `: it leads to ${real}.`),
      `Move the file under ${resolvedRoot}, or start the server with ${FILE_ROOT_VARIABLE} set to a ` +
        "directory that holds it.",
    );

  /** The lexical check first, so a path outside the root is refused without touching the file system. */
  const lexical = async (path: string, option: string) => {
    if (path.includes("\0")) {
      // The file system would refuse it anyway; said plainly, and before `..` after the NUL is resolved.
      throw new UsageError(`${option}: the path ${JSON.stringify(path)} contains a NUL character.`);
    }
    const resolvedRoot = await realRoot();
    const absolute = resolve(rootPath, path);
    if (!isInside(rootPath, absolute) && !isInside(resolvedRoot, absolute)) {
      throw outside(path, option, absolute, resolvedRoot);
    }
    return { absolute, resolvedRoot };
  };

  return {
    async readable(path, option) {
      const { absolute, resolvedRoot } = await lexical(path, option);
      const real = await realPath(absolute, path, option, "file");
      if (!isInside(resolvedRoot, real)) throw outside(path, option, real, resolvedRoot);
      return real;
    },
    async writable(path, option) {
      const { absolute, resolvedRoot } = await lexical(path, option);
      // The root itself: its parent directory is outside, which would make the refusal say so.
      if (absolute === rootPath || absolute === resolvedRoot) {
        throw new UsageError(`${option}: ${path} is a directory.`);
      }
      const directory = await realPath(dirname(absolute), dirname(path), option, "directory");
      if (!isInside(resolvedRoot, directory)) throw outside(path, option, directory, resolvedRoot);
      const target = join(directory, basename(absolute));
      let info: Deno.FileInfo;
      try {
        info = await Deno.lstat(target);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return target;
        throw fileError(error, path, option);
      }
      if (info.isSymlink) {
        // Writing through a link writes its target, which must be inside too (and must exist: a
        // dangling link could be pointed anywhere before the write).
        const real = await realPath(target, path, option, "link target");
        if (!isInside(resolvedRoot, real)) throw outside(path, option, real, resolvedRoot);
        if ((await Deno.stat(real)).isDirectory) throw new UsageError(`${option}: ${path} is a directory.`);
        return real;
      }
      if (info.isDirectory) throw new UsageError(`${option}: ${path} is a directory.`);
      return target;
    },
  };
}

async function realPath(absolute: string, shown: string, option: string, what: string): Promise<string> {
  try {
    return await Deno.realPath(absolute);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(
        `${option}: ${what} not found: ${shown}` + (shown === absolute ? "." : ` (looked for ${absolute}).`),
        "Relative paths are relative to the tool server's file root.",
      );
    }
    throw fileError(error, shown, option);
  }
}

function fileError(error: unknown, path: string, option: string): UsageError {
  if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
    return new UsageError(`${option}: permission denied for ${path}.`);
  }
  return new UsageError(`${option}: cannot use ${path}: ${(error as Error).message}`);
}
