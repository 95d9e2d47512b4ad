/**
 * The services of signed-in sessions: in user mode each user has catalog clients of their own, shared by
 * their sessions, for a bounded number of users; in server mode sessions share the server's clients.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../../lib/config/config.ts";
import { createLogger } from "../../../../lib/core/log.ts";
import type { SignedInUser } from "../../../../lib/mcp/auth/entra_token.ts";
import { SessionUser } from "../../../../lib/mcp/auth/session_user.ts";
import {
  MAX_CACHED_USERS,
  servicesForSession,
  useOnBehalfOfFactory,
  userPermissionHint,
} from "../../../../lib/mcp/auth/user_services.ts";
import { createToolServices } from "../../../../lib/mcp/server.ts";
import { TENANT_ID } from "../../../support/entra_stand_in.ts";
import { json, startLocalServer } from "../../../support/local_server.ts";

function services(identity: "user" | "server", endpoint?: string) {
  const config = loadConfig({
    CATALOG_ACCOUNT_NAME: "contoso",
    ...(endpoint ? { CATALOG_ENDPOINT: endpoint } : {}),
    CATALOG_MCP_ENTRA_TENANT_ID: TENANT_ID,
    CATALOG_MCP_ENTRA_CLIENT_ID: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
    CATALOG_MCP_ENTRA_CLIENT_SECRET: "server-secret-0123456789",
    CATALOG_MCP_CATALOG_IDENTITY: identity,
  });
  return createToolServices({ config, logger: createLogger("error", { write: () => {} }) });
}

function user(n: number, expiresAt = 2_000_000_000, token = `token-of-${n}`): SessionUser {
  return new SessionUser(signedInUser(n, expiresAt, token));
}

function signedInUser(n: number, expiresAt: number, token: string): SignedInUser {
  return {
    tenantId: TENANT_ID,
    objectId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    name: `User ${n}`,
    scopes: ["user_impersonation"],
    roles: [],
    appOnly: false,
    expiresAt,
    token,
  };
}

Deno.test("user services: a user's sessions share their clients; other users get their own", () => {
  const base = services("user");
  const first = servicesForSession(base, user(1)).catalog();
  assert.equal(servicesForSession(base, user(1)).catalog(), first);
  assert.notEqual(servicesForSession(base, user(2)).catalog(), first);
  assert.notEqual(first, base.catalog());
  assert.equal(servicesForSession(base, undefined), base);
});

Deno.test("user services: at most MAX_CACHED_USERS users keep clients; the least recently used goes", () => {
  const base = services("user");
  const clients = Array.from(
    { length: MAX_CACHED_USERS },
    (_, n) => servicesForSession(base, user(n)).catalog(),
  );
  assert.equal(servicesForSession(base, user(0)).catalog(), clients[0], "cached, and now the most recent");
  servicesForSession(base, user(MAX_CACHED_USERS)).catalog();
  assert.equal(servicesForSession(base, user(0)).catalog(), clients[0]);
  assert.notEqual(servicesForSession(base, user(1)).catalog(), clients[1], "the least recent was dropped");
});

Deno.test("user services: in server mode sessions use the server's clients", () => {
  const base = services("server");
  assert.equal(servicesForSession(base, user(1)).catalog(), base.catalog());
});

Deno.test("user services: in user mode a 401 or 403 is the user's own problem, an app's 401 says why", () => {
  const base = services("user");
  const failure = { error: "AuthorizationError", status: 403, message: "no", hint: "server roles" };
  const forUser = userPermissionHint(servicesForSession(base, user(7)), failure);
  assert.match(forUser.hint ?? "", /refused this for User 7, the signed-in user/);
  const app = new SessionUser({ ...user(8).current, appOnly: true, scopes: [] });
  const forApp = userPermissionHint(servicesForSession(base, app), { ...failure, status: 401 });
  assert.match(forApp.hint ?? "", /signed in as an application/);
  assert.deepEqual(userPermissionHint(servicesForSession(services("server"), user(7)), failure), failure);
});

Deno.test("user services: once its catalog token is due, a user's next exchange uses their refreshed token", async () => {
  const catalog = startLocalServer(() => json(200, { entity: { guid: "g" }, referredEntities: {} }));
  try {
    const base = services("user", catalog.url);
    const assertions: string[] = [];
    // A catalog token of one second is due for renewal after half of it: each call after a pause exchanges.
    useOnBehalfOfFactory(base, (options) => ({
      getToken: () => {
        assertions.push(options.userAssertionToken);
        return Promise.resolve({
          token: `obo-${assertions.length}`,
          expiresOnTimestamp: Date.now() + 1_000,
        });
      },
    }));
    const session = user(3, 2_000_000_000, "user-token-A");
    const pause = () => new Promise((resolve) => setTimeout(resolve, 600));
    const read = () =>
      servicesForSession(base, session).catalog().entity.get("ca7a1000-0000-4000-8000-000000000001");
    await read();
    // The user's client refreshed their token; the session admits it on the next request.
    assert.equal(session.admit(signedInUser(3, 2_000_003_600, "user-token-B"), "session-1"), undefined);
    await pause();
    await read();
    await pause();
    // A second session of the same user, opened later still, shares the user's clients.
    await servicesForSession(base, user(3, 2_000_007_200, "user-token-C")).catalog().entity.get(
      "ca7a1000-0000-4000-8000-000000000001",
    );
    await pause();
    await read();
    assert.deepEqual(assertions, ["user-token-A", "user-token-B", "user-token-C", "user-token-C"]);
    assert.deepEqual(
      catalog.requests.map((request) => request.headers.get("authorization")),
      ["Bearer obo-1", "Bearer obo-2", "Bearer obo-3", "Bearer obo-4"],
    );
  } finally {
    await catalog.close();
  }
});
