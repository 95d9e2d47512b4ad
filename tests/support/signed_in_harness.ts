/**
 * An in-process tool server with Entra ID sign-in for tests: the emulator, the {@link EntraStandIn}
 * authority, the HTTP app on 127.0.0.1, and SDK clients that send a given user's token.
 *
 * @module
 */
import { loadConfig } from "../../lib/config/config.ts";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import { createLogger } from "../../lib/core/log.ts";
import { type HttpMode, McpHttpApp } from "../../lib/mcp/http_app.ts";
import { EntraSignIn, type EntraSignInOptions } from "../../lib/mcp/auth/sign_in.ts";
import { useAuditWriter } from "../../lib/mcp/auth/audit.ts";
import { createToolServices } from "../../lib/mcp/server.ts";
import type { ToolServices } from "../../lib/mcp/tool.ts";
import { type EntraStandIn, startEntraStandIn } from "./entra_stand_in.ts";
import type { McpClient } from "./mcp_harness.ts";

export interface SignedInHarness {
  authority: EntraStandIn;
  emulator: RunningEmulator;
  app: McpHttpApp;
  services: ToolServices;
  /** Base URL of the HTTP app. */
  baseUrl: string;
  /** The MCP endpoint URL. */
  mcpUrl: string;
  /** The audit lines written so far, parsed. */
  audit: Array<Record<string, unknown>>;
  /** A connected SDK client sending `token`. */
  connect(token: string): Promise<McpClient>;
  close(): Promise<void>;
}

export interface SignedInHarnessOptions {
  mode?: HttpMode;
  env?: Record<string, string>;
  verifier?: EntraSignInOptions;
  /** Arranges the services before any session starts (e.g. an on-behalf-of factory). */
  arrange?: (services: ToolServices, authority: EntraStandIn, emulator: RunningEmulator) => void;
}

export async function startSignedInHarness(options: SignedInHarnessOptions = {}): Promise<SignedInHarness> {
  const authority = await startEntraStandIn();
  const emulator = await startEmulator({ seed: true });
  const config = loadConfig({
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: emulator.url,
    CATALOG_UNIFIED_ENDPOINT: emulator.url,
    ...authority.env(options.env),
  });
  const services = createToolServices({ config, logger: createLogger("error", { write: () => {} }) });
  const audit: Array<Record<string, unknown>> = [];
  useAuditWriter(services, (line) => audit.push(JSON.parse(line)));
  options.arrange?.(services, authority, emulator);
  const mode = options.mode ?? "streamable-http";
  const app = new McpHttpApp({
    mode,
    services,
    host: "127.0.0.1",
    port: 0,
    signIn: new EntraSignIn(config.mcpSignIn!, config.region, options.verifier),
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.handle);
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  const mcpUrl = new URL(app.path, baseUrl).href;
  const sdk = await loadMcpClientSdk();
  const clients: McpClient[] = [];
  return {
    authority,
    emulator,
    app,
    services,
    baseUrl,
    mcpUrl,
    audit,
    async connect(token) {
      const client = new sdk.Client({ name: "govcat-test", version: "1.0.0" });
      const requestInit = { headers: { authorization: `Bearer ${token}` } };
      await client.connect(
        mode === "sse"
          ? new sdk.SSEClientTransport(new URL(mcpUrl), {
            requestInit,
            eventSourceInit: {
              fetch: (url, init) =>
                fetch(url, { ...init, headers: { ...init?.headers, authorization: `Bearer ${token}` } }),
            },
          })
          : new sdk.StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit }),
      );
      clients.push(client);
      return client;
    },
    close: async () => {
      await Promise.all(clients.map((client) => client.close()));
      await app.close();
      await server.shutdown();
      await emulator.close();
      await authority.close();
    },
  };
}
