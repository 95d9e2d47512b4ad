/**
 * Connection profiles of the command-line client (spec §2.9): named sets of non-secret settings kept in
 * `profiles.json` in the user's configuration directory, and the `profile` / `config` commands on them.
 *
 * Where the file lives: `$GOVCAT_CONFIG_DIR/profiles.json` when that variable is set (tests use it), else
 * `%APPDATA%\govcat\profiles.json` on Windows, else `$XDG_CONFIG_HOME/govcat/profiles.json`, else
 * `~/.config/govcat/profiles.json`. It is written atomically (a temporary file in the same directory, then
 * a rename) with mode 0600 in a 0700 directory where the operating system supports modes.
 *
 * Which profile is used: `--profile NAME`, else `CATALOG_PROFILE`, else the profile marked default, else
 * none. An unknown name is an error (exit 2) with a did-you-mean suggestion.
 *
 * Precedence of a setting, lowest first: built-in defaults < profile < environment variables < command-line
 * flags. It is implemented by building the environment record {@link loadConfig} reads: the profile's
 * values as variables (`account-name` → `CATALOG_ACCOUNT_NAME`), overlaid with every non-empty variable of
 * the real environment; flags (`govcat serve --port`, `--emulator`) are applied on top of that record by
 * their command, and `loadConfig` fills in the defaults of whatever is still unset. An empty environment
 * variable counts as unset, as it does in `loadConfig`, so it does not hide the profile's value.
 *
 * No secret is ever stored: `client-secret` and `mcp-auth-token` are refused by `config set`, and a file
 * holding them is rejected. Secrets come from the environment only.
 *
 * A profiles file that is not valid JSON or has the wrong shape is never rewritten: every command that
 * needs it fails with a {@link ConfigError} naming the file and the problem.
 *
 * @example
 * ```ts
 * import { resolveProfileEnv } from "./profiles.ts";
 * const { env, profile } = resolveProfileEnv({ GOVCAT_CONFIG_DIR: "/tmp/govcat" });
 * console.log(profile?.name, env.CATALOG_ACCOUNT_NAME);
 * ```
 *
 * @module
 */
import { catalogBaseUrl, unifiedBaseUrl } from "../lib/cloud.ts";
import { type Config, type EnvSource, loadConfig } from "../lib/config.ts";
import { createTokenProvider, type TokenProvider } from "../lib/auth.ts";
import { ConfigError, GovcatError, UsageError } from "../lib/errors.ts";
import type { ProfileAddInput, ProfileService } from "../lib/operations/profile_operations.ts";
import { didYouMean } from "../lib/suggest.ts";

/** Value types of a profile setting, as stored in the JSON file. */
export type SettingKind = "string" | "integer" | "boolean";

/** One setting a profile may hold: its `config set` key and the §2.1 variable it stands for. */
export interface ProfileKey {
  key: string;
  variable: string;
  kind: SettingKind;
}

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
export const SECRET_KEYS: ReadonlyArray<{ key: string; variable: string }> = [
  { key: "client-secret", variable: "CLOUD_CLIENT_SECRET" },
  { key: "mcp-auth-token", variable: "CATALOG_MCP_AUTH_TOKEN" },
];

/** A stored profile: its name, whether it is the default, and its settings by key. */
export interface Profile {
  name: string;
  default: boolean;
  settings: Record<string, string | number | boolean>;
}

/** The content of the profiles file. */
export interface ProfilesData {
  profiles: Profile[];
}

const FILE_VERSION = 1;
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The directory holding `profiles.json`, from the environment record (see the module description). */
export function configDir(env: EnvSource, os: string = Deno.build.os): string {
  const set = (name: string) => (env[name]?.trim() ? env[name]!.trim() : undefined);
  const override = set("GOVCAT_CONFIG_DIR");
  if (override) return override;
  if (os === "windows") {
    const appData = set("APPDATA") ??
      (set("USERPROFILE") ? `${set("USERPROFILE")}\\AppData\\Roaming` : undefined);
    if (appData) return `${appData}\\govcat`;
  }
  const xdg = set("XDG_CONFIG_HOME");
  if (xdg) return `${xdg}/govcat`;
  const home = set("HOME") ?? set("USERPROFILE");
  if (home) return `${home}/.config/govcat`;
  throw new ConfigError(
    "cannot locate the configuration directory for profiles: HOME (or XDG_CONFIG_HOME, APPDATA) is not set.",
    "GOVCAT_CONFIG_DIR",
  );
}

/** Full path of the profiles file. */
export function profilesPath(env: EnvSource, os: string = Deno.build.os): string {
  const dir = configDir(env, os);
  return `${dir}${os === "windows" && !env.GOVCAT_CONFIG_DIR ? "\\" : "/"}profiles.json`;
}

/** Finds a key by its `config set` spelling, its variable name or a camel/snake variant. */
export function findKey(name: string): ProfileKey | undefined {
  const norm = normalize(name);
  return PROFILE_KEYS.find((k) => normalize(k.key) === norm || normalize(k.variable) === norm);
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, "");
}

function secretKey(name: string): { key: string; variable: string } | undefined {
  const norm = normalize(name);
  const known = SECRET_KEYS.find((k) => normalize(k.key) === norm || normalize(k.variable) === norm);
  if (known) return known;
  // Anything that looks like a credential is refused too, whatever it is called (token-scope is not one).
  return /secret|password|passwd|credential|(^|[-_])(auth)?token$|apikey|api-key/i.test(name)
    ? { key: name, variable: name }
    : undefined;
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

/** Parses and checks the profiles file's text; `path` is named in every error. */
export function parseProfiles(text: string, path: string): ProfilesData {
  const fail = (problem: string): never => {
    throw new ConfigError(
      `the profiles file ${path} is invalid: ${problem}. It was left unchanged; fix or remove it.`,
      "GOVCAT_CONFIG_DIR",
    );
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return fail(`not valid JSON (${(e as Error).message})`);
  }
  if (!isObject(raw)) return fail('expected a JSON object with a "profiles" array');
  if (raw.version !== undefined && raw.version !== FILE_VERSION) {
    return fail(
      `unsupported version ${JSON.stringify(raw.version)} (this govcat reads version ${FILE_VERSION})`,
    );
  }
  if (!Array.isArray(raw.profiles)) return fail('"profiles" must be an array');
  const profiles: Profile[] = [];
  const names = new Set<string>();
  raw.profiles.forEach((entry: unknown, i: number) => {
    const at = `profiles[${i}]`;
    if (!isObject(entry)) return fail(`${at} must be an object`);
    const name = entry.name;
    if (typeof name !== "string" || !PROFILE_NAME.test(name)) {
      return fail(
        `${at}.name must be a profile name (letters, digits, '.', '_', '-'), got ${JSON.stringify(name)}`,
      );
    }
    if (names.has(name.toLowerCase())) return fail(`profile "${name}" appears twice`);
    names.add(name.toLowerCase());
    if (entry.default !== undefined && typeof entry.default !== "boolean") {
      return fail(`${at}.default must be true or false`);
    }
    const settings: Record<string, string | number | boolean> = {};
    for (const [key, value] of Object.entries(entry)) {
      if (key === "name" || key === "default") continue;
      if (secretKey(key)) {
        return fail(`profile "${name}" holds the secret "${key}"; secrets are never stored`);
      }
      const spec = PROFILE_KEYS.find((k) => k.key === key);
      if (!spec) return fail(`profile "${name}" has the unknown key "${key}"${didYouMean(key, keyNames())}`);
      const ok = spec.kind === "string"
        ? typeof value === "string"
        : spec.kind === "integer"
        ? typeof value === "number" && Number.isInteger(value)
        : typeof value === "boolean";
      if (!ok) return fail(`profile "${name}": "${key}" must be ${article(spec.kind)}`);
      settings[key] = value as string | number | boolean;
    }
    profiles.push({ name, default: entry.default === true, settings });
  });
  if (profiles.filter((p) => p.default).length > 1) return fail("more than one profile is marked default");
  return { profiles };
}

function article(kind: SettingKind): string {
  return kind === "integer" ? "an integer" : kind === "boolean" ? "true or false" : "a string";
}

function keyNames(): string[] {
  return PROFILE_KEYS.map((k) => k.key);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The profiles file as JSON text. */
export function serializeProfiles(data: ProfilesData): string {
  const profiles = data.profiles.map((p) => {
    const ordered: Record<string, unknown> = { name: p.name, default: p.default };
    for (const { key } of PROFILE_KEYS) if (p.settings[key] !== undefined) ordered[key] = p.settings[key];
    return ordered;
  });
  return JSON.stringify({ version: FILE_VERSION, profiles }, null, 2) + "\n";
}

/** Reads and writes the profiles file at one path. */
export class ProfileStore {
  constructor(readonly path: string) {}

  /** The file's profiles; none when the file does not exist. A bad file throws, untouched. */
  read(): ProfilesData {
    let text: string;
    try {
      text = Deno.readTextFileSync(this.path);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return { profiles: [] };
      throw new ConfigError(`cannot read the profiles file ${this.path}: ${(e as Error).message}.`);
    }
    return parseProfiles(text, this.path);
  }

  /** Writes atomically: a temporary file (mode 0600) in the same directory, then a rename over the file. */
  write(data: ProfilesData): void {
    const dir = this.path.replace(/[\\/][^\\/]*$/, "") || ".";
    try {
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      throw new ConfigError(`cannot create the profile directory ${dir}: ${(e as Error).message}.`);
    }
    const temp = `${this.path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    try {
      Deno.writeTextFileSync(temp, serializeProfiles(data), { mode: 0o600, createNew: true });
      if (Deno.build.os !== "windows") Deno.chmodSync(temp, 0o600);
      Deno.renameSync(temp, this.path);
    } catch (e) {
      try {
        Deno.removeSync(temp);
      } catch {
        // Nothing was left behind.
      }
      throw new ConfigError(`cannot write the profiles file ${this.path}: ${(e as Error).message}.`);
    }
  }
}

/** Where the active profile came from. */
export type ProfileSource = "--profile" | "CATALOG_PROFILE" | "default";

/** The selected profile, or undefined when none is selected and none is default. */
export function selectProfile(
  data: ProfilesData,
  env: EnvSource,
  flag: string | undefined,
  path: string,
): { profile?: Profile; source?: ProfileSource } {
  const fromEnv = env.CATALOG_PROFILE?.trim();
  const [wanted, source]: [string | undefined, ProfileSource] = flag?.trim()
    ? [flag.trim(), "--profile"]
    : fromEnv
    ? [fromEnv, "CATALOG_PROFILE"]
    : [undefined, "default"];
  if (wanted === undefined) {
    const profile = data.profiles.find((p) => p.default);
    return profile ? { profile, source } : {};
  }
  return { profile: findProfile(data, wanted, path, source), source };
}

/** The profile called `name`, or a usage error with a did-you-mean suggestion. */
export function findProfile(data: ProfilesData, name: string, path: string, via?: string): Profile {
  const profile = data.profiles.find((p) => p.name === name) ??
    data.profiles.find((p) => p.name.toLowerCase() === name.toLowerCase());
  if (profile) return profile;
  const names = data.profiles.map((p) => p.name);
  throw new UsageError(
    `unknown profile "${name}"${via ? ` (from ${via})` : ""}.${didYouMean(name, names)}`,
    names.length
      ? `Profiles in ${path}: ${names.join(", ")}. Run "govcat profile list_profiles".`
      : `No profiles are defined in ${path}; add one with "govcat profile add --name=NAME --account-name=ACCOUNT".`,
  );
}

/** The profile's settings as the environment variables they stand for. */
export function profileVariables(profile: Profile | undefined): Record<string, string> {
  const vars: Record<string, string> = {};
  if (!profile) return vars;
  for (const { key, variable } of PROFILE_KEYS) {
    const value = profile.settings[key];
    if (value !== undefined && value !== "") vars[variable] = String(value);
  }
  return vars;
}

/** `env` with the profile's values under it: a non-empty environment variable wins over the profile. */
export function overlayEnv(env: EnvSource, profile: Profile | undefined): EnvSource {
  const merged: EnvSource = { ...env };
  for (const [variable, value] of Object.entries(profileVariables(profile))) {
    if (!env[variable]?.trim()) merged[variable] = value;
  }
  return merged;
}

/** What {@link resolveProfileEnv} found. */
export interface ResolvedProfileEnv {
  /** The environment record to give `loadConfig`: defaults < profile < environment. */
  env: EnvSource;
  profile?: Profile;
  source?: ProfileSource;
  path: string;
}

/**
 * Applies the selected profile to `env`. The file is read only when it exists or a profile is asked for by
 * name, so a user without profiles never depends on it.
 */
export function resolveProfileEnv(env: EnvSource, flag?: string): ResolvedProfileEnv {
  const wanted = flag?.trim() || env.CATALOG_PROFILE?.trim();
  let path: string;
  try {
    path = profilesPath(env);
  } catch (e) {
    // No home directory: without an explicit selection, run on the environment alone.
    if (!wanted) return { env, path: "" };
    throw e;
  }
  const data = new ProfileStore(path).read();
  const { profile, source } = selectProfile(data, env, flag, path);
  return { env: overlayEnv(env, profile), profile, source, path };
}

/**
 * Validates profile settings with the same rules as {@link loadConfig}: a config is loaded from the
 * settings, with placeholders for what a profile cannot hold (the secret) or may leave to the environment.
 */
export function validateSettings(settings: Profile["settings"], where: string): void {
  const vars: EnvSource = profileVariables({ name: "x", default: false, settings });
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

/** Converts `config set` text to the stored type of the key. */
function typedValue(spec: ProfileKey, value: string, where: string): string | number | boolean {
  const text = value.trim();
  if (spec.kind === "integer") {
    if (!/^[+-]?\d+$/.test(text)) {
      throw new UsageError(`${where}: ${spec.key} (${spec.variable}) takes an integer, got "${value}".`);
    }
    return Number(text);
  }
  if (spec.kind === "boolean") {
    const lower = text.toLowerCase();
    if (["true", "1", "yes", "on"].includes(lower)) return true;
    if (["false", "0", "no", "off"].includes(lower)) return false;
    throw new UsageError(`${where}: ${spec.key} (${spec.variable}) takes true or false, got "${value}".`);
  }
  return spec.key === "region" ? text.toLowerCase() : text;
}

function keyOrFail(name: string, where: string): ProfileKey {
  if (secretKey(name)) refuseSecret(name, where);
  const spec = findKey(name);
  if (spec) return spec;
  throw new UsageError(
    `${where}: unknown key "${name}".${didYouMean(name, keyNames())}`,
    `Keys: ${keyNames().join(", ")}.`,
  );
}

/** Options of {@link createProfileService}. */
export interface ProfileServiceOptions {
  /** The process environment (unmerged). */
  env: EnvSource;
  /** The `--profile` flag. */
  profile?: string;
  /** Longest wait of `profile status` for a token; 10 seconds by default. */
  tokenTimeoutMs?: number;
  /** Builds the token provider of `profile status`; {@link createTokenProvider} by default. */
  tokenProvider?: (config: Config, env: EnvSource) => TokenProvider;
}

/** The `profile` and `config` commands over the profiles file of `options.env`. */
export function createProfileService(options: ProfileServiceOptions): ProfileService {
  const { env } = options;
  const store = () => new ProfileStore(profilesPath(env));
  const describe = (p: Profile) => ({ name: p.name, default: p.default, ...p.settings });
  /** The profile `config` commands act on: --profile, CATALOG_PROFILE, else the default. */
  const target = (where: string) => {
    const s = store();
    const data = s.read();
    const { profile, source } = selectProfile(data, env, options.profile, s.path);
    if (!profile) {
      throw new UsageError(
        `${where}: no profile is selected and none is the default.`,
        data.profiles.length
          ? `Pass --profile=NAME, set CATALOG_PROFILE, or run "govcat profile set_default NAME".`
          : `Create one with "govcat profile add --name=NAME --account-name=ACCOUNT --set-default".`,
      );
    }
    return { s, data, profile, source };
  };

  return {
    add(input: ProfileAddInput) {
      const where = "profile add";
      if (!PROFILE_NAME.test(input.name)) {
        throw new UsageError(
          `${where}: --name "${input.name}" is not a valid profile name: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.`,
        );
      }
      const s = store();
      const data = s.read();
      if (data.profiles.some((p) => p.name.toLowerCase() === input.name.toLowerCase())) {
        throw new UsageError(
          `${where}: a profile named "${input.name}" exists already.`,
          `Change it with "govcat config set KEY VALUE --profile=${input.name}", or remove it first.`,
        );
      }
      const settings: Profile["settings"] = { "account-name": input.accountName.trim() };
      if (input.tenantId !== undefined) settings["tenant-id"] = input.tenantId.trim();
      if (input.region !== undefined) settings["region"] = input.region.trim().toLowerCase();
      if (input.batchSize !== undefined) settings["batch-size"] = input.batchSize;
      validateSettings(settings, where);
      const makeDefault = input.setDefault === true || data.profiles.length === 0;
      if (makeDefault) { for (const p of data.profiles) p.default = false; }
      const profile: Profile = { name: input.name, default: makeDefault, settings };
      data.profiles.push(profile);
      s.write(data);
      return { added: describe(profile), path: s.path };
    },

    remove(name: string) {
      const s = store();
      const data = s.read();
      const profile = findProfile(data, name, s.path);
      data.profiles = data.profiles.filter((p) => p !== profile);
      s.write(data);
      return {
        removed: profile.name,
        wasDefault: profile.default,
        ...(profile.default && data.profiles.length
          ? { note: `no profile is the default now; choose one with "govcat profile set_default NAME"` }
          : {}),
        path: s.path,
      };
    },

    list() {
      const s = store();
      const data = s.read();
      const { profile: active } = data.profiles.length
        ? selectProfile(data, env, options.profile, s.path)
        : { profile: undefined };
      return {
        path: s.path,
        active: active?.name ?? null,
        profiles: data.profiles.map((p) => ({ ...describe(p), active: p === active })),
      };
    },

    setDefault(name: string) {
      const s = store();
      const data = s.read();
      const profile = findProfile(data, name, s.path);
      for (const p of data.profiles) p.default = p === profile;
      s.write(data);
      return { default: profile.name, path: s.path };
    },

    async status(signal?: AbortSignal) {
      const resolved = resolveProfileEnv(env, options.profile);
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
    },

    configSet(key: string, value: string) {
      const where = "config set";
      const spec = keyOrFail(key, where);
      const { s, data, profile } = target(where);
      const settings = { ...profile.settings };
      if (value.trim() === "") delete settings[spec.key];
      else settings[spec.key] = typedValue(spec, value, where);
      if (spec.key === "account-name" && settings["account-name"] === undefined) {
        throw new UsageError(`${where}: account-name cannot be removed from a profile.`);
      }
      validateSettings(settings, where);
      profile.settings = settings;
      s.write(data);
      return {
        profile: profile.name,
        key: spec.key,
        variable: spec.variable,
        value: settings[spec.key] ?? null,
        path: s.path,
      };
    },

    configGet(key: string) {
      const where = "config get";
      const spec = keyOrFail(key, where);
      return settingView(spec, resolveProfileEnv(env, options.profile), env);
    },

    configList() {
      const resolved = resolveProfileEnv(env, options.profile);
      return {
        profile: resolved.profile?.name ?? null,
        path: resolved.path || null,
        settings: PROFILE_KEYS.map((spec) => settingView(spec, resolved, env)),
      };
    },
  };
}

/** One setting's effective value and where it comes from. */
function settingView(spec: ProfileKey, resolved: ResolvedProfileEnv, env: EnvSource) {
  const fromEnv = env[spec.variable]?.trim();
  const fromProfile = resolved.profile?.settings[spec.key];
  const source = fromEnv ? "environment" : fromProfile !== undefined ? "profile" : "default";
  return {
    key: spec.key,
    variable: spec.variable,
    value: fromEnv ? fromEnv : fromProfile ?? null,
    source,
    profile: resolved.profile?.name ?? null,
    ...(fromEnv && fromProfile !== undefined ? { profileValue: fromProfile } : {}),
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
