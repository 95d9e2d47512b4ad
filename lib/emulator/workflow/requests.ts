/**
 * The user requests of the emulated workflow API: their operations checked (type and payload), which
 * workflow watches an operation (its trigger type and scope), and what the operation is about (its target
 * value, e.g. a term's name).
 *
 * @module
 */
import { glossaryTerm, type RequestedChange } from "./binding.ts";
import { invalid } from "./errors.ts";
import { isObject } from "./shape.ts";

type Json = Record<string, unknown>;

/** The trigger type that watches each operation type. */
export const TRIGGER_OF: Record<string, string> = {
  CreateTerm: "when_term_creation_is_requested",
  UpdateTerm: "when_term_update_is_requested",
  DeleteTerm: "when_term_deletion_is_requested",
  ImportTerms: "when_terms_import_is_requested",
  UpdateAsset: "when_asset_update_is_requested",
  GrantDataAccess: "when_data_access_grant_is_requested",
};

/** The operation types of the contract (OperationType). */
export const OPERATION_TYPES: readonly string[] = Object.keys(TRIGGER_OF);

/** The operations of a request body, checked; the first bad one is a 400 naming it. */
export function checkedOperations(body: Json): RequestedChange[] {
  const operations = body.operations;
  if (!Array.isArray(operations) || operations.length === 0) {
    throw invalid(
      "InvalidUserRequest",
      'operations must be a non-empty array of {"type": ..., "payload": {...}}.',
      "operations",
    );
  }
  return operations.map((operation, i) => {
    if (!isObject(operation) || !OPERATION_TYPES.includes(String(operation.type))) {
      throw invalid(
        "InvalidUserRequest",
        `operations[${i}].type must be one of ${OPERATION_TYPES.join(", ")}.`,
        `operations[${i}].type`,
      );
    }
    if (!isObject(operation.payload)) {
      throw invalid(
        "InvalidUserRequest",
        `operations[${i}].payload must be an object.`,
        `operations[${i}].payload`,
      );
    }
    const change = { type: String(operation.type), payload: operation.payload };
    if (change.type.endsWith("Term")) glossaryTerm(change);
    return change;
  });
}

/** Whether a trigger's scope holds the operation's target. */
export function inScope(trigger: Json, operation: RequestedChange): boolean {
  const term = isObject(operation.payload.glossaryTerm) ? operation.payload.glossaryTerm : undefined;
  const anchor = isObject(term?.anchor) ? String(term.anchor.glossaryGuid ?? "").toLowerCase() : "";
  if (typeof trigger.underGlossaryHierarchy === "string") {
    const root = /^\/glossaries\/([^/]+)/i.exec(trigger.underGlossaryHierarchy)?.[1]?.toLowerCase();
    if (root && root !== anchor) return false;
  }
  if (typeof trigger.underGlossary === "string" && trigger.underGlossary.toLowerCase() !== anchor) {
    return false;
  }
  if (typeof trigger.underCollection === "string") {
    const collection = operation.payload.collectionId ?? operation.payload.collection;
    if (collection !== trigger.underCollection) return false;
  }
  return true;
}

/** What an operation is about: its term's name, else a name, qualified name or guid. */
export function targetValue(operation: RequestedChange): string {
  const term = isObject(operation.payload.glossaryTerm) ? operation.payload.glossaryTerm : operation.payload;
  for (const key of ["name", "qualifiedName", "guid"]) {
    if (typeof term[key] === "string") return term[key] as string;
  }
  return "";
}
