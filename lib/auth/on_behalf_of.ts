/**
 * Catalog tokens for a signed-in user of the tool server, by the on-behalf-of exchange: the token the user
 * sent govcat (the assertion) and the server's own app registration are traded at Entra ID for a catalog
 * token of that user, so the catalog enforces the user's roles. Built on {@link cachedTokenProvider}: each
 * user's token is kept until shortly before it expires.
 *
 * @example
 * ```ts
 * import { onBehalfOfTokenProvider } from "./on_behalf_of.ts";
 * const settings = {
 *   tenantId: "72f988bf-86f1-41af-91ab-2d7cd011db47",
 *   clientId: "00000000-0000-0000-0000-0000000000aa",
 *   clientSecret: "…",
 *   authorityHost: "https://login.microsoftonline.com",
 * };
 * const userToken = "<the token the user sent>";
 * const tokens = onBehalfOfTokenProvider(settings, "https://purview.azure.net/.default", () => userToken);
 * ```
 *
 * @module
 */
import { lazyCredential } from "./token_provider.ts";
import { cachedTokenProvider, type TokenProvider } from "./cached_tokens.ts";
import { isLoopbackEndpoint } from "../config/cloud.ts";
import type { OnBehalfOfCredentialSecretOptions, TokenCredential } from "../deps/azure_identity.ts";
import type { Logger } from "../core/log.ts";

/** What the on-behalf-of exchange needs: the server's app registration and the user's token. */
export interface OnBehalfOfSettings {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** Authority host, e.g. https://login.microsoftonline.com. */
  authorityHost: string;
}

/**
 * The options of the `OnBehalfOfCredential` that trades `userAssertionToken` (a token a user sent this
 * server) for a catalog token of that user. MSAL accepts https authorities only (msal-common
 * `UrlString.validateAsUri` throws `authorityUriInsecure` otherwise): a stand-in authority on loopback
 * serves https. For such an authority instance discovery is off, since it would ask the public cloud's
 * login host about a host it does not know; MSAL then reads the stand-in's own
 * `/{tenant}/v2.0/.well-known/openid-configuration`.
 */
export function onBehalfOfOptions(
  settings: OnBehalfOfSettings,
  userAssertionToken: string,
): OnBehalfOfOptions {
  return {
    tenantId: settings.tenantId,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    userAssertionToken,
    authorityHost: settings.authorityHost,
    disableInstanceDiscovery: isLoopbackEndpoint(settings.authorityHost),
  };
}

/** The constructor options of `OnBehalfOfCredential` govcat sets. */
export type OnBehalfOfOptions = OnBehalfOfCredentialSecretOptions & {
  authorityHost: string;
  disableInstanceDiscovery: boolean;
};

/** Builds the credential of one exchange; tests pass their own to see what would be built. */
export type OnBehalfOfFactory = (options: OnBehalfOfOptions) => TokenCredential;

/**
 * A {@link TokenProvider} of catalog tokens for one signed-in user, obtained on behalf of the user with
 * their latest token (`assertion()`, which changes as the user's client refreshes it) and cached until
 * shortly before expiry like every other token. Failures are {@link AuthenticationError}s that say the
 * exchange for this user failed; the user's token and the client secret never appear in them.
 */
export function onBehalfOfTokenProvider(
  settings: OnBehalfOfSettings,
  scope: string,
  assertion: () => string,
  options: { logger?: Logger; userName?: string; factory?: OnBehalfOfFactory; now?: () => number } = {},
): TokenProvider {
  const factory: OnBehalfOfFactory = options.factory ??
    ((credentialOptions) => lazyCredential((sdk) => new sdk.OnBehalfOfCredential(credentialOptions)));
  // A credential per exchange: each carries the assertion current at that moment.
  const credential: TokenCredential = {
    getToken: (scopes, getTokenOptions) =>
      factory(onBehalfOfOptions(settings, assertion())).getToken(scopes, getTokenOptions),
  };
  return cachedTokenProvider(credential, scope, {
    logger: options.logger,
    now: options.now,
    kind: "on-behalf-of",
    description: `on behalf of ${options.userName ?? "the signed-in user"} (app ${
      settings.clientId.slice(0, 8) + "…"
    })`,
    secrets: [settings.clientSecret, assertion()],
    hint: "The catalog token for the signed-in user could not be obtained: the user's sign-in may have " +
      "expired (sign in again), or the server's app registration lacks the delegated Purview permission " +
      "(API permission https://purview.azure.net/user_impersonation, admin-consented) or its " +
      "CATALOG_MCP_ENTRA_CLIENT_SECRET expired.",
  });
}
