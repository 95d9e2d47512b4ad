/**
 * Collection shapes of the account API (2019-11-01-preview), as the account contract defines them. Fields
 * the service adds beyond the contract are kept.
 *
 * @module
 */

/** Who created and last changed a collection, and when (ISO 8601 timestamps). */
export interface CollectionSystemData {
  createdAt?: string;
  createdBy?: string;
  createdByType?: string;
  lastModifiedAt?: string;
  lastModifiedBy?: string;
  lastModifiedByType?: string;
  [field: string]: unknown;
}

/** A reference to another collection, by its name (not its friendly name). */
export interface CollectionReference {
  referenceName?: string;
  /** Always `CollectionReference` when the service writes it. */
  type?: string;
}

/** Provisioning states the contract lists. */
export type CollectionProvisioningState =
  | "Unknown"
  | "Creating"
  | "Moving"
  | "Deleting"
  | "Failed"
  | "Succeeded";

/** A collection as the service returns it. The root collection has no `parentCollection`. */
export interface Collection {
  /** The collection's name: unique in the account, what every other call takes. */
  name?: string;
  /** The name people see; unique among the children of one parent only. */
  friendlyName?: string;
  description?: string;
  parentCollection?: CollectionReference;
  collectionProvisioningState?: CollectionProvisioningState | string;
  systemData?: CollectionSystemData;
  [field: string]: unknown;
}

/** What a create or update sends. Left-out fields keep their current values on the emulator. */
export interface CollectionInput {
  friendlyName?: string;
  description?: string;
  /** The parent, by name; required by the service when the collection is new. */
  parentCollection?: { referenceName: string };
}

/** One page of `GET /account/collections`. */
export interface CollectionList {
  value: Collection[];
  /** Total number of collections. */
  count?: number;
  /** URL of the next page; absent on the last one. */
  nextLink?: string;
}

/** A child collection's names. */
export interface CollectionName {
  name?: string;
  friendlyName?: string;
}

/** One page of `getChildCollectionNames`. */
export interface CollectionNameList {
  value: CollectionName[];
  count?: number;
  nextLink?: string;
}

/** The ancestors of a collection, from the root down to its immediate parent (empty for the root). */
export interface CollectionPath {
  parentNameChain?: string[];
  parentFriendlyNameChain?: string[];
}
