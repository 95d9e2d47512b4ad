/**
 * What the tools of a server share (one catalog client and its rate limiter, the logger, the file root)
 * and what each session adds: the roots its client declares and the secrets masked in its results. Free of
 * the MCP SDK, so the stdio fast start can run a first tool call with the very services the real server
 * takes over afterwards.
 *
 * @example
 * ```ts
 * import { createToolServices } from "./tool_services.ts";
 * import { loadConfig } from "../config/config.ts";
 * const services = createToolServices({ config: loadConfig({ CATALOG_ACCOUNT_NAME: "contoso" }) });
 * services.readOnly; // false
 * ```
 *
 * @module
 */
import { CatalogClient } from "../catalog/client.ts";
import type { Config } from "../config/config.ts";
import {
  checkFileRoot,
  confinedFileAccess,
  declaredRoots,
  FILE_ROOT_VARIABLE,
  noFileAccess,
} from "../files/file_access.ts";
import { createLogger, type Logger } from "../core/log.ts";
import type { OperationRegistry } from "../operations/registry.ts";
import type { FileAccess } from "../files/file_access.ts";
import { UnifiedCatalogClient } from "../catalog/unified_api.ts";
import { readUserFile } from "../files/user_files.ts";
import type { ToolServices } from "./tool.ts";

export interface ToolServicesOptions {
  config: Config;
  logger?: Logger;
  /** A registry of its own (tests); the full one is loaded on first use otherwise. */
  registry?: OperationRegistry;
  /** A ready catalog client (tests, the embedded emulator); built from the config otherwise. */
  catalog?: CatalogClient;
  /**
   * The file root when neither CATALOG_MCP_FILE_ROOT nor the client names one: `serve --emulator` uses
   * the checkout's sample files. Without it such a server has no file access.
   */
  fallbackFileRoot?: string;
}

/** Where a server's file arguments may lead: a configured root, or the client's roots (with a fallback). */
interface FileRootSetting {
  configured?: FileAccess;
  fallback?: FileAccess;
  /** Why the roots clients declare are not used (unauthenticated HTTP); undefined when they are. */
  declaredRootsRefused?: string;
}

const fileRootSettings = new WeakMap<ToolServices, FileRootSetting>();

/** How long a client may take to answer `roots/list`. */
export const ROOTS_TIMEOUT_MS = 5_000;

const NO_ROOT = `no ${FILE_ROOT_VARIABLE} is set and the MCP client declares no roots`;

/**
 * One set of services per process: every session shares the catalog client and its rate limiter. Throws
 * ConfigError when CATALOG_MCP_FILE_ROOT is not an existing directory (or is a file system root), so a
 * server never starts with it. Without it, each session's files are confined to the roots its client
 * declares (see {@link sessionRoots}); the services' own context has no file access.
 */
export function createToolServices(options: ToolServicesOptions): ToolServices {
  const logger = options.logger ?? createLogger(options.config.logLevel);
  const configured = options.config.mcpFileRoot !== undefined
    ? confinedFileAccess(checkFileRoot(options.config.mcpFileRoot))
    : undefined;
  const fallback = options.fallbackFileRoot !== undefined
    ? confinedFileAccess(checkFileRoot(options.fallbackFileRoot, "the sample file directory"))
    : undefined;
  const files = configured ?? fallback ?? noFileAccess(NO_ROOT);
  logger.addSecret(options.config.clientSecret);
  logger.addSecret(options.config.mcpAuthToken);
  logger.addSecret(options.config.mcpSignIn?.clientSecret);
  let catalog = options.catalog;
  let unified: UnifiedCatalogClient | undefined;
  // Every operation's module (about 30 ms to load): only the registry tools need them all.
  let registry: Promise<OperationRegistry> | undefined = options.registry &&
    Promise.resolve(options.registry);
  const services: ToolServices = {
    config: () => options.config,
    catalog: () => (catalog ??= CatalogClient.fromConfig(options.config, { logger })),
    unified: () => (unified ??= UnifiedCatalogClient.fromConfig(options.config, { logger })),
    registry: () =>
      registry ??= import("../operations/mod.ts").then((module) => module.createOperationRegistry()),
    logger,
    readOnly: options.config.mcpReadOnly,
    operationContext: (signal, progress) => ({
      config: () => options.config,
      catalog: services.catalog,
      unified: services.unified,
      logger,
      signal,
      files,
      progress,
      readTextFile: (path, option) => readUserFile(path, option, files),
    }),
  };
  fileRootSettings.set(services, { configured, fallback });
  return services;
}

/** Why a client's declared roots are not used over HTTP without a token or sign-in, for logs and errors. */
export const UNAUTHENTICATED_ROOTS = "the roots an MCP client declares are used over HTTP only when the " +
  "server authenticates its clients (CATALOG_MCP_AUTH_TOKEN or Entra ID sign-in): without that, any local " +
  `process could declare one; only ${FILE_ROOT_VARIABLE} (--file-root) applies`;

/**
 * Serves `services` over HTTP: unless `authenticated` (a bearer token or Entra ID sign-in guards every
 * request), the roots clients declare are not used, since any process that can reach the port could
 * declare `file:///etc` and read or write there with the server's rights. Only the configured root (or
 * the emulator's samples) then applies. Over stdio the client launched the server: its roots are trusted.
 */
export function serveOverHttp(services: ToolServices, authenticated: boolean): void {
  const setting = fileRootSettings.get(services);
  if (setting && !authenticated) setting.declaredRootsRefused = UNAUTHENTICATED_ROOTS;
}

/** The values masked in every error result of a session: the configured secrets long enough to mask. */
export function sessionSecrets(config: Config): string[] {
  return [config.clientSecret, config.mcpAuthToken, config.mcpSignIn?.clientSecret]
    .filter((s): s is string => !!s && s.length >= 6);
}

/** How a session asks its client for roots: the SDK's server, or the stdio fast start. */
export interface RootsClient {
  /** The client declared the `roots` capability. */
  declaresRoots(): boolean;
  /** `roots/list`, sent within the tool call `requestId`; rejects on an error answer or after `timeoutMs`. */
  listRoots(requestId: string | number | undefined, timeoutMs: number): Promise<Array<{ uri: string }>>;
}

/** The file access of a session's tool calls: the roots its client declares, asked when a call needs them. */
export interface SessionRoots {
  access(requestId?: string | number): FileAccess;
  /** The client's roots changed (`notifications/roots/list_changed`): asked again on the next file argument. */
  changed(): void;
}

/**
 * The roots of a session of `services`, or undefined when a file root is configured (then every session
 * uses it and no client is asked).
 */
export function sessionRoots(services: ToolServices, client: RootsClient): SessionRoots | undefined {
  const setting = fileRootSettings.get(services);
  if (!setting || setting.configured) return undefined;
  return new ClientRoots(client, setting, services.logger);
}

/**
 * The roots one client session declared (`roots/list`), asked on the first file argument and again after
 * `notifications/roots/list_changed`; only `file://` directories count, never a file system root.
 */
class ClientRoots implements SessionRoots {
  #answer: Promise<FileAccess> | undefined;
  #warned = false;
  constructor(
    private readonly client: RootsClient,
    private readonly setting: FileRootSetting,
    private readonly logger: Logger,
  ) {}

  private get fallback(): FileAccess | undefined {
    return this.setting.fallback;
  }

  changed(): void {
    this.#answer = undefined;
  }

  access(requestId: string | number | undefined): FileAccess {
    return {
      readable: async (path, option) => (await this.#current(requestId)).readable(path, option),
      writable: async (path, option) => (await this.#current(requestId)).writable(path, option),
    };
  }

  #current(requestId: string | number | undefined): Promise<FileAccess> {
    if (!this.client.declaresRoots()) {
      return Promise.resolve(this.fallback ?? noFileAccess(NO_ROOT));
    }
    const refused = this.setting.declaredRootsRefused;
    if (refused) {
      if (!this.#warned) this.logger.warn(`mcp: client roots not used: ${refused}`);
      this.#warned = true;
      return Promise.resolve(this.fallback ?? noFileAccess(refused));
    }
    const answer = this.#answer ??= this.client.listRoots(requestId, ROOTS_TIMEOUT_MS).then((roots) => {
      const { roots: usable, ignored } = declaredRoots(roots.map((root) => root.uri));
      if (ignored.length > 0) this.logger.warn(`mcp: client roots not used: ${ignored.join("; ")}`);
      if (usable.length > 0) return confinedFileAccess(usable);
      return this.fallback ?? noFileAccess(
        ignored.length > 0
          ? `no ${FILE_ROOT_VARIABLE} is set and none of the roots the MCP client declares is usable ` +
            `(${ignored.join("; ")})`
          : NO_ROOT,
      );
    }, (error) => {
      // Asked again next time: the client may answer then.
      if (this.#answer === answer) this.#answer = undefined;
      this.logger.warn(`mcp: roots/list failed: ${(error as Error)?.message ?? error}`);
      return this.fallback ??
        noFileAccess(`no ${FILE_ROOT_VARIABLE} is set and the MCP client did not list its roots`);
    });
    return answer;
  }
}
