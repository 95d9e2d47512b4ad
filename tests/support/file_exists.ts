/**
 * Whether a file exists, for tests and benches: only "not found" means no; any other failure (a permission,
 * an I/O error) is thrown, so it is never mistaken for an absent file.
 *
 * @module
 */

/** True when `path` exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
