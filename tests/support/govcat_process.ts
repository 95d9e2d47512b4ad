/**
 * Runs `main.ts` as a real subprocess, the way a user runs govcat, with a controlled environment: to the
 * end ({@link runGovcat}), or as a server waited on until it prints where it listens
 * ({@link waitForListening}) and then killed.
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

/**
 * `extra` plus a proxy on a closed loopback port for everything but loopback: a child Deno that still
 * tries to download a package fails at once instead of reaching a registry.
 */
export function closedProxyEnv(extra: Record<string, string> = {}): Record<string, string> {
  const closed = "http://127.0.0.1:9";
  return { HTTPS_PROXY: closed, HTTP_PROXY: closed, NO_PROXY: "127.0.0.1,localhost", ...extra };
}

/** Runs `govcat …args` and collects its output; killed after `timeoutMs`. */
export async function runGovcat(
  args: string[],
  env: Record<string, string> = {},
  options: { timeoutMs?: number; permissions?: string[] } = {},
): Promise<ProcessResult> {
  const command = new Deno.Command(Deno.execPath(), {
    args: govcatArgs(args, options),
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

/** The `deno run` arguments of `govcat …args`: permissions, more Deno flags, main.ts, govcat's own. */
export function govcatArgs(
  args: string[],
  options: { permissions?: string[]; denoFlags?: string[] } = {},
): string[] {
  return [
    "run",
    ...(options.permissions ?? LOOPBACK_PERMISSIONS),
    ...(options.denoFlags ?? []),
    MAIN,
    ...args,
  ];
}

/**
 * Spawns `program …args` (this Deno unless `program` is given) with no stdin, stdout and stderr piped, and
 * only {@link baseEnv} plus `env` as environment.
 */
export function spawnPiped(
  args: string[],
  options: { program?: string; env?: Record<string, string>; cwd?: string } = {},
): Deno.ChildProcess {
  return new Deno.Command(options.program ?? Deno.execPath(), {
    args,
    cwd: options.cwd,
    env: { ...baseEnv(), ...options.env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Sends `signal`; a process already gone is not an error. */
export function killQuietly(child: Deno.ChildProcess, signal: Deno.Signal): void {
  try {
    child.kill(signal);
  } catch {
    // Already gone.
  }
}

/** A subprocess that has printed where it listens. */
export interface ListeningProcess {
  url: string;
  /** What it printed on stdout up to then. */
  banner: string;
  pid: number;
  /** Sends `signal` and waits for the process to end (one wait for all calls); its exit code and stderr. */
  kill(signal: Deno.Signal): Promise<{ code: number; stderr: string }>;
}

/**
 * Reads `child`'s stdout until `listening` matches what it printed (group 1 is the URL), then keeps
 * draining it so the child never blocks on a full pipe. A child that ends first, or has not printed it in
 * `timeoutMs` (it is killed then), is an error naming `what` with everything it printed.
 */
export async function waitForListening(
  child: Deno.ChildProcess,
  what: string,
  options: { listening?: RegExp; timeoutMs?: number } = {},
): Promise<ListeningProcess> {
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const pattern = options.listening ?? /listening on (http:\/\/\S+)\n/;
  const timer = setTimeout(() => killQuietly(child, "SIGKILL"), options.timeoutMs ?? 30_000);
  let banner = "";
  let url: string | undefined;
  try {
    while (url === undefined) {
      const { done, value } = await reader.read();
      if (done) {
        const status = await child.status;
        throw new Error(`${what} exited (${status.code}) before listening:\n${banner}\n${await stderr}`);
      }
      banner += value;
      url = pattern.exec(banner)?.[1];
    }
  } catch (error) {
    killQuietly(child, "SIGKILL");
    await child.status;
    await stderr;
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const drained = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  let ended: Promise<{ code: number; stderr: string }> | undefined;
  return {
    url,
    banner,
    pid: child.pid,
    kill: (signal) => {
      killQuietly(child, signal);
      ended ??= (async () => {
        const status = await child.status;
        await drained;
        return { code: status.code, stderr: await stderr };
      })();
      return ended;
    },
  };
}
