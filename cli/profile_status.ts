/**
 * `govcat profile status`: which profile and settings are in effect, and whether a token can be had with
 * them. It is the one profile command that signs in (and so may reach the network), which is why it is kept
 * apart from the commands on the file: the token is asked for with a time limit that holds even when the
 * credential ignores its abort signal, and is reported by the identity its claims name, never by itself.
 *
 * @module
 */
import { createTokenProvider } from "../lib/auth/token_provider.ts";
import type { TokenProvider } from "../lib/auth/cached_tokens.ts";
import { catalogBaseUrl, unifiedBaseUrl } from "../lib/config/cloud.ts";
import { type Config, type EnvSource, loadConfig } from "../lib/config/config.ts";
import { ConfigError, GovcatError } from "../lib/core/errors.ts";
import { resolveProfileEnv } from "./profile_selection.ts";

/** Options of {@link profileStatus}. */
export interface ProfileStatusOptions {
  /** The process environment (unmerged). */
  env: EnvSource;
  /** The `--profile` flag. */
  profile?: string;
  /** Longest wait of `profile status` for a token; 10 seconds by default. */
  tokenTimeoutMs?: number;
  /** Builds the token provider of `profile status`; {@link createTokenProvider} by default. */
  tokenProvider?: (config: Config, env: EnvSource) => TokenProvider;
}

/** The selected profile, the configuration it gives and whether a token was had (a JSON value). */
export async function profileStatus(options: ProfileStatusOptions, signal?: AbortSignal) {
  const resolved = resolveProfileEnv(options.env, options.profile);
  const base = {
    profile: resolved.profile?.name ?? null,
    profileSource: resolved.profile ? resolved.source : null,
    profilesFile: resolved.path || null,
  };
  let config: Config;
  try {
    config = loadConfig(resolved.env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { ...base, configured: false, problem: e.message, authenticated: false };
  }
  const tokens = (options.tokenProvider ?? ((c, e) => createTokenProvider(c, { env: e })))(
    config,
    resolved.env,
  );
  const summary = {
    ...base,
    configured: true,
    account: config.accountName,
    region: config.region || "public",
    endpoint: catalogBaseUrl(config),
    unifiedEndpoint: unifiedBaseUrl(config),
    credential: { kind: tokens.kind, description: tokens.description },
  };
  if (tokens.kind === "none") {
    return { ...summary, authenticated: true, token: "not needed (loopback endpoint)" };
  }
  const timeoutMs = options.tokenTimeoutMs ?? 10_000;
  const outcome = await tokenWithin(tokens, timeoutMs, signal);
  if (outcome.ok) {
    return { ...summary, authenticated: true, identity: outcome.identity };
  }
  return {
    ...summary,
    authenticated: false,
    problem: outcome.problem,
    ...(outcome.hint ? { hint: outcome.hint } : {}),
  };
}

/** Asks for a token, giving up after `timeoutMs` even when the credential ignores the abort signal. */
export async function tokenWithin(
  tokens: TokenProvider,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ ok: true; identity: Record<string, string> } | { ok: false; problem: string; hint?: string }> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve("timeout");
    }, timeoutMs);
  });
  try {
    const result = await Promise.race([tokens.getToken(controller.signal), timeout]);
    if (result === "timeout") {
      return {
        ok: false,
        problem: `no token within ${Math.round(timeoutMs / 1000)} s from ${tokens.description}.`,
        hint: "Log in with `az login`, or check the network and the credential settings.",
      };
    }
    return { ok: true, identity: result ? tokenIdentity(result) : {} };
  } catch (e) {
    return {
      ok: false,
      problem: e instanceof Error ? e.message : String(e),
      hint: e instanceof GovcatError ? e.hint : undefined,
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** Who a token was issued to, from its claims (the token itself is never returned). */
export function tokenIdentity(token: string): Record<string, string> {
  const part = token.split(".")[1];
  if (!part) return {};
  let claims: Record<string, unknown>;
  try {
    const base64 = part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "=");
    claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))));
  } catch {
    return {};
  }
  const pick = (...names: string[]) => {
    for (const n of names) if (typeof claims[n] === "string" && claims[n]) return claims[n] as string;
    return undefined;
  };
  const identity: Record<string, string> = {};
  const user = pick("upn", "preferred_username", "unique_name", "email");
  const app = pick("app_displayname", "appid", "azp");
  if (user) identity.user = user;
  if (app) identity.application = app;
  const oid = pick("oid");
  const tid = pick("tid");
  if (oid) identity.objectId = oid;
  if (tid) identity.tenantId = tid;
  if (typeof claims.exp === "number") identity.expiresAt = new Date(claims.exp * 1000).toISOString();
  return identity;
}
