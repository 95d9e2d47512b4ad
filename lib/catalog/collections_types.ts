/**
 * Collection shapes of the account API (2019-11-01-preview), as the account contract defines them. Fields
 * the service adds beyond the contract are kept.
 *
 * @module
 */

/** Who created and last changed a collection, and when (ISO 8601 timestamps). */
export interface CollectionSystemData {
  /** When the collection was created. */
  createdAt?: string;
  /** Identity that created it. */
  createdBy?: string;
  /** Kind of that identity: `User`, `Application`, `ManagedIdentity` or `Key`. */
  createdByType?: string;
  /** When the collection last changed. */
  lastModifiedAt?: string;
  /** Identity that last changed it. */
  lastModifiedBy?: string;
  /** Kind of that identity. */
  lastModifiedByType?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A reference to another collection, by its name (not its friendly name). */
export interface CollectionReference {
  /** Name of the collection referred to. */
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
  /** Description of the collection. */
  description?: string;
  /** The collection this one is nested in. */
  parentCollection?: CollectionReference;
  /** Where the service stands with the collection; `Succeeded` once usable. */
  collectionProvisioningState?: CollectionProvisioningState | string;
  /** Who created and last changed the collection; set by the service. */
  systemData?: CollectionSystemData;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** What a create or update sends. Left-out fields keep their current values on the emulator. */
export interface CollectionInput {
  /** The name people see. */
  friendlyName?: string;
  /** Description of the collection. */
  description?: string;
  /** The parent, by name; required by the service when the collection is new. */
  parentCollection?: { referenceName: string };
}

/** One page of `GET /account/collections`. */
export interface CollectionList {
  /** The collections of this page. */
  value: Collection[];
  /** Total number of collections. */
  count?: number;
  /** URL of the next page; absent on the last one. */
  nextLink?: string;
}

/** A child collection's names. */
export interface CollectionName {
  /** The child's name, unique in the account. */
  name?: string;
  /** The child's friendly name. */
  friendlyName?: string;
}

/** One page of `getChildCollectionNames`. */
export interface CollectionNameList {
  /** The child collections of this page. */
  value: CollectionName[];
  /** Number of children. */
  count?: number;
  /** URL of the next page; absent on the last one. */
  nextLink?: string;
}

/** The ancestors of a collection, from the root down to its immediate parent (empty for the root). */
export interface CollectionPath {
  /** Names of the ancestors, the root collection first. */
  parentNameChain?: string[];
  /** Friendly names of the same ancestors, in the same order. */
  parentFriendlyNameChain?: string[];
}
