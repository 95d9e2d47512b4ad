import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config/config.ts";
import { ConfigError } from "../../../lib/core/errors.ts";

const base = { CATALOG_ACCOUNT_NAME: "contoso" };
const GUID = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const APP = "0b7c1a9e-5f7e-4c1a-9a55-2f4f1b9d0c11";

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    assert.ok(e instanceof ConfigError, `expected ConfigError, got ${e}`);
    assert.equal(e.exitCode, 2);
    return e;
  }
  assert.fail(`loadConfig accepted ${JSON.stringify(env)}`);
}

Deno.test("defaults are the documented ones", () => {
  const config = loadConfig(base);
  assert.equal(config.accountName, "contoso");
  assert.equal(config.region, "");
  assert.equal(config.maxRetries, 3);
  assert.equal(config.timeoutSeconds, 30);
  assert.equal(config.batchSize, 100);
  assert.equal(config.mcpTransport, "stdio");
  assert.equal(config.mcpHost, "127.0.0.1");
  assert.equal(config.mcpPort, 8000);
  assert.equal(config.apiVersion, "2023-09-01");
  assert.equal(config.unifiedApiVersion, "2025-09-15-preview");
  assert.equal(config.tokenScope, "https://purview.azure.net/.default");
  assert.equal(config.endpoint, undefined);
  assert.equal(config.mcpReadOnly, false);
  assert.equal(config.logLevel, "warn");
  assert.equal(config.maxResponseBytes, 64 * 1024 * 1024);
  assert.equal(config.maxRetryWaitSeconds, 120);
});

Deno.test("every variable is read", () => {
  const config = loadConfig({
    CATALOG_ACCOUNT_NAME: "fabrikam-gov",
    CLOUD_TENANT_ID: GUID,
    CLOUD_CLIENT_ID: APP,
    CLOUD_CLIENT_SECRET: "not-a-real-secret-value",
    CLOUD_REGION: "USGOV",
    CATALOG_MAX_RETRIES: "5",
    CATALOG_TIMEOUT: "60",
    CATALOG_BATCH_SIZE: "250",
    CATALOG_MCP_TRANSPORT: "http",
    CATALOG_MCP_HOST: "0.0.0.0",
    CATALOG_MCP_PORT: "9000",
    CATALOG_ENDPOINT: "http://127.0.0.1:8085/",
    CATALOG_UNIFIED_ENDPOINT: "https://uc.example.test/base/",
    CATALOG_API_VERSION: "2024-03-01-preview",
    CATALOG_UNIFIED_API_VERSION: "2025-09-15-preview",
    CATALOG_TOKEN_SCOPE: "https://purview.azure.us/.default",
    CATALOG_RATE_LIMIT: "0",
    CATALOG_LOG: "DEBUG",
    CATALOG_MCP_READ_ONLY: "true",
    CATALOG_MCP_TOOLS: "get_entity,search_entities",
    CATALOG_MCP_AUTH_TOKEN: "9f2c41d07be35a68c1e0f4d29b7a3c58",
    CATALOG_MAX_RESPONSE_BYTES: "1048576",
    CATALOG_MAX_RETRY_WAIT: "0",
  });
  assert.equal(config.accountName, "fabrikam-gov");
  assert.equal(config.tenantId, GUID);
  assert.equal(config.clientId, APP);
  assert.equal(config.clientSecret, "not-a-real-secret-value");
  assert.equal(config.region, "usgov");
  assert.equal(config.maxRetries, 5);
  assert.equal(config.timeoutSeconds, 60);
  assert.equal(config.batchSize, 250);
  assert.equal(config.mcpTransport, "streamable-http", "http is an alias of streamable-http");
  assert.equal(config.mcpHost, "0.0.0.0");
  assert.equal(config.mcpPort, 9000);
  assert.equal(config.endpoint, "http://127.0.0.1:8085", "trailing slash removed");
  assert.equal(config.unifiedEndpoint, "https://uc.example.test/base");
  assert.equal(config.apiVersion, "2024-03-01-preview");
  assert.equal(config.tokenScope, "https://purview.azure.us/.default");
  assert.equal(config.rateLimit, 0);
  assert.equal(config.logLevel, "debug");
  assert.equal(config.mcpReadOnly, true);
  assert.equal(config.mcpTools, "get_entity,search_entities");
  assert.equal(config.mcpAuthToken, "9f2c41d07be35a68c1e0f4d29b7a3c58");
  assert.equal(config.maxResponseBytes, 1048576);
  assert.equal(config.maxRetryWaitSeconds, 0);
});

Deno.test("a missing account name says the variable is required", () => {
  const error = configError({});
  assert.match(error.message, /CATALOG_ACCOUNT_NAME is required/);
  assert.match(error.message, /account name variable/);
  assert.equal(error.variable, "CATALOG_ACCOUNT_NAME");
  // Blank counts as missing.
  assert.match(configError({ CATALOG_ACCOUNT_NAME: "   " }).message, /is required/);
});

Deno.test("a default account name is used only when the variable is unset", () => {
  assert.equal(loadConfig({}, { defaultAccountName: "emulator" }).accountName, "emulator");
  assert.equal(loadConfig(base, { defaultAccountName: "emulator" }).accountName, "contoso");
});

const invalidCases: Array<[string, Record<string, string>, RegExp]> = [
  [
    "account with domain",
    { CATALOG_ACCOUNT_NAME: "contoso.purview.azure.com" },
    /CATALOG_ACCOUNT_NAME.*without the domain/,
  ],
  [
    "non-integer timeout",
    { ...base, CATALOG_TIMEOUT: "thirty" },
    /CATALOG_TIMEOUT has an invalid value "thirty": expected an integer from 1 to 3600/,
  ],
  ["fractional timeout", { ...base, CATALOG_TIMEOUT: "1.5" }, /CATALOG_TIMEOUT.*"1.5"/],
  ["zero timeout", { ...base, CATALOG_TIMEOUT: "0" }, /CATALOG_TIMEOUT.*from 1 to 3600/],
  ["negative retries", { ...base, CATALOG_MAX_RETRIES: "-1" }, /CATALOG_MAX_RETRIES.*"-1".*from 0 to 10/],
  ["huge retries", { ...base, CATALOG_MAX_RETRIES: "50" }, /CATALOG_MAX_RETRIES/],
  ["batch size zero", { ...base, CATALOG_BATCH_SIZE: "0" }, /CATALOG_BATCH_SIZE.*from 1 to 1000/],
  [
    "unknown transport",
    { ...base, CATALOG_MCP_TRANSPORT: "websocket" },
    /CATALOG_MCP_TRANSPORT.*"websocket".*stdio, streamable-http, http or sse/,
  ],
  ["port out of range", { ...base, CATALOG_MCP_PORT: "70000" }, /CATALOG_MCP_PORT.*"70000".*from 0 to 65535/],
  ["port not a number", { ...base, CATALOG_MCP_PORT: "http" }, /CATALOG_MCP_PORT/],
  ["bad host", { ...base, CATALOG_MCP_HOST: "local host" }, /CATALOG_MCP_HOST/],
  ["unknown region", { ...base, CLOUD_REGION: "germany" }, /CLOUD_REGION.*"germany".*usgov or china/],
  [
    "tenant not a GUID",
    { ...base, CLOUD_TENANT_ID: "contoso.onmicrosoft.com" },
    /CLOUD_TENANT_ID.*"contoso.onmicrosoft.com".*GUID/,
  ],
  ["client id not a GUID", {
    ...base,
    CLOUD_TENANT_ID: GUID,
    CLOUD_CLIENT_ID: "app",
    CLOUD_CLIENT_SECRET: "x",
  }, /CLOUD_CLIENT_ID.*GUID/],
  [
    "endpoint not a URL",
    { ...base, CATALOG_ENDPOINT: "localhost:8085" },
    /CATALOG_ENDPOINT.*absolute http\(s\) URL|CATALOG_ENDPOINT.*http or https/,
  ],
  [
    "plain http to a remote host",
    { ...base, CATALOG_ENDPOINT: "http://contoso.example.com" },
    /CATALOG_ENDPOINT.*https for a remote host/,
  ],
  [
    "unified endpoint ftp",
    { ...base, CATALOG_UNIFIED_ENDPOINT: "ftp://x.test" },
    /CATALOG_UNIFIED_ENDPOINT.*http or https/,
  ],
  ["api version", { ...base, CATALOG_API_VERSION: "latest" }, /CATALOG_API_VERSION.*"latest"/],
  [
    "unified api version",
    { ...base, CATALOG_UNIFIED_API_VERSION: "v2" },
    /CATALOG_UNIFIED_API_VERSION.*"v2"/,
  ],
  ["scope", { ...base, CATALOG_TOKEN_SCOPE: "purview" }, /CATALOG_TOKEN_SCOPE.*\/\.default/],
  ["rate limit", { ...base, CATALOG_RATE_LIMIT: "fast" }, /CATALOG_RATE_LIMIT/],
  ["log level", { ...base, CATALOG_LOG: "verbose" }, /CATALOG_LOG.*"verbose".*error, warn, info, debug/],
  ["read-only flag", { ...base, CATALOG_MCP_READ_ONLY: "maybe" }, /CATALOG_MCP_READ_ONLY.*true or false/],
];

for (const [label, env, pattern] of invalidCases) {
  Deno.test(`invalid configuration is refused: ${label}`, () => {
    assert.match(configError(env).message, pattern);
  });
}

Deno.test("a half-set service principal names what is missing and never echoes the secret", () => {
  const secret = "very-secret-value-42";
  const onlySecret = configError({ ...base, CLOUD_CLIENT_SECRET: secret });
  assert.match(onlySecret.message, /half configured: CLOUD_TENANT_ID and CLOUD_CLIENT_ID are missing/);
  assert.ok(!onlySecret.message.includes(secret));
  const noSecret = configError({ ...base, CLOUD_TENANT_ID: GUID, CLOUD_CLIENT_ID: APP });
  assert.match(noSecret.message, /CLOUD_CLIENT_SECRET is missing/);
  assert.equal(noSecret.variable, "CLOUD_CLIENT_SECRET");
});

Deno.test("a tenant id alone is allowed (it narrows the login-based chain)", () => {
  assert.equal(loadConfig({ ...base, CLOUD_TENANT_ID: GUID }).tenantId, GUID);
});

Deno.test("credentials embedded in an endpoint URL are refused without echoing them", () => {
  const error = configError({ ...base, CATALOG_ENDPOINT: "https://user:hunter22@example.test" });
  assert.match(error.message, /must not contain a user name or password/);
  assert.ok(!error.message.includes("hunter22"));
});

Deno.test("the response cap and the longest Retry-After wait are bounded and named when wrong", () => {
  for (const value of ["0", "1048575", "1073741825", "64MiB", "-1"]) {
    const error = configError({ ...base, CATALOG_MAX_RESPONSE_BYTES: value });
    assert.equal(error.variable, "CATALOG_MAX_RESPONSE_BYTES");
    assert.match(error.message, /an integer from 1048576 to 1073741824/);
  }
  for (const value of ["-5", "86401", "1e9", "soon"]) {
    const error = configError({ ...base, CATALOG_MAX_RETRY_WAIT: value });
    assert.equal(error.variable, "CATALOG_MAX_RETRY_WAIT");
  }
});

Deno.test("a weak access token is refused off loopback, saying how to make a strong one", () => {
  const strong = "3b9e0c5d71f24a86be1d0f7c92a4e6d3";
  for (
    const weak of [
      "a",
      "local-token-123",
      "x".repeat(40),
      "abababababababababababababababababab",
      strong.slice(1),
    ]
  ) {
    for (const host of ["0.0.0.0", "10.1.2.3", "::", "catalog.example.com"]) {
      const error = configError({ ...base, CATALOG_MCP_HOST: host, CATALOG_MCP_AUTH_TOKEN: weak });
      assert.equal(error.variable, "CATALOG_MCP_AUTH_TOKEN");
      assert.match(error.message, /at least 32 random characters/);
      assert.match(error.message, /openssl rand -hex 32/);
      if (weak.length > 3) assert.ok(!error.message.includes(weak), "the token is never echoed");
    }
  }
  assert.equal(
    loadConfig({ ...base, CATALOG_MCP_HOST: "0.0.0.0", CATALOG_MCP_AUTH_TOKEN: strong }).mcpAuthToken,
    strong,
  );
  // A UUID pair (the deno one-liner of the message) and openssl's hex are long enough.
  const pair = crypto.randomUUID() + crypto.randomUUID();
  assert.equal(
    loadConfig({ ...base, CATALOG_MCP_HOST: "0.0.0.0", CATALOG_MCP_AUTH_TOKEN: pair }).mcpAuthToken,
    pair,
  );
  // On loopback nothing but this machine can reach the server: any token is the user's choice.
  for (const host of ["127.0.0.1", "localhost", "::1"]) {
    assert.equal(
      loadConfig({ ...base, CATALOG_MCP_HOST: host, CATALOG_MCP_AUTH_TOKEN: "a" }).mcpAuthToken,
      "a",
    );
  }
});
