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
import { govcatArgs, spawnPiped, waitForListening } from "./govcat_process.ts";

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
  const child = spawnPiped(
    govcatArgs(["emulator", `--port=${options.port}`, `--data=${options.dataFile}`, ...(options.args ?? [])]),
  );
  const emulator = await waitForListening(child, "the emulator");
  return {
    url: emulator.url,
    port: Number(new URL(emulator.url).port),
    pid: emulator.pid,
    kill: emulator.kill,
  };
}
