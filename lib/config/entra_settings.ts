/**
 * The Entra ID sign-in settings of the HTTP transports (`CATALOG_MCP_ENTRA_*`) and whose identity tool calls
 * use with the catalog (`CATALOG_MCP_CATALOG_IDENTITY`), read and validated with the rest of the
 * configuration (lib/config/config.ts). Every problem names the variable; the client secret is never echoed.
 *
 * @module
 */
// No import of config.ts or cloud.ts: config.ts spreads ENTRA_VARIABLES while it loads.
import { ConfigError } from "../core/errors.ts";

/** Whose identity the catalog sees: the server's own (default) or the signed-in user's (on-behalf-of). */
export type CatalogIdentity = "server" | "user";

/** How the HTTP transports check Entra ID access tokens. */
export interface EntraSignInSettings {
  /** The directory (tenant) whose users may sign in; tokens of other tenants are refused. */
  tenantId: string;
  /** Application (client) id of this server's app registration: a v2 token's `aud`. */
  clientId: string;
  /** Application ID URI (`api://…`), also accepted as `aud`, and the prefix of the scope clients request. */
  appIdUri: string;
  /** Delegated scope a user token must carry in `scp` (e.g. `user_impersonation`). */
  scope: string;
  /** App role accepted instead of the scope (in `roles`), for tokens of applications without a user. */
  appRole?: string;
  /**
   * Authority host without a trailing slash (a loopback stand-in in tests); undefined: the login host of
   * CLOUD_REGION (see lib/mcp/auth/authority.ts).
   */
  authorityHost?: string;
  /** Secret of this server's app registration, for the on-behalf-of exchange (never printed or logged). */
  clientSecret?: string;
  /**
   * The origin clients reach this server at (`https://govcat.contoso.com`), when a proxy or the Functions
   * host stands between them: the metadata's `resource` must be the URL the client dialed. Undefined: taken
   * from each request.
   */
  publicUrl?: string;
}

/** The sign-in variables, for the configuration table (lib/config/config.ts CONFIG_VARIABLES). */
export const ENTRA_VARIABLES: ReadonlyArray<{ name: string; default: string; meaning: string }> = [
  {
    name: "CATALOG_MCP_ENTRA_TENANT_ID",
    default: "",
    meaning: "HTTP transports: Entra ID sign-in for this tenant (GUID); needs CATALOG_MCP_ENTRA_CLIENT_ID",
  },
  {
    name: "CATALOG_MCP_ENTRA_CLIENT_ID",
    default: "",
    meaning: "Application (client) id of the server's app registration: the audience tokens must name",
  },
  {
    name: "CATALOG_MCP_ENTRA_APP_ID_URI",
    default: "api://{client id}",
    meaning: "Application ID URI of that registration, also accepted as audience; prefixes the scope",
  },
  {
    name: "CATALOG_MCP_ENTRA_SCOPE",
    default: "user_impersonation",
    meaning: "Delegated scope a user's token must carry (scp); without it 403 insufficient_scope",
  },
  {
    name: "CATALOG_MCP_ENTRA_APP_ROLE",
    default: "",
    meaning: "App role (roles claim) accepted instead of the scope, for applications without a user",
  },
  {
    name: "CATALOG_MCP_ENTRA_AUTHORITY",
    default: "(CLOUD_REGION's login host)",
    meaning: "Authority host issuing and signing the tokens; https, or http on loopback for tests",
  },
  {
    name: "CATALOG_MCP_ENTRA_CLIENT_SECRET",
    default: "",
    meaning: "Secret of the server's app registration for on-behalf-of (never printed or logged)",
  },
  {
    name: "CATALOG_MCP_ENTRA_PUBLIC_URL",
    default: "(each request's Host)",
    meaning: "Origin clients reach the server at (https://…), for the sign-in metadata behind a proxy",
  },
  {
    name: "CATALOG_MCP_CATALOG_IDENTITY",
    default: "server",
    meaning: "server: tool calls use the server's identity; user: the signed-in user's (on-behalf-of)",
  },
];

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** Scope and role values as Entra allows them: no spaces, no quotes (they go into a header). */
const CLAIM_VALUE = /^[A-Za-z0-9._\-:/]{1,120}$/;

type Reader = (name: string) => string | undefined;

/** Reads the sign-in settings; undefined when no CATALOG_MCP_ENTRA_* variable is set. */
export function readEntraSignIn(
  read: Reader,
  isLoopbackHost: (host: string) => boolean,
): EntraSignInSettings | undefined {
  const tenantId = read("CATALOG_MCP_ENTRA_TENANT_ID");
  const clientId = read("CATALOG_MCP_ENTRA_CLIENT_ID");
  const others = ENTRA_VARIABLES.map((v) => v.name).filter((name) =>
    name.startsWith("CATALOG_MCP_ENTRA_") && read(name) !== undefined
  );
  if (others.length === 0) return undefined;
  if (tenantId === undefined || clientId === undefined) {
    const missing = tenantId === undefined ? "CATALOG_MCP_ENTRA_TENANT_ID" : "CATALOG_MCP_ENTRA_CLIENT_ID";
    throw new ConfigError(
      `Entra ID sign-in is half configured: ${others.join(", ")} ${others.length === 1 ? "is" : "are"} set ` +
        `but ${missing} is not. Set both CATALOG_MCP_ENTRA_TENANT_ID (your tenant's GUID) and ` +
        "CATALOG_MCP_ENTRA_CLIENT_ID (the server's application id), or unset the CATALOG_MCP_ENTRA_ variables.",
      missing,
    );
  }
  if (!GUID.test(tenantId)) {
    throw invalid("CATALOG_MCP_ENTRA_TENANT_ID", tenantId, "the directory (tenant) id, a GUID");
  }
  if (!GUID.test(clientId)) {
    throw invalid("CATALOG_MCP_ENTRA_CLIENT_ID", clientId, "the application (client) id, a GUID");
  }
  const appIdUri = (read("CATALOG_MCP_ENTRA_APP_ID_URI") ?? `api://${clientId.toLowerCase()}`).replace(
    /\/+$/,
    "",
  );
  if (!/^(api:\/\/|https:\/\/)[^\s"\\]+$/.test(appIdUri)) {
    throw invalid(
      "CATALOG_MCP_ENTRA_APP_ID_URI",
      appIdUri,
      "an application ID URI such as api://<client id>",
    );
  }
  const scope = read("CATALOG_MCP_ENTRA_SCOPE") ?? "user_impersonation";
  if (!CLAIM_VALUE.test(scope) || scope.includes("/")) {
    throw invalid(
      "CATALOG_MCP_ENTRA_SCOPE",
      scope,
      "the scope's name without the URI, e.g. user_impersonation",
    );
  }
  const appRole = read("CATALOG_MCP_ENTRA_APP_ROLE");
  if (appRole !== undefined && !CLAIM_VALUE.test(appRole)) {
    throw invalid("CATALOG_MCP_ENTRA_APP_ROLE", appRole, "an app role value such as Catalog.Use");
  }
  return {
    tenantId: tenantId.toLowerCase(),
    clientId: clientId.toLowerCase(),
    appIdUri,
    scope,
    appRole,
    authorityHost: origin("CATALOG_MCP_ENTRA_AUTHORITY", read("CATALOG_MCP_ENTRA_AUTHORITY"), isLoopbackHost),
    clientSecret: read("CATALOG_MCP_ENTRA_CLIENT_SECRET"),
    publicUrl: origin("CATALOG_MCP_ENTRA_PUBLIC_URL", read("CATALOG_MCP_ENTRA_PUBLIC_URL"), isLoopbackHost),
  };
}

/** Reads CATALOG_MCP_CATALOG_IDENTITY; `user` needs sign-in with a client secret. */
export function readCatalogIdentity(read: Reader, signIn: EntraSignInSettings | undefined): CatalogIdentity {
  const raw = (read("CATALOG_MCP_CATALOG_IDENTITY") ?? "server").toLowerCase();
  if (raw !== "server" && raw !== "user") {
    throw invalid("CATALOG_MCP_CATALOG_IDENTITY", raw, "server or user");
  }
  if (raw === "user" && !signIn?.clientSecret) {
    throw new ConfigError(
      "CATALOG_MCP_CATALOG_IDENTITY=user calls the catalog as the signed-in user, which needs Entra ID " +
        "sign-in and the server's own credential for the on-behalf-of exchange: set " +
        (signIn ? "" : "CATALOG_MCP_ENTRA_TENANT_ID, CATALOG_MCP_ENTRA_CLIENT_ID and ") +
        "CATALOG_MCP_ENTRA_CLIENT_SECRET, or use CATALOG_MCP_CATALOG_IDENTITY=server.",
      signIn ? "CATALOG_MCP_ENTRA_CLIENT_SECRET" : "CATALOG_MCP_ENTRA_TENANT_ID",
    );
  }
  return raw;
}

/** The static token and sign-in are two answers to one question: a server accepts one kind of token. */
export function assertOneClientAuthentication(authToken: string | undefined, signIn: unknown): void {
  if (authToken === undefined || signIn === undefined) return;
  throw new ConfigError(
    "CATALOG_MCP_AUTH_TOKEN and CATALOG_MCP_ENTRA_TENANT_ID are both set: a server accepts either the " +
      "shared token or Entra ID sign-in, not both. Unset CATALOG_MCP_AUTH_TOKEN to let users sign in, or " +
      "unset the CATALOG_MCP_ENTRA_ variables to keep the shared token.",
    "CATALOG_MCP_AUTH_TOKEN",
  );
}

/** An https origin (plain http on loopback only), without path, query or credentials. */
function origin(
  name: string,
  raw: string | undefined,
  isLoopbackHost: (host: string) => boolean,
): string | undefined {
  if (raw === undefined) return undefined;
  const example = name === "CATALOG_MCP_ENTRA_AUTHORITY"
    ? "https://login.microsoftonline.us"
    : "https://govcat.contoso.com";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(name, raw, `an https URL such as ${example}`);
  }
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw invalid(name, raw, "https (plain http only for 127.0.0.1 or localhost)");
  }
  if (url.username || url.password || url.search || url.hash || url.pathname !== "/") {
    throw invalid(name, raw, `a host only, such as ${example}`);
  }
  return url.origin;
}

function invalid(name: string, value: string, allowed: string): ConfigError {
  return new ConfigError(`${name} has an invalid value "${value}": expected ${allowed}.`, name);
}
