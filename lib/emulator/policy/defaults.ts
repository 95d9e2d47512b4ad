/**
 * What the emulator's policy store starts with: the four built-in metadata roles, and the policy a
 * collection gets when it is made, both in the form the service answers them (Microsoft's SDK recordings
 * `fixtures/recorded/net/Administration/MetadataRolesList.json`, `GetMetadataPolicy.json` and
 * `fixtures/recorded/js/Administration/should_list_all_available_metdatapolicies.json`; contract
 * `rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.MetadataPolicies/preview/2021-07-01-preview/purviewMetadataPolicy.json`).
 *
 * - The root collection's policy gives its creator all four roles, as the service gives the account's
 *   creator; the emulator's creator is its own user, {@link EMULATOR_USER_OBJECT_ID}.
 * - A child collection's policy makes its creator collection administrator, and inherits from the parent:
 *   the administrator rule also admits the parent's administrators, and the permission rule names
 *   `permission:<parent>`.
 *
 * @module
 */
import type {
  AttributeMatcher,
  AttributeRule,
  DecisionRule,
  MetadataRole,
} from "../../catalog/policy_types.ts";

/**
 * The object id of the emulator's own user: who creates collections through the API (it has no signed-in
 * identity), and so the root collection's roles and each new collection's administrator.
 */
export const EMULATOR_USER_OBJECT_ID = "00000000-0000-4000-8000-00000000e001";

const PREFIX = "purviewmetadatarole_builtin_";

/** The ids of the four built-in roles, as the emulator's permission check names them. */
export const ROLE_IDS = {
  collectionAdmin: `${PREFIX}collection-administrator`,
  dataSourceAdmin: `${PREFIX}data-source-administrator`,
  dataCurator: `${PREFIX}data-curator`,
  dataReader: `${PREFIX}purview-reader`,
} as const;

const ADMIN = ROLE_IDS.collectionAdmin;

/** The roles of the root collection's creator, in the order the service lists the rules. */
export const ROOT_ROLES: readonly string[] = [
  ADMIN,
  ROLE_IDS.dataReader,
  ROLE_IDS.dataCurator,
  ROLE_IDS.dataSourceAdmin,
];

function role(name: string, friendlyName: string, dataActions: string[]): MetadataRole {
  return {
    id: `${PREFIX}${name}`,
    name,
    type: "Microsoft.Purview/role",
    properties: {
      provisioningState: "Provisioned",
      roleType: "BuiltIn",
      friendlyName,
      cnfCondition: [[{ attributeName: "request.azure.dataAction", attributeValueIncludedIn: dataActions }]],
      version: 1,
    },
  };
}

const ACTION = "Microsoft.Purview/accounts";

/** The built-in metadata roles, in the order the service lists them. */
export const BUILTIN_ROLES: readonly MetadataRole[] = [
  role("data-curator", "Data Curator", [
    `${ACTION}/data/read`,
    `${ACTION}/data/write`,
    `${ACTION}/collection/read`,
  ]),
  role("data-source-administrator", "Data Source Administrator", [
    `${ACTION}/scan/read`,
    `${ACTION}/scan/write`,
    `${ACTION}/collection/read`,
  ]),
  role("collection-administrator", "Collection Administrator", [
    `${ACTION}/collection/read`,
    `${ACTION}/collection/write`,
  ]),
  role("purview-reader", "Purview Reader", [`${ACTION}/data/read`, `${ACTION}/collection/read`]),
];

function derived(attributeName: string, value: string): AttributeMatcher {
  return { fromRule: value, attributeName, attributeValueIncludes: value };
}

function roleRule(roleId: string, collection: string, members: string[], parent?: string): AttributeRule {
  const id = `${roleId}:${collection}`;
  const dnfCondition: AttributeMatcher[][] = [[
    { attributeName: "principal.microsoft.id", attributeValueIncludedIn: members },
    derived("derived.purview.role", roleId),
  ]];
  if (parent) dnfCondition.push([derived("derived.purview.permission", `${roleId}:${parent}`)]);
  return { kind: "attributerule", id, name: id, dnfCondition };
}

/** The rules of a new collection's policy (without its name, id and version). */
export function defaultRules(
  collection: string,
  parent: string | undefined,
): { decisionRules: DecisionRule[]; attributeRules: AttributeRule[] } {
  const permission = `permission:${collection}`;
  const decisionRules: DecisionRule[] = [{
    kind: "decisionrule",
    effect: "Permit",
    dnfCondition: [[
      { attributeName: "resource.purview.collection", attributeValueIncludes: collection },
      derived("derived.purview.permission", permission),
    ]],
  }];
  const roles = parent ? [ADMIN] : ROOT_ROLES;
  const attributeRules = roles.map((roleId) =>
    roleRule(roleId, collection, [EMULATOR_USER_OBJECT_ID], parent)
  );
  const grants = roles.map((roleId) => [derived("derived.purview.permission", `${roleId}:${collection}`)]);
  if (parent) grants.push([derived("derived.purview.permission", `permission:${parent}`)]);
  attributeRules.push({ kind: "attributerule", id: permission, name: permission, dnfCondition: grants });
  return { decisionRules, attributeRules };
}
