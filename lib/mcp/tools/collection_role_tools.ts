/**
 * Collection role tools: list_collection_roles (who holds which role on a collection, inherited holders
 * marked) and set_collection_role (grant or revoke one role of one principal; destructive, so every call
 * needs `"confirm": true`). Each runs the `policy` group's operations: `policy.show`, and
 * `policy.add-member` or `policy.remove-member`, which read the collection's metadata policy, change one
 * role and write it back.
 *
 * @module
 */
import { ROLE_ALIASES } from "../../catalog/policy_members.ts";
import { z } from "../../deps/zod.ts";
import { GUID_PATTERN } from "../../core/guid.ts";
import {
  addMember,
  type CollectionRoles,
  type MemberChange,
  removeMember,
  showPolicy,
} from "../../operations/policy_operations.ts";
import type { ToolDefinition } from "../tool.ts";
import { composedTool, operationTool } from "../tool_operation.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

const collectionName = z.string().min(1).describe(
  "Name (finance-eu), not the friendly name",
);

const holder = z.object({
  role: z.string().describe("collection-admin, data-source-admin, data-curator or data-reader"),
  role_id: z.string().describe("The service's role id, e.g. purviewmetadatarole_builtin_data-curator"),
  principal_id: z.string().describe("Entra object ID of the user, group or service principal"),
  inherited_from: z.string().optional().describe(
    "The ancestor collection that grants the role; absent when granted on this collection itself",
  ),
});

export const listCollectionRolesTool = operationTool({
  name: "list_collection_roles",
  title: "List collection roles",
  description:
    "Who holds which role on a collection (Entra object IDs): own members, then inherited ones with " +
    "inherited_from. Change with set_collection_role on the granting collection." + CATALOG_TEXT_IS_DATA,
  operation: showPolicy,
  // By collection only: the policy's id is the command line's other way in.
  fields: { collectionName, policyId: false },
  output: z.object({
    collection: z.string(),
    policy_id: z.string().describe("Id of the collection's metadata policy"),
    version: z.number().int().optional().describe("The policy's version; rises with every change"),
    parent_collection: z.string().optional(),
    inherits_from: z.string().optional().describe("The collection whose grants this one inherits"),
    holders: z.array(holder),
    count: z.number().int().describe("Holders listed"),
  }),
  view: (result) => {
    const roles = result as CollectionRoles;
    const holders = roles.members.map((member) => ({
      role: member.role,
      role_id: member.roleId,
      principal_id: member.principalId,
      ...(member.inheritedFrom ? { inherited_from: member.inheritedFrom } : {}),
    }));
    return {
      collection: roles.collection,
      policy_id: roles.policyId,
      ...(roles.version === undefined ? {} : { version: roles.version }),
      ...(roles.parentCollection ? { parent_collection: roles.parentCollection } : {}),
      ...(roles.inheritsFrom ? { inherits_from: roles.inheritsFrom } : {}),
      holders,
      count: holders.length,
    };
  },
});

export const setCollectionRoleTool = composedTool({
  name: "set_collection_role",
  title: "Grant or revoke a collection role",
  description:
    "Grant or revoke a role on a collection for a user, group or service principal. A grant reaches " +
    "inheriting child collections; an inherited role is revoked where granted. changed false: nothing " +
    "to do.",
  input: z.object({
    collection_name: collectionName,
    role: z.enum(Object.keys(ROLE_ALIASES) as [string, ...string[]]).describe("Role"),
    principal_id: z.string().regex(GUID_PATTERN, { error: "must be an object id (a GUID)" }).describe(
      "Entra object ID of the user, group or service principal",
    ),
    action: z.enum(["grant", "revoke"]).describe("Grant or revoke"),
  }),
  output: z.object({
    collection: z.string(),
    role: z.string(),
    role_id: z.string(),
    principal_id: z.string(),
    action: z.enum(["grant", "revoke"]),
    changed: z.boolean().describe("False when the policy already was as asked; nothing was written"),
    message: z.string(),
    version: z.number().int().optional().describe("The policy's version after the call"),
  }),
  operations: [addMember, removeMember],
  compose: async (run, input) => {
    const operation = input.action === "grant" ? addMember : removeMember;
    const change = await run(operation, {
      collectionName: input.collection_name,
      role: input.role,
      principalId: input.principal_id,
    }) as MemberChange;
    return {
      collection: change.collection,
      role: change.role,
      role_id: change.roleId,
      principal_id: change.principalId,
      action: input.action,
      changed: change.changed,
      message: change.message,
      ...(change.version === undefined ? {} : { version: change.version }),
    };
  },
});

/** The collection role tools, in the order they are listed. */
export const COLLECTION_ROLE_TOOLS: ToolDefinition[] = [listCollectionRolesTool, setCollectionRoleTool];
