/**
 * What the collection commands, the domain commands and the collection tools share: the naming rule,
 * finding the root collection, an upsert that puts new collections under the root and leaves existing ones
 * where they are, and fix hints that fit collections better than the generic ones.
 *
 * @example
 * ```ts
 * import { collectionNameProblem } from "./collections_support.ts";
 * collectionNameProblem("finance-eu"); // undefined: valid
 * collectionNameProblem("x"); // "it has 1 character; a collection name has 3 to 36"
 * ```
 *
 * @module
 */
import type { CatalogClient } from "./client.ts";
import type { Collection, CollectionInput } from "./collections_types.ts";
import {
  BadRequestError,
  CatalogError,
  ConflictError,
  NotFoundError,
  type ServiceErrorDetails,
} from "../core/errors.ts";

/** Collection names have 3 to 36 characters: letters, digits and hyphens. */
export const COLLECTION_NAME_PATTERN = /^[A-Za-z0-9-]{3,36}$/;

/** Why a collection name would be refused, or undefined when it is valid. */
export function collectionNameProblem(name: string): string | undefined {
  if (name.length < 3 || name.length > 36) {
    return `it has ${name.length} character${name.length === 1 ? "" : "s"}; a collection name has 3 to 36`;
  }
  if (!COLLECTION_NAME_PATTERN.test(name)) return "it may contain only letters, digits and hyphens";
  return undefined;
}

/** The fields a create or update may set. Undefined fields are left as they are. */
export interface CollectionFields {
  friendlyName?: string;
  description?: string;
  /** Parent collection name; a new collection without one goes under the root. */
  parentCollection?: string;
}

/** What an upsert did. */
export interface UpsertOutcome {
  collection: Collection;
  created: boolean;
}

/**
 * The name of the root collection: the one without a parent. An account whose list shows none (a
 * narrow role) falls back to `fallbackName`, the account name, which names the root on the service.
 */
export async function findRootCollection(
  catalog: CatalogClient,
  fallbackName: string,
  signal?: AbortSignal,
): Promise<string> {
  for await (const collection of catalog.collections.list({ signal })) {
    if (!collection.parentCollection?.referenceName && collection.name) return collection.name;
  }
  return fallbackName.toLowerCase();
}

/** The collection, or undefined when the service answers 404. */
export async function getCollectionIfExists(
  catalog: CatalogClient,
  name: string,
  signal?: AbortSignal,
): Promise<Collection | undefined> {
  try {
    return await catalog.collections.get(name, signal);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/**
 * Creates the collection or updates the one with this name: repeating it changes nothing more. A new
 * collection goes under `fields.parentCollection`, else under the root; an existing one moves only when
 * a parent is given.
 */
export async function upsertCollection(
  catalog: CatalogClient,
  name: string,
  fields: CollectionFields,
  options: { accountName: string; signal?: AbortSignal },
): Promise<UpsertOutcome> {
  const current = await getCollectionIfExists(catalog, name, options.signal);
  const body: CollectionInput = {};
  if (fields.friendlyName !== undefined) body.friendlyName = fields.friendlyName;
  if (fields.description !== undefined) body.description = fields.description;
  if (fields.parentCollection) {
    body.parentCollection = { referenceName: fields.parentCollection };
  } else if (!current) {
    const root = await findRootCollection(catalog, options.accountName, options.signal);
    body.parentCollection = { referenceName: root };
  }
  const collection = await catalog.collections.createOrUpdate(name, body, options.signal);
  return { collection, created: !current };
}

/** Fix hints for collection calls, in the words of the front end that shows them. */
export interface CollectionHints {
  notFound: string;
  deleteRefused: string;
  rootProtected: string;
}

/** The root collection cannot be deleted or moved, whoever asks. */
export const ROOT_PROTECTED = "The root collection (named after the account) is part of the account: it " +
  "cannot be deleted or given a parent.";

/** Hints for command-line users. */
export const CLI_COLLECTION_HINTS: CollectionHints = {
  notFound: "Check the collection name (its name, not its friendly name) with `govcat collections list`.",
  deleteRefused: "Delete or move its child collections first (`govcat collections children`), and move " +
    "its assets to another collection (`govcat entity move-to-collection`) or delete them.",
  rootProtected: ROOT_PROTECTED,
};

/**
 * Runs a collection call and, when the service refuses it with 404 or 409, replaces the generic hint with
 * one about collections.
 */
export async function withCollectionHints<T>(hints: CollectionHints, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotFoundError) throw withHint(error, hints.notFound);
    if (error instanceof ConflictError && /child collection|asset/i.test(error.message)) {
      throw withHint(error, hints.deleteRefused);
    }
    if (error instanceof BadRequestError && /root collection/i.test(error.message)) {
      throw withHint(error, hints.rootProtected);
    }
    throw error;
  }
}

/** The same typed error with another hint. */
export function withHint(error: CatalogError, hint: string): CatalogError {
  return withDetails(error, { hint });
}

/** The same typed error with another message or hint; status, code and request id are kept. */
export function withDetails(error: CatalogError, change: { message?: string; hint?: string }): CatalogError {
  const Kind = error.constructor as new (details: ServiceErrorDetails) => CatalogError;
  return new Kind({
    status: error.status,
    code: error.code,
    message: change.message ?? error.message,
    requestId: error.requestId,
    method: error.method,
    url: error.url,
    retryAfterSeconds: error.retryAfterSeconds,
    cause: error.cause,
    hint: change.hint ?? error.hint,
  });
}
