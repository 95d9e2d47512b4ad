/**
 * The two later versions of contracts the emulator already serves, for the contract tests: the account
 * API of 2023-10-01-preview (domains, contacts, feature flags beside the 2019-11-01-preview operations)
 * and the data-map API of 2024-03-01-preview (the 2023-09-01 operations plus `POST /navigate`). Both are
 * read at run time from ../shared/reference (see reference.ts for what happens without it).
 *
 * @module
 */
import { ACCOUNT_PREFIX, type Contract, loadContract, REFERENCE_DIR } from "./reference.ts";

const DATA_PLANE = "rest-specs/specification/purview/data-plane/";

/** The 2023-10-01-preview account contract document. */
export const ACCOUNT_2023_CONTRACT_FILE: URL = new URL(
  `${DATA_PLANE}Azure.Analytics.Purview.Account/preview/2023-10-01-preview/account.json`,
  REFERENCE_DIR,
);

/** The api-version of the 2023-10-01-preview account contract. */
export const ACCOUNT_2023_API_VERSION = "2023-10-01-preview";

/** The 2024-03-01-preview data-map contract document. */
export const DATAMAP_2024_CONTRACT_FILE: URL = new URL(
  `${DATA_PLANE}Azure.Analytics.Purview.DataMap/preview/2024-03-01-preview/purviewdatamap.json`,
  REFERENCE_DIR,
);

/** The api-version of the 2024-03-01-preview data-map contract. */
export const DATAMAP_2024_API_VERSION = "2024-03-01-preview";

/**
 * Loads (once per process) the 2023-10-01-preview account contract. Its `basePath` is `/account/`, the
 * same prefix as the 2019-11-01-preview contract's endpoint.
 */
export async function loadAccount2023Contract(): Promise<Contract> {
  return { ...await loadContract(ACCOUNT_2023_CONTRACT_FILE), prefix: ACCOUNT_PREFIX };
}

/** Loads (once per process) the 2024-03-01-preview data-map contract; its prefix is `/datamap/api`. */
export function loadDataMap2024Contract(): Promise<Contract> {
  return loadContract(DATAMAP_2024_CONTRACT_FILE);
}
