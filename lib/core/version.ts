/**
 * The program's version, read from `deno.json` so it is written in one place.
 *
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };

/** govcat's version, e.g. `0.1.0`. */
export const VERSION: string = denoJson.version;
/** Sent as `User-Agent` on every catalog request. */
export const USER_AGENT = `govcat/${VERSION} (Deno ${Deno.version.deno})`;

/** The arguments that ask for the version instead of a command. */
const VERSION_REQUESTS: ReadonlySet<string> = new Set(["--version", "-V", "version"]);

/** True when the first argument asks for the version (`govcat --version`, `-V`, `version`). */
export function asksForVersion(first: string | undefined): boolean {
  return first !== undefined && VERSION_REQUESTS.has(first);
}

/** What `govcat --version` prints. */
export const VERSION_LINE = `govcat ${VERSION}`;
