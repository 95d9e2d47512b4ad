/**
 * Shapes of `POST /navigate` (data-map API 2024-03-01-preview; contract:
 * ../shared/reference/rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.DataMap/preview/2024-03-01-preview/purviewdatamap.json):
 * the catalog as a tree by asset type, one level per request.
 *
 * @module
 */

/** The api-version navigation requests carry (the only contract publishing it), whatever the data map's. */
export const NAVIGATE_API_VERSION = "2024-03-01-preview";

/** Largest page (`maxpagesize`) the contract allows. */
export const MAX_NAVIGATE_PAGE_SIZE = 10_000;

/** Where a navigation step is: a path, and what the previous answer said about its last level. */
export interface ItemPath {
  /** `/` for the top level, then the levels' names joined by `/` (each item's own path is its name). */
  path: string;
  /** Given back as the previous answer's item carried them: they pick the item among namesakes. */
  extendedProperties?: Record<string, string>;
}

/** `POST /navigate` body (`NavigationRequest`). */
export interface NavigationRequest {
  /** `assetType` (by kind of source, then containment) or `azureResourceHierarchy`. */
  navigationMode?: "assetType" | "azureResourceHierarchy" | string;
  /** The level to list. */
  itemPath: ItemPath;
  /** Count what is below each item. */
  includeNextLevelAssetCount?: boolean;
  /** Additional properties of the item. */
  properties?: Record<string, string>;
}

/** One item of a level (`NavigationItem`). */
export interface NavigationItem {
  /** Its name: the next level's path segment. */
  name: string;
  /** An asset's entity type, or the kind of a group. */
  type: string;
  /** Nothing is below it. */
  isLeafNode: boolean;
  /** It is an asset (an entity), not a group of them. */
  isEntity: boolean;
  /** Its own path (its name) and extended properties, to append to the path asked. */
  itemPath: ItemPath;
  /** What is below it, when `includeNextLevelAssetCount` was asked. */
  count?: number;
  /** More about the item (for an asset in the emulator: its guid and qualified name). */
  properties: Record<string, string>;
}

/** `POST /navigate` answer (`NavigationResult`). */
export interface NavigationResult {
  /** The items of this page. */
  items: NavigationItem[];
  /** Asks for the next page (same request); absent on the last one. */
  continuationToken?: string;
}

/** Paging of a navigation request. */
export interface NavigationPage {
  /** Items per page, 1-10000 (the service's default is 100). */
  maxPageSize?: number;
  /** The previous page's `continuationToken`. */
  continuationToken?: string;
}
