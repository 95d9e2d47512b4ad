/**
 * A temporary profiles directory for the tests of the `cli/profile_*.ts` modules: `GOVCAT_CONFIG_DIR`
 * points into a fresh directory that is removed afterwards, so no test reads or writes the user's profiles.
 *
 * @module
 */

/** Runs `test` with a fresh directory and an environment whose profiles file is `${dir}/conf/profiles.json`. */
export async function withDir(
  test: (dir: string, env: Record<string, string>) => Promise<void> | void,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "govcat-profiles-" });
  try {
    await test(dir, { GOVCAT_CONFIG_DIR: `${dir}/conf` });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
