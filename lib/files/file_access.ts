/**
 * Which local files a front end lets operations read and write. The CLI runs as the user who typed the
 * command, so it allows any path; the MCP server takes file names from a model and confines them to an
 * explicit root: CATALOG_MCP_FILE_ROOT (or `serve --file-root`) when set, else the roots the MCP client
 * declares, else none at all (every file argument is refused with a message saying how to grant access).
 * A file system root (`/`, `C:\`) is never a root. Paths are checked on real paths so that `..`, absolute
 * paths and symbolic links cannot step outside; refusals never name where a link leads, and only regular
 * files are read or replaced (a FIFO, a device or a directory is refused after a `stat`, never opened).
 * A link swapped in after the check is caught when the file is opened (`checked_open.ts`).
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
import { fileURLToPath } from "node:url";
import { confineRoot } from "./checked_open.ts";
import { ConfigError, UsageError } from "../core/errors.ts";

/** Checks paths before an operation reads or writes a local file. */
export interface FileAccess {
  /** The path to read (resolved), or a UsageError naming `option` when it may not be read. */
  readable(path: string, option: string): Promise<string>;
  /** The path to write (resolved), or a UsageError naming `option` when it may not be written. */
  writable(path: string, option: string): Promise<string>;
}

/** The variable that sets the MCP server's file root. */
export const FILE_ROOT_VARIABLE = "CATALOG_MCP_FILE_ROOT";

/** How to give the tool server file access, for messages. */
export const GRANT_FILE_ACCESS =
  `Set ${FILE_ROOT_VARIABLE} (or start the server with --file-root=DIR) to the ` +
  "directory holding the files, or use an MCP client that declares its roots (the roots capability, e.g. " +
  "the open workspace).";

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

/** True for the root of a file system (`/`, `C:\`): its own parent. */
export function isFileSystemRoot(path: string): boolean {
  const absolute = resolve(path);
  return dirname(absolute) === absolute;
}

/**
 * Checks that the file root exists, is a directory and is not a file system root (`/` would hand the
 * whole disk to whoever drives the server); returns its real path. A root that cannot be checked for lack
 * of read permission is returned as given: every file argument then fails with the permission error,
 * which says more than a refusal to start.
 */
export function checkFileRoot(root: string, source = FILE_ROOT_VARIABLE): string {
  const absolute = resolve(root);
  if (isFileSystemRoot(absolute)) throw rootError(root, "is the root of the file system", source);
  let real: string;
  try {
    real = Deno.realPathSync(absolute);
    if (!Deno.statSync(real).isDirectory) throw rootError(root, "is not a directory", source);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw rootError(root, "does not exist", source);
    if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
      return absolute;
    }
    throw error;
  }
  if (isFileSystemRoot(real)) throw rootError(root, "leads to the root of the file system", source);
  return real;
}

function rootError(root: string, problem: string, source: string): ConfigError {
  return new ConfigError(
    `${source} is "${root}", which ${problem}: set it to an existing directory holding the files the ` +
      "tool server may read and write (not a file system root), or unset it to use the roots the MCP " +
      "client declares.",
    FILE_ROOT_VARIABLE,
  );
}

/**
 * The directories of the `file://` URIs an MCP client declared as its roots (`roots/list`), each checked
 * as a root; what was left out and why, for the refusal when none is usable.
 */
export function declaredRoots(uris: readonly string[]): { roots: string[]; ignored: string[] } {
  const roots: string[] = [];
  const ignored: string[] = [];
  for (const uri of uris) {
    let path: string;
    try {
      if (!uri.startsWith("file:")) throw new Error("not a file URI");
      path = fileURLToPath(uri);
    } catch {
      ignored.push(`${uri} (only file:// URIs are used)`);
      continue;
    }
    try {
      roots.push(checkFileRoot(path, "the declared root"));
    } catch (error) {
      const reason = error instanceof ConfigError
        ? /which ([^:]*):/.exec(error.message)?.[1] ?? "is not usable"
        : "is not usable";
      ignored.push(`${uri} (${reason})`);
    }
  }
  return { roots: [...new Set(roots)], ignored };
}

/** A file access that refuses every path: the tool server has no file root. */
export function noFileAccess(reason: string): FileAccess {
  const refuse = (_path: string, option: string) =>
    Promise.reject(
      new UsageError(`${option}: this tool server has no file access: ${reason}.`, GRANT_FILE_ACCESS),
    );
  return { readable: refuse, writable: refuse };
}

/**
 * The MCP server's file access: paths under one of `roots` (relative paths are resolved against the
 * first), whose real path (symbolic links followed) lies inside that root's real path. `readable` returns
 * the file's real path; `writable` the path to write, its directory's real path joined with the file name.
 * Only regular files pass: a directory, a FIFO, a device or a socket is refused after a `stat`, without
 * opening it (opening a FIFO would wait for a writer). Refusals name the path as given and the root as
 * configured, never where a symbolic link leads.
 */
export function confinedFileAccess(roots: string | readonly string[]): FileAccess {
  const all = (typeof roots === "string" ? [roots] : [...roots]).map((root) => confinedRoot(root));
  if (all.length === 0) return noFileAccess("no root");
  const shown = all.map((r) => r.root).join(", ");

  const outside = (path: string, option: string, how = "is outside") =>
    new UsageError(
      `${option}: ${path} ${how} the ${all.length > 1 ? "directories" : "directory"} this server may use ` +
        `(${shown}).`,
      `Move the file under ${all[0].root}, or start the server with ${FILE_ROOT_VARIABLE} set to a ` +
        "directory that holds it.",
    );

  /** The root a path belongs to, lexically: relative paths to the first; nothing touched on disk. */
  const pick = async (path: string, option: string) => {
    if (path.includes("\0")) {
      // The file system would refuse it anyway; said plainly, and before `..` after the NUL is resolved.
      throw new UsageError(`${option}: the path ${JSON.stringify(path)} contains a NUL character.`);
    }
    for (const root of all) {
      const absolute = resolve(root.path, path);
      const real = await root.real();
      if (isInside(root.path, absolute) || isInside(real, absolute)) return { root, real, absolute };
      if (!isAbsolute(path)) break;
    }
    throw outside(path, option);
  };

  return {
    async readable(path, option) {
      const { real: resolvedRoot, absolute } = await pick(path, option);
      const real = await realPath(absolute, path, option, "file");
      if (!isInside(resolvedRoot, real)) throw outside(path, option, "leads outside");
      await regularFile(real, path, option);
      return real;
    },
    async writable(path, option) {
      const { root, real: resolvedRoot, absolute } = await pick(path, option);
      // The root itself: its parent directory is outside, which would make the refusal say so.
      if (absolute === root.path || absolute === resolvedRoot) {
        throw new UsageError(`${option}: ${path} is a directory.`);
      }
      const directory = await realPath(dirname(absolute), dirname(path), option, "directory");
      if (!isInside(resolvedRoot, directory)) throw outside(path, option, "leads outside");
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
        if (!isInside(resolvedRoot, real)) throw outside(path, option, "leads outside");
        await regularFile(real, path, option);
        return real;
      }
      await regularFile(target, path, option, info);
      return target;
    },
  };
}

/** One root: as configured (for messages), absolute, and its real path resolved on first use and kept. */
function confinedRoot(root: string) {
  const path = resolve(root);
  let real: Promise<string> | undefined;
  return {
    root,
    path,
    // Every later open of a path under it is checked for links swapped in since (checked_open.ts).
    real: () => (real ??= Deno.realPath(path).catch(() => checkFileRoot(root)).then(confinedReal)),
  };
}

function confinedReal(real: string): string {
  confineRoot(real);
  return real;
}

/** Refuses anything but a regular file, from its `stat` (never by opening it). */
async function regularFile(real: string, shown: string, option: string, known?: Deno.FileInfo) {
  let info = known;
  try {
    info ??= await Deno.stat(real);
  } catch (error) {
    throw fileError(error, shown, option);
  }
  if (info.isDirectory) throw new UsageError(`${option}: ${shown} is a directory.`);
  if (!info.isFile) {
    throw new UsageError(
      `${option}: ${shown} is not a regular file (a FIFO, a device or a socket); nothing was read or written.`,
      "Name a regular file.",
    );
  }
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
