/**
 * Entra ID sign-in on the HTTP transports, against a loopback stand-in authority: the metadata document,
 * the challenge, every kind of bad token refused with the right status and header, a valid one admitted,
 * key refresh on an unknown kid (bounded under a flood), and sessions bound to the user who opened them.
 */
import assert from "node:assert/strict";
import {
  CURATOR,
  hs256WithPublicKey,
  READER,
  SERVER_CLIENT_ID,
  TENANT_ID,
  unsignedCopy,
} from "../../../support/entra_stand_in.ts";
import { type SignedInHarness, startSignedInHarness } from "../../../support/signed_in_harness.ts";
import { HOSTED_METADATA_PATH } from "../../../../lib/mcp/auth/sign_in.ts";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const SCOPE = `api://${SERVER_CLIENT_ID}/user_impersonation`;

function post(h: SignedInHarness, token: string | undefined, body: unknown = INITIALIZE, headers = {}) {
  return fetch(h.mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

async function withHarness(
  test: (h: SignedInHarness) => Promise<void>,
  options: Parameters<typeof startSignedInHarness>[0] = {},
) {
  const h = await startSignedInHarness(options);
  try {
    await test(h);
  } finally {
    await h.close();
  }
}

Deno.test("sign-in: the protected resource metadata names the tenant's authority and the scope", async () => {
  await withHarness(async (h) => {
    // No test may reach a login host: the authority is the loopback stand-in.
    assert.match(h.authority.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    for (
      const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]
    ) {
      const response = await fetch(new URL(path, h.baseUrl));
      assert.deepEqual(response.status, 200, path);
      assert.deepEqual(await response.json(), {
        resource: h.mcpUrl,
        authorization_servers: [`${h.authority.url}/${TENANT_ID}/v2.0`],
        scopes_supported: [SCOPE],
        bearer_methods_supported: ["header"],
        resource_name: "govcat data-governance catalog",
      });
    }
    const wrongMethod = await fetch(new URL("/.well-known/oauth-protected-resource", h.baseUrl), {
      method: "POST",
    });
    assert.deepEqual(wrongMethod.status, 405);
    await wrongMethod.body?.cancel();
  });
});

Deno.test("sign-in: a request without a token gets 401 and the challenge pointing at the metadata", async () => {
  await withHarness(async (h) => {
    const response = await post(h, undefined);
    assert.deepEqual(response.status, 401);
    assert.deepEqual(
      response.headers.get("www-authenticate"),
      `Bearer resource_metadata="${h.baseUrl}/.well-known/oauth-protected-resource/mcp", scope="${SCOPE}"`,
    );
    const body = await response.json();
    includes(body.error.message, "Sign-in required");
  });
});

Deno.test("sign-in: every bad token is refused with the right status, error and reason", async () => {
  await withHarness(async (h) => {
    const a = h.authority;
    const now = Math.floor(Date.now() / 1000);
    const valid = await a.token(READER);
    const cases: Array<[string, string, number, string, string]> = [
      [
        "wrong audience (another API)",
        await a.token(READER, { claims: { aud: crypto.randomUUID() } }),
        401,
        "invalid_token",
        "not for this server",
      ],
      [
        "Purview's audience",
        await a.token(READER, { claims: { aud: "https://purview.azure.net" } }),
        401,
        "invalid_token",
        "https://purview.azure.net",
      ],
      [
        "this server's and Purview's audience",
        await a.token(READER, { claims: { aud: [SERVER_CLIENT_ID, "https://purview.azure.net"] } }),
        401,
        "invalid_token",
        "several audiences",
      ],
      [
        "wrong issuer (another tenant)",
        await a.token(READER, { claims: { iss: `${a.url}/${crypto.randomUUID()}/v2.0` } }),
        401,
        "invalid_token",
        "issuer",
      ],
      [
        "v1.0 token",
        await a.token(READER, { claims: { iss: `https://sts.windows.net/${TENANT_ID}/` } }),
        401,
        "invalid_token",
        "v2.0 tokens only",
      ],
      ["expired", await a.token(READER, { claims: { exp: now - 600 } }), 401, "invalid_token", "expired"],
      [
        "not yet valid",
        await a.token(READER, { claims: { nbf: now + 600 } }),
        401,
        "invalid_token",
        "not valid before",
      ],
      ["bad signature", await a.token(READER, { foreignKey: true }), 401, "invalid_token", "signature"],
      ["tampered payload", tamper(valid), 401, "invalid_token", "signature"],
      [
        "unknown kid",
        await a.token(READER, { foreignKey: true, kid: "never-published" }),
        401,
        "invalid_token",
        "key the tenant does not publish",
      ],
      [
        "missing scope",
        await a.token(READER, { claims: { scp: "User.Read" } }),
        403,
        "insufficient_scope",
        SCOPE,
      ],
      ["no scope, no role", await a.token(READER, { drop: ["scp"] }), 403, "insufficient_scope", SCOPE],
      ["alg none", unsignedCopy(valid), 401, "invalid_token", "only RS256"],
      [
        "HS256 keyed with the public key",
        await hs256WithPublicKey(valid, a.publicJwk()),
        401,
        "invalid_token",
        "only RS256",
      ],
      [
        "another tenant's tid",
        await a.token(READER, { claims: { tid: crypto.randomUUID() } }),
        401,
        "invalid_token",
        "tenant",
      ],
      ["no oid", await a.token(READER, { drop: ["oid"] }), 401, "invalid_token", "oid"],
      ["no exp", await a.token(READER, { drop: ["exp"] }), 401, "invalid_token", "exp"],
      ["not a JWT", "not-a-jwt", 401, "invalid_token", "not a JWT"],
    ];
    for (const [name, token, status, error, reason] of cases) {
      const response = await post(h, token);
      const challenge = response.headers.get("www-authenticate") ?? "";
      const body = await response.json();
      assert.deepEqual(response.status, status, name);
      includes(challenge, `error="${error}"`, name);
      includes(challenge, `resource_metadata="${h.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
      includes(body.error.message, reason, name);
      // The refusal never echoes the token.
      assert.ok(!challenge.includes(token) && !JSON.stringify(body).includes(token), name);
    }
    const basic = await post(h, undefined, INITIALIZE, { authorization: "Basic dXNlcjpwYXNz" });
    assert.deepEqual(basic.status, 401);
    includes(basic.headers.get("www-authenticate") ?? "", 'error="invalid_request"');
    await basic.body?.cancel();
  });
});

Deno.test("sign-in: a valid token opens a session whose tools work; clock skew is tolerated", async () => {
  await withHarness(async (h) => {
    const client = await h.connect(await h.authority.token(READER));
    const tools = await client.listTools();
    assert.ok(tools.tools.length > 10);
    const result = await client.callTool({ name: "search_entities", arguments: { query: "customer" } });
    assert.ok(!result.isError, JSON.stringify(result));
    // Expired 30 s ago: inside the 60 s skew.
    const skewed = await post(
      h,
      await h.authority.token(READER, { claims: { exp: Math.floor(Date.now() / 1000) - 30 } }),
    );
    assert.deepEqual(skewed.status, 200);
    await skewed.body?.cancel();
  });
});

Deno.test("sign-in: an app role replaces the scope only when configured", async () => {
  await withHarness(async (h) => {
    const appToken = await h.authority.token(READER, {
      drop: ["scp", "name"],
      claims: { roles: ["Catalog.Use"] },
    });
    const response = await post(h, appToken);
    assert.deepEqual(response.status, 200);
    await response.body?.cancel();
    const otherRole = await post(
      h,
      await h.authority.token(READER, { drop: ["scp"], claims: { roles: ["Other"] } }),
    );
    assert.deepEqual(otherRole.status, 403);
    includes(otherRole.headers.get("www-authenticate") ?? "", "insufficient_scope");
    includes((await otherRole.json()).error.message, "app role Catalog.Use");
  }, { env: { CATALOG_MCP_ENTRA_APP_ROLE: "Catalog.Use" } });
});

Deno.test("sign-in: a token signed with a rotated key is accepted after one refresh of the key set", async () => {
  await withHarness(async (h) => {
    const first = await post(h, await h.authority.token(READER));
    assert.deepEqual(first.status, 200);
    await first.body?.cancel();
    assert.deepEqual(h.authority.keyFetches(), 1);
    await h.authority.rotate();
    const rotated = await post(h, await h.authority.token(CURATOR));
    assert.deepEqual(rotated.status, 200);
    await rotated.body?.cancel();
    assert.deepEqual(h.authority.keyFetches(), 2);
  }, { verifier: { jwksCooldownMs: 0 } });
});

Deno.test("sign-in: a flood of unknown kids fetches the key set at most once more", async () => {
  await withHarness(async (h) => {
    const warmUp = await post(h, await h.authority.token(READER));
    await warmUp.body?.cancel();
    const before = h.authority.keyFetches();
    const attempt = async () => {
      const response = await post(
        h,
        await h.authority.token(READER, { foreignKey: true, kid: crypto.randomUUID() }),
      );
      await response.body?.cancel();
      return response.status;
    };
    // One after another (each could start a fetch of its own), then all at once.
    const flood: number[] = [];
    for (let i = 0; i < 20; i++) flood.push(await attempt());
    flood.push(...await Promise.all(Array.from({ length: 20 }, attempt)));
    assert.deepEqual(new Set(flood), new Set([401]));
    assert.ok(h.authority.keyFetches() - before <= 1, `${h.authority.keyFetches() - before} fetches`);
  });
});

Deno.test("sign-in: a streamable session serves only the user who opened it", async () => {
  await withHarness(async (h) => {
    const opened = await post(h, await h.authority.token(READER));
    const sessionId = opened.headers.get("mcp-session-id")!;
    await opened.body?.cancel();
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    const hijack = await post(h, await h.authority.token(CURATOR), list, headers);
    assert.deepEqual(hijack.status, 403);
    includes((await hijack.json()).error.message, "belongs to another user");
    // The owner, with a fresh token of their own, carries on.
    const own = await post(h, await h.authority.token(READER), list, headers);
    assert.deepEqual(own.status, 200);
    await own.body?.cancel();
  });
});

Deno.test("sign-in: an SSE session serves only the user who opened it", async () => {
  await withHarness(async (h) => {
    const refused = await fetch(h.mcpUrl);
    assert.deepEqual(refused.status, 401);
    await refused.body?.cancel();
    const stream = await fetch(h.mcpUrl, {
      headers: { authorization: `Bearer ${await h.authority.token(READER)}` },
    });
    assert.deepEqual(stream.status, 200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!/data: (\S+)/.test(text)) text += (await reader.read()).value ?? "";
    const endpoint = new URL(/data: (\S+)/.exec(text)![1], h.baseUrl);
    const hijack = await fetch(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${await h.authority.token(CURATOR)}`,
      },
      body: JSON.stringify(INITIALIZE),
    });
    assert.deepEqual(hijack.status, 403);
    await hijack.body?.cancel();
    const own = await fetch(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${await h.authority.token(READER)}`,
      },
      body: JSON.stringify(INITIALIZE),
    });
    assert.deepEqual(own.status, 202);
    await own.body?.cancel();
    await reader.cancel();
  }, { mode: "sse" });
});

Deno.test("sign-in: hosted mode checks every request's token; its challenge points under /api", async () => {
  await withHarness(async (h) => {
    const refused = await post(h, undefined);
    assert.deepEqual(refused.status, 401);
    includes(
      refused.headers.get("www-authenticate") ?? "",
      `resource_metadata="${h.baseUrl}/api/oauth-protected-resource"`,
    );
    const metadata = await fetch(new URL("/api/oauth-protected-resource", h.baseUrl));
    assert.equal((await metadata.json()).resource, h.mcpUrl);
    await refused.body?.cancel();
    const client = await h.connect(await h.authority.token(CURATOR));
    assert.ok((await client.listTools()).tools.length > 10);
  }, { mode: "hosted", verifier: { metadataPath: HOSTED_METADATA_PATH } });
});

/** `token` with one payload character changed, so its signature no longer matches. */
function tamper(token: string): string {
  const [header, payload, signature] = token.split(".");
  const claims = JSON.parse(
    atob(payload.replace(/-/g, "+").replace(/_/g, "/") + "==".slice(0, (4 - payload.length % 4) % 4)),
  );
  claims.oid = CURATOR.oid;
  const forged = btoa(JSON.stringify(claims)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${header}.${forged}.${signature}`;
}

function includes(text: string, part: string, message?: string): void {
  assert.ok(
    text.includes(part),
    `${message ?? ""}: expected ${JSON.stringify(part)} in ${JSON.stringify(text)}`,
  );
}

Deno.test("sign-in: a server beyond loopback may rely on sign-in instead of the shared token", async () => {
  const { assertSafeBinding } = await import("../../../../lib/mcp/http_security.ts");
  assert.doesNotThrow(() => assertSafeBinding("0.0.0.0", undefined, true));
  assert.throws(() => assertSafeBinding("0.0.0.0", undefined, false), /CATALOG_MCP_ENTRA_TENANT_ID/);
});

Deno.test("sign-in: behind a proxy, the configured public URL is the resource and the challenge's base", async () => {
  await withHarness(async (h) => {
    const metadata = await fetch(new URL("/.well-known/oauth-protected-resource/mcp", h.baseUrl));
    assert.equal((await metadata.json()).resource, "https://govcat.contoso.com/mcp");
    const refused = await post(h, undefined);
    includes(
      refused.headers.get("www-authenticate") ?? "",
      'resource_metadata="https://govcat.contoso.com/.well-known/oauth-protected-resource/mcp"',
    );
    await refused.body?.cancel();
  }, { env: { CATALOG_MCP_ENTRA_PUBLIC_URL: "https://govcat.contoso.com" } });
});

Deno.test("sign-in: when the tenant's keys cannot be fetched the answer is 503, not a challenge", async () => {
  await withHarness(async (h) => {
    const token = await h.authority.token(READER);
    await h.authority.close();
    const response = await post(h, token);
    assert.equal(response.status, 503);
    assert.equal(response.headers.get("www-authenticate"), null);
    assert.equal(response.headers.get("retry-after"), "30");
    includes((await response.json()).error.message, "signing keys could not be fetched");
  });
});
