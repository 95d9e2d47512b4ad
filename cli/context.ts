/**
 * Builds the context an operation runs in from the environment: configuration, logger and clients are
 * created only when the operation asks for them, so `--help` and local commands need no account.
 *
 * @module
 */
import { CatalogClient } from "../lib/catalog/client.ts";
import { UnifiedCatalogClient } from "../lib/unified/client.ts";
import { type Config, type EnvSource, loadConfig, type LogLevel } from "../lib/config.ts";
import { createLogger, type Logger } from "../lib/log.ts";
import type { OperationContext } from "../lib/operations/types.ts";
import { readUserFile } from "../lib/user_files.ts";

export interface ContextOptions {
  env: EnvSource;
  verbose?: boolean;
  signal?: AbortSignal;
  /** Write of log lines; stderr by default. */
  writeLog?: (line: string) => void;
}

/** The log level before the configuration is read: --verbose, else a valid CATALOG_LOG, else warn. */
export function initialLogLevel(env: EnvSource, verbose = false): LogLevel {
  if (verbose) return "debug";
  const level = env.CATALOG_LOG?.toLowerCase();
  return level === "error" || level === "info" || level === "debug" ? level : "warn";
}

export function createOperationContext(options: ContextOptions): OperationContext {
  const logger: Logger = createLogger(initialLogLevel(options.env, options.verbose), {
    write: options.writeLog,
    secrets: [options.env.CLOUD_CLIENT_SECRET, options.env.CATALOG_MCP_AUTH_TOKEN],
  });
  let config: Config | undefined;
  let catalog: CatalogClient | undefined;
  let unified: UnifiedCatalogClient | undefined;
  const context: OperationContext = {
    logger,
    signal: options.signal,
    config: () => (config ??= loadConfig(options.env)),
    catalog: () => (catalog ??= CatalogClient.fromConfig(context.config(), { logger })),
    unified: () => (unified ??= UnifiedCatalogClient.fromConfig(context.config(), { logger })),
    readTextFile: (path, option) => readUserFile(path, option),
  };
  return context;
}
