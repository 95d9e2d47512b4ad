/**
 * What the emulator refuses before routing: requests a web page in the user's browser could make. The
 * emulator listens on 127.0.0.1 only, but any page the user visits can send requests there (a form post, a
 * `fetch` in `no-cors` mode, DNS rebinding), and without this an open page could wipe a `--data` file with
 * `POST /_emulator/reset?data=true` or write entities with a `text/plain` body. Refused with 403:
 * - a `Host` that is not a loopback name (DNS rebinding: a foreign name resolving to 127.0.0.1);
 * - an `Origin` other than the emulator's own (`http://` plus the `Host` it was reached at), `null` included;
 * - `Sec-Fetch-Site` other than `same-origin` or `none` (a browser's cross-site or same-site request).
 * Admin writes (`PUT`/`POST` under `/_emulator`) also need `Content-Type: application/json` (415 otherwise),
 * which a page cannot send to another origin without a CORS preflight the emulator never grants.
 * govcat's own clients and scripts send no `Origin` and no `Sec-Fetch-*`, so they are not affected.
 *
 * @example
 * ```ts
 * import { requestRefusal } from "./request_guard.ts";
 * const request = new Request("http://127.0.0.1:8085/_emulator/reset?data=true", {
 *   method: "POST",
 *   headers: { origin: "http://evil.example", "content-type": "text/plain" },
 * });
 * console.log(requestRefusal(request)?.status); // 403
 * ```
 *
 * @module
 */
import { isLoopbackHost } from "../config/readers.ts";
import type { Logger } from "../core/log.ts";
import { ADMIN_PREFIX } from "./admin.ts";
import { EmulatorError, errorResponse, errorStyleForPath } from "./errors.ts";

const READ_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The answer to a request the emulator will not serve, or undefined when it may. Reads headers only (the
 * URL is not parsed before the Host is known to be good), and drops the request's body.
 */
export async function refusedResponse(
  request: Request,
  requestId: string,
  logger: Logger,
): Promise<Response | undefined> {
  const refusal = requestRefusal(request);
  if (refusal === undefined) return undefined;
  await request.body?.cancel().catch(() => {});
  const path = pathOf(request) ?? "";
  logger.debug(`emulator: ${request.method} ${path} -> ${refusal.status} refused: ${refusal.message}`);
  return errorResponse(errorStyleForPath(path), refusal, requestId);
}

/** Why the emulator will not serve `request`, or undefined when it may. */
export function requestRefusal(request: Request): EmulatorError | undefined {
  const host = request.headers.get("host");
  if (host !== null && !isLoopbackHost(hostnameOf(host))) {
    return forbidden(
      `Host "${host}" is not allowed: the emulator answers only to its loopback address (127.0.0.1).`,
    );
  }
  const origin = request.headers.get("origin");
  if (origin !== null && (host === null || origin !== `http://${host}`)) {
    return forbidden(
      `Origin "${origin}" is not allowed: the emulator does not serve requests from web pages of other ` +
        "origins. Call it from a program (govcat, curl, a test), which sends no Origin.",
    );
  }
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") {
    return forbidden(
      `A browser request from another site (Sec-Fetch-Site: ${site}) is not allowed: the emulator serves ` +
        "programs, not web pages.",
    );
  }
  if (READ_METHODS.has(request.method.toUpperCase()) || isJson(request.headers)) return undefined;
  const path = pathOf(request);
  if (path === undefined) return forbidden("The request's address cannot be read.");
  if (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) {
    return new EmulatorError(
      415,
      "UnsupportedMediaType",
      "The emulator's admin endpoints change state only on requests with Content-Type: application/json " +
        `(this one has ${JSON.stringify(request.headers.get("content-type") ?? "none")}).`,
    );
  }
  return undefined;
}

function pathOf(request: Request): string | undefined {
  try {
    return new URL(request.url).pathname;
  } catch {
    return undefined;
  }
}

function forbidden(message: string): EmulatorError {
  return new EmulatorError(403, "Forbidden", message);
}

function isJson(headers: Headers): boolean {
  const type = headers.get("content-type")?.split(";")[0].trim().toLowerCase() ?? "";
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * The host name of a Host header (`[::1]:8085` gives `[::1]`), or "" when it is not `host[:port]` (a
 * space, a user part, a path), which no loopback name matches.
 */
function hostnameOf(hostHeader: string): string {
  if (!/^[A-Za-z0-9.\-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/.test(hostHeader)) return "";
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return "";
  }
}
