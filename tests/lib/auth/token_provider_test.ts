/**
 * Which credential a configuration gets (caching itself: cached_tokens_test.ts); the real
 * managed-identity exchange runs in a subprocess (the SDK reads the environment, which tests must not
 * change) against a token endpoint served here on 127.0.0.1. No test reaches a login host or the instance
 * metadata address: the subprocess may only open connections to 127.0.0.1.
 */
import assert from "node:assert/strict";
import { createTokenProvider } from "../../../lib/auth/token_provider.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import type { TokenCredential } from "../../../lib/deps/azure_identity.ts";
import { fakeCredential, recordingLogger } from "../auth_fixtures/fake_credential.ts";
import { runFixture, startTokenEndpoint, tokenResponse } from "../auth_fixtures/subprocess.ts";

const MINUTE = 60_000;
const SECRET = "super-secret-value~123";
const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const CLIENT = "0a1b2c3d-1111-2222-3333-444455556666";

Deno.test("createTokenProvider: loopback endpoint needs no token and asks no credential", async () => {
  const config = loadConfig({ CATALOG_ACCOUNT_NAME: "contoso", CATALOG_ENDPOINT: "http://127.0.0.1:1234" });
  let asked = false;
  const credential: TokenCredential = {
    getToken: () => {
      asked = true;
      return Promise.resolve(null);
    },
  };
  for (const tokens of [createTokenProvider(config), createTokenProvider(config, { credential })]) {
    assert.equal(tokens.kind, "none");
    assert.match(tokens.description, /^none \(loopback endpoint http:\/\/127\.0\.0\.1:1234\)$/);
    assert.equal(await tokens.getToken(), undefined);
  }
  assert.equal(asked, false);
});

Deno.test("createTokenProvider: service principal from the three CLOUD_* variables", () => {
  const logger = recordingLogger();
  for (const region of ["", "usgov", "china"]) {
    const config = loadConfig({
      CATALOG_ACCOUNT_NAME: "contoso",
      CLOUD_TENANT_ID: TENANT,
      CLOUD_CLIENT_ID: CLIENT,
      CLOUD_CLIENT_SECRET: SECRET,
      CLOUD_REGION: region,
    });
    // Only the choice is checked: a token request would go to a real login host.
    const tokens = createTokenProvider(config, { logger });
    assert.equal(tokens.kind, "service-principal");
    assert.match(tokens.description, /^service principal \(client id 0a1b2c3d…, tenant 72f988bf…, login\./);
    assert.ok(!tokens.description.includes(SECRET));
    assert.ok(!JSON.stringify(tokens).includes(SECRET));
  }
  logger.warn(`leak check ${SECRET}`);
  assert.ok(logger.lines.every((l) => !l.includes(SECRET)), "secret registered with the logger");
});

Deno.test("createTokenProvider: an explicit credential is kind custom and is cached", async () => {
  const config = loadConfig({ CATALOG_ACCOUNT_NAME: "contoso" });
  const clock = { now: 0 };
  const { credential, state } = fakeCredential(60 * MINUTE, clock);
  const tokens = createTokenProvider(config, { credential, now: () => clock.now });
  assert.equal(tokens.kind, "custom");
  assert.equal(await tokens.getToken(), "token-1");
  assert.equal(await tokens.getToken(), "token-1");
  assert.equal(state.calls, 1);
});

// ---- Managed identity on loopback, in a subprocess ----

Deno.test("chain: managed identity on loopback, single flight, cache, refresh before expiry", async () => {
  // 4-second tokens: the provider refreshes after half the lifetime, so a call 2.5 s later asks again.
  const endpoint = startTokenEndpoint((n) => tokenResponse(n, 4));
  try {
    const { report, stderr } = await runFixture(["tokens", "2500"], {
      IDENTITY_ENDPOINT: endpoint.url,
      IDENTITY_HEADER: "test-header",
    });
    const first = `mi-access-token-1-${"x".repeat(40)}`;
    const second = `mi-access-token-2-${"x".repeat(40)}`;
    assert.equal(report.error, undefined, JSON.stringify(report.error));
    assert.equal(report.kind, "chain");
    assert.equal(
      report.description,
      "default chain: environment, managed identity, Azure CLI, Azure Developer CLI",
    );
    assert.equal(report.descriptionAfter, `${report.description}; last token from managed identity`);
    assert.deepEqual(report.concurrent, [first, first, first]);
    assert.equal(report.again, first, "second call served from the cache");
    assert.equal(report.afterSleep, second, "refreshed before expiry");
    assert.equal(endpoint.requests.length, 2);

    const [request] = endpoint.requests;
    assert.equal(request.method, "GET");
    assert.equal(request.path, "/msi/token");
    assert.equal(request.query["api-version"], "2019-08-01");
    assert.equal(request.query.resource, "https://purview.azure.net");
    assert.equal(request.identityHeader, "test-header");

    assert.match(stderr, /Catalog token from managed identity: expires/);
    assert.ok(!stderr.includes("mi-access-token"), "no token on stderr");
  } finally {
    await endpoint.close();
  }
});

Deno.test("chain: every credential failing is an AuthenticationError with a login hint", async () => {
  const endpoint = startTokenEndpoint(() =>
    Response.json({ error: "invalid_request", error_description: "no identity assigned" }, { status: 400 })
  );
  try {
    const { report } = await runFixture(["tokens"], {
      IDENTITY_ENDPOINT: endpoint.url,
      IDENTITY_HEADER: "test-header",
      CLOUD_TENANT_ID: TENANT,
    });
    const error = report.error as { name: string; message: string; hint: string; status: number };
    assert.equal(error.name, "AuthenticationError");
    assert.equal(error.status, 401);
    assert.match(error.message, /^No credential could get a token for the catalog/);
    assert.match(error.hint, /az login/);
    assert.match(error.hint, /azd auth login/);
    assert.match(error.hint, /CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET/);
    assert.ok(endpoint.requests.length >= 1);
  } finally {
    await endpoint.close();
  }
});

Deno.test("chain: workload identity joins the chain only when its environment is present", async () => {
  // No token is asked for; the endpoint is there so a managed identity is never built without one.
  const endpoint = startTokenEndpoint((n) => tokenResponse(n, 3600));
  try {
    const { report } = await runFixture(["describe"], {
      IDENTITY_ENDPOINT: endpoint.url,
      IDENTITY_HEADER: "test-header",
      AZURE_FEDERATED_TOKEN_FILE: "/nonexistent/token",
      AZURE_CLIENT_ID: CLIENT,
      AZURE_TENANT_ID: TENANT,
    });
    assert.equal(report.kind, "chain");
    assert.equal(
      report.description,
      "default chain: environment, workload identity, managed identity, Azure CLI, Azure Developer CLI",
    );
    assert.equal(endpoint.requests.length, 0);
  } finally {
    await endpoint.close();
  }
});
