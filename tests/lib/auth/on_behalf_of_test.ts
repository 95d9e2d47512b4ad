/**
 * The on-behalf-of credential: which options it is built with (the user's current assertion, the server's
 * app registration, instance discovery off for a loopback authority only), and the per-user token cache.
 * The exchange itself, through the real OnBehalfOfCredential, is tested end to end in
 * tests/e2e/signed_in_team_test.ts against a loopback https authority.
 */
import assert from "node:assert/strict";
import {
  type OnBehalfOfOptions,
  onBehalfOfOptions,
  onBehalfOfTokenProvider,
} from "../../../lib/auth/on_behalf_of.ts";
import { AuthenticationError } from "../../../lib/core/errors.ts";

const SETTINGS = {
  tenantId: "11111111-2222-4333-8444-555555555555",
  clientId: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
  clientSecret: "server-secret-0123456789",
  authorityHost: "https://login.microsoftonline.com",
};

Deno.test("on-behalf-of: the credential carries the user's assertion and the server's registration", () => {
  assert.deepEqual(onBehalfOfOptions(SETTINGS, "user.assertion.jwt"), {
    ...SETTINGS,
    userAssertionToken: "user.assertion.jwt",
    disableInstanceDiscovery: false,
  });
  const loopback = onBehalfOfOptions({ ...SETTINGS, authorityHost: "https://127.0.0.1:4443" }, "a.b.c");
  assert.equal(loopback.disableInstanceDiscovery, true);
});

Deno.test("on-behalf-of: one exchange per token lifetime, with the assertion current at the time", async () => {
  let now = Date.now();
  let assertion = "first.assertion.jwt";
  const built: OnBehalfOfOptions[] = [];
  const tokens = onBehalfOfTokenProvider(SETTINGS, "https://purview.azure.net/.default", () => assertion, {
    now: () => now,
    factory: (options) => {
      built.push(options);
      return {
        getToken: () =>
          Promise.resolve({ token: `catalog-token-${built.length}`, expiresOnTimestamp: now + 3_600_000 }),
      };
    },
  });
  assert.equal(await tokens.getToken(), "catalog-token-1");
  assert.equal(await tokens.getToken(), "catalog-token-1");
  assertion = "second.assertion.jwt";
  now += 58 * 60_000; // Past the refresh point, five minutes before expiry.
  assert.equal(await tokens.getToken(), "catalog-token-2");
  assert.deepEqual(built.map((o) => o.userAssertionToken), ["first.assertion.jwt", "second.assertion.jwt"]);
  assert.equal(tokens.kind, "on-behalf-of");
});

Deno.test("on-behalf-of: a failed exchange is a 401 naming the cause, never the assertion or secret", async () => {
  const assertion = "eyJhbGciOiJSUzI1NiJ9.eyJvaWQiOiJ4In0.c2lnbmF0dXJl";
  const tokens = onBehalfOfTokenProvider(SETTINGS, "https://purview.azure.net/.default", () => assertion, {
    factory: () => ({
      getToken: () =>
        Promise.reject(
          new Error(`AADSTS50013: assertion ${assertion} rejected for ${SETTINGS.clientSecret}`),
        ),
    }),
  });
  await assert.rejects(tokens.getToken(), (error: unknown) => {
    assert.ok(error instanceof AuthenticationError);
    assert.equal(error.status, 401);
    assert.match(error.message, /AADSTS50013/);
    assert.ok(!error.message.includes(assertion) && !error.message.includes(SETTINGS.clientSecret));
    assert.match(error.hint ?? "", /sign in again/);
    return true;
  });
});
