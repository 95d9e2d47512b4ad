/**
 * The claims of a request's bearer token, as the emulator reads them in signed-in set-ups: it listens on
 * loopback and trusts what its callers send, so it reads a token's claims without verifying the signature
 * and needs no authority. The token's object id (`oid`) says who calls (see collection_permissions.ts and
 * workflow/caller.ts).
 *
 * @example
 * ```ts
 * import { bearerClaims } from "./bearer_claims.ts";
 * console.log(bearerClaims("Bearer e30.eyJvaWQiOiJ4In0.c2ln")?.oid); // "x"
 * ```
 *
 * @module
 */

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
