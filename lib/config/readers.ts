/**
 * Readers of single configuration variables: each parses one value, and refuses a bad one with a
 * ConfigError naming the variable, the value (never a secret one) and what is allowed.
 *
 * @module
 */
import { ConfigError } from "../core/errors.ts";

/** Reads one variable: its value, or undefined when unset. */
export type Reader = (name: string) => string | undefined;

export function invalid(name: string, value: string, allowed: string): ConfigError {
  return new ConfigError(`${name} has an invalid value "${value}": expected ${allowed}.`, name);
}

export function integer(read: Reader, name: string, fallback: number, min: number, max: number): number {
  const raw = read(name);
  if (raw === undefined) return fallback;
  if (!/^[+-]?\d+$/.test(raw)) throw invalid(name, raw, `an integer from ${min} to ${max}`);
  const value = Number(raw);
  if (value < min || value > max) throw invalid(name, raw, `an integer from ${min} to ${max}`);
  return value;
}

export function boolean(read: Reader, name: string, fallback: boolean): boolean {
  const raw = read(name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (["true", "1", "yes", "on"].includes(raw)) return true;
  if (["false", "0", "no", "off"].includes(raw)) return false;
  throw invalid(name, raw, "true or false");
}

export function baseUrl(read: Reader, name: string): string | undefined {
  const raw = read(name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(name, raw, "an absolute http(s) URL such as http://127.0.0.1:8085");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw invalid(name, raw, "an http or https URL");
  }
  if (url.username || url.password) {
    // Never echo credentials embedded in a URL.
    throw new ConfigError(`${name} must not contain a user name or password.`, name);
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw invalid(name, raw, "https for a remote host (plain http is allowed only for 127.0.0.1/localhost)");
  }
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** Shortest token accepted off loopback: 32 characters, 128 bits as hex, more in any richer alphabet. */
export const MIN_REMOTE_TOKEN_LENGTH = 32;

/**
 * A token guarding a server that listens beyond this machine must resist guessing: at least
 * {@link MIN_REMOTE_TOKEN_LENGTH} characters, not a short pattern repeated. Never echoed.
 */
export function authToken(token: string | undefined, host: string): string | undefined {
  if (token === undefined || isLoopbackHost(host)) return token;
  if (token.length >= MIN_REMOTE_TOKEN_LENGTH && new Set(token).size >= 8) return token;
  throw new ConfigError(
    `CATALOG_MCP_AUTH_TOKEN is too weak for a server listening on ${host}: anyone who can reach it could ` +
      `guess it. Use at least ${MIN_REMOTE_TOKEN_LENGTH} random characters, e.g. from \`openssl rand -hex 32\` ` +
      'or `deno eval "console.log(crypto.randomUUID() + crypto.randomUUID())"`, or bind to 127.0.0.1.',
    "CATALOG_MCP_AUTH_TOKEN",
  );
}

export function origins(read: Reader): string[] {
  const raw = read("CATALOG_MCP_ALLOWED_ORIGINS");
  if (raw === undefined) return [];
  return raw.split(",").map((s) => s.trim()).filter(Boolean).map((origin) => {
    try {
      const url = new URL(origin);
      if (url.origin === origin.replace(/\/$/, "")) return url.origin;
    } catch {
      // Reported below.
    }
    throw invalid(
      "CATALOG_MCP_ALLOWED_ORIGINS",
      origin,
      "origins such as https://app.example.com (scheme, host, port)",
    );
  });
}

export function apiVersion(read: Reader, name: string, fallback: string): string {
  const raw = read(name);
  if (raw === undefined) return fallback;
  if (!/^\d{4}-\d{2}-\d{2}(-preview)?$/.test(raw)) {
    throw invalid(name, raw, "a date version such as 2023-09-01 or 2025-09-15-preview");
  }
  return raw;
}

/** True for 127.0.0.0/8, ::1 and localhost: the hosts that never receive a catalog token. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}
