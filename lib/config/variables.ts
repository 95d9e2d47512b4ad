/**
 * Every configuration variable govcat reads, with its default and meaning: the table behind `--help`, the
 * generated configuration page and the checks that each variable is documented.
 *
 * @module
 */
import { ENTRA_VARIABLES } from "./entra_settings.ts";

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
