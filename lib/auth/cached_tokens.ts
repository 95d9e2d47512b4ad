/**
 * The caching half of the token providers: {@link cachedTokenProvider} wraps any credential and keeps its
 * token until shortly before it expires, so a long-running server asks the identity platform about once an
 * hour. Concurrent callers share one request; a failed refresh keeps a still-valid token; failures become
 * {@link AuthenticationError} with a hint. Which credential to wrap is `token_provider.ts`'s choice.
 *
 * The secrets it is given and the tokens it holds never reach a message, a hint or a log line.
 *
 * @example
 * ```ts
 * import { cachedTokenProvider } from "./cached_tokens.ts";
 * const credential = {
 *   getToken: () => Promise.resolve({ token: "t", expiresOnTimestamp: Date.now() + 3_600_000 }),
 * };
 * const tokens = cachedTokenProvider(credential, "https://purview.azure.net/.default", { kind: "custom" });
 * console.log(tokens.description); // "custom credential"
 * ```
 *
 * @module
 */
import type { AccessToken } from "../deps/azure_identity.ts";
import { AuthenticationError, hintForStatus } from "../core/errors.ts";
import { type Logger, redactSecrets, silentLogger } from "../core/log.ts";

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

/** Source of bearer tokens for catalog requests. */
export interface TokenProvider {
  /** Bearer token for the catalog, or undefined when none is needed (loopback emulator). Cached; refreshed before expiry. */
  getToken(signal?: AbortSignal): Promise<string | undefined>;
  /** Human description for `profile status`: which credential, never a secret, e.g. "service principal (client id 1234…)", "default chain: environment, workload identity, managed identity, Azure CLI, Azure Developer CLI", "none (loopback endpoint)". */
  readonly description: string;
  /** Machine name of the credential kind: "none" | "service-principal" | "chain" | "custom". */
  readonly kind: string;
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
 * Wraps `credential` in a {@link TokenProvider} that caches the token for `scope`: it is kept until
 * `refreshAfterTimestamp` when the credential gives one, else until five minutes (or half the lifetime of a
 * short-lived token) before it expires. Concurrent callers share one request. A failed refresh while the
 * current token is still valid keeps that token and logs a warning; an expired token is never returned.
 * Failures become {@link AuthenticationError} (status 401) with a hint.
 *
 * @example
 * ```ts
 * import { cachedTokenProvider } from "./cached_tokens.ts";
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

/** The message of `error` on one line, cut to a readable length. */
export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const oneLine = text.replace(/\s*\n\s*/g, " ").trim();
  return oneLine.length > MAX_REASON_LENGTH ? `${oneLine.slice(0, MAX_REASON_LENGTH)}…` : oneLine;
}

function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
