/**
 * The settings a connection profile may hold: each `config set` key with the configuration environment
 * variable it stands for and the type its value is stored as, the keys that name secrets, and the checks a
 * value passes before it is stored. The file parser and the `config` commands judge keys and values by
 * these same rules, so they live here once rather than in either.
 *
 * No secret is ever stored: `client-secret`, `mcp-auth-token` and anything named like a credential are
 * refused by `config set`, and a file holding them is rejected. Secrets come from the environment only.
 *
 * A value is valid when {@link loadConfig} accepts it as the variable it stands for, so a profile can never
 * hold what the environment could not.
 *
 * @module
 */
import { type EnvSource, loadConfig } from "../lib/config/config.ts";
import { ConfigError, UsageError } from "../lib/core/errors.ts";
import { didYouMean } from "../lib/core/suggest.ts";

/** Value types of a profile setting, as stored in the JSON file. */
export type SettingKind = "string" | "integer" | "boolean";

/** One setting a profile may hold: its `config set` key and the environment variable it stands for. */
export interface ProfileKey {
  key: string;
  variable: string;
  kind: SettingKind;
}

/** A profile's settings by key, with the JSON types the file stores them as. */
export type ProfileSettings = Record<string, string | number | boolean>;

/** The settings a profile may hold, in the order `config list` shows them. */
export const PROFILE_KEYS: ReadonlyArray<ProfileKey> = [
  { key: "account-name", variable: "CATALOG_ACCOUNT_NAME", kind: "string" },
  { key: "tenant-id", variable: "CLOUD_TENANT_ID", kind: "string" },
  { key: "client-id", variable: "CLOUD_CLIENT_ID", kind: "string" },
  { key: "region", variable: "CLOUD_REGION", kind: "string" },
  { key: "batch-size", variable: "CATALOG_BATCH_SIZE", kind: "integer" },
  { key: "max-retries", variable: "CATALOG_MAX_RETRIES", kind: "integer" },
  { key: "timeout", variable: "CATALOG_TIMEOUT", kind: "integer" },
  { key: "endpoint", variable: "CATALOG_ENDPOINT", kind: "string" },
  { key: "unified-endpoint", variable: "CATALOG_UNIFIED_ENDPOINT", kind: "string" },
  { key: "api-version", variable: "CATALOG_API_VERSION", kind: "string" },
  { key: "unified-api-version", variable: "CATALOG_UNIFIED_API_VERSION", kind: "string" },
  { key: "unified-assets-api-version", variable: "CATALOG_UNIFIED_ASSETS_API_VERSION", kind: "string" },
  { key: "token-scope", variable: "CATALOG_TOKEN_SCOPE", kind: "string" },
  { key: "rate-limit", variable: "CATALOG_RATE_LIMIT", kind: "integer" },
  { key: "log", variable: "CATALOG_LOG", kind: "string" },
  { key: "mcp-transport", variable: "CATALOG_MCP_TRANSPORT", kind: "string" },
  { key: "mcp-host", variable: "CATALOG_MCP_HOST", kind: "string" },
  { key: "mcp-port", variable: "CATALOG_MCP_PORT", kind: "integer" },
  { key: "mcp-read-only", variable: "CATALOG_MCP_READ_ONLY", kind: "boolean" },
  { key: "mcp-tools", variable: "CATALOG_MCP_TOOLS", kind: "string" },
  { key: "mcp-allowed-origins", variable: "CATALOG_MCP_ALLOWED_ORIGINS", kind: "string" },
];

/** Keys that name secrets: never stored in a profile. */
const SECRET_KEYS: ReadonlyArray<{ key: string; variable: string }> = [
  { key: "client-secret", variable: "CLOUD_CLIENT_SECRET" },
  { key: "mcp-auth-token", variable: "CATALOG_MCP_AUTH_TOKEN" },
];

/** The keys as `config set` spells them, for suggestions and hints. */
export function keyNames(): string[] {
  return PROFILE_KEYS.map((k) => k.key);
}

/**
 * A variable's trimmed value, or undefined when it is unset or blank: an empty variable counts as unset,
 * as it does in {@link loadConfig}, so it hides neither a profile's value nor a default.
 */
export function variableValue(env: EnvSource, name: string): string | undefined {
  return env[name]?.trim() || undefined;
}

/** Finds a key by its `config set` spelling, its variable name or a camel/snake variant. */
function findKey(name: string): ProfileKey | undefined {
  return matchKey(PROFILE_KEYS, name);
}

/** The secret `name` names, or undefined when it is not one. */
export function secretKey(name: string): { key: string; variable: string } | undefined {
  const known = matchKey(SECRET_KEYS, name);
  if (known) return known;
  // Anything that looks like a credential is refused too, whatever it is called (token-scope is not one).
  return /secret|password|passwd|credential|(^|[-_])(auth)?token$|apikey|api-key/i.test(name)
    ? { key: name, variable: name }
    : undefined;
}

function matchKey<T extends { key: string; variable: string }>(keys: ReadonlyArray<T>, name: string) {
  const norm = normalize(name);
  return keys.find((k) => normalize(k.key) === norm || normalize(k.variable) === norm);
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, "");
}

/** The key `name` names, or a usage error: a secret is refused, an unknown key gets a suggestion. */
export function requireKey(name: string, where: string): ProfileKey {
  if (secretKey(name)) refuseSecret(name, where);
  const spec = findKey(name);
  if (spec) return spec;
  throw new UsageError(
    `${where}: unknown key "${name}".${didYouMean(name, keyNames())}`,
    `Keys: ${keyNames().join(", ")}.`,
  );
}

function refuseSecret(name: string, where: string): never {
  const secret = secretKey(name)!;
  throw new UsageError(
    `${where}: "${name}" is a secret, and govcat never stores secrets in a profile.`,
    `Set ${
      secret.variable === name ? "it" : secret.variable
    } in the environment instead (e.g. from a secret store), or use az login, managed identity or workload identity.`,
  );
}

/** What a value of `kind` must be, as error messages say it. */
export function kindText(kind: SettingKind): string {
  return kind === "integer" ? "an integer" : kind === "boolean" ? "true or false" : "a string";
}

/** Whether a stored (JSON) value has the type of `kind`. */
export function hasKind(kind: SettingKind, value: unknown): boolean {
  return kind === "string"
    ? typeof value === "string"
    : kind === "integer"
    ? typeof value === "number" && Number.isInteger(value)
    : typeof value === "boolean";
}

/** Converts `config set` text to the stored type of the key. */
export function typedValue(spec: ProfileKey, value: string, where: string): string | number | boolean {
  const text = value.trim();
  const wrong = () =>
    new UsageError(`${where}: ${spec.key} (${spec.variable}) takes ${kindText(spec.kind)}, got "${value}".`);
  if (spec.kind === "integer") {
    if (!/^[+-]?\d+$/.test(text)) throw wrong();
    return Number(text);
  }
  if (spec.kind === "boolean") {
    const lower = text.toLowerCase();
    if (["true", "1", "yes", "on"].includes(lower)) return true;
    if (["false", "0", "no", "off"].includes(lower)) return false;
    throw wrong();
  }
  return spec.key === "region" ? text.toLowerCase() : text;
}

/** The settings as the environment variables they stand for; empty values are left out. */
export function settingsVariables(settings: ProfileSettings): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const { key, variable } of PROFILE_KEYS) {
    const value = settings[key];
    if (value !== undefined && value !== "") vars[variable] = String(value);
  }
  return vars;
}

/**
 * Validates profile settings with the same rules as {@link loadConfig}: a config is loaded from the
 * settings, with placeholders for what a profile cannot hold (the secret) or may leave to the environment.
 */
export function validateSettings(settings: ProfileSettings, where: string): void {
  const vars: EnvSource = settingsVariables(settings);
  vars.CATALOG_ACCOUNT_NAME ??= "placeholder-account";
  if (vars.CLOUD_CLIENT_ID) {
    vars.CLOUD_TENANT_ID ??= "00000000-0000-0000-0000-000000000000";
    vars.CLOUD_CLIENT_SECRET = "placeholder-secret";
  }
  try {
    loadConfig(vars);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const key = PROFILE_KEYS.find((k) => k.variable === e.variable)?.key;
    throw new UsageError(`${where}: ${key ? `${key} (${e.variable})` : "invalid value"}: ${e.message}`);
  }
}
