/** The sign-in variables: read, defaulted, and every bad value refused naming its variable. */
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config/config.ts";
import { ConfigError } from "../../../lib/core/errors.ts";

const TENANT = "11111111-2222-4333-8444-555555555555";
const CLIENT = "AAAAAAAA-bbbb-4ccc-8ddd-eeeeeeeeeeee";
const BASE = { CATALOG_ACCOUNT_NAME: "contoso" };
const SIGN_IN = { ...BASE, CATALOG_MCP_ENTRA_TENANT_ID: TENANT, CATALOG_MCP_ENTRA_CLIENT_ID: CLIENT };

function refused(env: Record<string, string>, variable: string, says: RegExp): void {
  assert.throws(() => loadConfig(env), (error: unknown) => {
    assert.ok(error instanceof ConfigError, String(error));
    assert.equal(error.variable, variable);
    assert.match(error.message, says);
    return true;
  });
}

Deno.test("entra settings: unset means no sign-in and the server's identity", () => {
  const config = loadConfig(BASE);
  assert.equal(config.mcpSignIn, undefined);
  assert.equal(config.mcpCatalogIdentity, "server");
});

Deno.test("entra settings: tenant and client id give the defaults", () => {
  assert.deepEqual(loadConfig(SIGN_IN).mcpSignIn, {
    tenantId: TENANT,
    clientId: CLIENT.toLowerCase(),
    appIdUri: `api://${CLIENT.toLowerCase()}`,
    scope: "user_impersonation",
    appRole: undefined,
    authorityHost: undefined,
    clientSecret: undefined,
    publicUrl: undefined,
  });
});

Deno.test("entra settings: bad values are refused naming the variable", () => {
  refused({ ...BASE, CATALOG_MCP_ENTRA_TENANT_ID: TENANT }, "CATALOG_MCP_ENTRA_CLIENT_ID", /half configured/);
  refused({ ...BASE, CATALOG_MCP_ENTRA_SCOPE: "x" }, "CATALOG_MCP_ENTRA_TENANT_ID", /half configured/);
  refused({ ...SIGN_IN, CATALOG_MCP_ENTRA_TENANT_ID: "contoso.com" }, "CATALOG_MCP_ENTRA_TENANT_ID", /GUID/);
  refused({ ...SIGN_IN, CATALOG_MCP_ENTRA_SCOPE: "a b" }, "CATALOG_MCP_ENTRA_SCOPE", /scope's name/);
  refused({ ...SIGN_IN, CATALOG_MCP_ENTRA_SCOPE: 'x",evil="1' }, "CATALOG_MCP_ENTRA_SCOPE", /scope's name/);
  refused({ ...SIGN_IN, CATALOG_MCP_ENTRA_APP_ID_URI: "urn:x" }, "CATALOG_MCP_ENTRA_APP_ID_URI", /api:\/\//);
  refused(
    { ...SIGN_IN, CATALOG_MCP_ENTRA_AUTHORITY: "http://login.example.com" },
    "CATALOG_MCP_ENTRA_AUTHORITY",
    /plain http only for 127\.0\.0\.1/,
  );
  refused(
    { ...SIGN_IN, CATALOG_MCP_ENTRA_AUTHORITY: "https://login.example.com/tenant" },
    "CATALOG_MCP_ENTRA_AUTHORITY",
    /a host only/,
  );
  refused(
    { ...SIGN_IN, CATALOG_MCP_ENTRA_PUBLIC_URL: "https://govcat.contoso.com/mcp" },
    "CATALOG_MCP_ENTRA_PUBLIC_URL",
    /a host only, such as https:\/\/govcat\.contoso\.com/,
  );
  refused(
    { ...SIGN_IN, CATALOG_MCP_ENTRA_PUBLIC_URL: "http://govcat.contoso.com" },
    "CATALOG_MCP_ENTRA_PUBLIC_URL",
    /plain http only/,
  );
  refused(
    { ...SIGN_IN, CATALOG_MCP_CATALOG_IDENTITY: "admin" },
    "CATALOG_MCP_CATALOG_IDENTITY",
    /server or user/,
  );
});

Deno.test("entra settings: user identity needs sign-in and the server's secret, never echoed", () => {
  refused({ ...BASE, CATALOG_MCP_CATALOG_IDENTITY: "user" }, "CATALOG_MCP_ENTRA_TENANT_ID", /on-behalf-of/);
  refused({ ...SIGN_IN, CATALOG_MCP_CATALOG_IDENTITY: "user" }, "CATALOG_MCP_ENTRA_CLIENT_SECRET", /SECRET/);
  const secret = "a-very-secret-value-1234567890";
  const config = loadConfig({
    ...SIGN_IN,
    CATALOG_MCP_CATALOG_IDENTITY: "USER",
    CATALOG_MCP_ENTRA_CLIENT_SECRET: secret,
  });
  assert.equal(config.mcpCatalogIdentity, "user");
  try {
    loadConfig({ ...SIGN_IN, CATALOG_MCP_ENTRA_CLIENT_SECRET: secret, CATALOG_MCP_ENTRA_SCOPE: "a b" });
  } catch (error) {
    assert.ok(!(error as Error).message.includes(secret));
  }
});

Deno.test("entra settings: the shared token and sign-in together are refused", () => {
  refused({ ...SIGN_IN, CATALOG_MCP_AUTH_TOKEN: "x".repeat(8) }, "CATALOG_MCP_AUTH_TOKEN", /not both/);
});

Deno.test("entra settings: a loopback authority over http is allowed for tests, https anywhere", () => {
  assert.equal(
    loadConfig({ ...SIGN_IN, CATALOG_MCP_ENTRA_AUTHORITY: "http://127.0.0.1:9999/" }).mcpSignIn
      ?.authorityHost,
    "http://127.0.0.1:9999",
  );
  assert.equal(
    loadConfig({ ...SIGN_IN, CATALOG_MCP_ENTRA_AUTHORITY: "https://login.microsoftonline.us" }).mcpSignIn
      ?.authorityHost,
    "https://login.microsoftonline.us",
  );
});
