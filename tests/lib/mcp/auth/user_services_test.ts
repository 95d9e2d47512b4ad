/**
 * The services of signed-in sessions: in user mode each user has catalog clients of their own, shared by
 * their sessions, for a bounded number of users; in server mode sessions share the server's clients.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../../lib/config.ts";
import { createLogger } from "../../../../lib/log.ts";
import type { SignedInUser } from "../../../../lib/mcp/auth/entra_token.ts";
import { SessionUser } from "../../../../lib/mcp/auth/session_user.ts";
import {
  MAX_CACHED_USERS,
  servicesForSession,
  userPermissionHint,
} from "../../../../lib/mcp/auth/user_services.ts";
import { createToolServices } from "../../../../lib/mcp/server.ts";
import { TENANT_ID } from "../../../support/entra_stand_in.ts";

function services(identity: "user" | "server") {
  const config = loadConfig({
    CATALOG_ACCOUNT_NAME: "contoso",
    CATALOG_MCP_ENTRA_TENANT_ID: TENANT_ID,
    CATALOG_MCP_ENTRA_CLIENT_ID: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
    CATALOG_MCP_ENTRA_CLIENT_SECRET: "server-secret-0123456789",
    CATALOG_MCP_CATALOG_IDENTITY: identity,
  });
  return createToolServices({ config, logger: createLogger("error", { write: () => {} }) });
}

function user(n: number, expiresAt = 2_000_000_000): SessionUser {
  const signedIn: SignedInUser = {
    tenantId: TENANT_ID,
    objectId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    name: `User ${n}`,
    scopes: ["user_impersonation"],
    roles: [],
    appOnly: false,
    expiresAt,
    token: `token-of-${n}`,
  };
  return new SessionUser(signedIn);
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
