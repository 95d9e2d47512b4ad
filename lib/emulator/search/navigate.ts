/**
 * `POST /navigate` (data-map API 2024-03-01-preview; contract:
 * ../shared/reference/rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.DataMap/preview/2024-03-01-preview/purviewdatamap.json):
 * the catalog as a tree by asset type, walked one level per request over the search index's containment
 * tree (the one `POST /browse` walks, see `browse.ts`).
 *
 * An `itemPath.path` is the names of the levels, joined by `/`; each answered item's `itemPath.path` is its
 * own name, to be appended to the path asked:
 * - `/` (or empty): one item per entity type of the top-level assets (`azure_sql_server`), not an entity;
 *   its `type` is the asset type people see (Azure SQL Database) where one is known;
 * - `/<entity type>`: the top-level assets of that type, as entities;
 * - `/<entity type>/<asset>`: the asset's children grouped in one item per child entity type (the
 *   emulator names a group after the type, where the service uses words such as `databases`);
 * - `/<entity type>/<asset>/<child type>`: those children, as entities; and so on down.
 * An entity item carries its `guid` and `qualifiedName` in `properties`, and its `guid` in
 * `itemPath.extendedProperties`: sent back with the next request, it picks that asset when two siblings
 * share a name. `isLeafNode` is true for an asset without children. With `includeNextLevelAssetCount`, each
 * item counts what is below it.
 *
 * Only `navigationMode` `assetType` is emulated: `azureResourceHierarchy` is refused with a 400 that says so.
 * A path naming nothing is a 404. Pages hold `maxpagesize` items (100 by default, at most 10000); the
 * `continuationToken` of a page asks for the next one of the same path.
 *
 * @module
 */
import { isObject, type JsonObject } from "../entity/model.ts";
import { EmulatorError } from "../errors.ts";
import { assetTypeOf } from "./document.ts";
import { containerTree } from "./browse.ts";
import type { IndexEntry, SearchIndex } from "./search_index.ts";

/** Items per page without `maxpagesize`. */
export const DEFAULT_NAVIGATE_PAGE_SIZE = 100;
/** Largest `maxpagesize` (contract). */
export const MAX_NAVIGATE_PAGE_SIZE = 10_000;

/** A validated navigation request. */
export interface NavigateRequest {
  segments: string[];
  /** `itemPath.extendedProperties` of the request. */
  extendedProperties: Record<string, string>;
  includeCount: boolean;
  pageSize: number;
  offset: number;
}

/** One item of the answer (`NavigationItem`). */
export interface NavigationItem {
  name: string;
  type: string;
  isLeafNode: boolean;
  isEntity: boolean;
  itemPath: { path: string; extendedProperties: Record<string, string> };
  properties: Record<string, string>;
  count?: number;
}

/** The answer (`NavigationResult`). */
export interface NavigationResult {
  items: NavigationItem[];
  continuationToken?: string;
}

/** Parses and checks a navigation request's body and its `maxpagesize` and `continuationToken`. */
export function parseNavigateRequest(body: JsonObject, query: URLSearchParams): NavigateRequest {
  const mode = body.navigationMode ?? "assetType";
  if (mode !== "assetType") {
    throw EmulatorError.invalidParameters(
      `navigationMode ${JSON.stringify(mode)} is not emulated: the emulator navigates by assetType only.`,
      "navigationMode",
    );
  }
  const itemPath = body.itemPath;
  if (!isObject(itemPath) || typeof itemPath.path !== "string") {
    throw EmulatorError.invalidParameters(
      'itemPath.path is required: "/" for the top level, then the names of the levels joined by "/".',
      "itemPath.path",
    );
  }
  const extendedProperties = stringMap(itemPath.extendedProperties, "itemPath.extendedProperties");
  stringMap(body.properties, "properties");
  const includeCount = body.includeNextLevelAssetCount ?? false;
  if (typeof includeCount !== "boolean") {
    throw EmulatorError.invalidParameters(
      "includeNextLevelAssetCount must be true or false.",
      "includeNextLevelAssetCount",
    );
  }
  const segments = itemPath.path.split("/").filter((s) => s !== "");
  return {
    segments,
    extendedProperties,
    includeCount,
    pageSize: pageSizeOf(query.get("maxpagesize")),
    offset: offsetOf(query.get("continuationToken"), segments),
  };
}

/** One level of the asset-type tree. */
export function navigate(index: SearchIndex, request: NavigateRequest): NavigationResult {
  const tree = containerTree(index);
  const entry = (slot: number) => index.entry(slot)!;
  const kids = (slot: number) => tree.children.get(slot) ?? [];
  const [typeName, ...rest] = request.segments;
  let items: NavigationItem[];
  if (typeName === undefined) {
    items = typeItems(tree.roots.map(entry), request.includeCount, (type) => {
      const [assetType] = assetTypeOf(type);
      return { type: assetType ?? type, properties: cloudOf(type) };
    });
  } else {
    let level = tree.roots.map(entry).filter((e) => e.document.entityType === typeName);
    if (level.length === 0) throw notFound(request, 1, "no top-level asset has this entity type");
    let at: IndexEntry | undefined;
    for (let i = 0; i < rest.length; i++) {
      const last = i === rest.length - 1;
      if (i % 2 === 0) {
        at = pick(level, rest[i], last ? request.extendedProperties.guid : undefined);
        if (!at) throw notFound(request, i + 2, "no asset of this name is at this level");
        level = kids(at.slot).map(entry);
      } else {
        level = level.filter((e) => e.document.entityType === rest[i]);
        if (level.length === 0) throw notFound(request, i + 2, "the asset has no children of this type");
        at = undefined;
      }
    }
    items = at === undefined
      ? sorted(level).map((e) => entityItem(e, kids(e.slot).length, request.includeCount))
      : typeItems(level, request.includeCount, () => ({ type: "", properties: {} }));
  }
  const page = items.slice(request.offset, request.offset + request.pageSize);
  const result: NavigationResult = { items: page };
  const next = request.offset + request.pageSize;
  if (next < items.length) result.continuationToken = tokenOf(next, request.segments);
  return result;
}

/** One item per entity type of `entries`, ordered by type. */
function typeItems(
  entries: IndexEntry[],
  includeCount: boolean,
  describe: (entityType: string) => { type: string; properties: Record<string, string> },
): NavigationItem[] {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.document.entityType, (counts.get(e.document.entityType) ?? 0) + 1);
  return [...counts.keys()].sort().map((name) => {
    const { type, properties } = describe(name);
    const item: NavigationItem = {
      name,
      type: type || name,
      isLeafNode: false,
      isEntity: false,
      itemPath: { path: name, extendedProperties: {} },
      properties,
    };
    if (includeCount) item.count = counts.get(name);
    return item;
  });
}

function entityItem(entry: IndexEntry, children: number, includeCount: boolean): NavigationItem {
  const d = entry.document;
  const item: NavigationItem = {
    name: d.name,
    type: d.entityType,
    isLeafNode: children === 0,
    isEntity: true,
    itemPath: { path: d.name, extendedProperties: { guid: d.id } },
    properties: { guid: d.id, qualifiedName: d.qualifiedName, ...cloudOf(d.entityType) },
  };
  if (includeCount) item.count = children;
  return item;
}

// The asset named `name`; of several, the one `guid` names, else the first by id.
function pick(level: IndexEntry[], name: string, guid: string | undefined): IndexEntry | undefined {
  const named = sorted(level.filter((e) => e.document.name === name));
  return named.find((e) => e.document.id === guid) ?? named[0];
}

function sorted(entries: IndexEntry[]): IndexEntry[] {
  return [...entries].sort((a, b) =>
    a.nameKey !== b.nameKey ? (a.nameKey < b.nameKey ? -1 : 1) : a.document.id < b.document.id ? -1 : 1
  );
}

function cloudOf(entityType: string): Record<string, string> {
  if (entityType.startsWith("aws_")) return { cloudType: "AWS" };
  if (entityType.startsWith("azure_") || entityType.startsWith("adls_") || entityType.startsWith("adf_")) {
    return { cloudType: "Azure" };
  }
  return {};
}

function notFound(request: NavigateRequest, depth: number, why: string): EmulatorError {
  const asked = "/" + request.segments.slice(0, depth).join("/");
  const parent = "/" + request.segments.slice(0, depth - 1).join("/");
  return new EmulatorError(
    404,
    "ATLAS-404-00-001",
    `Nothing is at itemPath ${asked}: ${why}. Navigate ${parent} to see what is there.`,
  );
}

function stringMap(value: unknown, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value) || Object.values(value).some((v) => typeof v !== "string")) {
    throw EmulatorError.invalidParameters(`${field} must be an object of string values.`, field);
  }
  return value as Record<string, string>;
}

function pageSizeOf(text: string | null): number {
  if (text === null) return DEFAULT_NAVIGATE_PAGE_SIZE;
  const size = Number(text);
  if (!Number.isInteger(size) || size < 1 || size > MAX_NAVIGATE_PAGE_SIZE) {
    throw EmulatorError.invalidParameters(
      `maxpagesize must be a whole number from 1 to ${MAX_NAVIGATE_PAGE_SIZE}, got ${JSON.stringify(text)}.`,
      "maxpagesize",
    );
  }
  return size;
}

function tokenOf(offset: number, segments: string[]): string {
  return btoa(encodeURIComponent(JSON.stringify([offset, segments.join("/")]))).replace(/=+$/, "");
}

function offsetOf(token: string | null, segments: string[]): number {
  if (token === null || token === "") return 0;
  try {
    const [offset, path] = JSON.parse(decodeURIComponent(atob(token)));
    if (Number.isInteger(offset) && offset >= 0 && path === segments.join("/")) return offset;
  } catch {
    // refused below
  }
  throw EmulatorError.invalidParameters(
    "continuationToken is not one a page of this itemPath answered; send the token with the same itemPath, " +
      "or none for the first page.",
    "continuationToken",
  );
}
