/**
 * Operations of the `policy` group: collection roles, through the metadata policies API
 * (2021-07-01-preview, `/policyStore`). The built-in metadata roles, the policies (all or one
 * collection's), a collection's policy with who holds which role there (inherited holders marked), and the
 * addition or removal of a role member.
 *
 * A member change reads the collection's policy, changes the one role's members
 * (`lib/catalog/policy_members.ts`) and sends the policy back whole, with the version read. A change that
 * would change nothing (the member is there already, or is not there) says so and sends nothing. Both are
 * destructive: the policy is replaced whole, and what a member may do with the collection's data changes.
 *
 * @module
 */
import {
  effectiveHolders,
  inheritsFrom,
  policyCollection,
  resolveRole,
  ROLE_ALIASES,
  roleAlias,
  withMember,
  withoutMember,
} from "../catalog/policy_members.ts";
import type { MetadataPolicy } from "../catalog/policy_types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { guidField } from "./guid_fields.ts";
import { importPolicyMembers } from "./policy_import_operations.ts";
import { defineOperation, DELETE, type Operation, type OperationContext, READ } from "./types.ts";

const ROLE_CHOICES = `${Object.keys(ROLE_ALIASES).join(", ")} (or a full role id, e.g. ${
  ROLE_ALIASES["data-curator"]
})`;

const collectionName = z.string().trim().min(1).describe(
  "The collection's name (not its friendly name), e.g. finance-eu",
);

const roleField = z.string().trim().min(1).refine((value) => resolveRole(value) !== undefined, {
  error: (issue) => `must be one of ${ROLE_CHOICES}, not ${JSON.stringify(issue.input)}`,
}).describe(`The role: ${ROLE_CHOICES}`);

const principalField = guidField("Object id (Entra ID) of the user, group or service principal");

export const listRoles = defineOperation({
  id: "policy.roles",
  group: "policy",
  command: "roles",
  aliases: ["list-roles", "listRoles", "metadata-roles"],
  summary:
    "The metadata roles members can hold on a collection (built-in: administrators, curators, readers)",
  input: z.object({}),
  annotations: READ,
  run: async (ctx) => {
    const roles = await ctx.catalog().policies.listRoles(ctx.signal);
    return {
      count: roles.length,
      value: roles.map((role) => ({ alias: roleAlias(String(role.id ?? "")), ...role })),
    };
  },
});

export const listPolicies = defineOperation({
  id: "policy.list",
  group: "policy",
  command: "list",
  aliases: ["list-policies", "listPolicies", "metadata-policies"],
  summary: "The metadata policies of the account (one per collection), or one collection's",
  input: z.object({
    collectionName: collectionName.optional().describe("Only this collection's policy"),
  }),
  annotations: READ,
  run: async (ctx, input) => {
    const policies = await ctx.catalog().policies.listPolicies(input.collectionName, ctx.signal);
    return { count: policies.length, value: policies };
  },
});

/** One role held on a collection, as `show` lists it. */
export interface RoleMember {
  role: string;
  roleId: string;
  principalId: string;
  /** The ancestor collection granting it; absent for a member of the collection itself. */
  inheritedFrom?: string;
}

/** A collection's policy and who holds which role there. */
export interface CollectionRoles {
  collection: string;
  policyId: string;
  version?: number;
  parentCollection?: string;
  /** The collection whose grants this one inherits; absent when inheritance is cut (or for the root). */
  inheritsFrom?: string;
  members: RoleMember[];
  policy: MetadataPolicy;
}

/** The policy and role holders of a collection (by name) or of a policy (by id). */
export async function collectionRoles(
  ctx: OperationContext,
  target: { collectionName?: string; policyId?: string },
): Promise<CollectionRoles> {
  const api = ctx.catalog().policies;
  const policy = target.policyId
    ? await api.get(target.policyId, ctx.signal)
    : await api.forCollection(target.collectionName!, ctx.signal);
  const collection = policyCollection(policy);
  const all = await api.listPolicies(undefined, ctx.signal);
  const byCollection = new Map(all.map((p) => [policyCollection(p), p]));
  byCollection.set(collection, policy);
  const members = effectiveHolders(byCollection, collection).map((holder) => ({
    role: roleAlias(holder.roleId),
    roleId: holder.roleId,
    principalId: holder.principalId,
    ...(holder.inheritedFrom ? { inheritedFrom: holder.inheritedFrom } : {}),
  }));
  const parent = policy.properties?.parentCollectionName;
  const inherited = inheritsFrom(policy);
  return {
    collection,
    policyId: String(policy.id ?? ""),
    ...(policy.version === undefined ? {} : { version: policy.version }),
    ...(parent ? { parentCollection: parent } : {}),
    ...(inherited ? { inheritsFrom: inherited } : {}),
    members,
    policy,
  };
}

export const showPolicy = defineOperation({
  id: "policy.show",
  group: "policy",
  command: "show",
  aliases: ["get", "get-policy", "getPolicy", "show-policy"],
  summary: "A collection's metadata policy and who holds which role there, inherited holders marked",
  description: "Give --collection-name or --policy-id. members lists each role holder: the collection's " +
    "own, then those inherited from its parents (inheritedFrom names the collection granting it) unless " +
    "the collection's policy cuts inheritance (`--output=table --query members` shows them as a table). " +
    "policy is the policy as the service answers it.",
  input: z.object({
    collectionName: collectionName.optional(),
    policyId: guidField("Id of the policy (from `policy list`)").optional(),
  }),
  annotations: READ,
  run: (ctx, input) => {
    if (!input.collectionName === !input.policyId) {
      throw new UsageError(
        "policy show needs exactly one of --collection-name and --policy-id.",
        "Name the collection (`govcat policy show --collection-name finance`), or give a policy id from " +
          "`govcat policy list`.",
      );
    }
    return collectionRoles(ctx, input);
  },
});

/** What a member change did. */
export interface MemberChange {
  collection: string;
  role: string;
  roleId: string;
  principalId: string;
  /** False when the policy already was as asked; nothing was sent then. */
  changed: boolean;
  message: string;
  /** The policy's version after the change (or as read, when nothing changed). */
  version?: number;
}

/** Adds or removes one member of one role on a collection: read, change, write back with the version. */
export async function changeMember(
  ctx: OperationContext,
  input: { collectionName: string; role: string; principalId: string },
  add: boolean,
): Promise<MemberChange> {
  const roleId = resolveRole(input.role)!;
  const api = ctx.catalog().policies;
  const policy = await api.forCollection(input.collectionName, ctx.signal);
  const edit = add
    ? withMember(policy, roleId, input.principalId)
    : withoutMember(policy, roleId, input.principalId);
  const collection = policyCollection(policy) || input.collectionName;
  const role = roleAlias(roleId);
  const base = { collection, role, roleId, principalId: input.principalId };
  if (!edit.changed) {
    const message = add
      ? `${input.principalId} already holds ${role} on ${collection}; nothing was changed.`
      : `${input.principalId} does not hold ${role} on ${collection} itself; nothing was changed.`;
    return { ...base, changed: false, message, version: policy.version };
  }
  const stored = await api.update(String(policy.id), edit.policy, ctx.signal);
  const message = add
    ? `${input.principalId} now holds ${role} on ${collection}.`
    : `${input.principalId} no longer holds ${role} on ${collection}.`;
  return { ...base, changed: true, message, version: stored.version };
}

const memberInput = z.object({ collectionName, role: roleField, principalId: principalField });

export const addMember = defineOperation({
  id: "policy.add-member",
  group: "policy",
  command: "add-member",
  aliases: ["addMember", "add-role-member", "grant"],
  summary: "Give a user, group or service principal (object id) a role on a collection",
  description: "Reads the collection's policy, adds the member to the role and writes the policy back. " +
    "Someone who holds the role on the collection already is reported, and nothing is written. The " +
    "member also holds the role on child collections that inherit.",
  input: memberInput,
  annotations: DELETE,
  run: (ctx, input) => changeMember(ctx, input, true),
});

export const removeMember = defineOperation({
  id: "policy.remove-member",
  group: "policy",
  command: "remove-member",
  aliases: ["removeMember", "remove-role-member", "revoke"],
  summary: "Take a role on a collection away from a user, group or service principal (object id)",
  description: "Reads the collection's policy, removes the member from the role and writes the policy " +
    "back. Someone who does not hold the role on the collection itself (absent, or only inherited from a " +
    "parent: remove it there) is reported, and nothing is written.",
  input: memberInput,
  annotations: DELETE,
  run: (ctx, input) => changeMember(ctx, input, false),
});

/** Every operation of the `policy` group, in the order `--help` lists them. */
export const POLICY_OPERATIONS: Operation[] = [
  listRoles,
  listPolicies,
  showPolicy,
  addMember,
  removeMember,
  importPolicyMembers,
];
