/**
 * Builds the context an operation runs in from the environment: configuration, logger and clients are
 * created only when the operation asks for them, so `--help` and local commands need no account.
 *
 * The configuration applies the selected connection profile (`--profile`, `CATALOG_PROFILE`, else the
 * default one; see `cli/profile_selection.ts`): defaults < profile < environment < flags. The profiles file is read
 * only when the configuration is first needed.
 *
 * @module
 */
import { CatalogClient } from "../lib/catalog/client.ts";
import { UnifiedCatalogClient } from "../lib/catalog/unified_api.ts";
import { type Config, type EnvSource, loadConfig } from "../lib/config/config.ts";
import { unrestrictedFileAccess } from "../lib/files/file_access.ts";
import { createLogger, type Logger } from "../lib/core/log.ts";
import type { ProfileAwareContext } from "../lib/operations/profile_operations.ts";
import type { ProgressSink } from "../lib/core/progress.ts";
import { readUserFile } from "../lib/files/user_files.ts";
import { createProfileService } from "./profile_service.ts";
import { resolveProfileEnv } from "./profile_selection.ts";
import { initialLogLevel } from "./log_level.ts";

export interface ContextOptions {
  env: EnvSource;
  /** The `--profile` option: the profile to use instead of CATALOG_PROFILE or the default. */
  profile?: string;
  verbose?: boolean;
  signal?: AbortSignal;
  /** Write of log lines; stderr by default. */
  writeLog?: (line: string) => void;
  /** Where long jobs report progress (see `cli/progress.ts`). */
  progress?: ProgressSink;
}

export function createOperationContext(options: ContextOptions): ProfileAwareContext {
  const logger: Logger = createLogger(initialLogLevel(options.env, options.verbose), {
    write: options.writeLog,
    secrets: [options.env.CLOUD_CLIENT_SECRET, options.env.CATALOG_MCP_AUTH_TOKEN],
  });
  let config: Config | undefined;
  let catalog: CatalogClient | undefined;
  let unified: UnifiedCatalogClient | undefined;
  const context: ProfileAwareContext = {
    logger,
    signal: options.signal,
    progress: options.progress,
    // The command line runs as the user who typed it: any file they name may be read or written.
    files: unrestrictedFileAccess,
    config: () => (config ??= loadConfig(resolveProfileEnv(options.env, options.profile).env)),
    catalog: () => (catalog ??= CatalogClient.fromConfig(context.config(), { logger })),
    unified: () => (unified ??= UnifiedCatalogClient.fromConfig(context.config(), { logger })),
    readTextFile: (path, option) => readUserFile(path, option, unrestrictedFileAccess),
    profiles: createProfileService({ env: options.env, profile: options.profile }),
  };
  return context;
}
