/**
 * Runs `main.ts` as a real subprocess, the way a user runs govcat, with a controlled environment.
 *
 * @module
 */

export const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** Permissions the CLI needs against a loopback catalog. */
export const LOOPBACK_PERMISSIONS = ["--allow-net=127.0.0.1", "--allow-env", "--allow-read", "--allow-write"];

export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The few variables a subprocess needs from ours; everything else (credentials!) stays out. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
  for (const name of ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME", "TMPDIR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Runs `govcat …args` and collects its output; killed after `timeoutMs`. */
export async function runGovcat(
  args: string[],
  env: Record<string, string> = {},
  options: { timeoutMs?: number; permissions?: string[] } = {},
): Promise<ProcessResult> {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(options.permissions ?? LOOPBACK_PERMISSIONS), MAIN, ...args],
    env: { ...baseEnv(), ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const output = await command.output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}
