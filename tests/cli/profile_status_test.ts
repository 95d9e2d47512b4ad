/**
 * `profile status` of `cli/profile_status.ts`: the bounded token check, and the identity a token names
 * reported without the token itself.
 */
import assert from "node:assert/strict";
import { createProfileService } from "../../cli/profile_service.ts";
import { tokenIdentity, tokenWithin } from "../../cli/profile_status.ts";
import type { TokenProvider } from "../../lib/auth/cached_tokens.ts";
import { withDir } from "../support/profiles_dir.ts";

Deno.test("tokenWithin gives up after its timeout even when the credential never answers", async () => {
  const hanging: TokenProvider = {
    kind: "chain",
    description: "test",
    getToken: () => new Promise(() => {}),
  };
  const started = Date.now();
  const outcome = await tokenWithin(hanging, 50);
  assert.equal(outcome.ok, false);
  assert.ok(Date.now() - started < 2000);
});

Deno.test("tokenIdentity names the user or app and never returns the token", () => {
  const payload = btoa(JSON.stringify({ upn: "ana@contoso.com", tid: "t-1", exp: 0 })).replace(/=+$/, "");
  const identity = tokenIdentity(`eyJhbGciOiJub25lIn0.${payload}.sig`);
  assert.equal(identity.user, "ana@contoso.com");
  assert.equal(identity.tenantId, "t-1");
  assert.ok(!JSON.stringify(identity).includes("sig"));
  assert.deepEqual(tokenIdentity("opaque"), {});
});

Deno.test("status reports the identity from a provider without the token", async () => {
  await withDir(async (_dir, env) => {
    createProfileService({ env }).add({ name: "prod", accountName: "contoso" });
    const payload = btoa(JSON.stringify({ appid: "app-1" }));
    const token = `h.${payload}.s`;
    const service = createProfileService({
      env,
      tokenProvider: () => ({ kind: "chain", description: "fake", getToken: () => Promise.resolve(token) }),
    });
    const status = await service.status() as Record<string, unknown>;
    assert.equal(status.profile, "prod");
    assert.equal(status.authenticated, true);
    assert.deepEqual(status.identity, { application: "app-1" });
    assert.ok(!JSON.stringify(status).includes(token));
  });
});
