/**
 * The services of `govcat serve` and what it logs about them at the start. Free of the MCP SDK: over
 * stdio the fast start builds the services for a first tool call, and the real server takes the same ones
 * over (one catalog client, one token, one rate limiter per process).
 *
 * @module
 */
import { type Config, type EnvSource, loadConfig } from "../lib/config/config.ts";
import type { Logger } from "../lib/core/log.ts";
import { createLogger } from "../lib/core/log.ts";
import type { ToolServices } from "../lib/mcp/tool.ts";
import { createToolServices } from "../lib/mcp/tool_services.ts";
import { initialLogLevel } from "./log_level.ts";

/** What the start-up log says of an embedded emulator (a RunningEmulator; its module is not loaded here). */
export interface EmulatorInUse {
  url: string;
  dataLocation: string;
  entityCount(): number;
}

/**
 * The services of a stdio server on an already validated environment (`effective`: profile, environment
 * and flags merged), with the start-up lines `govcat serve` logs for stdio.
 */
export function stdioServices(
  effective: EnvSource,
  verbose: boolean | undefined,
  env: EnvSource,
): ToolServices {
  const logger = createLogger(initialLogLevel(env, verbose));
  const config = loadConfig(effective, {});
  const services = createToolServices({ config, logger });
  logger.info(`file root: ${describeFileRoot(config, undefined)}`);
  announceStdio(config, undefined, logger);
  return services;
}

/** What a stdio server logs before it serves: sign-in settings it cannot use, and the catalog it uses. */
export function announceStdio(config: Config, emulator: EmulatorInUse | undefined, logger: Logger): void {
  if (config.mcpSignIn) {
    logger.warn(
      "CATALOG_MCP_ENTRA_* configure sign-in on the HTTP transports; over stdio there is none, and tool " +
        "calls use the server's own identity.",
    );
  }
  logger.info(describeCatalog(config, emulator));
}

/**
 * Where file arguments may lead, for the start-up log. `declaredRootsTrusted` is false on an HTTP transport
 * that authenticates no one: roots its clients declare are not used there (see `serveOverHttp`).
 */
export function describeFileRoot(
  config: Config,
  fallback: string | undefined,
  declaredRootsTrusted = true,
): string {
  if (config.mcpFileRoot !== undefined) return `${config.mcpFileRoot} (CATALOG_MCP_FILE_ROOT or --file-root)`;
  if (!declaredRootsTrusted) {
    return `${fallback ?? "no file access"} (roots MCP clients declare are not used: this HTTP server ` +
      "authenticates no one; set CATALOG_MCP_AUTH_TOKEN or --file-root)";
  }
  return `the roots each MCP client declares, else ${fallback ?? "no file access"}`;
}

/** The catalog a server uses, for the start-up log. */
export function describeCatalog(config: Config, emulator: EmulatorInUse | undefined): string {
  if (emulator) {
    return `embedded emulator at ${emulator.url} (${emulator.entityCount()} entities, ${
      emulator.dataLocation === ":memory:" ? "in memory" : emulator.dataLocation
    })`;
  }
  return `account ${config.accountName}${config.endpoint ? ` via ${config.endpoint}` : ""}`;
}
