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
  attributeValueExcludes?: string;
  attributeValueExcludedIn?: string[];
  /** The rule the tested attribute comes from, as the service answers it. */
  fromRule?: string;
  [field: string]: unknown;
}

/** Alternatives (outer array) of conjunctions (inner arrays) of attribute tests. */
export type DnfCondition = AttributeMatcher[][];

/** A decision rule: what the policy permits or denies, and under which condition. */
export interface DecisionRule {
  kind?: string;
  effect?: string;
  dnfCondition?: DnfCondition;
  [field: string]: unknown;
}

/** An attribute rule: a role's members on the collection, or the permission the collection grants. */
export interface AttributeRule {
  kind?: string;
  /** `<role id>:<collection>` for a role's members, `permission:<collection>` for the collection's. */
  id?: string;
  name?: string;
  dnfCondition?: DnfCondition;
  [field: string]: unknown;
}

/** The contract's MetadataPolicy: one per collection. */
export interface MetadataPolicy {
  name?: string;
  /** The policy's id (a guid), used to read and update it. */
  id?: string;
  /** Increases with every update. */
  version?: number;
  properties?: {
    description?: string;
    decisionRules?: DecisionRule[];
    attributeRules?: AttributeRule[];
    /** The collection the policy belongs to. */
    collection?: { type?: string; referenceName?: string };
    /** The collection's parent; absent for the root collection. */
    parentCollectionName?: string;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** The contract's MetadataRole: a built-in role members can be given on a collection. */
export interface MetadataRole {
  /** `purviewmetadatarole_builtin_<name>`. */
  id?: string;
  name?: string;
  type?: string;
  properties?: {
    provisioningState?: string;
    roleType?: string;
    friendlyName?: string;
    description?: string;
    cnfCondition?: DnfCondition;
    dnfCondition?: DnfCondition;
    version?: number;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** A page of a policy store list: `values`, and `nextLink` while the service offers another page. */
export interface PolicyStorePage<T> {
  values: T[];
  nextLink?: string;
}
