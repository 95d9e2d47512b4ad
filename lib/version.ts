/**
 * The program's version, read from `deno.json` so it is written in one place.
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };

/** govcat's version, e.g. `0.1.0`. */
export const VERSION: string = denoJson.version;
/** Sent as `User-Agent` on every catalog request. */
export const USER_AGENT = `govcat/${VERSION} (Deno ${Deno.version.deno})`;
