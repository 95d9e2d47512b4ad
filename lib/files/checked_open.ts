/**
 * Opening a file whose path a confined {@link FileAccess} checked, so that what is opened is what was
 * checked. The check resolves a path to its real path inside the file root; a writer in the root can then
 * swap a file, or a folder on the way, for a symbolic link out of the root before the open. Deno cannot
 * open without following links (no `O_NOFOLLOW`, no `openat`), so every open of a path under a confined
 * root is verified afterwards, on the handle: on Linux the kernel's own name of the open file
 * (`/proc/self/fd/N`) must be the checked real path, whatever the path's components were when it was
 * opened. A file created (`createNew`) where a link led is removed again; a file opened for reading or
 * appending is closed before a byte is read or written. Paths outside every confined root (the CLI's, the
 * system's temporary files) are opened as they are.
 *
 * Residual risk: where `/proc/self/fd` does not exist (macOS, Windows) the check compares the handle's
 * identity with the path's `lstat` and the directory's real path, each by name, so a swap timed between
 * those calls can still pass. A hard link made inside the root to a file outside is the file inside (a
 * hard link is the file, not a pointer); protected hard links (the Linux default) keep a writer from
 * linking files it may not write.
 *
 * @example
 * ```ts
 * import { confineRoot, openChecked } from "./checked_open.ts";
 * confineRoot("/srv/files");
 * const file = await openChecked("/srv/files/a.csv", { read: true }); // refused if a link led elsewhere
 * file.close();
 * ```
 *
 * @module
 */
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { UsageError } from "../core/errors.ts";

/** The real paths of the roots confined file access hands out paths under. */
const confinedRoots = new Set<string>();

/** From now on, every {@link openChecked} of a path under `realRoot` is verified. */
export function confineRoot(realRoot: string): void {
  confinedRoots.add(resolve(realRoot));
}

function confined(path: string): boolean {
  if (!isAbsolute(path)) return false;
  for (const root of confinedRoots) {
    const rel = relative(root, path);
    if (rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))) return true;
  }
  return false;
}

/**
 * Opens `path` as `Deno.open` does; under a confined root, the opened file must be the one the path names
 * without any symbolic link, else it is closed (and removed, when this call created it) and the call
 * refused with a {@link UsageError} that names `shown`, never where a link led.
 */
export async function openChecked(
  path: string,
  options: Deno.OpenOptions,
  shown: string = path,
): Promise<Deno.FsFile> {
  const file = await Deno.open(path, options);
  if (!confined(path)) return file;
  let opened: string[] | undefined;
  try {
    opened = await openedPaths(file);
    if (opened === undefined ? await sameByName(file, path) : opened.includes(resolve(path))) return file;
  } catch (error) {
    file.close();
    throw error;
  }
  file.close();
  // What this call created where a link led is undone; nothing was written to it.
  if (options.createNew && opened?.[0] !== undefined) await Deno.remove(opened[0]).catch(() => {});
  throw new UsageError(
    `${shown} changed while it was being opened: a symbolic link now stands in its path; nothing was ` +
      "read or written.",
    "Something else is changing the files under the file root; keep links out of it and try again.",
  );
}

/** The whole text of a checked file (see {@link openChecked}), as `Deno.readTextFile` reads it. */
export async function readTextChecked(path: string, shown: string = path): Promise<string> {
  const file = await openChecked(path, { read: true }, shown);
  // Reading the stream to its end closes the file, as does an error while reading it.
  return new TextDecoder().decode(await new Response(file.readable).arrayBuffer());
}

/**
 * The kernel's names of an open file: the links of the `/proc/self/fd` entries of the same file (same
 * device and inode; several when it is open more than once); undefined without `/proc`.
 */
async function openedPaths(file: Deno.FsFile): Promise<string[] | undefined> {
  const info = await file.stat();
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir("/proc/self/fd")) {
      const link = `/proc/self/fd/${entry.name}`;
      try {
        const named = await Deno.stat(link);
        if (named.ino === info.ino && named.dev === info.dev) names.push(await Deno.readLink(link));
      } catch {
        // Closed meanwhile, or not a file: not ours.
      }
    }
  } catch {
    return undefined;
  }
  return names;
}

/** Without `/proc`: the path, unfollowed, names the open file, and its directory is its own real path. */
async function sameByName(file: Deno.FsFile, path: string): Promise<boolean> {
  try {
    const [open, named, directory] = await Promise.all([
      file.stat(),
      Deno.lstat(path),
      Deno.realPath(dirname(path)),
    ]);
    return !named.isSymlink && named.ino === open.ino && named.dev === open.dev &&
      directory === dirname(resolve(path));
  } catch {
    return false;
  }
}
