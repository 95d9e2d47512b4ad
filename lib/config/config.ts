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
  ENTRA_VARIABLES,
  type EntraSignInSettings,
  readCatalogIdentity,
  readEntraSignIn,
} from "./entra_settings.ts";
import { ConfigError } from "../core/errors.ts";
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

/** Variables the loader understands, with their defaults, for help texts and docs. */
export const CONFIG_VARIABLES: ReadonlyArray<{ name: string; default: string; meaning: string }> = [
  {
    name: "CATALOG_ACCOUNT_NAME",
    default: "(required)",
    meaning: "Account name without the domain: contoso for contoso.purview.azure.com",
  },
  { name: "CLOUD_TENANT_ID", default: "", meaning: "Tenant id (GUID); with the next two: service principal" },
  { name: "CLOUD_CLIENT_ID", default: "", meaning: "Application (client) id of the service principal" },
  {
    name: "CLOUD_CLIENT_SECRET",
    default: "",
    meaning: "Client secret of the service principal (never printed or logged)",
  },
  { name: "CLOUD_REGION", default: "", meaning: "Sovereign cloud: empty (public), usgov, china" },
  { name: "CATALOG_MAX_RETRIES", default: "3", meaning: "Retries of a throttled or failed call (0-10)" },
  { name: "CATALOG_TIMEOUT", default: "30", meaning: "Request timeout in seconds (1-3600)" },
  { name: "CATALOG_BATCH_SIZE", default: "100", meaning: "Default batch size of bulk operations (1-1000)" },
  { name: "CATALOG_MCP_TRANSPORT", default: "stdio", meaning: "stdio, streamable-http (alias http), sse" },
  { name: "CATALOG_MCP_HOST", default: "127.0.0.1", meaning: "Bind host of the HTTP transports" },
  { name: "CATALOG_MCP_PORT", default: "8000", meaning: "Bind port of the HTTP transports" },
  {
    name: "CATALOG_ENDPOINT",
    default: "",
    meaning: "Base URL instead of https://{account}.purview.azure.com (emulator, private endpoint)",
  },
  {
    name: "CATALOG_UNIFIED_ENDPOINT",
    default: "",
    meaning: "Base URL overriding the unified catalog host; unset, a loopback CATALOG_ENDPOINT serves it too",
  },
  { name: "CATALOG_API_VERSION", default: "2023-09-01", meaning: "api-version of the data map API" },
  {
    name: "CATALOG_UNIFIED_API_VERSION",
    default: "2025-09-15-preview",
    meaning: "api-version of the unified catalog API (its data asset and data column calls excepted)",
  },
  {
    name: "CATALOG_UNIFIED_ASSETS_API_VERSION",
    default: "2026-03-20-preview",
    meaning: "api-version of the unified catalog's data asset and data column calls",
  },
  {
    name: "CATALOG_TOKEN_SCOPE",
    default: "https://purview.azure.net/.default",
    meaning: "OAuth scope of catalog tokens",
  },
  {
    name: "CATALOG_RATE_LIMIT",
    default: "0",
    meaning: "Fixed client-side requests per second; 0 = none (a 429 pauses every call; imports adapt)",
  },
  {
    name: "CATALOG_MAX_RESPONSE_BYTES",
    default: "67108864",
    meaning: "Largest catalog answer read, in bytes once decompressed (64 MiB; 1 MiB-1 GiB); larger fails",
  },
  {
    name: "CATALOG_MAX_RETRY_WAIT",
    default: "120",
    meaning: "Longest Retry-After waited for, in seconds (0-86400); a longer one fails, saying when to retry",
  },
  {
    name: "CATALOG_REQUEST_DEADLINE",
    default: "90",
    meaning: "Seconds one request may take, retries and backoff included (1-86400; at least CATALOG_TIMEOUT)",
  },
  {
    name: "CATALOG_MAX_PAGES",
    default: "10000",
    meaning: "Pages one paged list may fetch (1-1000000); a repeated token or nextLink fails at once",
  },
  {
    name: "CATALOG_MAX_ITEMS",
    default: "1000000",
    meaning: "Items one paged list may read (1-100000000); more fails, saying how far it got",
  },
  {
    name: "CATALOG_PAGING_TIMEOUT",
    default: "600",
    meaning: "Seconds one paged list may take across its pages (1-86400)",
  },
  {
    name: "CATALOG_MAX_JSON_DEPTH",
    default: "256",
    meaning: "Deepest nesting of arrays and objects in a catalog answer (8-1000); deeper is refused",
  },
  { name: "CATALOG_LOG", default: "warn", meaning: "Log level on stderr: error, warn, info, debug" },
  { name: "CATALOG_MCP_READ_ONLY", default: "false", meaning: "Hide and refuse every write tool" },
  { name: "CATALOG_MCP_TOOLS", default: "", meaning: "Comma-separated tool allow list; -name denies" },
  {
    name: "CATALOG_MCP_TOOLSETS",
    default: "all",
    meaning: "Comma-separated toolsets to serve (see Toolsets); all or default: every one",
  },
  {
    name: "CATALOG_MCP_DYNAMIC_TOOLSETS",
    default: "false",
    meaning: "Start each session with three toolset tools; the model enables toolsets as it needs them",
  },
  {
    name: "CATALOG_MCP_AUTH_TOKEN",
    default: "",
    meaning: "Bearer token required by the HTTP transports; off loopback at least 32 random characters",
  },
  { name: "CATALOG_MCP_ALLOWED_ORIGINS", default: "", meaning: "Comma-separated browser origins allowed" },
  {
    name: "CATALOG_MCP_FILE_ROOT",
    default: "(the client's roots)",
    meaning: "Tool server: the directory file arguments must lie in; unset: the client's roots, else none",
  },
  {
    name: "CATALOG_MCP_CONFIRM_TIMEOUT_MS",
    default: "300000",
    meaning: "Tool server: time a person has to confirm a destructive call asked of them (1000-3600000)",
  },
  {
    name: "CATALOG_MCP_MAX_CONNECTIONS",
    default: "2048",
    meaning: "HTTP transports: open connections at most (1-100000; lowered to fit the open-file limit)",
  },
  {
    name: "CATALOG_MCP_HEADER_TIMEOUT_MS",
    default: "10000",
    meaning: "HTTP transports: a request head not complete within this many ms is closed (100-600000)",
  },
  {
    name: "CATALOG_MCP_MAX_INFLIGHT",
    default: "256",
    meaning: "HTTP transports: requests handled at once (1-100000); more get 503 with Retry-After",
  },
  {
    name: "CATALOG_MCP_MAX_SESSIONS",
    default: "1000",
    meaning: "HTTP transports: MCP sessions kept (1-100000); beyond, the least recently used is closed",
  },
  {
    name: "CATALOG_MCP_SESSION_IDLE_SECONDS",
    default: "600",
    meaning: "HTTP transports: a session without requests this long is closed (10-86400)",
  },
  {
    name: "CATALOG_MCP_STREAM_BUFFER_BYTES",
    default: "1048576",
    meaning: "HTTP transports: unread bytes an event stream may hold; a reader further behind is cut off",
  },
  ...ENTRA_VARIABLES,
  {
    name: "CATALOG_PROFILE",
    default: "",
    meaning: "Connection profile to use (--profile wins; else the default profile); CLI and serve",
  },
];

export const DEFAULT_API_VERSION = "2023-09-01";
export const DEFAULT_UNIFIED_API_VERSION = "2025-09-15-preview";
/** The data asset and data column calls exist only from this version on. */
export const DEFAULT_UNIFIED_ASSETS_API_VERSION = "2026-03-20-preview";
export const DEFAULT_TOKEN_SCOPE = "https://purview.azure.net/.default";

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
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
  if (tenantId !== undefined && !GUID.test(tenantId)) {
    throw invalid("CLOUD_TENANT_ID", tenantId, "a GUID such as 72f988bf-86f1-41af-91ab-2d7cd011db47");
  }
  const clientId = read("CLOUD_CLIENT_ID");
  if (clientId !== undefined && !GUID.test(clientId)) {
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

type Reader = (name: string) => string | undefined;

function invalid(name: string, value: string, allowed: string): ConfigError {
  return new ConfigError(`${name} has an invalid value "${value}": expected ${allowed}.`, name);
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

function integer(read: Reader, name: string, fallback: number, min: number, max: number): number {
  const raw = read(name);
  if (raw === undefined) return fallback;
  if (!/^[+-]?\d+$/.test(raw)) throw invalid(name, raw, `an integer from ${min} to ${max}`);
  const value = Number(raw);
  if (value < min || value > max) throw invalid(name, raw, `an integer from ${min} to ${max}`);
  return value;
}

function boolean(read: Reader, name: string, fallback: boolean): boolean {
  const raw = read(name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (["true", "1", "yes", "on"].includes(raw)) return true;
  if (["false", "0", "no", "off"].includes(raw)) return false;
  throw invalid(name, raw, "true or false");
}

function baseUrl(read: Reader, name: string): string | undefined {
  const raw = read(name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(name, raw, "an absolute http(s) URL such as http://127.0.0.1:8085");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw invalid(name, raw, "an http or https URL");
  }
  if (url.username || url.password) {
    // Never echo credentials embedded in a URL.
    throw new ConfigError(`${name} must not contain a user name or password.`, name);
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw invalid(name, raw, "https for a remote host (plain http is allowed only for 127.0.0.1/localhost)");
  }
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** Shortest token accepted off loopback: 32 characters, 128 bits as hex, more in any richer alphabet. */
export const MIN_REMOTE_TOKEN_LENGTH = 32;

/**
 * A token guarding a server that listens beyond this machine must resist guessing: at least
 * {@link MIN_REMOTE_TOKEN_LENGTH} characters, not a short pattern repeated. Never echoed.
 */
function authToken(token: string | undefined, host: string): string | undefined {
  if (token === undefined || isLoopbackHost(host)) return token;
  if (token.length >= MIN_REMOTE_TOKEN_LENGTH && new Set(token).size >= 8) return token;
  throw new ConfigError(
    `CATALOG_MCP_AUTH_TOKEN is too weak for a server listening on ${host}: anyone who can reach it could ` +
      `guess it. Use at least ${MIN_REMOTE_TOKEN_LENGTH} random characters, e.g. from \`openssl rand -hex 32\` ` +
      'or `deno eval "console.log(crypto.randomUUID() + crypto.randomUUID())"`, or bind to 127.0.0.1.',
    "CATALOG_MCP_AUTH_TOKEN",
  );
}

function origins(read: Reader): string[] {
  const raw = read("CATALOG_MCP_ALLOWED_ORIGINS");
  if (raw === undefined) return [];
  return raw.split(",").map((s) => s.trim()).filter(Boolean).map((origin) => {
    try {
      const url = new URL(origin);
      if (url.origin === origin.replace(/\/$/, "")) return url.origin;
    } catch {
      // Reported below.
    }
    throw invalid(
      "CATALOG_MCP_ALLOWED_ORIGINS",
      origin,
      "origins such as https://app.example.com (scheme, host, port)",
    );
  });
}

function apiVersion(read: Reader, name: string, fallback: string): string {
  const raw = read(name);
  if (raw === undefined) return fallback;
  if (!/^\d{4}-\d{2}-\d{2}(-preview)?$/.test(raw)) {
    throw invalid(name, raw, "a date version such as 2023-09-01 or 2025-09-15-preview");
  }
  return raw;
}

function scope(read: Reader): string {
  const raw = read("CATALOG_TOKEN_SCOPE");
  if (raw === undefined) return DEFAULT_TOKEN_SCOPE;
  if (!/^(https:\/\/|api:\/\/)\S+\/\.default$/.test(raw)) {
    throw invalid("CATALOG_TOKEN_SCOPE", raw, "a scope ending in /.default, e.g. " + DEFAULT_TOKEN_SCOPE);
  }
  return raw;
}

/** True for 127.0.0.0/8, ::1 and localhost: the hosts that never receive a catalog token. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}
