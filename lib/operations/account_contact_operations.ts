/**
 * Operations of the `account` group from the account API of 2023-10-01-preview (contract:
 * ../shared/reference/rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Account/preview/2023-10-01-preview/account.json):
 * the account's domains (list, get: the API only reads them), its feature flags, contact group
 * definitions (list, get, put, delete) and contact assignments (list, get, put, delete, the groups
 * assigned on a scope).
 *
 * The account API's domains are read here, as `account list-domains` and `account get-domain`: the
 * `domain` group keeps its meaning (domains mapped to collections), so what users type there does
 * not change.
 *
 * @module
 */
import type { ReferenceType } from "../catalog/account_contacts_api.ts";
import { z } from "../deps/zod.ts";
import { guidField } from "./guid_fields.ts";
import { defineOperation, DELETE, type Operation, READ, UPSERT } from "./types.ts";

const SCOPE_TYPES = [
  "CollectionReference",
  "DatasourceReference",
  "ScanReference",
  "AdaptiveScopeReference",
] as const;
const referenceType = z.enum(SCOPE_TYPES).describe(
  "Type of the scope: CollectionReference (a collection), DatasourceReference, ScanReference or " +
    "AdaptiveScopeReference",
);
const groupName = z.string().trim().min(1).describe(
  "Name of the contact group, e.g. Expert, Owner or a custom one",
);
const assignmentId = guidField("Id of the contact assignment (a GUID)");

export const listAccountDomains = defineOperation({
  id: "account.list-domains",
  group: "account",
  command: "list-domains",
  aliases: ["listDomains"],
  summary: "The account's own domains (read only)",
  description: "These are the account's own domains. `govcat domain …` works on collections, and " +
    "`govcat uc domain …` on the unified catalog's governance domains.",
  input: z.object({}),
  annotations: READ,
  run: async (ctx) => {
    const value = await ctx.catalog().account.listDomains(ctx.signal);
    return { count: value.length, value };
  },
});

export const getAccountDomain = defineOperation({
  id: "account.get-domain",
  group: "account",
  command: "get-domain",
  aliases: ["getDomain"],
  summary: "One of the account's own domains",
  input: z.object({
    domainName: z.string().trim().min(1).describe("Name of the domain, as list-domains shows it"),
  }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().account.getDomain(input.domainName, ctx.signal),
});

export const getAccountFeatures = defineOperation({
  id: "account.get-features",
  group: "account",
  command: "get-features",
  aliases: ["getFeatures", "features"],
  summary: "Whether each named feature is on for the account",
  input: z.object({
    features: z.array(z.string().min(1)).min(1).describe(
      "Feature names to ask about; several may also be separated with commas",
    ),
  }),
  annotations: READ,
  run: async (ctx, input) => {
    const names = [
      ...new Set(input.features.flatMap((f) => f.split(",")).map((f) => f.trim()).filter(Boolean)),
    ];
    return { features: await ctx.catalog().account.getFeatures(names, ctx.signal) };
  },
});

export const listContactGroups = defineOperation({
  id: "account.list-contact-groups",
  group: "account",
  command: "list-contact-groups",
  aliases: ["listContactGroupDefinitions", "list-contact-group-definitions"],
  summary: "Contact groups: Expert, Owner and custom ones",
  input: z.object({}),
  annotations: READ,
  run: async (ctx) => {
    const value = await ctx.catalog().contacts.listGroups(ctx.signal);
    return { count: value.length, value };
  },
});

export const getContactGroup = defineOperation({
  id: "account.get-contact-group",
  group: "account",
  command: "get-contact-group",
  aliases: ["getContactGroupDefinition", "get-contact-group-definition"],
  summary: "One contact group",
  input: z.object({ name: groupName }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().contacts.getGroup(input.name, ctx.signal),
});

export const putContactGroup = defineOperation({
  id: "account.put-contact-group",
  group: "account",
  command: "put-contact-group",
  aliases: ["createOrUpdateContactGroupDefinition", "put-contact-group-definition"],
  summary: "Create or replace a custom contact group",
  input: z.object({
    name: groupName,
    friendlyName: z.string().min(1).optional().describe("Name people see"),
    description: z.string().optional().describe("What the group's contacts are for"),
  }),
  annotations: UPSERT,
  run: (ctx, input) =>
    ctx.catalog().contacts.putGroup(
      input.name,
      { friendlyName: input.friendlyName, description: input.description },
      ctx.signal,
    ),
});

export const deleteContactGroup = defineOperation({
  id: "account.delete-contact-group",
  group: "account",
  command: "delete-contact-group",
  aliases: ["deleteContactGroupDefinition", "delete-contact-group-definition"],
  summary: "Delete a custom contact group not assigned",
  input: z.object({ name: groupName }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await ctx.catalog().contacts.deleteGroup(input.name, ctx.signal);
    return { name: input.name, deleted: true };
  },
});

export const listContactAssignments = defineOperation({
  id: "account.list-contact-assignments",
  group: "account",
  command: "list-contact-assignments",
  aliases: ["listContactAssignments", "list-contacts"],
  summary: "Contact assignments, by scope or group",
  input: z.object({
    scope: z.string().trim().min(1).optional().describe("Name of the scope, e.g. a collection name"),
    contactGroup: groupName.optional(),
    referenceType: referenceType.optional(),
  }),
  annotations: READ,
  run: async (ctx, input) => {
    const value = await ctx.catalog().contacts.listAssignments(input, ctx.signal);
    return { count: value.length, value };
  },
});

export const getContactAssignment = defineOperation({
  id: "account.get-contact-assignment",
  group: "account",
  command: "get-contact-assignment",
  aliases: ["getContactAssignment"],
  summary: "One contact assignment",
  input: z.object({ assignmentId }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().contacts.getAssignment(input.assignmentId, ctx.signal),
});

export const putContactAssignment = defineOperation({
  id: "account.put-contact-assignment",
  group: "account",
  command: "put-contact-assignment",
  aliases: ["createOrUpdateContactAssignment", "add-contact"],
  summary: "Make a principal a contact (e.g. expert) of a scope",
  description: "Without --assignment-id a new assignment is made with a new id; with it, that " +
    "assignment is created or replaced. The group must exist; a collection scope must name a collection.",
  input: z.object({
    assignmentId: assignmentId.optional(),
    principalId: guidField("Object id of the user or group who is the contact"),
    contactGroup: groupName,
    scope: z.string().trim().min(1).describe("Name of the scope, e.g. a collection name"),
    referenceType: referenceType.default("CollectionReference"),
  }),
  annotations: UPSERT,
  run: (ctx, input) => {
    const id = input.assignmentId ?? crypto.randomUUID();
    return ctx.catalog().contacts.putAssignment(id, {
      principalId: input.principalId,
      contactGroup: { type: "ContactGroupDefinitionReference", referenceName: input.contactGroup },
      scope: { type: input.referenceType as ReferenceType, referenceName: input.scope },
    }, ctx.signal);
  },
});

export const deleteContactAssignment = defineOperation({
  id: "account.delete-contact-assignment",
  group: "account",
  command: "delete-contact-assignment",
  aliases: ["deleteContactAssignment", "remove-contact"],
  summary: "Delete a contact assignment",
  input: z.object({ assignmentId }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await ctx.catalog().contacts.deleteAssignment(input.assignmentId, ctx.signal);
    return { assignmentId: input.assignmentId, deleted: true };
  },
});

export const listScopedContactGroups = defineOperation({
  id: "account.list-scoped-contact-groups",
  group: "account",
  command: "list-scoped-contact-groups",
  aliases: ["listScopedContactGroupNames", "get-scoped-contact-group-names"],
  summary: "Contact groups assigned on a scope",
  input: z.object({
    scope: z.string().trim().min(1).optional().describe("Name of the scope, e.g. a collection name"),
    referenceType: referenceType.optional(),
  }),
  annotations: READ,
  run: async (ctx, input) => {
    const value = await ctx.catalog().contacts.scopedGroupNames(input.scope, input.referenceType, ctx.signal);
    return { count: value.length, value };
  },
});

/** The 2023-10-01-preview operations of the `account` group, in the order `--help` lists them. */
export const ACCOUNT_CONTACT_OPERATIONS: Operation[] = [
  listAccountDomains,
  getAccountDomain,
  getAccountFeatures,
  listContactGroups,
  getContactGroup,
  putContactGroup,
  deleteContactGroup,
  listContactAssignments,
  getContactAssignment,
  putContactAssignment,
  deleteContactAssignment,
  listScopedContactGroups,
];
