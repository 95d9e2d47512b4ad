/**
 * An in-process tool server for tests: the emulator, the HTTP app on 127.0.0.1 and a real SDK client
 * connected over streamable HTTP (or SSE, or hosted).
 *
 * @module
 */
import { loadConfig } from "../../lib/config/config.ts";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import { createLogger } from "../../lib/core/log.ts";
import { type HttpMode, McpHttpApp, type McpHttpAppOptions } from "../../lib/mcp/http_app.ts";
import { createToolServices } from "../../lib/mcp/server.ts";
import type { CatalogClient } from "../../lib/catalog/client.ts";
import { type TaskLimits, TaskStore } from "../../lib/mcp/tasks/task_store.ts";
import { processTasks, useTaskStore } from "../../lib/mcp/tasks/tool_tasks.ts";

type Sdk = Awaited<ReturnType<typeof loadMcpClientSdk>>;
export type McpClient = InstanceType<Sdk["Client"]>;

export interface Harness {
  client: McpClient;
  emulator: RunningEmulator;
  app: McpHttpApp;
  /** The catalog client the tools use, for arranging data in tests. */
  catalog: CatalogClient;
  /** Base URL of the HTTP app, e.g. http://127.0.0.1:1234 */
  baseUrl: string;
  /** The server process's tasks. */
  tasks: TaskStore;
  /** Another SDK client on a session of its own (closed with the harness unless closed before). */
  connect(): Promise<McpClient>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  mode?: HttpMode;
  path?: string;
  authToken?: string;
  /** Connect no client (for raw HTTP tests). */
  noClient?: boolean;
  /** Further options of the HTTP app (event store bounds). */
  app?: Pick<McpHttpAppOptions, "eventStoreLimits">;
  /** The fetch the client uses (to cut its streams, as a network would). */
  fetch?: typeof fetch;
  /** What the client declares, and sets up before it connects (an elicitation handler). */
  client?: {
    capabilities: Record<string, unknown>;
    setUp?(client: McpClient): void;
  };
  /** Bounds of the server's tasks other than the server's own (expiry, limits). */
  tasks?: Partial<TaskLimits>;
  /** The emulator's sample catalog (the default); false starts an empty one, as a new account is. */
  seed?: boolean;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({ seed: options.seed ?? true });
  const config = loadConfig({
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: emulator.url,
    CATALOG_UNIFIED_ENDPOINT: emulator.url,
    CATALOG_MCP_AUTH_TOKEN: options.authToken ?? "",
    ...options.env,
  });
  const services = createToolServices({ config, logger: createLogger("error", { write: () => {} }) });
  if (options.tasks) useTaskStore(services, new TaskStore(options.tasks));
  const mode = options.mode ?? "streamable-http";
  const app = new McpHttpApp({
    mode,
    services,
    path: options.path,
    host: "127.0.0.1",
    port: 0,
    authToken: config.mcpAuthToken,
    ...options.app,
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.handle);
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  const { Client, StreamableHTTPClientTransport, SSEClientTransport } = await loadMcpClientSdk();
  const url = new URL(app.path, baseUrl);
  const headers = options.authToken ? { authorization: `Bearer ${options.authToken}` } : undefined;
  const clients: McpClient[] = [];
  const newClient = () => {
    const client = new Client({ name: "govcat-test", version: "1.0.0" }, {
      capabilities: options.client?.capabilities,
    });
    options.client?.setUp?.(client);
    return client;
  };
  const connect = async () => {
    const client = newClient();
    await client.connect(
      mode === "sse"
        ? new SSEClientTransport(url, { requestInit: { headers } })
        : new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: options.fetch }),
    );
    clients.push(client);
    return client;
  };
  const client = options.noClient ? newClient() : await connect();
  return {
    client,
    emulator,
    app,
    catalog: services.catalog(),
    baseUrl,
    tasks: processTasks(services),
    connect,
    close: async () => {
      await client.close();
      for (const other of clients.filter((c) => c !== client)) await other.close();
      await app.close();
      await server.shutdown();
      await emulator.close();
    },
  };
}

/** The JSON a tool result carries as text. */
export function resultJson(result: Record<string, unknown>): Record<string, unknown> {
  const content = result.content as Array<{ type: string; text?: string }>;
  return JSON.parse(content[0].text ?? "null");
}

/**
 * Opens a raw legacy SSE session at `baseUrl`: the URL its `endpoint` event names for POSTs, and a `close`
 * that ends the event stream.
 */
export async function openSseSession(baseUrl: string): Promise<{ endpoint: URL; close(): Promise<void> }> {
  const stream = await fetch(`${baseUrl}/sse`, { headers: { accept: "text/event-stream" } });
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let head = "";
  while (!/data: (\S+)\n/.test(head)) {
    const read = await reader.read();
    if (read.done) throw new Error(`the SSE stream ended before its endpoint event: ${head}`);
    head += read.value;
  }
  return { endpoint: new URL(/data: (\S+)\n/.exec(head)![1], baseUrl), close: () => reader.cancel() };
}
