/**
 * The profiles file: where `profiles.json` lives, its JSON format and the checks on it, and the store that
 * reads it and writes it. Everything that touches the disk for profiles goes through here, so the rules on
 * location, permissions and corrupt files hold for every command alike.
 *
 * Where the file lives: `$GOVCAT_CONFIG_DIR/profiles.json` when that variable is set (tests use it), else
 * `%APPDATA%\govcat\profiles.json` on Windows, else `$XDG_CONFIG_HOME/govcat/profiles.json`, else
 * `~/.config/govcat/profiles.json`. It is written atomically (a temporary file in the same directory, then
 * a rename) with mode 0600 in a 0700 directory where the operating system supports modes.
 *
 * A profiles file that is not valid JSON or has the wrong shape (including a secret or an unknown key) is
 * never rewritten: every command that needs it fails with a {@link ConfigError} naming the file and the
 * problem.
 *
 * @module
 */
import type { EnvSource } from "../lib/config/config.ts";
import { ConfigError } from "../lib/core/errors.ts";
import { didYouMean } from "../lib/core/suggest.ts";
import {
  hasKind,
  keyNames,
  kindText,
  PROFILE_KEYS,
  type ProfileSettings,
  secretKey,
  variableValue,
} from "./profile_settings.ts";

/** A stored profile: its name, whether it is the default, and its settings by key. */
export interface Profile {
  name: string;
  default: boolean;
  settings: ProfileSettings;
}

/** The content of the profiles file. */
export interface ProfilesData {
  profiles: Profile[];
}

const FILE_VERSION = 1;
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Whether `name` can name a profile: 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit. */
export function isProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
}

/** The directory holding `profiles.json`, from the environment record (see the module description). */
export function configDir(env: EnvSource, os: string = Deno.build.os): string {
  const set = (name: string) => variableValue(env, name);
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
  return `${dir}${os === "windows" && !variableValue(env, "GOVCAT_CONFIG_DIR") ? "\\" : "/"}profiles.json`;
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
    if (typeof name !== "string" || !isProfileName(name)) {
      return fail(
        `${at}.name must be a profile name (letters, digits, '.', '_', '-'), got ${JSON.stringify(name)}`,
      );
    }
    if (names.has(name.toLowerCase())) return fail(`profile "${name}" appears twice`);
    names.add(name.toLowerCase());
    if (entry.default !== undefined && typeof entry.default !== "boolean") {
      return fail(`${at}.default must be true or false`);
    }
    const settings: ProfileSettings = {};
    for (const [key, value] of Object.entries(entry)) {
      if (key === "name" || key === "default") continue;
      if (secretKey(key)) {
        return fail(`profile "${name}" holds the secret "${key}"; secrets are never stored`);
      }
      const spec = PROFILE_KEYS.find((k) => k.key === key);
      if (!spec) return fail(`profile "${name}" has the unknown key "${key}"${didYouMean(key, keyNames())}`);
      if (!hasKind(spec.kind, value)) {
        return fail(`profile "${name}": "${key}" must be ${kindText(spec.kind)}`);
      }
      settings[key] = value as string | number | boolean;
    }
    profiles.push({ name, default: entry.default === true, settings });
  });
  if (profiles.filter((p) => p.default).length > 1) return fail("more than one profile is marked default");
  return { profiles };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The profiles file as JSON text. */
function serializeProfiles(data: ProfilesData): string {
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
