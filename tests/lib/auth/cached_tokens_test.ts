/**
 * The caching token provider, in-process with a fake credential and clock: when it refreshes, how callers
 * share a request, how failures and timeouts become AuthenticationError, and what its logs hold.
 */
import assert from "node:assert/strict";
import { cachedTokenProvider } from "../../../lib/auth/cached_tokens.ts";
import type { AccessToken, TokenCredential } from "../../../lib/deps/azure_identity.ts";
import { AuthenticationError } from "../../../lib/core/errors.ts";
import { fakeCredential, recordingLogger } from "../auth_fixtures/fake_credential.ts";

const SCOPE = "https://purview.azure.net/.default";
const MINUTE = 60_000;
const SECRET = "super-secret-value~123";

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
