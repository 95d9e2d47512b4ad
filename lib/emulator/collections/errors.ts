/**
 * The errors of the emulator's collection routes, answered in the account API's
 * `{"error": {code, message, target, details}}` shape (the server picks that shape for every `/account`
 * path). The contract names no error codes; these are the emulator's, chosen to say what went wrong, and
 * the statuses follow the usual meaning: 404 for an unknown collection in the path, 400 for a body or name
 * the service refuses, 409 for a delete the collection's contents prevent.
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";

/** Shortest and longest collection name, and the characters allowed in one. */
export const COLLECTION_NAME_RULE = {
  minLength: 3,
  maxLength: 36,
  pattern: /^[A-Za-z0-9-]+$/,
} as const;

/** The reason a collection name breaks the naming rule, or undefined when it is valid. */
export function collectionNameProblem(name: string): string | undefined {
  const { minLength, maxLength, pattern } = COLLECTION_NAME_RULE;
  if (name.length < minLength || name.length > maxLength) {
    return `it has ${name.length} character${
      name.length === 1 ? "" : "s"
    }; a collection name has ${minLength} to ${maxLength}`;
  }
  if (!pattern.test(name)) return "it may contain only letters, digits and hyphens";
  return undefined;
}

/** The collection named in the path does not exist. */
export function collectionNotFound(name: string): EmulatorError {
  return new EmulatorError(404, "CollectionNotFound", `Collection '${name}' does not exist.`);
}

/** The collection name in the path breaks the naming rule. */
export function invalidCollectionName(name: string, problem: string): EmulatorError {
  return new EmulatorError(400, "InvalidCollectionName", `Invalid collection name '${name}': ${problem}.`, {
    target: "collectionName",
  });
}

/** The body is not a collection, or a field of it has the wrong type. */
export function invalidCollectionBody(message: string, target?: string): EmulatorError {
  return new EmulatorError(400, "InvalidCollectionRequest", message, { target });
}

/** The parent reference is missing, unknown, or would put the collection under itself. */
export function invalidParent(message: string): EmulatorError {
  return new EmulatorError(400, "InvalidParentCollection", message, {
    target: "parentCollection.referenceName",
  });
}

/** Another child of the same parent already has this friendly name. */
export function duplicateFriendlyName(friendlyName: string, parent: string, holder: string): EmulatorError {
  return new EmulatorError(
    409,
    "DuplicateCollectionFriendlyName",
    `The friendly name '${friendlyName}' is already used by collection '${holder}' under '${parent}'; ` +
      "friendly names must be unique among the children of one collection.",
    { target: "friendlyName" },
  );
}

/** The `$skipToken` was not issued by this list. */
export function invalidSkipToken(): EmulatorError {
  return new EmulatorError(400, "InvalidSkipToken", "The $skipToken is not valid for this list.", {
    target: "$skipToken",
  });
}

/** The root collection is part of the account and cannot be deleted. */
export function rootNotDeletable(name: string): EmulatorError {
  return new EmulatorError(
    400,
    "RootCollectionNotDeletable",
    `Collection '${name}' is the root collection of the account and cannot be deleted.`,
  );
}

/** A delete refused while child collections remain. */
export function hasChildCollections(name: string, children: string[]): EmulatorError {
  const listed = children.slice(0, 5).join(", ") + (children.length > 5 ? ", …" : "");
  return new EmulatorError(
    409,
    "CollectionHasChildCollections",
    `Collection '${name}' cannot be deleted while it has ${children.length} child collection(s): ` +
      `${listed}. Delete or move them first.`,
  );
}

/** A delete refused while assets still belong to the collection. */
export function hasAssets(name: string, count: number): EmulatorError {
  return new EmulatorError(
    409,
    "CollectionHasAssets",
    `Collection '${name}' cannot be deleted while it is referenced by ${count} asset(s). ` +
      "Move the assets to another collection or delete them first.",
  );
}
