/**
 * Role membership in a metadata policy body, read and changed without I/O. A collection's policy names the
 * members of each role in an attribute rule `<role id>:<collection>` whose condition tests
 * `principal.microsoft.id` against a list of object ids, and the collection's own permission rule
 * `permission:<collection>` lists every role rule of the collection, plus `permission:<parent>` while the
 * collection inherits what its parent grants (the service's form: recordings of Microsoft's SDK tests,
 * `fixtures/recorded/js/Administration/should_list_all_available_metdatapolicies.json`). Cutting
 * inheritance is dropping that parent clause.
 *
 * @example
 * ```ts
 * import { resolveRole, roleMembers, withMember } from "./policy_members.ts";
 * const role = resolveRole("data-curator")!; // "purviewmetadatarole_builtin_data-curator"
 * const policy = { properties: { collection: { referenceName: "sales" }, attributeRules: [] } };
 * const added = withMember(policy, role, "3f10f245-d5c4-4541-98ce-01a4580a30e0");
 * console.log(added.changed, roleMembers(added.policy).get(role)); // true ["3f10f245-…"]
 * ```
 *
 * @module
 */
import type { AttributeMatcher, AttributeRule, MetadataPolicy } from "./policy_types.ts";
import { GUID_PATTERN } from "../core/guid.ts";

/** The prefix of every built-in metadata role id. */
export const BUILTIN_ROLE_PREFIX = "purviewmetadatarole_builtin_";

const PRINCIPAL_ID = "principal.microsoft.id";
const DERIVED_ROLE = "derived.purview.role";
const DERIVED_PERMISSION = "derived.purview.permission";

/** The short names govcat accepts for the four collection roles, and the role id each stands for. */
export const ROLE_ALIASES: Readonly<Record<string, string>> = {
  "collection-admin": `${BUILTIN_ROLE_PREFIX}collection-administrator`,
  "data-source-admin": `${BUILTIN_ROLE_PREFIX}data-source-administrator`,
  "data-curator": `${BUILTIN_ROLE_PREFIX}data-curator`,
  // The portal's "Data readers" are the service's purview-reader role.
  "data-reader": `${BUILTIN_ROLE_PREFIX}purview-reader`,
};

/** The role id a name stands for: a short name, the role's own name or its full id (any case). */
export function resolveRole(name: string): string | undefined {
  const key = name.trim().toLowerCase();
  if (ROLE_ALIASES[key]) return ROLE_ALIASES[key];
  const full = key.startsWith(BUILTIN_ROLE_PREFIX) ? key : `${BUILTIN_ROLE_PREFIX}${key}`;
  return Object.values(ROLE_ALIASES).includes(full) ? full : undefined;
}

/** The short name of a role id (`data-curator`), or the id itself for a role govcat has no name for. */
export function roleAlias(roleId: string): string {
  return Object.entries(ROLE_ALIASES).find(([, id]) => id === roleId)?.[0] ?? roleId;
}

/** Whether `text` is an object id (a guid). */
export function isObjectId(text: string): boolean {
  return GUID_PATTERN.test(text);
}

/** The collection a policy belongs to (lower case), or "" when the body names none. */
export function policyCollection(policy: MetadataPolicy): string {
  return String(policy.properties?.collection?.referenceName ?? "").toLowerCase();
}

function ruleId(roleId: string, collection: string): string {
  return `${roleId}:${collection}`;
}

function permissionId(collection: string): string {
  return `permission:${collection}`;
}

function principalMatcher(rule: AttributeRule): AttributeMatcher | undefined {
  for (const clause of rule.dnfCondition ?? []) {
    const found = clause.find((matcher) => matcher.attributeName === PRINCIPAL_ID);
    if (found) return found;
  }
  return undefined;
}

function principalsOf(matcher: AttributeMatcher | undefined): string[] {
  if (!matcher) return [];
  const listed = Array.isArray(matcher.attributeValueIncludedIn) ? matcher.attributeValueIncludedIn : [];
  const single = typeof matcher.attributeValueIncludes === "string" ? [matcher.attributeValueIncludes] : [];
  return [...listed, ...single].map(String);
}

/** The object ids holding each role directly on the policy's collection, by role id. */
export function roleMembers(policy: MetadataPolicy): Map<string, string[]> {
  const collection = policyCollection(policy);
  const members = new Map<string, string[]>();
  for (const rule of policy.properties?.attributeRules ?? []) {
    const id = String(rule.id ?? "");
    const suffix = `:${collection}`;
    if (!id.startsWith(BUILTIN_ROLE_PREFIX) || !id.endsWith(suffix)) continue;
    members.set(id.slice(0, -suffix.length), principalsOf(principalMatcher(rule)));
  }
  return members;
}

/**
 * The collection whose grants this one inherits: the parent its permission rule names, or undefined when
 * inheritance is cut (or the collection is the root).
 */
export function inheritsFrom(policy: MetadataPolicy): string | undefined {
  const collection = policyCollection(policy);
  const own = permissionId(collection);
  const rule = policy.properties?.attributeRules?.find((r) => r.id === own);
  for (const clause of rule?.dnfCondition ?? []) {
    for (const matcher of clause) {
      const value = matcher.attributeValueIncludes;
      if (
        matcher.attributeName === DERIVED_PERMISSION && typeof value === "string" &&
        value.startsWith("permission:") && value !== own
      ) return value.slice("permission:".length);
    }
  }
  return undefined;
}

/** One role held on a collection: directly, or inherited from the ancestor named in `inheritedFrom`. */
export interface RoleHolder {
  /** The role's id (`purviewmetadatarole_builtin_data-curator`). */
  roleId: string;
  /** The holder's object id. */
  principalId: string;
  /** The ancestor collection that grants it; absent when granted on the collection itself. */
  inheritedFrom?: string;
}

/**
 * Who holds which role on `collection`: its own members, then those it inherits up the chain of parents
 * while each policy inherits (a member held directly is not listed again as inherited). A role rule may
 * admit the holders of the same role on another collection by itself, as the service writes a child's
 * administrator rule (`collection-administrator:<parent>`): those holders stay when inheritance is cut, as
 * a parent's collection admins do in Purview. `policies` maps lower-case collection names to their policies.
 */
export function effectiveHolders(
  policies: ReadonlyMap<string, MetadataPolicy>,
  collection: string,
): RoleHolder[] {
  return holdersOf(policies, collection.toLowerCase(), new Set());
}

function holdersOf(
  policies: ReadonlyMap<string, MetadataPolicy>,
  collection: string,
  visiting: ReadonlySet<string>,
): RoleHolder[] {
  const policy = policies.get(collection);
  if (!policy || visiting.has(collection)) return [];
  const inner = new Set(visiting).add(collection);
  const holders: RoleHolder[] = [];
  const seen = new Set<string>();
  const add = (holder: RoleHolder) => {
    const key = `${holder.roleId}|${holder.principalId.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    holders.push(holder);
  };
  const inherit = (source: string, roleId?: string) => {
    for (const holder of holdersOf(policies, source, inner)) {
      if (roleId === undefined || holder.roleId === roleId) {
        add({ ...holder, inheritedFrom: holder.inheritedFrom ?? source });
      }
    }
  };
  for (const [roleId, principals] of roleMembers(policy)) {
    for (const principalId of principals) add({ roleId, principalId });
  }
  const parent = inheritsFrom(policy);
  if (parent) inherit(parent);
  for (const [roleId, source] of roleSources(policy)) inherit(source, roleId);
  return holders;
}

/** The collections whose holders of a role a role rule admits by itself: [role id, collection] pairs. */
function roleSources(policy: MetadataPolicy): Array<[string, string]> {
  const collection = policyCollection(policy);
  const sources: Array<[string, string]> = [];
  for (const [roleId] of roleMembers(policy)) {
    const rule = policy.properties?.attributeRules?.find((r) => r.id === ruleId(roleId, collection));
    for (const clause of rule?.dnfCondition ?? []) {
      for (const matcher of clause) {
        const value = matcher.attributeValueIncludes;
        if (
          matcher.attributeName === DERIVED_PERMISSION && typeof value === "string" &&
          value.startsWith(`${roleId}:`) && value !== ruleId(roleId, collection)
        ) sources.push([roleId, value.slice(roleId.length + 1)]);
      }
    }
  }
  return sources;
}

/** A policy after an edit, and whether the edit changed anything. */
export interface PolicyEdit {
  /** The edited policy; the one given when nothing changed. */
  policy: MetadataPolicy;
  /** Whether the policy differs from the one given. */
  changed: boolean;
}

/**
 * The policy with `principalId` a member of `roleId` on its collection. A role the collection has no rule
 * for yet gets one, named in the collection's permission rule, as the service writes them.
 */
export function withMember(policy: MetadataPolicy, roleId: string, principalId: string): PolicyEdit {
  const edited = structuredClone(policy);
  const collection = policyCollection(edited);
  const properties = edited.properties ??= {};
  const rules = properties.attributeRules ??= [];
  const id = ruleId(roleId, collection);
  let rule = rules.find((r) => r.id === id);
  if (!rule) {
    rule = { kind: "attributerule", id, name: id, dnfCondition: [] };
    const permissionIndex = rules.findIndex((r) => r.id === permissionId(collection));
    rules.splice(permissionIndex < 0 ? rules.length : permissionIndex, 0, rule);
    addPermissionClause(rules, collection, id);
  }
  let matcher = principalMatcher(rule);
  if (!matcher) {
    matcher = { attributeName: PRINCIPAL_ID, attributeValueIncludedIn: [] };
    const roleTest: AttributeMatcher = {
      fromRule: roleId,
      attributeName: DERIVED_ROLE,
      attributeValueIncludes: roleId,
    };
    (rule.dnfCondition ??= []).unshift([matcher, roleTest]);
  }
  const current = principalsOf(matcher);
  if (current.some((p) => p.toLowerCase() === principalId.toLowerCase())) return { policy, changed: false };
  matcher.attributeValueIncludedIn = [...(matcher.attributeValueIncludedIn ?? []), principalId];
  return { policy: edited, changed: true };
}

function addPermissionClause(rules: AttributeRule[], collection: string, id: string): void {
  let permission = rules.find((r) => r.id === permissionId(collection));
  if (!permission) {
    permission = { kind: "attributerule", id: permissionId(collection), name: permissionId(collection) };
    rules.push(permission);
  }
  const clauses = permission.dnfCondition ??= [];
  if (clauses.some((clause) => clause.some((m) => m.attributeValueIncludes === id))) return;
  clauses.push([{ fromRule: id, attributeName: DERIVED_PERMISSION, attributeValueIncludes: id }]);
}

/** The policy without `principalId` among the direct members of `roleId` on its collection. */
export function withoutMember(policy: MetadataPolicy, roleId: string, principalId: string): PolicyEdit {
  const edited = structuredClone(policy);
  const id = ruleId(roleId, policyCollection(edited));
  const rule = edited.properties?.attributeRules?.find((r) => r.id === id);
  const matcher = rule ? principalMatcher(rule) : undefined;
  if (!matcher) return { policy, changed: false };
  const wanted = principalId.toLowerCase();
  const listed = matcher.attributeValueIncludedIn ?? [];
  const kept = listed.filter((p) => String(p).toLowerCase() !== wanted);
  const single = matcher.attributeValueIncludes;
  const singleMatches = typeof single === "string" && single.toLowerCase() === wanted;
  if (kept.length === listed.length && !singleMatches) return { policy, changed: false };
  matcher.attributeValueIncludedIn = kept;
  if (singleMatches) delete matcher.attributeValueIncludes;
  return { policy: edited, changed: true };
}
