/**
 * Who calls the emulated workflow API: the object id (`oid`) of the request's bearer token, lower-cased,
 * or {@link EMULATOR_USER_ID} when the request carries none (the emulator reads claims without checking
 * signatures, as `bearer_claims.ts` says). Requests, approvals and "my" lists are this principal's.
 *
 * @module
 */
import { bearerClaims } from "../bearer_claims.ts";
import { EMULATOR_USER_OBJECT_ID } from "../policy/defaults.ts";

/** The caller of a request without a token: the emulator's one user, who made the account. */
export const EMULATOR_USER_ID = EMULATOR_USER_OBJECT_ID;

/** The caller's principal object id. */
export function callerId(request: Request): string {
  const oid = bearerClaims(request.headers.get("authorization"))?.oid;
  return typeof oid === "string" && oid !== "" ? oid.toLowerCase() : EMULATOR_USER_ID;
}
