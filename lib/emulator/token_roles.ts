/**
 * Purview-like roles in the emulator, for signed-in set-ups (`startEmulator({ roles: true })`): each API
 * request must carry a bearer token whose `roles` claim names `DataReader` (reads) or `DataCurator` (reads
 * and writes); a write with a reader's token gets 403, as Purview answers a user without the Data Curator
 * role (a workflow user request or a decision on a workflow task is not a write the role guards: see
 * READER_WORKFLOW_POST). The emulator listens on loopback and trusts what its callers send: it reads the
 * token's claims without verifying the signature, so it needs no authority. Off by default, when no token is
 * looked at.
 *
 * @example
 * ```ts
 * import { roleRefusal } from "./token_roles.ts";
 * const request = new Request("http://127.0.0.1:8085/datamap/api/atlas/v2/entity", { method: "POST" });
 * console.log(roleRefusal(request, "/datamap/api/atlas/v2/entity")?.status); // 401
 * ```
 *
 * @module
 */
import { EmulatorError } from "./errors.ts";

export const READER_ROLE = "DataReader";
export const CURATOR_ROLE = "DataCurator";

/** POST requests that only read: search, suggest, browse, autocomplete and query endpoints. */
const READING_POST = /\/(search\/[a-z]+|browse|query|suggest|autocomplete)$/i;

/**
 * Workflow POSTs a reader may send: a user request (workflows exist so that people without write access can
 * ask for a change) and a decision on a task (the workflow's assignees decide, whatever their role; the
 * emulator's workflow area checks the caller is one). Managing workflows stays with curators.
 */
const READER_WORKFLOW_POST =
  /^\/workflow\/(userrequests|workflowtasks\/[^/]+\/(approve-approval|reject-approval|reassign|change-task-status))\/?$/i;

/** Why a request's token does not allow it, or undefined when it does. */
export function roleRefusal(request: Request, path: string): EmulatorError | undefined {
  const method = request.method.toUpperCase();
  const write = !["GET", "HEAD", "OPTIONS"].includes(method) &&
    !(method === "POST" && READING_POST.test(path));
  const claims = bearerClaims(request.headers.get("authorization"));
  if (!claims) {
    return new EmulatorError(401, "Unauthorized", "The emulator checks roles: send a bearer token.");
  }
  const roles = Array.isArray(claims.roles) ? claims.roles : [];
  const who = typeof claims.name === "string" ? claims.name : String(claims.oid ?? "the caller");
  if (roles.includes(CURATOR_ROLE)) return undefined;
  if (roles.includes(READER_ROLE)) {
    if (!write || (method === "POST" && READER_WORKFLOW_POST.test(path))) return undefined;
    return new EmulatorError(
      403,
      "Forbidden",
      `${who} has the ${READER_ROLE} role only: ${method} ${path} needs ${CURATOR_ROLE}.`,
    );
  }
  return new EmulatorError(403, "Forbidden", `${who} has neither ${READER_ROLE} nor ${CURATOR_ROLE}.`);
}

/** The claims of a request's bearer token, read without checking its signature; undefined without one. */
export function bearerClaims(header: string | null): Record<string, unknown> | undefined {
  const token = /^Bearer\s+([^.\s]+)\.([^.\s]+)\.[^.\s]*$/i.exec(header ?? "")?.[2];
  if (!token) return undefined;
  try {
    const json = atob(
      token.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(token.length / 4) * 4, "="),
    );
    const claims = JSON.parse(json);
    return typeof claims === "object" && claims !== null ? claims : undefined;
  } catch {
    return undefined;
  }
}
