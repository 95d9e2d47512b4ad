/**
 * The streamable HTTP tool server as `govcat serve --transport=http` builds it (tool services from the
 * environment, {@link McpHttpApp}, `Deno.serve` on 127.0.0.1), run as a subprocess for load tests, with one
 * extra route: `GET /_load/stats` answers the open session count and the process's memory, measured after
 * a full garbage collection when the process runs with `--v8-flags=--expose-gc` (`?gc=false` skips it).
 * The load then runs in another process than the one measured, so clients do not blur the numbers.
 *
 * {@link startLoadServer} starts it and stops it. Run directly, it prints `listening on <url>` and serves
 * until SIGTERM.
 *
 * @example
 * ```ts
 * import { startLoadServer } from "./mcp_load_server.ts";
 * const server = await startLoadServer({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" });
 * console.log((await server.stats()).sessions);
 * await server.stop();
 * ```
 *
 * @module
 */
import { loadConfig } from "../../lib/config/config.ts";
import { createLogger } from "../../lib/core/log.ts";
import { McpHttpApp } from "../../lib/mcp/http_app.ts";
import { createToolServices } from "../../lib/mcp/server.ts";
import { spawnPiped, waitForListening } from "./govcat_process.ts";

/** What `GET /_load/stats` answers. */
export interface LoadServerStats {
  /** Open MCP sessions (`McpHttpApp.sessionCount`). */
  sessions: number;
  /** V8 heap in use, in bytes (after a full GC unless `gc=false`). */
  heapUsed: number;
  /** Resident set size of the process, in bytes. */
  rss: number;
  /** Whether a GC ran before measuring. */
  collected: boolean;
}

/** A running load server subprocess. */
export interface LoadServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:1234/mcp`. */
  url: string;
  stats(options?: { gc?: boolean }): Promise<LoadServerStats>;
  /** SIGTERM, then waits; returns the exit code and stderr. */
  stop(): Promise<{ code: number; stderr: string }>;
}

const STATS_PATH = "/_load/stats";

/** Starts the load server as a subprocess with `env` (plus the few variables a subprocess needs). */
export async function startLoadServer(env: Record<string, string>): Promise<LoadServer> {
  const self = new URL(import.meta.url).pathname;
  const permissions = ["--allow-net=127.0.0.1", "--allow-env", "--allow-read"];
  const child = spawnPiped(["run", "--v8-flags=--expose-gc", ...permissions, self], { env });
  const server = await waitForListening(child, "the load server");
  const statsUrl = new URL(STATS_PATH, server.url);
  return {
    url: server.url,
    stats: async ({ gc = true } = {}) => {
      const response = await fetch(`${statsUrl}?gc=${gc}`, { signal: AbortSignal.timeout(10_000) });
      return await response.json();
    },
    stop: () => server.kill("SIGTERM"),
  };
}

function measure(gc: boolean): Omit<LoadServerStats, "sessions"> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (gc && collect) {
    // Twice: the first pass can leave objects whose finalizers free more for the second.
    collect();
    collect();
  }
  const memory = Deno.memoryUsage();
  return { heapUsed: memory.heapUsed, rss: memory.rss, collected: gc && collect !== undefined };
}

async function serve(): Promise<void> {
  const config = loadConfig(Deno.env.toObject());
  const services = createToolServices({ config, logger: createLogger("error") });
  const app = new McpHttpApp({ mode: "streamable-http", services, host: "127.0.0.1", port: 0 });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname !== STATS_PATH) return app.handle(request);
    return Response.json({ sessions: app.sessionCount, ...measure(url.searchParams.get("gc") !== "false") });
  });
  console.log(`listening on http://127.0.0.1:${server.addr.port}${app.path}`);
  await new Promise<void>((resolve) => Deno.addSignalListener("SIGTERM", resolve));
  await app.close();
  await server.shutdown();
}

if (import.meta.main) await serve();
