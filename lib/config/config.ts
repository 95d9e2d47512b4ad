/**
 * Configuration from environment variables (the service's CATALOG_* variables plus govcat's own overrides), read and validated once
 * at start-up. Every problem is reported with the variable's name, the bad value and what is allowed, and
 * secrets are never echoed back.
 *
 * @example
 * ```ts
 * import { loadConfig } from "./config.ts";
 * const config = loadConfig({ CATALOG_ACCOUNT_NAME: "contoso" });
 * console.log(config.maxRetries); // 3
 * ```
 *
 * @module
 */
import {
  assertOneClientAuthentication,
  type CatalogIdentity,
  type EntraSignInSettings,
  readCatalogIdentity,
  readEntraSignIn,
} from "./entra_settings.ts";
import { ConfigError } from "../core/errors.ts";
import { isGuid } from "../core/guid.ts";
import {
  apiVersion,
  authToken,
  baseUrl,
  boolean,
  integer,
  invalid,
  isLoopbackHost,
  origins,
  type Reader,
} from "./readers.ts";
import { DEFAULT_MAX_JSON_DEPTH, MAX_JSON_DEPTH_LIMIT } from "../core/json_depth.ts";
import type { LogLevel } from "../core/log.ts";
import { DEFAULT_PAGING_LIMITS } from "../http/paging_guard.ts";
import { configuredToolsets, type ToolsetName } from "../mcp/toolsets.ts";

export type { CatalogIdentity, EntraSignInSettings };

/** Sovereign cloud selector: `""` is the public cloud. */
export type CloudRegion = "" | "usgov" | "china";
/** The canonical transport names; `http` is accepted as an alias of `streamable-http`. */
export type McpTransport = "stdio" | "streamable-http" | "sse";
export type { LogLevel };

/** Validated configuration. Optional values are `undefined` when unset. */
export interface Config {
  /** The catalog account's name, without the domain: `contoso` for contoso.purview.azure.com (CATALOG_ACCOUNT_NAME). */
  accountName: string;
  /** Entra tenant id (GUID) of the service principal (CLOUD_TENANT_ID). */
  tenantId?: string;
  /** Application (client) id of the service principal (CLOUD_CLIENT_ID). */
  clientId?: string;
  /** Client secret of the service principal (CLOUD_CLIENT_SECRET); never printed or logged. */
  clientSecret?: string;
  /** The cloud the account is in, which picks the login and catalog hosts (CLOUD_REGION). */
  region: CloudRegion;
  /** Retries after the first attempt of a failed request (CATALOG_MAX_RETRIES). */
  maxRetries: number;
  /** Time one attempt may take, in seconds (CATALOG_TIMEOUT). */
  timeoutSeconds: number;
  /** Rows or items per request of bulk work (CATALOG_BATCH_SIZE). */
  batchSize: number;
  /** The tool server's transport (CATALOG_MCP_TRANSPORT). */
  mcpTransport: McpTransport;
  /** The address the HTTP transports bind (CATALOG_MCP_HOST). */
  mcpHost: string;
  /** The port the HTTP transports listen on (CATALOG_MCP_PORT). */
  mcpPort: number;
  /** Base URL overriding `https://{account}.purview.azure.com` (emulator, private endpoints). */
  endpoint?: string;
  /** Base URL overriding the unified catalog host. */
  unifiedEndpoint?: string;
  /** api-version sent to the data map (Atlas v2, search, lineage, glossary) API. */
  apiVersion: string;
  /** api-version sent to the unified catalog API. */
  unifiedApiVersion: string;
  /**
   * api-version of the unified catalog's data asset and data column calls (CATALOG_UNIFIED_ASSETS_API_VERSION);
   * unset, {@link DEFAULT_UNIFIED_ASSETS_API_VERSION}.
   */
  unifiedAssetsApiVersion?: string;
  /** OAuth scope requested for catalog tokens. */
  tokenScope: string;
  /** Fixed client-side limit of requests per second to the catalog; 0 (the default) sets none. */
  rateLimit: number;
  /** Largest catalog answer read, in bytes once decompressed (CATALOG_MAX_RESPONSE_BYTES). */
  maxResponseBytes: number;
  /** Longest Retry-After waited for, in seconds; a longer one fails at once (CATALOG_MAX_RETRY_WAIT). */
  maxRetryWaitSeconds: number;
  /** Time one request may take, every attempt and backoff included, in seconds (CATALOG_REQUEST_DEADLINE). */
  requestDeadlineSeconds: number;
  /** Pages one paged list may fetch (CATALOG_MAX_PAGES). */
  maxPages: number;
  /** Items one paged list may read (CATALOG_MAX_ITEMS). */
  maxItems: number;
  /** Time one paged list may take, in seconds (CATALOG_PAGING_TIMEOUT). */
  pagingTimeoutSeconds: number;
  /** Deepest nesting of arrays and objects accepted in a catalog answer (CATALOG_MAX_JSON_DEPTH). */
  maxJsonDepth: number;
  /** How much is logged to stderr (CATALOG_LOG). */
  logLevel: LogLevel;
  /** The tool server offers only tools and operations that change nothing (CATALOG_MCP_READ_ONLY). */
  mcpReadOnly: boolean;
  /** Tool allow/deny list, e.g. `get_entity,search_entities` or `-delete_entity`. */
  mcpTools?: string;
  /** The toolsets served (CATALOG_MCP_TOOLSETS, `--toolsets`); undefined: every one. */
  mcpToolsets?: ToolsetName[];
  /** Sessions start with the three toolset tools and enable sets on request (CATALOG_MCP_DYNAMIC_TOOLSETS). */
  mcpDynamicToolsets: boolean;
  /** Bearer token clients must present to the HTTP transports. */
  mcpAuthToken?: string;
  /** Browser origins allowed besides loopback ones. */
  mcpAllowedOrigins: string[];
  /**
   * The directory tree the tool server may read and write files in, as given; `undefined` means the
   * roots each MCP client declares, else no file access (never the working directory). Checked (an
   * existing directory, not a file system root) when the tool server starts, not here: loading the
   * configuration reads nothing but the environment.
   */
  mcpFileRoot?: string;
  /**
   * Time a person has to answer the confirmation of a destructive tool call (MCP elicitation), in ms
   * (CATALOG_MCP_CONFIRM_TIMEOUT_MS); past it the call ends changing nothing.
   */
  mcpConfirmTimeoutMs: number;
  /** HTTP transports: connections open at once (CATALOG_MCP_MAX_CONNECTIONS). */
  mcpMaxConnections: number;
  /** HTTP transports: time a request head may take to arrive, in ms (CATALOG_MCP_HEADER_TIMEOUT_MS). */
  mcpHeaderTimeoutMs: number;
  /** HTTP transports: requests handled at once; more get 503 (CATALOG_MCP_MAX_INFLIGHT). */
  mcpMaxInflight: number;
  /** HTTP transports: MCP sessions kept; the least recently used goes first (CATALOG_MCP_MAX_SESSIONS). */
  mcpMaxSessions: number;
  /** HTTP transports: a session idle this long is closed, in seconds (CATALOG_MCP_SESSION_IDLE_SECONDS). */
  mcpSessionIdleSeconds: number;
  /** HTTP transports: unread bytes an event stream may hold before it is closed (CATALOG_MCP_STREAM_BUFFER_BYTES). */
  mcpStreamBufferBytes: number;
  /** HTTP transports: Entra ID sign-in (CATALOG_MCP_ENTRA_*); undefined when not configured. */
  mcpSignIn?: EntraSignInSettings;
  /** Whose identity tool calls use with the catalog (CATALOG_MCP_CATALOG_IDENTITY). */
  mcpCatalogIdentity: CatalogIdentity;
}

export const DEFAULT_API_VERSION = "2023-09-01";
export const DEFAULT_UNIFIED_API_VERSION = "2025-09-15-preview";
/** The data asset and data column calls exist only from this version on. */
export const DEFAULT_UNIFIED_ASSETS_API_VERSION = "2026-03-20-preview";
export const DEFAULT_TOKEN_SCOPE = "https://purview.azure.net/.default";

/** Purview account names: 3-63 letters, digits and hyphens, starting with a letter or digit. */
const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{1,61}[A-Za-z0-9]$/;
const TRANSPORTS: Record<string, McpTransport> = {
  "stdio": "stdio",
  "streamable-http": "streamable-http",
  "http": "streamable-http",
  "sse": "sse",
};
const REGIONS: CloudRegion[] = ["", "usgov", "china"];
const LOG_LEVELS: LogLevel[] = ["error", "warn", "info", "debug"];

/** Environment as a plain record, so tests and callers can pass their own. */
export type EnvSource = Record<string, string | undefined>;

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** Value used when `CATALOG_ACCOUNT_NAME` is unset (the embedded emulator supplies its own). */
  defaultAccountName?: string;
}

/** Reads the whole environment of this process, or an empty record when env access is not granted. */
export function processEnv(): EnvSource {
  try {
    return Deno.env.toObject();
  } catch {
    return {};
  }
}

/**
 * Reads and validates the configuration. Throws {@link ConfigError} (exit code 2) on the first problem,
 * naming the variable, the bad value and the allowed values.
 */
export function loadConfig(env: EnvSource = processEnv(), options: LoadConfigOptions = {}): Config {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };

  const accountName = readAccountName(read, options.defaultAccountName);
  const { tenantId, clientId, clientSecret } = readServicePrincipal(read);
  const { region, mcpTransport, logLevel, mcpHost } = readChoices(read);

  const mcpAuthToken = authToken(read("CATALOG_MCP_AUTH_TOKEN"), mcpHost);
  const mcpSignIn = readEntraSignIn(read, isLoopbackHost);
  assertOneClientAuthentication(mcpAuthToken, mcpSignIn);

  return {
    accountName,
    tenantId,
    clientId,
    clientSecret,
    region,
    maxRetries: integer(read, "CATALOG_MAX_RETRIES", 3, 0, 10),
    timeoutSeconds: integer(read, "CATALOG_TIMEOUT", 30, 1, 3600),
    batchSize: integer(read, "CATALOG_BATCH_SIZE", 100, 1, 1000),
    mcpTransport,
    mcpHost,
    mcpPort: integer(read, "CATALOG_MCP_PORT", 8000, 0, 65535),
    endpoint: baseUrl(read, "CATALOG_ENDPOINT"),
    unifiedEndpoint: baseUrl(read, "CATALOG_UNIFIED_ENDPOINT"),
    apiVersion: apiVersion(read, "CATALOG_API_VERSION", DEFAULT_API_VERSION),
    unifiedApiVersion: apiVersion(read, "CATALOG_UNIFIED_API_VERSION", DEFAULT_UNIFIED_API_VERSION),
    unifiedAssetsApiVersion: apiVersion(
      read,
      "CATALOG_UNIFIED_ASSETS_API_VERSION",
      DEFAULT_UNIFIED_ASSETS_API_VERSION,
    ),
    tokenScope: scope(read),
    rateLimit: integer(read, "CATALOG_RATE_LIMIT", 0, 0, 10000),
    maxResponseBytes: integer(read, "CATALOG_MAX_RESPONSE_BYTES", 64 * 1024 * 1024, 1024 * 1024, 1024 ** 3),
    maxRetryWaitSeconds: integer(read, "CATALOG_MAX_RETRY_WAIT", 120, 0, 86400),
    ...readCatalogBounds(read),
    logLevel,
    mcpReadOnly: boolean(read, "CATALOG_MCP_READ_ONLY", false),
    mcpTools: read("CATALOG_MCP_TOOLS"),
    mcpToolsets: configuredToolsets(read("CATALOG_MCP_TOOLSETS")),
    mcpDynamicToolsets: boolean(read, "CATALOG_MCP_DYNAMIC_TOOLSETS", false),
    mcpAuthToken,
    mcpAllowedOrigins: origins(read),
    mcpFileRoot: read("CATALOG_MCP_FILE_ROOT"),
    mcpConfirmTimeoutMs: integer(read, "CATALOG_MCP_CONFIRM_TIMEOUT_MS", 300_000, 1000, 3_600_000),
    mcpMaxConnections: integer(read, "CATALOG_MCP_MAX_CONNECTIONS", 2048, 1, 100_000),
    mcpHeaderTimeoutMs: integer(read, "CATALOG_MCP_HEADER_TIMEOUT_MS", 10_000, 100, 600_000),
    mcpMaxInflight: integer(read, "CATALOG_MCP_MAX_INFLIGHT", 256, 1, 100_000),
    mcpMaxSessions: integer(read, "CATALOG_MCP_MAX_SESSIONS", 1000, 1, 100_000),
    mcpSessionIdleSeconds: integer(read, "CATALOG_MCP_SESSION_IDLE_SECONDS", 600, 10, 86_400),
    mcpStreamBufferBytes: integer(read, "CATALOG_MCP_STREAM_BUFFER_BYTES", 1024 * 1024, 16 * 1024, 1024 ** 3),
    mcpSignIn,
    mcpCatalogIdentity: readCatalogIdentity(read, mcpSignIn),
  };
}

/** The account name (CATALOG_ACCOUNT_NAME, else the profile's), required and checked. */
function readAccountName(read: Reader, fallback: string | undefined): string {
  const accountName = read("CATALOG_ACCOUNT_NAME") ?? fallback;
  if (accountName === undefined) {
    throw new ConfigError(
      "CATALOG_ACCOUNT_NAME is required: set the account name variable to your catalog account's name " +
        "(e.g. CATALOG_ACCOUNT_NAME=contoso for contoso.purview.azure.com), or select a profile with " +
        "--profile.",
      "CATALOG_ACCOUNT_NAME",
    );
  }
  if (!ACCOUNT_NAME.test(accountName)) {
    throw invalid(
      "CATALOG_ACCOUNT_NAME",
      accountName,
      "3-63 letters, digits and hyphens, without the domain suffix (contoso, not contoso.purview.azure.com)",
    );
  }
  return accountName;
}

/** The service principal's three variables: all or none (a tenant id alone narrows the login chain). */
function readServicePrincipal(read: Reader): { tenantId?: string; clientId?: string; clientSecret?: string } {
  const tenantId = read("CLOUD_TENANT_ID");
  if (tenantId !== undefined && !isGuid(tenantId)) {
    throw invalid("CLOUD_TENANT_ID", tenantId, "a GUID such as 72f988bf-86f1-41af-91ab-2d7cd011db47");
  }
  const clientId = read("CLOUD_CLIENT_ID");
  if (clientId !== undefined && !isGuid(clientId)) {
    throw invalid("CLOUD_CLIENT_ID", clientId, "the application (client) id, a GUID");
  }
  const clientSecret = read("CLOUD_CLIENT_SECRET");
  // A service principal needs all three; a tenant id alone is allowed (it narrows the login-based chain).
  if ((clientId !== undefined || clientSecret !== undefined) && (!tenantId || !clientId || !clientSecret)) {
    const missing = [
      ["CLOUD_TENANT_ID", tenantId],
      ["CLOUD_CLIENT_ID", clientId],
      ["CLOUD_CLIENT_SECRET", clientSecret],
    ].filter(([, v]) => v === undefined).map(([n]) => n);
    throw new ConfigError(
      `Service principal is half configured: ${missing.join(" and ")} ${
        missing.length === 1 ? "is" : "are"
      } missing. Set all three of CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET, or unset ` +
        "CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET to use az login, managed identity or workload identity.",
      missing[0],
    );
  }
  return { tenantId, clientId, clientSecret };
}

/** The settings that take one of a few values, and the host the HTTP transports bind. */
function readChoices(
  read: Reader,
): { region: CloudRegion; mcpTransport: McpTransport; logLevel: LogLevel; mcpHost: string } {
  const regionRaw = (read("CLOUD_REGION") ?? "").toLowerCase();
  if (!REGIONS.includes(regionRaw as CloudRegion)) {
    throw invalid("CLOUD_REGION", regionRaw, "empty (public cloud), usgov or china");
  }

  const transportRaw = (read("CATALOG_MCP_TRANSPORT") ?? "stdio").toLowerCase();
  const mcpTransport = TRANSPORTS[transportRaw];
  if (mcpTransport === undefined) {
    throw invalid("CATALOG_MCP_TRANSPORT", transportRaw, "stdio, streamable-http, http or sse");
  }

  const logRaw = (read("CATALOG_LOG") ?? "warn").toLowerCase();
  if (!LOG_LEVELS.includes(logRaw as LogLevel)) {
    throw invalid("CATALOG_LOG", logRaw, LOG_LEVELS.join(", "));
  }

  const mcpHost = read("CATALOG_MCP_HOST") ?? "127.0.0.1";
  if (!/^[A-Za-z0-9.\-:\[\]]+$/.test(mcpHost)) {
    throw invalid("CATALOG_MCP_HOST", mcpHost, "a host name or IP address such as 127.0.0.1");
  }
  return { region: regionRaw as CloudRegion, mcpTransport, logLevel: logRaw as LogLevel, mcpHost };
}

/** The bounds of what one request and one paged list may take from a catalog. */
function readCatalogBounds(read: Reader): Pick<
  Config,
  "requestDeadlineSeconds" | "maxPages" | "maxItems" | "pagingTimeoutSeconds" | "maxJsonDepth"
> {
  const timeoutSeconds = integer(read, "CATALOG_TIMEOUT", 30, 1, 3600);
  return {
    // Unset, it is never shorter than one attempt: a CATALOG_TIMEOUT raised alone keeps working.
    requestDeadlineSeconds: integer(read, "CATALOG_REQUEST_DEADLINE", Math.max(90, timeoutSeconds), 1, 86400),
    maxPages: integer(read, "CATALOG_MAX_PAGES", DEFAULT_PAGING_LIMITS.maxPages, 1, 1_000_000),
    maxItems: integer(read, "CATALOG_MAX_ITEMS", DEFAULT_PAGING_LIMITS.maxItems, 1, 100_000_000),
    pagingTimeoutSeconds: integer(
      read,
      "CATALOG_PAGING_TIMEOUT",
      DEFAULT_PAGING_LIMITS.maxMs / 1000,
      1,
      86400,
    ),
    maxJsonDepth: integer(read, "CATALOG_MAX_JSON_DEPTH", DEFAULT_MAX_JSON_DEPTH, 8, MAX_JSON_DEPTH_LIMIT),
  };
}

function scope(read: Reader): string {
  const raw = read("CATALOG_TOKEN_SCOPE");
  if (raw === undefined) return DEFAULT_TOKEN_SCOPE;
  if (!/^(https:\/\/|api:\/\/)\S+\/\.default$/.test(raw)) {
    throw invalid("CATALOG_TOKEN_SCOPE", raw, "a scope ending in /.default, e.g. " + DEFAULT_TOKEN_SCOPE);
  }
  return raw;
}
