/**
 * Which connection profile a command uses, and how its settings reach the configuration. Every command that
 * loads a configuration (and the fast start of `govcat serve`) goes through {@link resolveProfileEnv}, so
 * this module reads the file but needs nothing of the credentials or the commands.
 *
 * Which profile is used: `--profile NAME`, else `CATALOG_PROFILE`, else the profile marked default, else
 * none. An unknown name is an error (exit 2) with a did-you-mean suggestion.
 *
 * Precedence of a setting, lowest first: built-in defaults < profile < environment variables < command-line
 * flags. It is implemented by building the environment record `loadConfig` reads: the profile's
 * values as variables (`account-name` → `CATALOG_ACCOUNT_NAME`), overlaid with every non-empty variable of
 * the real environment; flags (`govcat serve --port`, `--emulator`) are applied on top of that record by
 * their command, and `loadConfig` fills in the defaults of whatever is still unset. An empty environment
 * variable counts as unset, as it does in `loadConfig`, so it does not hide the profile's value.
 *
 * @example
 * ```ts
 * import { resolveProfileEnv } from "./profile_selection.ts";
 * const { env, profile } = resolveProfileEnv({ GOVCAT_CONFIG_DIR: "/tmp/govcat" });
 * console.log(profile?.name, env.CATALOG_ACCOUNT_NAME);
 * ```
 *
 * @module
 */
import type { EnvSource } from "../lib/config/config.ts";
import { UsageError } from "../lib/core/errors.ts";
import { didYouMean } from "../lib/core/suggest.ts";
import { type Profile, type ProfilesData, profilesPath, ProfileStore } from "./profile_file.ts";
import { settingsVariables, variableValue } from "./profile_settings.ts";

/** Where the active profile came from. */
export type ProfileSource = "--profile" | "CATALOG_PROFILE" | "default";

/** The profile asked for by name (`--profile`, else `CATALOG_PROFILE`), or undefined when none is. */
function requestedProfile(
  env: EnvSource,
  flag: string | undefined,
): { name: string; source: ProfileSource } | undefined {
  const fromFlag = flag?.trim();
  if (fromFlag) return { name: fromFlag, source: "--profile" };
  const fromEnv = variableValue(env, "CATALOG_PROFILE");
  return fromEnv ? { name: fromEnv, source: "CATALOG_PROFILE" } : undefined;
}

/** The selected profile, or undefined when none is selected and none is default. */
export function selectProfile(
  data: ProfilesData,
  env: EnvSource,
  flag: string | undefined,
  path: string,
): { profile?: Profile; source?: ProfileSource } {
  const requested = requestedProfile(env, flag);
  if (!requested) {
    const profile = data.profiles.find((p) => p.default);
    return profile ? { profile, source: "default" } : {};
  }
  return { profile: findProfile(data, requested.name, path, requested.source), source: requested.source };
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
function profileVariables(profile: Profile | undefined): Record<string, string> {
  return profile ? settingsVariables(profile.settings) : {};
}

/** `env` with the profile's values under it: a non-empty environment variable wins over the profile. */
export function overlayEnv(env: EnvSource, profile: Profile | undefined): EnvSource {
  const merged: EnvSource = { ...env };
  for (const [variable, value] of Object.entries(profileVariables(profile))) {
    if (variableValue(env, variable) === undefined) merged[variable] = value;
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
  let path: string;
  try {
    path = profilesPath(env);
  } catch (e) {
    // No home directory: without an explicit selection, run on the environment alone.
    if (!requestedProfile(env, flag)) return { env, path: "" };
    throw e;
  }
  const data = new ProfileStore(path).read();
  const { profile, source } = selectProfile(data, env, flag, path);
  return { env: overlayEnv(env, profile), profile, source, path };
}
