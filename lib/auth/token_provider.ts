/**
 * Bearer tokens for the catalog. {@link createTokenProvider} picks the credential from the configuration
 * (none for a loopback emulator, a service principal, or a chain of environment, workload identity, managed
 * identity, Azure CLI and Azure Developer CLI) and {@link cachedTokenProvider} keeps the token until shortly
 * before it expires, so a long-running server asks the identity platform about once an hour.
 *
 * The client secret and tokens never reach a message, a hint, a log line or a description.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../config/config.ts";
 * import { createTokenProvider } from "./token_provider.ts";
 * const tokens = createTokenProvider(loadConfig({ CATALOG_ACCOUNT_NAME: "contoso" }));
 * console.log(tokens.description); // "default chain: environment, managed identity, Azure CLI, ..."
 * // The first call asks the credential (the chain tries each member in turn); later ones use the cache.
 * async function bearer(): Promise<string | undefined> {
 *   return await tokens.getToken(); // undefined for a loopback emulator
 * }
 * ```
 *
 * @module
 */
import { catalogBaseUrl, type CloudSettings, cloudSettings, isLoopbackEndpoint } from "../config/cloud.ts";
import { type Config, type EnvSource, processEnv } from "../config/config.ts";
import type { AccessToken, TokenCredential } from "../deps/azure_identity.ts";
import { AuthenticationError, hintForStatus } from "../core/errors.ts";
import { type Logger, redactSecrets, silentLogger } from "../core/log.ts";

export type { TokenCredential };

/** A token as a credential hands it out: the bearer token and when it expires (epoch milliseconds). */
export interface CredentialToken {
  /** The bearer token; a secret. */
  token: string;
  /** When the token stops being valid, in epoch milliseconds. */
  expiresOnTimestamp: number;
}

/**
 * Anything that gets tokens for scopes: every `@azure/identity` credential is one, and so is a plain object
 * with this method (a test's, or a program's own source of tokens).
 */
export interface CredentialSource {
  /** A token for `scopes`, or null when the credential has none; `abortSignal` ends the wait. */
  getToken(
    scopes: string | string[],
    options?: { abortSignal?: AbortSignal },
  ): Promise<CredentialToken | null>;
}

type IdentitySdk = typeof import("../deps/azure_identity.ts");
let identitySdk: Promise<IdentitySdk> | undefined;

/**
 * A credential built on its first token request. `@azure/identity` is large: loading it only when a real
 * token is needed keeps it out of the start-up of commands and servers that never ask for one.
 */
export function lazyCredential(build: (sdk: IdentitySdk) => TokenCredential): TokenCredential {
  let credential: Promise<TokenCredential> | undefined;
  return {
    async getToken(scopes, options) {
      credential ??= (identitySdk ??= import("../deps/azure_identity.ts")).then(build);
      return await (await credential).getToken(scopes, options);
    },
  };
}

/** Source of bearer tokens for catalog requests. */
export interface TokenProvider {
  /** Bearer token for the catalog, or undefined when none is needed (loopback emulator). Cached; refreshed before expiry. */
  getToken(signal?: AbortSignal): Promise<string | undefined>;
  /** Human description for `profile status`: which credential, never a secret, e.g. "service principal (client id 1234…)", "default chain: environment, workload identity, managed identity, Azure CLI, Azure Developer CLI", "none (loopback endpoint)". */
  readonly description: string;
  /** Machine name of the credential kind: "none" | "service-principal" | "chain" | "custom". */
  readonly kind: string;
}

/** Options of {@link createTokenProvider}. */
export interface TokenProviderOptions {
  /** Receives debug lines (which credential, when the token expires) and refresh warnings. */
  logger?: Logger;
  /** Used instead of the configured credential (kind "custom"); never asked for a loopback endpoint. */
  credential?: CredentialSource;
  /** Clock in epoch milliseconds; tests inject their own. */
  now?: () => number;
  /** Environment consulted for workload and user-assigned managed identity; the process environment by default. */
  env?: EnvSource;
  /**
   * The endpoint the tokens are for, which decides whether any is needed (none for loopback); the
   * catalog's base URL by default.
   */
  baseUrl?: string;
}

/** Options of {@link cachedTokenProvider}. */
export interface CachedTokenProviderOptions {
  /** Receives debug lines (token expiry) and refresh warnings; silent by default. */
  logger?: Logger;
  /** Clock in epoch milliseconds; tests inject their own. */
  now?: () => number;
  /** Longest wait for the credential before the request fails; 2 minutes by default. */
  timeoutMs?: number;
  /** The provider's {@link TokenProvider.kind} ("custom" by default). */
  kind?: string;
  /** The provider's {@link TokenProvider.description}, shown by `profile status` ("custom credential" by default). */
  description?: string;
  /** Values masked in every error and log line, such as the client secret. */
  secrets?: Array<string | undefined>;
  /** Fix hint carried by the {@link AuthenticationError} when no token can be had. */
  hint?: string;
  /** Names the credential that produced the latest token (a chain member), for logs and the description. */
  source?: () => string | undefined;
}

/** Refresh this long before expiry, or after half the lifetime for tokens that live shorter than twice this. */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** Stop using a token this long before it expires, so it does not expire between us and the service. */
const MAX_EXPIRY_SKEW_MS = 30_000;
/** After a failed refresh, callers keep the still-valid token this long before the next attempt. */
const REFRESH_RETRY_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 120_000;
/** Errors from a chain list every member; keep messages readable. */
const MAX_REASON_LENGTH = 1500;

interface CachedToken {
  token: string;
  expiresOn: number;
  refreshAt: number;
  usableUntil: number;
}

/**
 * Picks the credential for `config` and wraps it in a caching {@link TokenProvider}:
 * - a loopback endpoint (`options.baseUrl`, the catalog's by default: the emulator): kind "none", never asks
 *   for a token;
 * - `options.credential`: kind "custom";
 * - CLOUD_TENANT_ID + CLOUD_CLIENT_ID + CLOUD_CLIENT_SECRET: kind "service-principal";
 * - otherwise kind "chain": environment, workload identity (when configured), managed identity, Azure CLI,
 *   Azure Developer CLI, all against the cloud's authority host.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../config/config.ts";
 * import { createTokenProvider } from "./token_provider.ts";
 * const config = loadConfig({ CATALOG_ACCOUNT_NAME: "contoso", CATALOG_ENDPOINT: "http://127.0.0.1:8085" });
 * const tokens = createTokenProvider(config);
 * tokens.kind; // "none"
 * await tokens.getToken(); // undefined
 * ```
 */
export function createTokenProvider(config: Config, options: TokenProviderOptions = {}): TokenProvider {
  const logger = options.logger ?? silentLogger;
  logger.addSecret(config.clientSecret);
  const baseUrl = options.baseUrl ?? catalogBaseUrl(config);
  if (isLoopbackEndpoint(baseUrl)) return noTokenProvider(`none (loopback endpoint ${baseUrl})`);

  const cloud = cloudSettings(config.region);
  const common = { logger, now: options.now, secrets: [config.clientSecret] };
  if (options.credential) {
    return cachedTokenProvider(options.credential, config.tokenScope, {
      ...common,
      kind: "custom",
      description: "custom credential",
      hint: "The credential supplied by the calling program could not get a token; see the message above.",
    });
  }

  if (config.tenantId && config.clientId && config.clientSecret) {
    const { tenantId, clientId, clientSecret } = config;
    // The constructor only checks its arguments, which config validation has already done; no request yet.
    const credential = lazyCredential((sdk) =>
      new sdk.ClientSecretCredential(tenantId, clientId, clientSecret, { authorityHost: cloud.authorityHost })
    );
    return cachedTokenProvider(credential, config.tokenScope, {
      ...common,
      kind: "service-principal",
      description: `service principal (client id ${abbreviate(config.clientId)}, tenant ${
        abbreviate(config.tenantId)
      }, ${new URL(cloud.authorityHost).host})`,
      hint:
        "Check CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET: the secret may have expired or " +
        "belong to another app registration" +
        (config.region ? "." : "; for a sovereign cloud also set CLOUD_REGION (usgov or china)."),
    });
  }

  const members = defaultChainMembers(config, cloud, options.env ?? processEnv(), logger);
  let lastSource: string | undefined;
  const chain = lazyCredential((sdk) => {
    const tracked: TokenCredential[] = [];
    for (const { name, build } of members) {
      let credential: TokenCredential;
      try {
        credential = build(sdk);
      } catch (error) {
        // A credential whose environment is incomplete cannot be built; the rest of the chain still can.
        logger.debug(`Skipping ${name}: ${redactSecrets(reasonOf(error))}`);
        continue;
      }
      // Each member reports success, so logs and `profile status` can say which one produced the token.
      tracked.push({
        async getToken(scopes, getTokenOptions) {
          const token = await credential.getToken(scopes, getTokenOptions);
          if (token) lastSource = name;
          return token;
        },
      });
    }
    return new sdk.ChainedTokenCredential(...tracked);
  });
  const tenant = config.tenantId ? `; tenant ${abbreviate(config.tenantId)}` : "";
  return cachedTokenProvider(chain, config.tokenScope, {
    ...common,
    kind: "chain",
    description: `default chain: ${members.map((m) => m.name).join(", ")}${tenant}`,
    hint: chainHint(config),
    source: () => lastSource,
  });
}

/**
 * Wraps `credential` in a {@link TokenProvider} that caches the token for `scope`: it is kept until
 * `refreshAfterTimestamp` when the credential gives one, else until five minutes (or half the lifetime of a
 * short-lived token) before it expires. Concurrent callers share one request. A failed refresh while the
 * current token is still valid keeps that token and logs a warning; an expired token is never returned.
 * Failures become {@link AuthenticationError} (status 401) with a hint.
 *
 * @example
 * ```ts
 * import { cachedTokenProvider } from "./token_provider.ts";
 * const credential = {
 *   getToken: () => Promise.resolve({ token: "t", expiresOnTimestamp: Date.now() + 3_600_000 }),
 * };
 * const tokens = cachedTokenProvider(credential, "https://purview.azure.net/.default");
 * await tokens.getToken(); // "t", then the cached value until 55 minutes from now
 * ```
 */
export function cachedTokenProvider(
  credential: CredentialSource,
  scope: string,
  options: CachedTokenProviderOptions = {},
): TokenProvider {
  return new CachedTokens(credential, scope, options);
}

/** The token of one credential and scope, kept until shortly before it expires (see cachedTokenProvider). */
class CachedTokens implements TokenProvider {
  readonly kind: string;
  readonly #credential: CredentialSource;
  readonly #scope: string;
  readonly #options: CachedTokenProviderOptions;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #hint: string | undefined;
  readonly #secrets: string[];
  #cached: CachedToken | undefined;
  #inflight: Promise<CachedToken> | undefined;
  #nextRefreshAttempt = 0;

  constructor(credential: CredentialSource, scope: string, options: CachedTokenProviderOptions) {
    this.#credential = credential;
    this.#scope = scope;
    this.#options = options;
    this.kind = options.kind ?? "custom";
    this.#logger = options.logger ?? silentLogger;
    this.#now = options.now ?? Date.now;
    this.#hint = options.hint ?? hintForStatus(401);
    this.#secrets = (options.secrets ?? []).filter((s): s is string => !!s);
    for (const secret of this.#secrets) this.#logger.addSecret(secret);
  }

  get description(): string {
    const base = this.#options.description ?? "custom credential";
    const source = this.#options.source?.();
    return source ? `${base}; last token from ${source}` : base;
  }

  async getToken(signal?: AbortSignal): Promise<string | undefined> {
    signal?.throwIfAborted();
    const at = this.#now();
    const cached = this.#cached;
    if (cached && at < cached.refreshAt) return cached.token;
    // Due for refresh, but a recent attempt failed and the token still works: do not hammer the credential.
    if (cached && at < cached.usableUntil && at < this.#nextRefreshAttempt) return cached.token;
    try {
      return (await abortable(this.#refresh(), signal)).token;
    } catch (error) {
      if (signal?.aborted || error instanceof AuthenticationError) throw error;
      // Anything else (a bug in a custom credential, a rejected promise of an odd shape) is still a 401.
      throw new AuthenticationError({
        status: 401,
        message: this.#reason(error, this.#cached),
        hint: this.#hint,
      });
    }
  }

  /** What went wrong, with the configured secrets and the token held (if any) masked. */
  #reason(error: unknown, held: CachedToken | undefined): string {
    return redactSecrets(reasonOf(error), held ? [...this.#secrets, held.token] : this.#secrets);
  }

  #sourceName(): string {
    return this.#options.source?.() ?? this.#options.description ?? "custom credential";
  }

  #refresh(): Promise<CachedToken> {
    this.#inflight ??= this.#acquire().finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  async #acquire(): Promise<CachedToken> {
    const previous = this.#cached;
    let access: CredentialToken | null;
    try {
      access = await withTimeout(
        (abortSignal) => this.#credential.getToken(this.#scope, { abortSignal }),
        this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      );
      if (!access?.token) throw new Error("the credential returned no token");
    } catch (error) {
      return this.#keepOrFail(previous, error);
    }
    const at = this.#now();
    if (access.expiresOnTimestamp <= at) {
      throw new AuthenticationError({
        status: 401,
        message: `${this.#sourceName()} returned a token that expired at ${iso(access.expiresOnTimestamp)}.`,
        hint: "Check that this machine's clock is correct, then try again.",
      });
    }
    const cached = this.#cached = cacheEntry(access, at);
    this.#nextRefreshAttempt = 0;
    this.#logger.debug(
      `Catalog token from ${this.#sourceName()}: expires ${iso(cached.expiresOn)}, refresh after ${
        iso(cached.refreshAt)
      }.`,
    );
    return cached;
  }

  /** A failed refresh: the current token while it is still usable (tried again later), else a 401. */
  #keepOrFail(previous: CachedToken | undefined, error: unknown): CachedToken {
    const reason = this.#reason(error, previous);
    if (previous && this.#now() < previous.usableUntil) {
      this.#nextRefreshAttempt = Math.min(this.#now() + REFRESH_RETRY_MS, previous.usableUntil);
      this.#logger.warn(
        `Refreshing the catalog token failed; keeping the current one, valid until ${
          iso(previous.usableUntil)
        }. ${reason}`,
      );
      return previous;
    }
    throw new AuthenticationError({
      status: 401,
      message: `No credential could get a token for the catalog (scope ${this.#scope}): ${reason}`,
      hint: this.#hint,
    });
  }
}

function noTokenProvider(description: string): TokenProvider {
  return {
    kind: "none",
    description,
    getToken(signal?: AbortSignal) {
      signal?.throwIfAborted();
      return Promise.resolve(undefined);
    },
  };
}

interface NamedCredential {
  name: string;
  build: (sdk: IdentitySdk) => TokenCredential;
}

/** The members of DefaultAzureCredential that make sense for a command-line tool and a server. */
function defaultChainMembers(
  config: Config,
  cloud: CloudSettings,
  env: EnvSource,
  logger: Logger,
): NamedCredential[] {
  const { authorityHost } = cloud;
  const tenantId = config.tenantId;
  const members: NamedCredential[] = [];
  const add = (name: string, build: NamedCredential["build"]) => members.push({ name, build });

  add("environment", (sdk) => new sdk.EnvironmentCredential({ authorityHost }));

  // Its constructor throws unless the federated token file, client id and tenant are all known.
  const tokenFilePath = env.AZURE_FEDERATED_TOKEN_FILE;
  const workloadClientId = env.AZURE_CLIENT_ID;
  const workloadTenantId = tenantId ?? env.AZURE_TENANT_ID;
  if (tokenFilePath && workloadClientId && workloadTenantId) {
    add("workload identity", (sdk) =>
      new sdk.WorkloadIdentityCredential({
        tenantId: workloadTenantId,
        clientId: workloadClientId,
        tokenFilePath,
        authorityHost,
      }));
  } else if (tokenFilePath) {
    logger.debug(
      "AZURE_FEDERATED_TOKEN_FILE is set without AZURE_CLIENT_ID or a tenant id: skipping workload identity.",
    );
  }

  // As in DefaultAzureCredential: AZURE_CLIENT_ID selects a user-assigned identity, and a short probe of the
  // instance metadata endpoint lets machines without managed identity fall through to the CLI logins at
  // once instead of after several retries. `sendProbeRequest` is an SDK option its types do not list.
  const managedIdentityOptions = { clientId: env.AZURE_CLIENT_ID || undefined, sendProbeRequest: true };
  add("managed identity", (sdk) => new sdk.ManagedIdentityCredential(managedIdentityOptions));
  add("Azure CLI", (sdk) => new sdk.AzureCliCredential({ tenantId }));
  add("Azure Developer CLI", (sdk) => new sdk.AzureDeveloperCliCredential({ tenantId }));
  return members;
}

function chainHint(config: Config): string {
  const cloudName = config.region === "usgov"
    ? "AzureUSGovernment"
    : config.region === "china"
    ? "AzureChinaCloud"
    : undefined;
  const base = hintForStatus(401) ??
    "Log in with `az login`, or set CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET.";
  return cloudName
    ? `${base} For this cloud run \`az cloud set --name ${cloudName}\` before \`az login\`.`
    : base;
}

function cacheEntry(access: AccessToken, at: number): CachedToken {
  const expiresOn = access.expiresOnTimestamp;
  const lifetime = expiresOn - at;
  const usableUntil = expiresOn - Math.min(MAX_EXPIRY_SKEW_MS, lifetime / 10);
  const refreshAfter = access.refreshAfterTimestamp;
  // A refresh time already past would make every call a request; fall back to the margin then.
  const refreshAt = refreshAfter !== undefined && refreshAfter > at
    ? Math.min(refreshAfter, usableUntil)
    : expiresOn - Math.min(REFRESH_MARGIN_MS, lifetime / 2);
  return { token: access.token, expiresOn, refreshAt, usableUntil };
}

/** Runs `task` with an abort signal that fires after `ms`, and rejects then even if the task ignores it. */
async function withTimeout<T>(task: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`the credential did not answer within ${Math.round(ms / 1000)} s`);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([task(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Lets one caller stop waiting for a request other callers share, without cancelling it for them. */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const oneLine = text.replace(/\s*\n\s*/g, " ").trim();
  return oneLine.length > MAX_REASON_LENGTH ? `${oneLine.slice(0, MAX_REASON_LENGTH)}…` : oneLine;
}

function abbreviate(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}…` : id;
}

function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
