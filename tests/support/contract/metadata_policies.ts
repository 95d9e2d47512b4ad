/**
 * The published metadata policies contract (Azure.Analytics.Purview.MetadataPolicies, 2021-07-01-preview)
 * for the contract tests: where it lives and its api-version. Its host is the account endpoint and its
 * `basePath` is `/policyStore`, so its paths sit below `/policyStore`; its error shape is the account
 * contract's (`azureErrorSchema` of replay.ts).
 *
 * @module
 */
import { type Contract, loadContract, REFERENCE_DIR } from "./reference.ts";

/** The metadata policies contract document. */
export const POLICY_CONTRACT_FILE: URL = new URL(
  "rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.MetadataPolicies/preview/" +
    "2021-07-01-preview/purviewMetadataPolicy.json",
  REFERENCE_DIR,
);

/** The api-version of the metadata policies contract, which the client sends. */
export const POLICY_API_VERSION = "2021-07-01-preview";

/** Loads (once per process) the metadata policies contract and its examples; its prefix is `/policyStore`. */
export function loadPolicyContract(): Promise<Contract> {
  return loadContract(POLICY_CONTRACT_FILE);
}
