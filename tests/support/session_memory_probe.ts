/**
 * Opens streamable-HTTP sessions on an {@link McpHttpApp} in this process and never closes them, then
 * prints what they cost as JSON: `{ sessions, heapGrowth, rss }` (bytes; heap measured after a full GC).
 * Run with `--v8-flags=--expose-gc`; arguments: the session count, then the app's `maxSessions`.
 *
 * @module
 */
import { loadConfig } from "../../lib/config/config.ts";
import { createLogger } from "../../lib/core/log.ts";
import { McpHttpApp } from "../../lib/mcp/http_app.ts";
import { createToolServices } from "../../lib/mcp/server.ts";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1" } },
});

const [count, maxSessions] = Deno.args.map(Number);
// No catalog call is made: initialize needs none.
const config = loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:9" });
const services = createToolServices({ config, logger: createLogger("error", { write: () => {} }) });
const app = new McpHttpApp({ mode: "streamable-http", services, host: "127.0.0.1", port: 8000, maxSessions });
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error("run with --v8-flags=--expose-gc");

async function open(): Promise<void> {
  const response = await app.handle(
    new Request("http://127.0.0.1:8000/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: INITIALIZE,
    }),
  );
  await response.text();
}

for (let i = 0; i < 100; i++) await open(); // Code and caches in the baseline.
collect();
collect();
const before = Deno.memoryUsage().heapUsed;
for (let i = 0; i < count; i++) await open();
collect();
collect();
const after = Deno.memoryUsage();
console.log(
  JSON.stringify({ sessions: app.sessionCount, heapGrowth: after.heapUsed - before, rss: after.rss }),
);
await app.close();
