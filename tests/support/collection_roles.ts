/**
 * Collection roles in team-mode emulator tests (`startEmulator({ roles: … })`): unsigned tokens naming a
 * user, and changes to a collection's metadata policy made through the emulator's policy API with a
 * caller's token, as a collection admin makes them.
 *
 * @module
 */
import { resolveRole, withMember } from "../../lib/catalog/policy_members.ts";
import type { MetadataPolicy } from "../../lib/catalog/policy_types.ts";
import { base64url } from "./entra_stand_in.ts";

const POLICIES = "/policyStore/metadataPolicies";
const VERSION = "api-version=2021-07-01-preview";

/** An unsigned token of user `oid`: the emulator reads claims without verifying them (loopback test data). */
export function userToken(oid: string, name?: string): string {
  const claims = { oid, ...(name ? { name } : {}) };
  return `${base64url('{"alg":"RS256"}')}.${base64url(JSON.stringify(claims))}.c2ln`;
}

/** The authorization header of {@linkcode userToken}. */
export function signedInAs(oid: string, name?: string): Record<string, string> {
  return { authorization: `Bearer ${userToken(oid, name)}` };
}

/** A collection's policy, read with `token`. */
export async function readPolicy(url: string, token: string, collection: string): Promise<MetadataPolicy> {
  const response = await fetch(`${url}${POLICIES}?collectionName=${collection}&${VERSION}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`reading ${collection}'s policy: ${JSON.stringify(body)}`);
  return body.values[0];
}

/** Writes a policy back with `token`; answers the response (status and body). */
export async function writePolicy(
  url: string,
  token: string,
  policy: MetadataPolicy,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}${POLICIES}/${policy.id}?${VERSION}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(policy),
  });
  return { status: response.status, body: await response.json() };
}

/** Grants `role` (a short name such as `data-curator`) on `collection` to `principal`, as `token`'s user. */
export async function grantRole(
  url: string,
  token: string,
  grant: { collection: string; role: string; principal: string },
): Promise<{ status: number; body: unknown }> {
  const policy = await readPolicy(url, token, grant.collection);
  return await writePolicy(url, token, withMember(policy, resolveRole(grant.role)!, grant.principal).policy);
}

/** The policy of `collection` with inheritance cut: its permission rule no longer names the parent's. */
export function withoutInheritance(policy: MetadataPolicy): MetadataPolicy {
  const edited = structuredClone(policy);
  const own = `permission:${policy.properties?.collection?.referenceName}`;
  for (const rule of edited.properties?.attributeRules ?? []) {
    if (rule.id !== own) continue;
    rule.dnfCondition = (rule.dnfCondition ?? []).filter((clause) =>
      !clause.some((m) =>
        typeof m.attributeValueIncludes === "string" && m.attributeValueIncludes.startsWith("permission:")
      )
    );
  }
  return edited;
}
