/**
 * `govcat serve`: the MCP tool server. Flags override the environment (`--transport`, `--host`, `--port`,
 * `--read-only`); `--hosted` (or `FUNCTIONS_CUSTOMHANDLER_PORT`) selects the stateless mode of an Azure
 * Functions custom handler; `--emulator[=FILE]` runs the catalog emulator in-process. `--profile NAME` (or
 * `CATALOG_PROFILE`, else the default profile) supplies settings under the environment: defaults < profile
 * < environment < flags. Configuration is validated before anything listens: a bad value exits with code 2.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { withoutTaskSeparator } from "./task_separator.ts";
import { waitForStop } from "./stop_signals.ts";
import process from "node:process";
import { PassThrough } from "node:stream";
import { type Config, type EnvSource, loadConfig } from "../lib/config/config.ts";
import { isLoopbackHost } from "../lib/config/readers.ts";
import { ConfigError, GovcatError, UsageError } from "../lib/core/errors.ts";
import { EMULATOR_ACCOUNT_NAME } from "../lib/emulator/account/name.ts";
import type { RunningEmulator } from "../lib/emulator/mod.ts";
import { parseRolesOption, type TeamMode } from "./emulator_roles.ts";
import { createLogger, type Logger } from "../lib/core/log.ts";
import { type HttpMode, McpHttpApp } from "../lib/mcp/http_app.ts";
import { assertSafeBinding, jsonError } from "../lib/mcp/http_security.ts";
import { type GuardedServer, serveGuarded } from "../lib/net/net_guard.ts";
import { createToolServer, createToolServices } from "../lib/mcp/server.ts";
import { processTasks } from "../lib/mcp/tasks/tool_tasks.ts";
import type { ToolServices } from "../lib/mcp/tool.ts";
import { serveStdio } from "../lib/mcp/stdio.ts";
import { outsideCalls } from "../lib/mcp/session_log.ts";
import { type RealServer, REPLAY_ID } from "../lib/mcp/fast_start.ts";
import { type JSONRPCMessage, StdioServerTransport } from "../lib/deps/mcp_sdk.ts";
import { didYouMean } from "../lib/core/suggest.ts";
import { VERSION } from "../lib/core/version.ts";
import { initialLogLevel } from "./log_level.ts";
import { announceStdio, describeCatalog, describeFileRoot } from "./serve_services.ts";
import { effectiveServeEnv } from "./serve_fast.ts";

/** Local port of hosted mode when the Functions host does not assign one. */
export const HOSTED_DEFAULT_PORT = 7073;

const OPTIONS = {
  transport: { type: "string" },
  host: { type: "string" },
  port: { type: "string" },
  hosted: { type: "boolean" },
  path: { type: "string" },
  emulator: { type: "string" },
  "emulator-roles": { type: "string" },
  "read-only": { type: "boolean" },
  toolsets: { type: "string" },
  "dynamic-toolsets": { type: "boolean" },
  "file-root": { type: "string" },
  profile: { type: "string" },
  verbose: { type: "boolean", short: "v" },
  help: { type: "boolean", short: "h" },
} as const;

const HELP = `govcat serve: the MCP tool server

Usage: govcat serve [--transport=stdio|streamable-http|http|sse] [--host=H] [--port=N]
       govcat serve --hosted [--port=N] [--path=/api/mcp]
       govcat serve --emulator[=FILE] [--transport=http]

Options:
  --transport=T      stdio (default), streamable-http (alias http) on /mcp, or sse (legacy) on /sse
  --host=H           Bind address of the HTTP transports [CATALOG_MCP_HOST, 127.0.0.1]; a non-loopback
                     address needs CATALOG_MCP_AUTH_TOKEN
  --port=N           Port of the HTTP transports [CATALOG_MCP_PORT, 8000; hosted: 7073]
  --hosted           Stateless streamable HTTP at /api/mcp with GET /api/health (Azure Functions
                     custom handler; implied by FUNCTIONS_CUSTOMHANDLER_PORT)
  --path=P           Path of the MCP endpoint (default /mcp, hosted /api/mcp)
  --emulator[=FILE]  Run the catalog emulator in-process, seeded from fixtures/ on first use, and use it
                     (in memory, or persisted in FILE); no account or credentials needed
  --emulator-roles[=OID,...]
                     Team mode of the embedded emulator: each catalog request needs a bearer token whose
                     user holds the collection role it needs (no token: 401, no role: 403); the object
                     ids named hold every role on the root collection. Pair with sign-in and
                     CATALOG_MCP_CATALOG_IDENTITY=user, so tool calls reach it as the signed-in user
  --read-only        Hide and refuse every tool that changes the catalog or writes a local file
                     [CATALOG_MCP_READ_ONLY]
  --toolsets=A,B     Serve only these toolsets (entities, search, glossary, unified, collections, lineage,
                     types, relationships, workflows, account, operations; all) [CATALOG_MCP_TOOLSETS]
  --dynamic-toolsets Start each session with three tools that list and enable toolsets, adding their
                     tools on request (not in hosted mode) [CATALOG_MCP_DYNAMIC_TOOLSETS]
  --file-root=DIR    The directory file arguments must lie in [CATALOG_MCP_FILE_ROOT; unset: the roots
                     the MCP client declares, else no file access (--emulator: fixtures/samples)]
  --profile=NAME     Connection profile to apply under the environment [CATALOG_PROFILE, else the default]
  --verbose, -v      Log requests and tool calls to stderr`;

interface ServeFlags {
  transport?: string;
  host?: string;
  port?: string;
  hosted?: boolean;
  path?: string;
  emulator?: string;
  emulatorRoles?: TeamMode;
  readOnly?: boolean;
  toolsets?: string;
  dynamicToolsets?: boolean;
  fileRoot?: string;
  profile?: string;
  verbose?: boolean;
  help?: boolean;
}

/** Runs the tool server until it is stopped; returns the exit code. */
export async function runServeCommand(argv: string[], env: EnvSource): Promise<number> {
  const flags = parseServeFlags(argv);
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const logger = createLogger(initialLogLevel(env, flags.verbose));
  const hostedPort = env.FUNCTIONS_CUSTOMHANDLER_PORT;
  const hosted = flags.hosted === true || (hostedPort !== undefined && hostedPort !== "");
  const effective = effectiveServeEnv(
    env,
    flags,
    hosted ? hostedPort || String(HOSTED_DEFAULT_PORT) : undefined,
  );
  if (flags.fileRoot !== undefined) effective.CATALOG_MCP_FILE_ROOT = flags.fileRoot;

  // Validate everything the emulator does not affect before starting anything.
  const preliminary = loadConfig(effective, { defaultAccountName: EMULATOR_ACCOUNT_NAME });
  if (hosted && preliminary.mcpTransport === "sse") {
    throw new ConfigError(
      "SSE does not work in hosted mode: the hosted mode is stateless and SSE needs a persistent " +
        "connection. Use streamable-http (the hosted default) or stdio.",
      "CATALOG_MCP_TRANSPORT",
    );
  }
  if (hosted && preliminary.mcpDynamicToolsets) {
    throw new ConfigError(
      "The dynamic toolsets need a session that remembers what it enabled, and the hosted mode is " +
        "stateless. Choose toolsets with --toolsets (or CATALOG_MCP_TOOLSETS), or serve over streamable-http.",
      "CATALOG_MCP_DYNAMIC_TOOLSETS",
    );
  }
  const mode: HttpMode | "stdio" = hosted ? "hosted" : preliminary.mcpTransport;
  if (mode !== "stdio") {
    assertSafeBinding(preliminary.mcpHost, preliminary.mcpAuthToken, preliminary.mcpSignIn !== undefined);
  }

  let emulator: RunningEmulator | undefined;
  if (flags.emulator !== undefined) {
    // Loaded only here: the emulator's modules would add about 20 ms to every other server's start-up.
    const { startEmulator } = await import("../lib/emulator/mod.ts");
    emulator = await startEmulator({
      dataFile: flags.emulator || undefined,
      seed: true,
      logger,
      roles: flags.emulatorRoles,
    });
    effective.CATALOG_ENDPOINT = emulator.url;
    // The emulator serves the unified catalog too, under /datagovernance/catalog.
    effective.CATALOG_UNIFIED_ENDPOINT = emulator.url;
  }
  const config = emulator
    ? loadConfig(effective, { defaultAccountName: EMULATOR_ACCOUNT_NAME })
    : loadConfigOrOfferEmulator(effective);
  if (flags.emulatorRoles && config.mcpCatalogIdentity !== "user") {
    logger.warn(
      "--emulator-roles: tool calls use the server's identity, which sends no token to a loopback catalog, " +
        "so the emulator refuses them (401); sign users in with CATALOG_MCP_CATALOG_IDENTITY=user so that " +
        "each call reaches it as its user",
    );
  }
  try {
    // The emulator's catalog is a sample: so are the files it works on, unless a root is named.
    const fallbackFileRoot = emulator ? sampleFilesDirectory() : undefined;
    const services = createToolServices({ config, logger, fallbackFileRoot });
    const authenticated = !!config.mcpAuthToken || !!config.mcpSignIn;
    logger.info(
      `file root: ${describeFileRoot(config, fallbackFileRoot, mode === "stdio" || authenticated)}`,
    );
    if (mode === "stdio") {
      announceStdio(config, emulator, logger);
      await serveStdio(services);
      return 0;
    }
    return await serveHttp(mode, config, services, flags, emulator, logger);
  } finally {
    await emulator?.close();
  }
}

/**
 * The real stdio server behind the fast start (cli/serve_fast.ts), over the services the fast start built
 * (`stdioServices`, shared with its first tool calls): what serveStdio does, fed from the fast start's
 * buffer instead of stdin. Its answer to the replayed `initialize` (id REPLAY_ID) is dropped: the client
 * has had it.
 */
export async function startStdioHandoff(services: ToolServices): Promise<RealServer> {
  const server = createToolServer(services);
  // A failure to send to the client is not reported to it (session_log.ts).
  server.onerror = (error) => outsideCalls(() => services.logger.warn(`mcp: ${error.message}`));
  const input = new PassThrough();
  const ended = new Promise<void>((resolve) => {
    input.once("end", () => resolve());
    input.once("close", () => resolve());
  });
  const transport = new StdioServerTransport(input, process.stdout);
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) =>
    "id" in message && message.id === REPLAY_ID ? Promise.resolve() : send(message);
  await server.connect(transport);
  services.logger.info("govcat MCP server on stdio; waiting for a client");
  return {
    push: (bytes) => input.write(bytes),
    end: async () => {
      input.end();
      await ended;
      // As serveStdio: running tasks stop with the session's process.
      processTasks(services).abortAll();
      await server.close();
    },
    close: () => server.close(),
  };
}

async function serveHttp(
  mode: HttpMode,
  config: Config,
  services: ReturnType<typeof createToolServices>,
  flags: ServeFlags,
  emulator: RunningEmulator | undefined,
  logger: Logger,
): Promise<number> {
  // Listening starts before the server does: a launcher that ends during the start-up still counts.
  const stopped = waitForStop();
  // Loaded only when configured: the token verifier brings `jose`.
  const signInModule = config.mcpSignIn && await import("../lib/mcp/auth/sign_in.ts");
  const signIn = signInModule && new signInModule.EntraSignIn(config.mcpSignIn!, config.region, {
    metadataPath: mode === "hosted" ? signInModule.HOSTED_METADATA_PATH : undefined,
  });
  const app = new McpHttpApp({
    signIn,
    mode,
    services,
    path: flags.path,
    host: config.mcpHost,
    port: config.mcpPort,
    authToken: config.mcpAuthToken,
    allowedOrigins: config.mcpAllowedOrigins,
    maxSessions: config.mcpMaxSessions,
    sessionIdleMs: config.mcpSessionIdleSeconds * 1000,
    streamBufferBytes: config.mcpStreamBufferBytes,
  });
  let server: GuardedServer;
  try {
    // Behind the guard: bounded connections, header time and requests in flight (lib/net/net_guard.ts).
    server = serveGuarded({
      hostname: config.mcpHost,
      port: config.mcpPort,
      limits: {
        maxConnections: config.mcpMaxConnections,
        headerTimeoutMs: config.mcpHeaderTimeoutMs,
        maxInflight: config.mcpMaxInflight,
      },
      busyResponse: () =>
        jsonError(503, `The server is busy (${config.mcpMaxInflight} requests in flight); retry shortly.`),
      refusedBody: (limit) =>
        JSON.stringify({
          jsonrpc: "2.0",
          error: {
            code: -32000,
            message: `The server is at its connection limit (${limit} open connections); retry shortly, ` +
              "or raise CATALOG_MCP_MAX_CONNECTIONS (and ulimit -n: each connection takes up to three descriptors).",
          },
          id: null,
        }),
      onError: (error) => {
        logger.error(`govcat serve: request failed: ${error instanceof Error ? error.message : error}`);
        return jsonError(500, "Internal error while handling the request.");
      },
      log: (message) => logger.warn(`govcat serve: ${message}`),
    }, app.handle);
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new GovcatError(`Port ${config.mcpPort} on ${config.mcpHost} is already in use.`, {
        hint: "Stop the other process, or choose another port with --port or CATALOG_MCP_PORT.",
      });
    }
    throw error;
  }
  const host = isLoopbackHost(config.mcpHost) || config.mcpHost === "0.0.0.0" ? "127.0.0.1" : config.mcpHost;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${server.addr.port}${app.path}`;
  console.log(startBanner(mode, url, app, config, emulator));

  const reason = await stopped;
  logger.info(`govcat serve: ${reason}, shutting down`);
  await app.close();
  await server.shutdown();
  return 0;
}

function startBanner(
  mode: HttpMode,
  url: string,
  app: McpHttpApp,
  config: Config,
  emulator: RunningEmulator | undefined,
): string {
  const type = mode === "sse" ? "sse" : "http";
  const entry: Record<string, unknown> = { type, url };
  // The token itself is never printed: the snippet refers to the variable.
  if (config.mcpAuthToken) entry.headers = { Authorization: "Bearer ${CATALOG_MCP_AUTH_TOKEN}" };
  const signIn = config.mcpSignIn
    ? [
      `  sign-in:  Entra ID, tenant ${config.mcpSignIn.tenantId}; catalog calls as ${
        config.mcpCatalogIdentity === "user" ? "the signed-in user" : "the server"
      }`,
    ]
    : [];
  const lines = [
    `govcat ${VERSION} MCP server (${
      mode === "hosted" ? "hosted, stateless streamable HTTP" : mode
    }) on ${url}`,
    `  tools:    ${app.toolCount}${config.mcpReadOnly ? " (read-only mode)" : ""}${
      config.mcpToolsets ? ` in toolsets ${config.mcpToolsets.join(", ")}` : ""
    }${config.mcpDynamicToolsets ? ", enabled per session by toolset (dynamic toolsets)" : ""}`,
    `  catalog:  ${describeCatalog(config, emulator)}`,
    ...signIn,
  ];
  if (mode === "hosted") lines.push(`  health:   ${new URL("/api/health", url)}`);
  lines.push(
    "",
    'Client configuration (Claude Desktop, Cursor, VS Code\'s mcp.json uses "servers" instead):',
    JSON.stringify({ mcpServers: { govcat: entry } }, null, 2),
    "",
    `Claude Code: claude mcp add --transport ${type} govcat ${url}`,
    "Press Ctrl+C to stop.",
  );
  return lines.join("\n");
}

/** The checkout's sample files (fixtures/samples), when govcat runs from one. */
export function sampleFilesDirectory(): string | undefined {
  const url = new URL("../fixtures/samples/", import.meta.url);
  if (url.protocol !== "file:") return undefined;
  try {
    const path = fileURLToPath(url);
    return Deno.statSync(path).isDirectory ? path : undefined;
  } catch {
    return undefined;
  }
}

function parseServeFlags(argv: string[]): ServeFlags {
  // `--emulator` alone means an in-memory emulator; parseArgs needs a value for string options.
  const args = withoutTaskSeparator(argv).map((arg) =>
    arg === "--emulator" || arg === "--emulator-roles" ? `${arg}=` : arg
  );
  let values: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS }>>["values"];
  try {
    ({ values } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    const message = (error as Error).message;
    const option = /'(--?[^' =]+)/.exec(message)?.[1];
    const name = option?.replace(/^-+/, "") ?? "";
    const suggestion = (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
      ? didYouMean(name, Object.keys(OPTIONS), "--")
      : "";
    throw new UsageError(`serve: ${message}${suggestion}`, 'Run "govcat serve --help".');
  }
  return {
    transport: values.transport,
    host: values.host,
    port: values.port,
    hosted: values.hosted,
    path: values.path,
    emulator: values.emulator,
    emulatorRoles: emulatorRoles(values["emulator-roles"], values.emulator),
    readOnly: values["read-only"],
    toolsets: values.toolsets,
    dynamicToolsets: values["dynamic-toolsets"],
    fileRoot: values["file-root"],
    profile: values.profile,
    verbose: values.verbose,
    help: values.help,
  };
}

/** `--emulator-roles`: team mode of the embedded emulator, so only beside `--emulator`. */
function emulatorRoles(raw: string | undefined, emulator: string | undefined): TeamMode | undefined {
  if (raw === undefined) return undefined;
  if (emulator === undefined) {
    throw new UsageError(
      "serve: --emulator-roles is the team mode of the embedded emulator and needs --emulator",
      "Add --emulator, or leave out --emulator-roles: an account's roles are Purview's to enforce.",
    );
  }
  try {
    return parseRolesOption(raw, "--emulator-roles");
  } catch (error) {
    throw new UsageError(`serve: ${(error as Error).message}`, 'Run "govcat serve --help".');
  }
}

/** The configuration; without an account, the error also names `--emulator`, which needs none. */
function loadConfigOrOfferEmulator(env: EnvSource): Config {
  try {
    return loadConfig(env, {});
  } catch (error) {
    if (!(error instanceof ConfigError) || error.variable !== "CATALOG_ACCOUNT_NAME") throw error;
    throw new ConfigError(
      `${error.message} To try govcat without an account, run "govcat serve --emulator": it serves a ` +
        "sample catalog from an in-process emulator.",
      error.variable,
    );
  }
}
