/**
 * The service behind the `profile` and `config` commands, which the command line puts
 * into the operation context (`cli/context.ts`): add, remove, list and choose the default profile, set one
 * setting of the selected profile, and show each setting's effective value with where it comes from.
 * `profile status` is delegated to `cli/profile_status.ts`. The service holds the command-level rules (one
 * default at most, `account-name` kept, messages naming the command) on top of the file, selection and
 * settings modules, which hold the rest.
 *
 * @module
 */
import { type EnvSource } from "../lib/config/config.ts";
import { CONFIG_VARIABLES } from "../lib/config/variables.ts";
import { UsageError } from "../lib/core/errors.ts";
import type { ProfileAddInput, ProfileService } from "../lib/operations/profile_operations.ts";
import { isProfileName, type Profile, profilesPath, ProfileStore } from "./profile_file.ts";
import {
  findProfile,
  type ResolvedProfileEnv,
  resolveProfileEnv,
  selectProfile,
} from "./profile_selection.ts";
import {
  PROFILE_KEYS,
  type ProfileKey,
  type ProfileSettings,
  requireKey,
  typedValue,
  validateSettings,
  variableValue,
} from "./profile_settings.ts";
import { profileStatus, type ProfileStatusOptions } from "./profile_status.ts";

/** Options of {@link createProfileService}: those of `profile status`, the one command with options of its own. */
export type ProfileServiceOptions = ProfileStatusOptions;

/** The `profile` and `config` commands over the profiles file of `options.env`. */
export function createProfileService(options: ProfileServiceOptions): ProfileService {
  return new FileProfileService(options);
}

const describeProfile = (p: Profile) => ({ name: p.name, default: p.default, ...p.settings });

class FileProfileService implements ProfileService {
  readonly #options: ProfileServiceOptions;
  readonly #env: EnvSource;

  constructor(options: ProfileServiceOptions) {
    this.#options = options;
    this.#env = options.env;
  }

  #open() {
    const s = new ProfileStore(profilesPath(this.#env));
    return { s, data: s.read() };
  }

  /** The profile `config` commands act on: --profile, CATALOG_PROFILE, else the default. */
  #target(where: string) {
    const { s, data } = this.#open();
    const { profile, source } = selectProfile(data, this.#env, this.#options.profile, s.path);
    if (!profile) {
      throw new UsageError(
        `${where}: no profile is selected and none is the default.`,
        data.profiles.length
          ? `Pass --profile=NAME, set CATALOG_PROFILE, or run "govcat profile set_default NAME".`
          : `Create one with "govcat profile add --name=NAME --account-name=ACCOUNT --set-default".`,
      );
    }
    return { s, data, profile, source };
  }

  add(input: ProfileAddInput) {
    const where = "profile add";
    if (!isProfileName(input.name)) {
      throw new UsageError(
        `${where}: --name "${input.name}" is not a valid profile name: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.`,
      );
    }
    const { s, data } = this.#open();
    if (data.profiles.some((p) => p.name.toLowerCase() === input.name.toLowerCase())) {
      throw new UsageError(
        `${where}: a profile named "${input.name}" exists already.`,
        `Change it with "govcat config set KEY VALUE --profile=${input.name}", or remove it first.`,
      );
    }
    const settings: ProfileSettings = { "account-name": input.accountName.trim() };
    if (input.tenantId !== undefined) settings["tenant-id"] = input.tenantId.trim();
    if (input.region !== undefined) settings["region"] = input.region.trim().toLowerCase();
    if (input.batchSize !== undefined) settings["batch-size"] = input.batchSize;
    validateSettings(settings, where);
    const makeDefault = input.setDefault === true || data.profiles.length === 0;
    if (makeDefault) { for (const p of data.profiles) p.default = false; }
    const profile: Profile = { name: input.name, default: makeDefault, settings };
    data.profiles.push(profile);
    s.write(data);
    return { added: describeProfile(profile), path: s.path };
  }

  remove(name: string) {
    const { s, data } = this.#open();
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
  }

  list() {
    const { s, data } = this.#open();
    const { profile: active } = data.profiles.length
      ? selectProfile(data, this.#env, this.#options.profile, s.path)
      : { profile: undefined };
    return {
      path: s.path,
      active: active?.name ?? null,
      profiles: data.profiles.map((p) => ({ ...describeProfile(p), active: p === active })),
    };
  }

  setDefault(name: string) {
    const { s, data } = this.#open();
    const profile = findProfile(data, name, s.path);
    for (const p of data.profiles) p.default = p === profile;
    s.write(data);
    return { default: profile.name, path: s.path };
  }

  status(signal?: AbortSignal) {
    return profileStatus(this.#options, signal);
  }

  configSet(key: string, value: string) {
    const where = "config set";
    const spec = requireKey(key, where);
    const { s, data, profile } = this.#target(where);
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
  }

  configGet(key: string) {
    const where = "config get";
    const spec = requireKey(key, where);
    return settingView(spec, resolveProfileEnv(this.#env, this.#options.profile), this.#env);
  }

  configList() {
    const resolved = resolveProfileEnv(this.#env, this.#options.profile);
    return {
      profile: resolved.profile?.name ?? null,
      path: resolved.path || null,
      settings: PROFILE_KEYS.map((spec) => settingView(spec, resolved, this.#env)),
    };
  }
}

/** One setting's effective value and where it comes from. */
function settingView(spec: ProfileKey, resolved: ResolvedProfileEnv, env: EnvSource) {
  const fromEnv = variableValue(env, spec.variable);
  const fromProfile = resolved.profile?.settings[spec.key];
  const source = fromEnv ? "environment" : fromProfile !== undefined ? "profile" : "default";
  return {
    key: spec.key,
    variable: spec.variable,
    // Typed like a stored value (60, not "60"); an invalid one is shown as given, for loadConfig to refuse.
    value: fromEnv ? typedOrText(spec, fromEnv) : fromProfile ?? builtInDefault(spec),
    source,
    profile: resolved.profile?.name ?? null,
    ...(fromEnv && fromProfile !== undefined ? { profileValue: fromProfile } : {}),
  };
}

/** The value govcat uses when neither the environment nor the profile sets one; null when there is none. */
function builtInDefault(spec: ProfileKey): string | number | boolean | null {
  const text = CONFIG_VARIABLES.find((v) => v.name === spec.variable)?.default ?? "";
  // Empty or a description such as "(required)": no value.
  if (text === "" || text.startsWith("(")) return null;
  return typedValue(spec, text, "built-in default");
}

function typedOrText(spec: ProfileKey, text: string): string | number | boolean {
  try {
    return typedValue(spec, text, spec.variable);
  } catch {
    return text;
  }
}
