/**
 * `govcat serve` as a real subprocess for transport tests: started with port 0, its URL read from the
 * start-up banner, stopped with SIGTERM.
 *
 * @module
 */
import { govcatArgs, type ListeningProcess, spawnPiped, waitForListening } from "./govcat_process.ts";

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

/** `promise`, or a failure naming `what` once `ms` have passed (a frozen server answers nothing). */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer within ${ms} ms (the server is frozen)`)),
      ms,
    );
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What {@link withServeProcess} measured of the server's stop. */
export interface ServeStop {
  code: number;
  stderr: string;
  /** Milliseconds from SIGTERM to the process's exit. */
  stopMs: number;
}

/**
 * Runs `body` against `govcat serve …args` (a real subprocess, port 0), then sends SIGTERM and fails unless
 * the server exits within `stopWithinMs`. A server that does not stop (or a body that fails) is killed
 * with SIGKILL, so a frozen server never outlives its test.
 */
export async function withServeProcess(
  args: string[],
  body: (url: URL) => Promise<void>,
  options: { stopWithinMs?: number; env?: Record<string, string> } = {},
): Promise<ServeStop> {
  const child = spawnPiped(govcatArgs(["serve", ...args]), { env: options.env });
  const server: ListeningProcess = await waitForListening(child, "serve", {
    listening: / on (http:\/\/\S+)\n[\s\S]*Press Ctrl\+C/,
  });
  let stopped = false;
  try {
    await body(new URL(server.url));
    const started = performance.now();
    const ended = await within(options.stopWithinMs ?? 8_000, "exit after SIGTERM", server.kill("SIGTERM"));
    stopped = true;
    return { ...ended, stopMs: performance.now() - started };
  } finally {
    if (!stopped) await server.kill("SIGKILL");
  }
}
