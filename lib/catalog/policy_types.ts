/**
 * Types of the metadata policies API (2021-07-01-preview, `/policyStore`): metadata roles and the one
 * metadata policy of each collection, as the contract
 * `rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.MetadataPolicies/preview/2021-07-01-preview/purviewMetadataPolicy.json`
 * declares them and the service answers them (fields the service adds, such as a condition's `fromRule`,
 * are kept).
 *
 * @module
 */

/** One attribute test of a rule's condition. */
export interface AttributeMatcher {
  /** What is tested: `principal.microsoft.id`, `derived.purview.role`, `derived.purview.permission`, … */
  attributeName?: string;
  /** The value must include this one. */
  attributeValueIncludes?: string;
  /** The value must be one of these (the members of a role: object ids). */
  attributeValueIncludedIn?: string[];
  /** The value must not include this one. */
  attributeValueExcludes?: string;
  /** The value must be none of these. */
  attributeValueExcludedIn?: string[];
  /** The rule the tested attribute comes from, as the service answers it. */
  fromRule?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** Alternatives (outer array) of conjunctions (inner arrays) of attribute tests. */
export type DnfCondition = AttributeMatcher[][];

/** A decision rule: what the policy permits or denies, and under which condition. */
export interface DecisionRule {
  /** `decisionrule` (the service sets it). */
  kind?: string;
  /** `Permit` or `Deny`. */
  effect?: string;
  /** When the rule applies. */
  dnfCondition?: DnfCondition;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** An attribute rule: a role's members on the collection, or the permission the collection grants. */
export interface AttributeRule {
  /** `attributerule` (the service sets it). */
  kind?: string;
  /** `<role id>:<collection>` for a role's members, `permission:<collection>` for the collection's. */
  id?: string;
  /** The rule's name: its id, as the service writes them. */
  name?: string;
  /** Who the rule derives the attribute for: members (object ids), or holders of other rules. */
  dnfCondition?: DnfCondition;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** The contract's MetadataPolicy: one per collection. */
export interface MetadataPolicy {
  /** `policy_<collection>`. */
  name?: string;
  /** The policy's id (a guid), used to read and update it. */
  id?: string;
  /** Increases with every update. */
  version?: number;
  /** The rules, the collection and its parent. */
  properties?: {
    /** Free text; the service answers "". */
    description?: string;
    /** What the policy permits on the collection. */
    decisionRules?: DecisionRule[];
    /** The role members of the collection and its permission rule. */
    attributeRules?: AttributeRule[];
    /** The collection the policy belongs to. */
    collection?: { type?: string; referenceName?: string };
    /** The collection's parent; absent for the root collection. */
    parentCollectionName?: string;
    /** Fields of newer contract versions, kept as read. */
    [field: string]: unknown;
  };
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** The contract's MetadataRole: a built-in role members can be given on a collection. */
export interface MetadataRole {
  /** `purviewmetadatarole_builtin_<name>`. */
  id?: string;
  /** The role's name: `data-curator`, `collection-administrator`, … */
  name?: string;
  /** `Microsoft.Purview/role`. */
  type?: string;
  /** What the role is and what it allows. */
  properties?: {
    /** `Provisioned`. */
    provisioningState?: string;
    /** `BuiltIn`. */
    roleType?: string;
    /** The role's name as people read it: `Data Curator`. */
    friendlyName?: string;
    /** What the role is for. */
    description?: string;
    /** The data actions the role allows (`request.azure.dataAction`). */
    cnfCondition?: DnfCondition;
    /** The same in disjunctive form, where the service gives it so. */
    dnfCondition?: DnfCondition;
    /** The role definition's version. */
    version?: number;
    /** Fields of newer contract versions, kept as read. */
    [field: string]: unknown;
  };
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A page of a policy store list: `values`, and `nextLink` while the service offers another page. */
export interface PolicyStorePage<T> {
  /** The items of this page. */
  values: T[];
  /** Where the next page is; the service may offer one after the last page, which is then empty. */
  nextLink?: string;
}
