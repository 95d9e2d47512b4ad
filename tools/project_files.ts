/**
 * Files of the project tree by name ending, as paths from the project root: what the suite's checks
 * (layering, code pointers, test sets, benches) walk.
 *
 * @example
 * ```ts
 * import { projectFiles } from "./project_files.ts";
 * const modules = await projectFiles("lib", [".ts"]);
 * console.log(modules.length);
 * ```
 *
 * @module
 */

const ROOT = new URL("../", import.meta.url);

/**
 * Every file under `path` (a folder or a file, from the project root) whose name ends with one of
 * `endings`, sorted; a file given by name is listed whatever its ending.
 */
export async function projectFiles(path: string, endings: readonly string[]): Promise<string[]> {
  if ((await Deno.stat(new URL(path, ROOT))).isFile) return [path];
  const found: string[] = [];
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(new URL(folder, ROOT))) {
      const child = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(child);
      else if (endings.some((ending) => entry.name.endsWith(ending))) found.push(child);
    }
  };
  await walk(path);
  return found.sort();
}
