/**
 * Operations of the `uc` group (unified catalog): `govcat uc <kind> <action>` for terms, governance
 * domains, data products, critical data elements, objectives, key results, policies, and the
 * 2026-03-20-preview data assets and data columns. Together they
 * reach every one of the 48 operations of the unified catalog API; {@link UNIFIED_API_OPERATION_MAP} names the
 * command that performs each.
 *
 * @module
 */
import type { Operation } from "./types.ts";
import { DATA_ASSET_OPERATIONS } from "./unified_data_asset_operations.ts";
import { DATA_COLUMN_OPERATIONS } from "./unified_data_column_operations.ts";
import { KEY_RESULT_OPERATIONS, POLICY_OPERATIONS } from "./unified_keyresult_policy_operations.ts";
import {
  CDE_COMMANDS,
  DATA_PRODUCT_COMMANDS,
  DOMAIN_COMMANDS,
  kindOperations,
  OBJECTIVE_COMMANDS,
} from "./unified_kind_operations.ts";
import { TERM_IMPORT_OPERATIONS } from "./unified_term_import_operations.ts";
import { TERM_OPERATIONS } from "./unified_term_operations.ts";

/** `uc domain create`, `get`, `update`, `delete`, `list`. */
export const DOMAIN_OPERATIONS: Operation[] = kindOperations(DOMAIN_COMMANDS);

/** The `uc domain` operation of `action` (`get`, `list`, `create`, ...). */
export function domainOperation(action: string): Operation {
  const found = DOMAIN_OPERATIONS.find((operation) => operation.id === `uc.domain-${action}`);
  if (!found) throw new Error(`no operation uc.domain-${action}`);
  return found;
}

export const UNIFIED_OPERATIONS: Operation[] = [
  ...TERM_OPERATIONS,
  ...TERM_IMPORT_OPERATIONS,
  ...DOMAIN_OPERATIONS,
  ...kindOperations(DATA_PRODUCT_COMMANDS),
  ...kindOperations(CDE_COMMANDS),
  ...kindOperations(OBJECTIVE_COMMANDS),
  ...KEY_RESULT_OPERATIONS,
  ...POLICY_OPERATIONS,
  ...DATA_ASSET_OPERATIONS,
  ...DATA_COLUMN_OPERATIONS,
];

const AREA_WORDS: Record<string, string> = {
  terms: "term",
  domains: "domain",
  dataProducts: "dataproduct",
  criticalDataElements: "cde",
  objectives: "objective",
  keyResults: "keyresult",
  policies: "policy",
  dataAssets: "data-asset",
  dataColumns: "data-column",
};

/** Client methods whose command is not simply `uc <kind> <action>`. */
const SPECIAL: Record<string, string> = {
  "terms.hierarchy": "uc.term-hierarchy",
  "relationships.list": "uc.term-relationships",
  // Term relationships are made by `uc term create` and `uc term update` (--synonym, --related).
  "terms.createRelationship": "uc.term-update",
  "terms.deleteRelationship": "uc.term-delete-relationship",
};

/** The operation id of the `uc` command performing a unified catalog API operation (`terms.list`). */
export function unifiedOperationFor(apiOperation: string): string | undefined {
  if (SPECIAL[apiOperation]) return SPECIAL[apiOperation];
  const [area, action] = apiOperation.split(".");
  const word = AREA_WORDS[area];
  return word && action ? `uc.${word}-${action}` : undefined;
}
