/**
 * The tool services of a signed-in session. With `CATALOG_MCP_CATALOG_IDENTITY=user` its catalog clients
 * carry a token obtained on behalf of the session's user (lib/auth/on_behalf_of.ts), so the
 * catalog enforces that user's own roles; the clients of a user are shared by all of their sessions and
 * kept for a bounded number of users, least recently used dropped first. With `server` the session keeps
 * the server's clients. Either way the session's user is known to the audit (lib/mcp/auth/audit.ts).
 *
 * @module
 */
import { type OnBehalfOfFactory, onBehalfOfTokenProvider } from "../../auth/on_behalf_of.ts";
import { CatalogClient } from "../../catalog/client.ts";
import type { ToolErrorBody } from "../tool_result.ts";
import type { ToolServices } from "../tool.ts";
import { UnifiedCatalogClient } from "../../catalog/unified_api.ts";
import type { SessionUser } from "./session_user.ts";
import { signInAuthority } from "./authority.ts";

/** Users whose catalog clients (and cached tokens) are kept at once. */
export const MAX_CACHED_USERS = 500;

interface UserClients {
  catalog: CatalogClient;
  unified: UnifiedCatalogClient;
  /** The session whose token the next exchange uses: the one that most recently made a call. */
  latest: SessionUser;
}

/** Per base services: the clients of each user, least recently used first. */
const userClients = new WeakMap<ToolServices, Map<string, UserClients>>();
const sessionUsers = new WeakMap<ToolServices, SessionUser>();
const factories = new WeakMap<ToolServices, OnBehalfOfFactory>();

/** The signed-in user of a session's services, or undefined (no sign-in, stdio). */
export function sessionUserOf(services: ToolServices): SessionUser | undefined {
  return sessionUsers.get(services);
}

/** Tests: the credential each on-behalf-of exchange of `services` builds. */
export function useOnBehalfOfFactory(services: ToolServices, factory: OnBehalfOfFactory): void {
  factories.set(services, factory);
}

/** The services a session of `user` uses; `services` itself without a user. */
export function servicesForSession(services: ToolServices, user: SessionUser | undefined): ToolServices {
  if (!user) return services;
  const config = services.config();
  if (config.mcpCatalogIdentity !== "user") {
    const session = { ...services };
    sessionUsers.set(session, user);
    return session;
  }
  const clients = () => clientsOf(services, user);
  const catalog = () => clients().catalog;
  const unified = () => clients().unified;
  const session: ToolServices = {
    ...services,
    catalog,
    unified,
    operationContext: (signal, progress) => ({
      ...services.operationContext(signal, progress),
      catalog,
      unified,
    }),
  };
  sessionUsers.set(session, user);
  return session;
}

/**
 * In user mode, a 401 or 403 from the catalog is the signed-in user's own permission problem: the hint
 * says so, instead of pointing at the server's credentials or roles.
 */
export function userPermissionHint(services: ToolServices, body: ToolErrorBody): ToolErrorBody {
  const user = sessionUserOf(services);
  if (!user || services.config().mcpCatalogIdentity !== "user") return body;
  const who = user.current.name;
  if (body.status === 403) {
    return {
      ...body,
      hint: `The catalog refused this for ${who}, the signed-in user (calls are made as that user, not ` +
        `as the server). Ask a collection admin to give ${who} the role it needs: Data Reader to read, ` +
        "Data Curator to change.",
    };
  }
  if (body.status === 401 && user.current.appOnly) {
    return {
      ...body,
      hint: `${who} signed in as an application (an app role, no user): its token cannot be exchanged for ` +
        "a catalog token on anyone's behalf. Sign in as a user, or run this server with " +
        "CATALOG_MCP_CATALOG_IDENTITY=server for applications.",
    };
  }
  if (body.status === 401) {
    return {
      ...body,
      hint: `The catalog did not accept the token obtained for ${who}: sign in again; if it persists, the ` +
        "server's app registration needs the delegated Purview permission (user_impersonation), " +
        "admin-consented.",
    };
  }
  return body;
}

function clientsOf(services: ToolServices, user: SessionUser): UserClients {
  let byUser = userClients.get(services);
  if (!byUser) userClients.set(services, byUser = new Map());
  const key = user.key;
  let entry = byUser.get(key);
  if (entry) {
    byUser.delete(key);
    if (user.current.expiresAt >= entry.latest.current.expiresAt) entry.latest = user;
  } else {
    entry = newUserClients(services, user);
    while (byUser.size >= MAX_CACHED_USERS) byUser.delete(byUser.keys().next().value!);
  }
  // Most recently used last: the map's order is the eviction order.
  byUser.set(key, entry);
  return entry;
}

function newUserClients(services: ToolServices, user: SessionUser): UserClients {
  const config = services.config();
  const signIn = config.mcpSignIn!;
  const entry = { latest: user } as UserClients;
  const tokens = onBehalfOfTokenProvider(
    {
      tenantId: signIn.tenantId,
      clientId: signIn.clientId,
      // Config validation requires it in user mode.
      clientSecret: signIn.clientSecret!,
      authorityHost: signInAuthority(signIn, config.region),
    },
    config.tokenScope,
    () => entry.latest.current.token,
    { logger: services.logger, userName: user.current.name, factory: factories.get(services) },
  );
  const options = { logger: services.logger, tokens };
  entry.catalog = CatalogClient.fromConfig(config, options);
  entry.unified = UnifiedCatalogClient.fromConfig(config, options);
  return entry;
}
