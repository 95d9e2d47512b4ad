/**
 * `govcat emulator` as a real subprocess, for tests that kill the catalog and bring it back: started on a
 * port (0 picks one) with a SQLite data file, its URL read from the start-up banner, killed with any
 * signal, and restarted on the same port with the same file.
 *
 * @example
 * ```ts
 * import { startEmulatorProcess } from "./emulator_process.ts";
 * const first = await startEmulatorProcess({ port: 0, dataFile: "/tmp/catalog.db" });
 * await first.kill("SIGKILL");
 * const second = await startEmulatorProcess({ port: first.port, dataFile: "/tmp/catalog.db" });
 * await second.kill("SIGTERM");
 * ```
 *
 * @module
 */
import { baseEnv, LOOPBACK_PERMISSIONS, MAIN } from "./govcat_process.ts";

export interface EmulatorProcessOptions {
  /** 0 picks a free port. */
  port: number;
  dataFile: string;
  /** More `govcat emulator` options, e.g. `["--latency-ms=20"]`. */
  args?: string[];
}

/** A running `govcat emulator`. */
export interface EmulatorProcess {
  url: string;
  port: number;
  pid: number;
  /** Sends `signal` and waits for the process to end; resolves to its exit code and stderr. */
  kill(signal: Deno.Signal): Promise<{ code: number; stderr: string }>;
}

/**
 * Starts `govcat emulator --port … --data …` and resolves once it listens. A port just freed by a killed
 * emulator can be refused for a moment, so a start that fails with "in use" is tried again for up to 10 s.
 */
export async function startEmulatorProcess(options: EmulatorProcessOptions): Promise<EmulatorProcess> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await startOnce(options);
    } catch (error) {
      if (!/is in use/.test(String(error)) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function startOnce(options: EmulatorProcessOptions): Promise<EmulatorProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...LOOPBACK_PERMISSIONS,
      MAIN,
      "emulator",
      `--port=${options.port}`,
      `--data=${options.dataFile}`,
      ...(options.args ?? []),
    ],
    env: baseEnv(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  let banner = "";
  let url: string | undefined;
  try {
    while (url === undefined) {
      const { done, value } = await reader.read();
      if (done) {
        const status = await child.status;
        throw new Error(`the emulator exited (${status.code}) before listening:\n${banner}\n${await stderr}`);
      }
      banner += value;
      url = /listening on (http:\/\/\S+)\n/.exec(banner)?.[1];
    }
  } finally {
    clearTimeout(timer);
  }
  // Keep reading stdout so the emulator never blocks on a full pipe.
  const drained = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  let ended: Promise<{ code: number; stderr: string }> | undefined;
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid,
    kill: (signal) => {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
      ended ??= (async () => {
        const status = await child.status;
        await drained;
        return { code: status.code, stderr: await stderr };
      })();
      return ended;
    },
  };
}
