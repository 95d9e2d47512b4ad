/**
 * `govcat serve` as a real subprocess for transport tests: started with port 0, its URL read from the
 * start-up banner, stopped with SIGTERM.
 *
 * @module
 */
import { baseEnv, MAIN } from "./govcat_process.ts";

export interface ServeProcess {
  /** The MCP endpoint URL the server printed. */
  url: string;
  /** Everything printed on stdout so far. */
  banner: string;
  /** Sends SIGTERM and waits; returns the exit code and stderr. */
  stop(): Promise<{ code: number; stderr: string }>;
}

const PERMISSIONS = ["--allow-net=127.0.0.1", "--allow-env", "--allow-read", "--allow-write"];

/** Starts `govcat serve …args` and resolves once it has printed its URL. */
export async function startServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...PERMISSIONS, MAIN, "serve", ...args],
    env: { ...baseEnv(), ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderrText = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let banner = "";
  const deadline = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        const status = await child.status;
        throw new Error(
          `serve exited (${status.code}) before printing its URL:\n${banner}\n${await stderrText}`,
        );
      }
      banner += value;
      const match = / on (http:\/\/\S+)\n/.exec(banner);
      if (match && banner.includes("Press Ctrl+C")) {
        clearTimeout(deadline);
        // Keep draining stdout so the child never blocks on a full pipe.
        const rest = (async () => {
          for (;;) if ((await reader.read()).done) break;
        })();
        return {
          url: match[1],
          banner,
          stop: async () => {
            try {
              child.kill("SIGTERM");
            } catch {
              // Already gone.
            }
            const status = await child.status;
            await rest;
            return { code: status.code, stderr: await stderrText };
          },
        };
      }
    }
  } catch (error) {
    clearTimeout(deadline);
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
    await stderrText;
    throw error;
  }
}
