/**
 * Token providers. Caching and refresh are tested in-process with a fake credential and clock; the real
 * managed-identity exchange runs in a subprocess (the SDK reads the environment, which tests must not
 * change) against a token endpoint served here on 127.0.0.1. No test reaches a login host or the instance
 * metadata address: the subprocess may only open connections to 127.0.0.1.
 */
import assert from "node:assert/strict";
import { cachedTokenProvider, createTokenProvider } from "../../../lib/auth/token_provider.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import type { AccessToken, TokenCredential } from "../../../lib/deps/azure_identity.ts";
import { AuthenticationError } from "../../../lib/core/errors.ts";
import { createLogger, type Logger } from "../../../lib/core/log.ts";
import { runFixture, startTokenEndpoint, tokenResponse } from "../auth_fixtures/subprocess.ts";

const SCOPE = "https://purview.azure.net/.default";
const MINUTE = 60_000;
const SECRET = "super-secret-value~123";
const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const CLIENT = "0a1b2c3d-1111-2222-3333-444455556666";

/** A credential that hands out `token-1`, `token-2`, … and counts calls; `fail` makes the next calls throw. */
function fakeCredential(lifetimeMs: number, clock: { now: number }) {
  const state = {
    calls: 0,
    fail: undefined as Error | undefined,
    refreshAfterMs: undefined as number | undefined,
    gate: undefined as Promise<void> | undefined,
  };
  const credential: TokenCredential = {
    async getToken(): Promise<AccessToken> {
      state.calls++;
      const n = state.calls;
      if (state.gate) await state.gate;
      if (state.fail) throw state.fail;
      return {
        token: `token-${n}`,
        expiresOnTimestamp: clock.now + lifetimeMs,
        refreshAfterTimestamp: state.refreshAfterMs === undefined
          ? undefined
          : clock.now + state.refreshAfterMs,
      };
    },
  };
  return { credential, state };
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger("debug", { write: (line) => lines.push(line) }), { lines });
}

Deno.test("cached provider keeps the token until 5 minutes before expiry, then refreshes", async () => {
  const clock = { now: 1_000_000 };
  const { credential, state } = fakeCredential(60 * MINUTE, clock);
  const tokens = cachedTokenProvider(credential, SCOPE, { now: () => clock.now });

  assert.equal(await tokens.getToken(), "token-1");
  clock.now += 54 * MINUTE;
  assert.equal(await tokens.getToken(), "token-1");
  assert.equal(state.calls, 1);
  clock.now += 2 * MINUTE; // 4 minutes left: inside the refresh margin
  assert.equal(await tokens.getToken(), "token-2");
  assert.equal(state.calls, 2);
});

Deno.test("cached provider refreshes a short-lived token after half its lifetime", async () => {
  const clock = { now: 0 };
  const { credential, state } = fakeCredential(4 * MINUTE, clock);
  const tokens = cachedTokenProvider(credential, SCOPE, { now: () => clock.now });

  assert.equal(await tokens.getToken(), "token-1");
  clock.now += 1.9 * MINUTE;
  assert.equal(await tokens.getToken(), "token-1");
  clock.now += 0.2 * MINUTE;
  assert.equal(await tokens.getToken(), "token-2");
  assert.equal(state.calls, 2);
});

Deno.test("cached provider honours refreshAfterTimestamp from the credential", async () => {
  const clock = { now: 0 };
  const { credential, state } = fakeCredential(24 * 60 * MINUTE, clock);
  state.refreshAfterMs = 12 * 60 * MINUTE;
  const tokens = cachedTokenProvider(credential, SCOPE, { now: () => clock.now });

  await tokens.getToken();
  clock.now += 12 * 60 * MINUTE - 1;
  assert.equal(await tokens.getToken(), "token-1");
  clock.now += 1;
  assert.equal(await tokens.getToken(), "token-2");
});

Deno.test("concurrent callers share one request", async () => {
  const clock = { now: 0 };
  const { credential, state } = fakeCredential(60 * MINUTE, clock);
  let open!: () => void;
  state.gate = new Promise((resolve) => (open = resolve));
  const tokens = cachedTokenProvider(credential, SCOPE, { now: () => clock.now });

  const pending = Promise.all([tokens.getToken(), tokens.getToken(), tokens.getToken()]);
  open();
  assert.deepEqual(await pending, ["token-1", "token-1", "token-1"]);
  assert.equal(state.calls, 1);
});

Deno.test("a failed refresh keeps the still-valid token, warns once, and backs off", async () => {
  const clock = { now: 0 };
  const logger = recordingLogger();
  const { credential, state } = fakeCredential(60 * MINUTE, clock);
  const tokens = cachedTokenProvider(credential, SCOPE, { now: () => clock.now, logger });

  await tokens.getToken();
  state.fail = new Error("identity endpoint unreachable");
  clock.now += 56 * MINUTE;
  assert.deepEqual(await Promise.all([tokens.getToken(), tokens.getToken()]), ["token-1", "token-1"]);
  assert.equal(state.calls, 2);
  const warnings = logger.lines.filter((l) => l.startsWith("warn:"));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /identity endpoint unreachable/);
  assert.doesNotMatch(warnings[0], /token-1/);

  clock.now += 10_000; // within the back-off: no new attempt
  assert.equal(await tokens.getToken(), "token-1");
  assert.equal(state.calls, 2);

  state.fail = undefined;
  clock.now += 30_000;
  assert.equal(await tokens.getToken(), "token-3");
});

Deno.test("an expired token is never returned: a failed refresh then throws AuthenticationError", async () => {
  const clock = { now: 0 };
  const { credential, state } = fakeCredential(60 * MINUTE, clock);
  const tokens = cachedTokenProvider(credential, SCOPE, { now: () => clock.now });

  await tokens.getToken();
  state.fail = new Error(`backend said no; token-1 and ${SECRET}`);
  clock.now += 61 * MINUTE;
  const error = await tokens.getToken().then(() => undefined, (e) => e);
  assert.ok(error instanceof AuthenticationError);
  assert.equal(error.status, 401);
  assert.match(error.message, /No credential could get a token/);
  assert.doesNotMatch(error.message, /token-1/);
});

Deno.test("credential failures become AuthenticationError without the secret, with a login hint", async () => {
  const logger = recordingLogger();
  const credential: TokenCredential = {
    getToken: () => Promise.reject(new Error(`AADSTS7000215: Invalid client secret provided: ${SECRET}`)),
  };
  const tokens = cachedTokenProvider(credential, SCOPE, { logger, secrets: [SECRET] });
  const error = await tokens.getToken().then(() => undefined, (e) => e);
  assert.ok(error instanceof AuthenticationError);
  assert.match(error.message, /^No credential could get a token for the catalog/);
  assert.match(error.message, /AADSTS7000215/);
  assert.ok(!error.message.includes(SECRET));
  assert.match(error.hint ?? "", /az login/);
  assert.match(error.hint ?? "", /CLOUD_CLIENT_SECRET/);
  for (const line of logger.lines) assert.ok(!line.includes(SECRET));
});

Deno.test("a credential that never answers times out with AuthenticationError", async () => {
  let release!: () => void;
  const credential: TokenCredential = {
    getToken: () =>
      new Promise<AccessToken>((
        resolve,
      ) => (release = () => resolve({ token: "late", expiresOnTimestamp: 0 }))),
  };
  const tokens = cachedTokenProvider(credential, SCOPE, { timeoutMs: 50 });
  await assert.rejects(
    tokens.getToken(),
    (e: unknown) => e instanceof AuthenticationError && /within/.test(e.message),
  );
  release();
});

Deno.test("an aborted caller stops waiting without cancelling the shared request", async () => {
  const clock = { now: 0 };
  const { credential, state } = fakeCredential(60 * MINUTE, clock);
  let open!: () => void;
  state.gate = new Promise((resolve) => (open = resolve));
  const tokens = cachedTokenProvider(credential, SCOPE, { now: () => clock.now });

  const controller = new AbortController();
  const impatient = tokens.getToken(controller.signal);
  const patient = tokens.getToken();
  controller.abort(new Error("caller gave up"));
  await assert.rejects(impatient, /caller gave up/);
  open();
  assert.equal(await patient, "token-1");
  assert.equal(state.calls, 1);
});

Deno.test("debug log names the credential and expiry, never the token", async () => {
  const clock = { now: Date.UTC(2030, 0, 1) };
  const logger = recordingLogger();
  const { credential } = fakeCredential(60 * MINUTE, clock);
  const tokens = cachedTokenProvider(credential, SCOPE, {
    now: () => clock.now,
    logger,
    description: "test credential",
  });
  await tokens.getToken();
  const line = logger.lines.find((l) => l.startsWith("debug:")) ?? "";
  assert.match(line, /test credential/);
  assert.match(line, /2030-01-01T01:00:00\.000Z/);
  assert.doesNotMatch(line, /token-1/);
});

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
