/**
 * The entry of `govcat serve` over stdio with the fast start (lib/mcp/fast_start.ts): decides, with cheap
 * modules only, whether this command line is a stdio server whose configuration is valid, and if so
 * answers the MCP handshake at once while the real server loads. Anything else (help, HTTP transports,
 * hosted mode, the emulator, an unusual command line, any configuration error) returns undefined and runs
 * the ordinary path, which reports errors exactly as it always has. `GOVCAT_NO_FAST_START=1` turns the
 * fast start off.
 *
 * @module
 */
import { type EnvSource, loadConfig } from "../lib/config/config.ts";
import { EMULATOR_ACCOUNT_NAME } from "../lib/emulator/account/name.ts";
import { FAST_START_DATA, fastToolListing, type RealServer, serveFastStart } from "../lib/mcp/fast_start.ts";
import { createStdioGuard } from "../lib/mcp/stdio_guard.ts";
import type { ToolServices } from "../lib/mcp/tool.ts";
import { onStopSignals } from "../lib/core/stop_signals.ts";
import { resolveProfileEnv } from "./profile_selection.ts";

/** The flags of `govcat serve` that shape its environment. */
export interface ServeEnvFlags {
  transport?: string;
  host?: string;
  port?: string;
  readOnly?: boolean;
  toolsets?: string;
  dynamicToolsets?: boolean;
  profile?: string;
}

/** defaults < profile < environment < flags: the profile goes under the environment, flags on top. */
export function effectiveServeEnv(env: EnvSource, flags: ServeEnvFlags, hostedPort?: string): EnvSource {
  const effective: EnvSource = { ...resolveProfileEnv(env, flags.profile).env };
  if (flags.transport !== undefined) effective.CATALOG_MCP_TRANSPORT = flags.transport;
  if (flags.host !== undefined) effective.CATALOG_MCP_HOST = flags.host;
  if (flags.port !== undefined) effective.CATALOG_MCP_PORT = flags.port;
  else if (hostedPort !== undefined) effective.CATALOG_MCP_PORT = hostedPort;
  if (flags.readOnly) effective.CATALOG_MCP_READ_ONLY = "true";
  if (flags.toolsets !== undefined) effective.CATALOG_MCP_TOOLSETS = flags.toolsets;
  if (flags.dynamicToolsets) effective.CATALOG_MCP_DYNAMIC_TOOLSETS = "true";
  return effective;
}

/**
 * Serves `govcat serve …argv` over stdio with the fast start and returns the exit code, or returns
 * undefined at once, having written nothing, when the ordinary path must run instead.
 */
export async function runServeFastStart(argv: string[], env: EnvSource): Promise<number | undefined> {
  if (env.GOVCAT_NO_FAST_START === "1") return undefined;
  const hostedPort = env.FUNCTIONS_CUSTOMHANDLER_PORT;
  if (hostedPort !== undefined && hostedPort !== "") return undefined;
  const flags = simpleFlags(argv);
  if (!flags) return undefined;
  let tools;
  let effective: EnvSource;
  try {
    // The checks runServeCommand and the server make before serving stdio, in the same order.
    effective = effectiveServeEnv(env, flags);
    const preliminary = loadConfig(effective, { defaultAccountName: EMULATOR_ACCOUNT_NAME });
    if (preliminary.mcpTransport !== "stdio") return undefined;
    // The dynamic mode's first tools/list is not the pre-rendered one, nor is its initialize answer.
    if (preliminary.mcpDynamicToolsets) return undefined;
    const config = loadConfig(effective, {});
    if (config.mcpFileRoot !== undefined) {
      // node:path costs about 10 ms: loaded only for a configured root.
      (await import("../lib/files/file_access.ts")).checkFileRoot(config.mcpFileRoot);
    } else Deno.cwd();
    tools = fastToolListing({
      readOnly: config.mcpReadOnly,
      toolsSpec: config.mcpTools,
      toolsets: config.mcpToolsets,
    });
  } catch {
    return undefined;
  }
  const stopped = new Promise<void>((resolve) => void onStopSignals(() => resolve()));
  // One set of services for the process: the fast tool calls build it, the real server takes it over.
  // Loaded on first use: the catalog clients are not needed to answer the handshake.
  let shared: Promise<ToolServices> | undefined;
  const services = () =>
    shared ??= import("./serve_services.ts").then((module) =>
      module.stdioServices(effective, flags.verbose, env)
    );
  try {
    await serveFastStart({
      input: Deno.stdin,
      write: writeStdout,
      tools,
      stopped,
      // In steps, so the fast start answers between them (cli/serve_load_steps.ts).
      loadServer: async (calm) => {
        const { loadInSteps, serverLoadSteps } = await import("./serve_load_steps.ts");
        const command = await loadInSteps(serverLoadSteps(), () => import("./serve_command.ts"), calm);
        return guarded(await command.startStdioHandoff(await services()));
      },
      loadCalls: async (clientCapabilities, protocolVersion) =>
        new (await import("../lib/mcp/fast_tool_calls.ts")).FastToolCalls({
          services: await services(),
          toolModules: FAST_START_DATA.toolModules,
          clientCapabilities,
          protocolVersion,
          write: writeStdout,
        }),
    });
    return 0;
  } catch (error) {
    // The configuration was checked; what is left is an unexpected failure of the real server's load.
    console.error(`govcat: ${(error as Error)?.stack ?? error}`);
    return 1;
  }
}

const encoder = new TextEncoder();

/** The real server behind the guard that answers malformed lines, messages without a method and batches. */
function guarded(real: RealServer): RealServer {
  const guard = createStdioGuard({
    write: writeStdout,
    forward: (line) => real.push(line),
    supportedProtocolVersions: FAST_START_DATA.supportedProtocolVersions,
    latestProtocolVersion: FAST_START_DATA.latestProtocolVersion,
  });
  return {
    push: (bytes) => guard.push(bytes),
    end: () => {
      guard.end();
      return real.end();
    },
    close: () => real.close(),
  };
}

function writeStdout(text: string): void {
  const bytes = encoder.encode(text);
  let written = 0;
  while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
}

/**
 * The flags of a plain stdio command line (`--transport=stdio`, `--read-only`, `--profile=NAME`,
 * `--toolsets=A,B`, `-v`), or
 * undefined for anything else; parseArgs (node:util, about 7 ms) is the ordinary path's business.
 */
function simpleFlags(argv: string[]): (ServeEnvFlags & { verbose?: boolean }) | undefined {
  const flags: ServeEnvFlags & { verbose?: boolean } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    // A task runner's separator (`deno task x -- --read-only`): see task_separator.ts.
    if (arg === "--") continue;
    if (arg === "--read-only") flags.readOnly = true;
    else if (arg === "--verbose" || arg === "-v") flags.verbose = true;
    else {
      const match = /^--(transport|profile|toolsets)(?:=(.*))?$/s.exec(arg);
      if (!match) return undefined;
      let value = match[2];
      if (value === undefined) {
        value = argv[++i];
        if (value === undefined || value.startsWith("-")) return undefined;
      }
      if (match[1] === "transport") flags.transport = value;
      else if (match[1] === "toolsets") flags.toolsets = value;
      else flags.profile = value;
    }
  }
  return flags;
}
