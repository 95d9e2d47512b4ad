/**
 * Verifies the Entra ID access tokens signed-in HTTP clients send, with `jose` (lib/deps/jose.ts): RS256
 * only, against the tenant's published keys; issuer, audience, expiry, not-before and the scope or app role
 * checked. A refusal says what is wrong without echoing the token.
 *
 * Only v2.0 tokens are accepted (issuer `{authority}/{tenant}/v2.0`): the app registration's manifest sets
 * `requestedAccessTokenVersion: 2`. A v1.0 token (issuer `https://sts.windows.net/{tenant}/`) is refused with
 * that advice rather than accepted under a second issuer, so one issuer and one key set are trusted.
 * Claims as documented for Microsoft identity platform access tokens: `aud` is the API's client id in v2.0
 * tokens, `scp` the space-separated delegated scopes, `roles` the app roles, `oid`/`tid` the user and
 * tenant (https://learn.microsoft.com/entra/identity-platform/access-token-claims-reference).
 *
 * @module
 */
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  joseErrors,
  type JWTPayload,
  jwtVerify,
  type JWTVerifyGetKey,
} from "../../deps/jose.ts";
import type { EntraSignInSettings } from "../../config/config.ts";

/** Who a verified token speaks for. `token` is the raw assertion (for on-behalf-of): never log it. */
export interface SignedInUser {
  tenantId: string;
  /** Object id of the user (or of the application's service principal for an app-only token). */
  objectId: string;
  /** Display name, else the sign-in name, else the object id. */
  name: string;
  scopes: string[];
  roles: string[];
  /** True when the token has no delegated scopes: an application acting for itself. */
  appOnly: boolean;
  /** Expiry, epoch seconds. */
  expiresAt: number;
  token: string;
}

/** Why a request's token is not accepted, as RFC 6750 §3.1 names it. */
export class TokenRefusal extends Error {
  constructor(
    readonly status: 401 | 403 | 503,
    /** The RFC 6750 error code; undefined when no token was sent (or the keys could not be fetched). */
    readonly code: "invalid_token" | "insufficient_scope" | "invalid_request" | undefined,
    message: string,
  ) {
    super(message);
    this.name = "TokenRefusal";
  }
}

/** Clock skew allowed on `exp` and `nbf`, in seconds. */
export const CLOCK_SKEW_SECONDS = 60;
/** After fetching the key set, an unknown `kid` waits this long before the next fetch (jose's cooldown). */
export const JWKS_COOLDOWN_MS = 30_000;
/** Longest a key set fetch may take. */
const JWKS_TIMEOUT_MS = 5_000;
/** Longest token looked at: real Entra tokens are 1-3 KB; this keeps a hostile header cheap. */
const MAX_TOKEN_LENGTH = 16 * 1024;

/** The issuer of v2.0 tokens for the settings' tenant. */
export function issuerOf(settings: EntraSignInSettings, authorityHost: string): string {
  return `${authorityHost}/${settings.tenantId}/v2.0`;
}

/** The tenant's published signing keys. */
export function jwksUrlOf(settings: EntraSignInSettings, authorityHost: string): string {
  return `${authorityHost}/${settings.tenantId}/discovery/v2.0/keys`;
}

/** The full scope clients request, e.g. `api://<client id>/user_impersonation`. */
export function requiredScopeUri(settings: EntraSignInSettings): string {
  return `${settings.appIdUri}/${settings.scope}`;
}

export interface TokenVerifierOptions {
  /** Key source; by default the tenant's JWKS, cached, fetched again on an unknown `kid` after a cooldown. */
  keys?: JWTVerifyGetKey;
  /** Least time between two fetches of the key set for unknown `kid`s (default {@link JWKS_COOLDOWN_MS}). */
  jwksCooldownMs?: number;
}

/** A function that verifies one bearer token and returns its user, or throws {@link TokenRefusal}. */
export type TokenVerifier = (token: string) => Promise<SignedInUser>;

/** Builds the verifier for `settings`, whose authority host is resolved (`authorityHost`). */
export function entraTokenVerifier(
  settings: EntraSignInSettings,
  authorityHost: string,
  options: TokenVerifierOptions = {},
): TokenVerifier {
  const issuer = issuerOf(settings, authorityHost);
  const keys = options.keys ?? createRemoteJWKSet(new URL(jwksUrlOf(settings, authorityHost)), {
    cooldownDuration: options.jwksCooldownMs ?? JWKS_COOLDOWN_MS,
    timeoutDuration: JWKS_TIMEOUT_MS,
  });
  const audience = [settings.clientId, settings.appIdUri];
  return async (token) => {
    if (token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token)) {
      throw invalidToken("the bearer token is not a JWT (three base64url parts separated by dots)");
    }
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw invalidToken("the token's header is not valid JSON");
    }
    // jose refuses these too (algorithms below); checked first so the refusal says why.
    if (alg !== "RS256") {
      throw invalidToken(`the token is signed with alg ${JSON.stringify(alg)}; only RS256 is accepted`);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer,
        audience,
        algorithms: ["RS256"],
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ["exp", "tid", "oid"],
      }));
    } catch (error) {
      throw refusalOf(error, settings, issuer);
    }
    return userOf(payload, token, settings);
  };
}

function userOf(payload: JWTPayload, token: string, settings: EntraSignInSettings): SignedInUser {
  const text = (claim: string) => typeof payload[claim] === "string" ? payload[claim] as string : undefined;
  // Entra names one audience; a token naming this server and another API would be good for both.
  if (Array.isArray(payload.aud) && payload.aud.length !== 1) {
    throw invalidToken("the token names several audiences; this server accepts a token for itself only");
  }
  if (text("tid")?.toLowerCase() !== settings.tenantId) {
    throw invalidToken("the token's tid is not this server's tenant");
  }
  const scopes = (text("scp") ?? "").split(" ").filter(Boolean);
  const roles = Array.isArray(payload.roles) ? payload.roles.filter((r) => typeof r === "string") : [];
  const allowed = scopes.includes(settings.scope) || (!!settings.appRole && roles.includes(settings.appRole));
  if (!allowed) {
    const wanted = `the scope ${requiredScopeUri(settings)}` +
      (settings.appRole ? ` or the app role ${settings.appRole}` : "");
    throw new TokenRefusal(
      403,
      "insufficient_scope",
      `The token does not grant ${wanted}; request a token for that scope.`,
    );
  }
  const objectId = text("oid")!;
  return {
    tenantId: settings.tenantId,
    objectId,
    name: text("name") ?? text("preferred_username") ?? objectId,
    scopes,
    roles: roles as string[],
    appOnly: scopes.length === 0,
    expiresAt: payload.exp!,
    token,
  };
}

function refusalOf(error: unknown, settings: EntraSignInSettings, issuer: string): TokenRefusal {
  if (error instanceof joseErrors.JWTExpired) {
    return invalidToken(`the token expired at ${claimTime(error.payload.exp)}; get a new one`);
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    const { claim, payload } = error;
    if (claim === "nbf") return invalidToken(`the token is not valid before ${claimTime(payload.nbf)}`);
    if (claim === "aud") {
      return invalidToken(
        `the token is for ${describeAudience(payload.aud)}, not for this server (${settings.clientId} or ` +
          `${settings.appIdUri}); request a token for the scope ${requiredScopeUri(settings)}`,
      );
    }
    if (claim === "iss") {
      const iss = typeof payload.iss === "string" ? payload.iss : "";
      return invalidToken(
        iss.startsWith("https://sts.windows.net/")
          ? "the token is a v1.0 token; this server accepts v2.0 tokens only: set " +
            '"requestedAccessTokenVersion": 2 in the app registration\'s manifest'
          : `the token's issuer is not ${issuer}`,
      );
    }
    return invalidToken(`the token lacks a valid ${claim} claim`);
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return invalidToken("the token's signature does not verify with the tenant's published keys");
  }
  if (error instanceof joseErrors.JWKSNoMatchingKey || error instanceof joseErrors.JWKSMultipleMatchingKeys) {
    return invalidToken("the token is signed with a key the tenant does not publish");
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) {
    return invalidToken("the token's algorithm is not RS256");
  }
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid) {
    return new TokenRefusal(
      503,
      undefined,
      "The tenant's signing keys could not be fetched; try again shortly.",
    );
  }
  if (error instanceof joseErrors.JOSEError) return invalidToken("the token is malformed");
  // A fetch failure of the key set (network down, authority unreachable): not the client's fault.
  if (error instanceof TypeError || (error as Error)?.name === "AbortError") {
    return new TokenRefusal(
      503,
      undefined,
      "The tenant's signing keys could not be fetched; try again shortly.",
    );
  }
  return invalidToken("the token could not be verified");
}

function invalidToken(reason: string): TokenRefusal {
  return new TokenRefusal(401, "invalid_token", reason[0].toUpperCase() + reason.slice(1) + ".");
}

function describeAudience(aud: unknown): string {
  const list = (Array.isArray(aud) ? aud : [aud]).filter((a) => typeof a === "string") as string[];
  if (list.length === 0) return "no audience";
  // An audience is an identifier, not a secret; shortened so a hostile token cannot fill the header.
  return list.slice(0, 3).map((a) => JSON.stringify(a.slice(0, 100))).join(", ");
}

function claimTime(value: unknown): string {
  return typeof value === "number" ? new Date(value * 1000).toISOString() : "an unreadable time";
}
