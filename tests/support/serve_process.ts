/**
 * `govcat serve` as a real subprocess for transport tests: started with port 0, its URL read from the
 * start-up banner, stopped with SIGTERM.
 *
 * @module
 */
import { govcatArgs, spawnPiped, waitForListening } from "./govcat_process.ts";

export interface ServeProcess {
  /** The MCP endpoint URL the server printed. */
  url: string;
  /** Everything printed on stdout so far. */
  banner: string;
  /** Sends SIGTERM and waits; returns the exit code and stderr. */
  stop(): Promise<{ code: number; stderr: string }>;
}

/** Starts `govcat serve …args` and resolves once it has printed its URL. */
export async function startServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawnPiped(govcatArgs(["serve", ...args]), { env });
  // The URL is on the first line; the banner is complete once it asks for Ctrl+C.
  const server = await waitForListening(child, "serve", {
    listening: / on (http:\/\/\S+)\n[\s\S]*Press Ctrl\+C/,
  });
  return { url: server.url, banner: server.banner, stop: () => server.kill("SIGTERM") };
}
