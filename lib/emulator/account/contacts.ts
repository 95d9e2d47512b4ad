/**
 * Contacts of the account API (2023-10-01-preview; contract:
 * ../shared/reference/rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Account/preview/2023-10-01-preview/account.json):
 * contact group definitions (`/account/contactGroupDefinitions`: the kinds of contact, such as experts or
 * owners) and contact assignments (`/account/contactAssignments`: a principal is a contact of one group on
 * one scope, such as a collection), and the names of the groups assigned on a scope
 * (`/account/getScopedContactGroupNames`).
 *
 * The emulator behaves as the service's rules protect data:
 * - the two system groups, Expert and Owner, always exist and cannot be changed or deleted;
 * - group names are matched without regard to case (the contract's own examples assign `experts` and list
 *   `Experts`), the name first written is the one answered;
 * - an assignment needs a principal object id (a GUID), a group that exists and a scope; a collection scope
 *   must name an existing collection; the same principal cannot be assigned twice to one group on one scope;
 * - a group still assigned somewhere cannot be deleted (409);
 * - deleting what does not exist answers 204, as Azure deletes do.
 *
 * State lives in {@link AccountStore} (`contactGroup:` and `contactAssignment:` settings), so it survives a
 * restart on a data file and a data reset clears it.
 *
 * @module
 */
import type { AccountStore } from "./store.ts";
import { invalid, isRecord, objectBody, skipTokenPage } from "./request.ts";
import type { AreaDependencies } from "../area.ts";
import type { CollectionStore } from "../collections/store.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { GUID_PATTERN } from "../../core/guid.ts";

/** The contract's EntityReferenceType values. */
export const REFERENCE_TYPES = [
  "Unknown",
  "CollectionReference",
  "ContactGroupDefinitionReference",
  "DatasourceReference",
  "ScanReference",
  "AdaptiveScopeReference",
] as const;

/** A contact group definition as answered. */
export interface ContactGroupDefinition {
  name: string;
  friendlyName?: string;
  description?: string;
  contactGroupType: "Custom" | "System";
}

/** A reference as the contract's EntityReference. */
interface Reference {
  type: string;
  referenceName: string;
}

/** A contact assignment as answered. */
export interface ContactAssignment {
  assignmentId: string;
  principalId: string;
  contactGroup: Reference;
  scope: Reference;
  systemData: Record<string, string>;
}

/** The groups every account has; the service names them Expert and Owner. */
export const SYSTEM_CONTACT_GROUPS: readonly ContactGroupDefinition[] = [
  {
    name: "Expert",
    friendlyName: "Expert",
    description: "People who know the data.",
    contactGroupType: "System",
  },
  {
    name: "Owner",
    friendlyName: "Owner",
    description: "People accountable for the data.",
    contactGroupType: "System",
  },
];

const GROUPS = "/account/contactGroupDefinitions";
const ASSIGNMENTS = "/account/contactAssignments";
const GROUP_KEY = "contactGroup:";
const ASSIGNMENT_KEY = "contactAssignment:";
const GROUP_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/;
const MAX_TEXT = 4000;
const IDENTITY = { by: "emulator-user", type: "User" };

/** The contact routes, over `store`, checking collection scopes against `collections`. */
export function contactRoutes(
  deps: AreaDependencies,
  store: AccountStore,
  collections: () => CollectionStore,
): RouteDefinition[] {
  const customGroups = () => store.list<ContactGroupDefinition>(GROUP_KEY);
  const findGroup = (name: string): ContactGroupDefinition | undefined =>
    SYSTEM_CONTACT_GROUPS.find((g) => g.name.toLowerCase() === name.toLowerCase()) ??
      store.get<ContactGroupDefinition>(GROUP_KEY + name.toLowerCase());
  const assignments = () => store.list<ContactAssignment>(ASSIGNMENT_KEY);

  return [
    {
      method: "GET",
      path: GROUPS,
      handler: ({ url }) => jsonResponse(skipTokenPage(url, [...SYSTEM_CONTACT_GROUPS, ...customGroups()])),
    },
    {
      method: "GET",
      path: `${GROUPS}/{name}`,
      handler: ({ params }) => jsonResponse(findGroup(params.name) ?? throwGroupNotFound(params.name)),
    },
    {
      method: "PUT",
      path: `${GROUPS}/{name}`,
      handler: async (ctx) => {
        const name = ctx.params.name;
        checkGroupName(name);
        const existing = findGroup(name);
        if (existing?.contactGroupType === "System") throw systemGroup(existing.name, "changed");
        const body = await objectBody(ctx, '{"description": "<what the group is for>"}');
        const group: ContactGroupDefinition = { name: existing?.name ?? name, contactGroupType: "Custom" };
        for (const field of ["friendlyName", "description"] as const) {
          const value = body[field];
          if (value === undefined || value === null) continue;
          if (typeof value !== "string" || value.length > MAX_TEXT) {
            throw invalid(
              "InvalidContactGroupDefinition",
              `${field} must be a string of at most ${MAX_TEXT} characters.`,
              field,
            );
          }
          group[field] = value;
        }
        store.put(GROUP_KEY + name.toLowerCase(), group);
        return jsonResponse(group);
      },
    },
    {
      method: "DELETE",
      path: `${GROUPS}/{name}`,
      handler: ({ params }) => {
        const group = findGroup(params.name);
        if (!group) return new Response(null, { status: 204 });
        if (group.contactGroupType === "System") throw systemGroup(group.name, "deleted");
        const inUse = assignments().filter((a) => sameName(a.contactGroup.referenceName, group.name));
        if (inUse.length > 0) {
          throw new EmulatorError(
            409,
            "ContactGroupInUse",
            `The contact group ${group.name} is assigned ${inUse.length} time(s) (e.g. assignment ` +
              `${inUse[0].assignmentId}); delete its contact assignments first.`,
            { target: "contactGroupDefinitionName" },
          );
        }
        store.remove(GROUP_KEY + group.name.toLowerCase());
        return new Response(null, { status: 204 });
      },
    },
    {
      method: "GET",
      path: ASSIGNMENTS,
      handler: ({ url }) => jsonResponse(skipTokenPage(url, filtered(url, assignments()))),
    },
    {
      method: "GET",
      path: `${ASSIGNMENTS}/{id}`,
      handler: ({ params }) =>
        jsonResponse(
          store.get<ContactAssignment>(ASSIGNMENT_KEY + params.id.toLowerCase()) ??
            throwAssignmentNotFound(params.id),
        ),
    },
    {
      method: "PUT",
      path: `${ASSIGNMENTS}/{id}`,
      handler: async (ctx) => {
        const id = checkAssignmentId(ctx.params.id);
        const body = await objectBody(
          ctx,
          '{"principalId": "<object id>", "contactGroup": {"referenceName": "Expert"}, ' +
            '"scope": {"type": "CollectionReference", "referenceName": "<collection>"}}',
        );
        const previous = store.get<ContactAssignment>(ASSIGNMENT_KEY + id);
        const assignment = checkedAssignment(ctx, id, body, findGroup, collections);
        const duplicate = assignments().find((a) =>
          a.assignmentId !== id && a.principalId.toLowerCase() === assignment.principalId.toLowerCase() &&
          sameName(a.contactGroup.referenceName, assignment.contactGroup.referenceName) &&
          a.scope.type === assignment.scope.type &&
          sameName(a.scope.referenceName, assignment.scope.referenceName)
        );
        if (duplicate) {
          throw new EmulatorError(
            409,
            "ContactAssignmentExists",
            `Principal ${assignment.principalId} is already a ${assignment.contactGroup.referenceName} contact ` +
              `of ${assignment.scope.referenceName} (assignment ${duplicate.assignmentId}).`,
            { target: "principalId" },
          );
        }
        const at = new Date(deps.now()).toISOString();
        assignment.systemData = {
          createdBy: previous?.systemData.createdBy ?? IDENTITY.by,
          createdByType: previous?.systemData.createdByType ?? IDENTITY.type,
          createdAt: previous?.systemData.createdAt ?? at,
          lastModifiedBy: IDENTITY.by,
          lastModifiedByType: IDENTITY.type,
          lastModifiedAt: at,
        };
        store.put(ASSIGNMENT_KEY + id, assignment);
        return jsonResponse(assignment);
      },
    },
    {
      method: "DELETE",
      path: `${ASSIGNMENTS}/{id}`,
      handler: ({ params }) => {
        store.remove(ASSIGNMENT_KEY + params.id.toLowerCase());
        return new Response(null, { status: 204 });
      },
    },
    {
      method: "GET",
      path: "/account/getScopedContactGroupNames",
      handler: ({ url }) => {
        const names = new Map<string, string>();
        for (const a of filtered(url, assignments())) {
          names.set(a.contactGroup.referenceName.toLowerCase(), a.contactGroup.referenceName);
        }
        return jsonResponse(skipTokenPage(url, [...names.values()]));
      },
    },
  ];
}

/** The assignments the list's `scope`, `contactGroupDefinition` and `referenceType` filters keep. */
function filtered(url: URL, all: ContactAssignment[]): ContactAssignment[] {
  const scope = url.searchParams.get("scope");
  const group = url.searchParams.get("contactGroupDefinition");
  const referenceType = url.searchParams.get("referenceType");
  if (referenceType !== null) referenceTypeOf(referenceType, "referenceType");
  return all.filter((a) =>
    (scope === null || sameName(a.scope.referenceName, scope)) &&
    (group === null || sameName(a.contactGroup.referenceName, group)) &&
    (referenceType === null || a.scope.type.toLowerCase() === referenceType.toLowerCase())
  );
}

function checkedAssignment(
  ctx: RouteContext,
  id: string,
  body: Record<string, unknown>,
  findGroup: (name: string) => ContactGroupDefinition | undefined,
  collections: () => CollectionStore,
): ContactAssignment {
  if (body.assignmentId !== undefined && String(body.assignmentId).toLowerCase() !== id) {
    throw invalid(
      "InvalidContactAssignment",
      `assignmentId ${JSON.stringify(body.assignmentId)} differs from the id in the path, ${ctx.params.id}.`,
      "assignmentId",
    );
  }
  const principalId = body.principalId;
  if (typeof principalId !== "string" || !GUID_PATTERN.test(principalId)) {
    throw invalid(
      "InvalidContactAssignment",
      `principalId must be the object id (a GUID) of a user or group, got ${
        JSON.stringify(principalId ?? null)
      }.`,
      "principalId",
    );
  }
  const groupRef = reference(body.contactGroup, "contactGroup");
  if (groupRef.type !== undefined && groupRef.type !== "ContactGroupDefinitionReference") {
    throw invalid(
      "InvalidContactAssignment",
      "contactGroup.type must be ContactGroupDefinitionReference.",
      "contactGroup.type",
    );
  }
  const group = findGroup(groupRef.referenceName);
  if (!group) {
    throw invalid(
      "ContactGroupNotFound",
      `No contact group is named ${groupRef.referenceName}; list them with GET ${GROUPS} or create it first.`,
      "contactGroup.referenceName",
    );
  }
  const scopeRef = reference(body.scope, "scope");
  const scopeType = referenceTypeOf(scopeRef.type ?? "", "scope.type");
  if (scopeType === "CollectionReference" && !collections().get(scopeRef.referenceName.toLowerCase())) {
    throw invalid(
      "CollectionNotFound",
      `No collection is named ${scopeRef.referenceName}; a collection scope must name an existing collection.`,
      "scope.referenceName",
    );
  }
  return {
    assignmentId: id,
    principalId,
    contactGroup: { type: "ContactGroupDefinitionReference", referenceName: group.name },
    scope: { type: scopeType, referenceName: scopeRef.referenceName },
    systemData: {},
  };
}

function reference(value: unknown, field: string): { type?: string; referenceName: string } {
  if (!isRecord(value) || typeof value.referenceName !== "string" || value.referenceName.trim() === "") {
    throw invalid("InvalidContactAssignment", `${field} must be an object with a referenceName.`, field);
  }
  if (value.type !== undefined && typeof value.type !== "string") {
    throw invalid("InvalidContactAssignment", `${field}.type must be a string.`, `${field}.type`);
  }
  return { type: value.type as string | undefined, referenceName: value.referenceName };
}

function referenceTypeOf(value: string, target: string): string {
  const known = REFERENCE_TYPES.find((t) => t.toLowerCase() === value.toLowerCase());
  if (!known || known === "Unknown" || known === "ContactGroupDefinitionReference") {
    throw invalid(
      "InvalidReferenceType",
      `${target} must be one of CollectionReference, DatasourceReference, ScanReference, ` +
        `AdaptiveScopeReference; got ${JSON.stringify(value)}.`,
      target,
    );
  }
  return known;
}

function checkGroupName(name: string): void {
  if (!GROUP_NAME.test(name)) {
    throw invalid(
      "InvalidContactGroupName",
      `Contact group name ${
        JSON.stringify(name)
      } is not valid: 1 to 64 letters, digits, spaces, '.', '_' or ` +
        "'-', starting with a letter or digit.",
      "contactGroupDefinitionName",
    );
  }
}

function checkAssignmentId(id: string): string {
  if (!GUID_PATTERN.test(id)) {
    throw invalid(
      "InvalidContactAssignmentId",
      `The contact assignment id must be a GUID, got ${JSON.stringify(id)}.`,
      "contactAssignmentId",
    );
  }
  return id.toLowerCase();
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function systemGroup(name: string, what: string): EmulatorError {
  return invalid(
    "SystemContactGroup",
    `${name} is a system contact group; it cannot be ${what}. Create a custom group under another name.`,
    "contactGroupDefinitionName",
  );
}

function throwGroupNotFound(name: string): never {
  throw new EmulatorError(
    404,
    "ContactGroupNotFound",
    `No contact group is named ${name}; list them with GET ${GROUPS}.`,
    { target: "contactGroupDefinitionName" },
  );
}

function throwAssignmentNotFound(id: string): never {
  throw new EmulatorError(
    404,
    "ContactAssignmentNotFound",
    `No contact assignment has the id ${id}; list them with GET ${ASSIGNMENTS}.`,
    { target: "contactAssignmentId" },
  );
}
