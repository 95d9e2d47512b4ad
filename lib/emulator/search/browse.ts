/**
 * `POST /browse` (catalog API 2023-02-01-preview): the catalog as a tree, by entity type or by path.
 *
 * An entity's parent is the entity it names in a container reference (`parent`, `dbSchema`, `table`, `db`,
 * `server`, `account`, … in its relationship attributes or attributes), else the entity whose qualified
 * name is the longest prefix of its own at a `/` or `#`. Paths follow the contract's example: a root is
 * `/<type>#<qualified name without scheme>`, a child `<parent path>/<type>#<name>`.
 *
 * - `path`: the children of the entity at that path (optionally only of `entityType`);
 * - `entityType` alone: every entity of that type;
 * - neither: the roots.
 *
 * Items are ordered by name, then id, and paged by `offset` and `limit`. The tree is derived from the index
 * once per index generation, so repeated browsing between writes costs only the lookup.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { SearchIndex } from "./search_index.ts";
 * import { browse } from "./browse.ts";
 * const store = EntityStore.open();
 * console.log(browse(SearchIndex.of(store), { entityType: "azure_sql_server" })["@search.count"]); // 0
 * store.close();
 * ```
 *
 * @module
 */
import type { AssetOutline, IndexEntry, SearchIndex } from "./search_index.ts";
import { topOf } from "./results.ts";

/** Largest `limit` (contract). */
export const MAX_BROWSE_LIMIT = 10_000;
/** Largest `offset` (contract). */
export const MAX_BROWSE_OFFSET = 100_000;
/** Items when the request sets no limit. */
export const DEFAULT_BROWSE_LIMIT = 50;

/** A validated browse request (`BrowseRequest`). */
export interface BrowseRequest {
  entityType?: string;
  path?: string;
  limit?: number;
  offset?: number;
}

/** One owner of a browse item (`BrowseResultOwner`). */
export interface BrowseOwner {
  id: string;
  displayName?: string;
  contactType: string;
}

/** One item (`BrowseResultValue`). */
export interface BrowseItem {
  entityType: string;
  id: string;
  isLeaf: boolean;
  name: string;
  owner: BrowseOwner[];
  path: string;
  qualifiedName: string;
}

/** The answer (`BrowseResult`). */
export interface BrowseResult {
  "@search.count": number;
  value: BrowseItem[];
}

// Paths are kept for assets with children only (a catalog's leaves, its columns and files, are most of it):
// only those can be browsed into, and a leaf's path is its parent's and its own type and name.
interface BrowseTree {
  children: Map<number, number[]>;
  roots: number[];
  /** Parent slot by slot; -1 for a root. */
  parent: Int32Array;
  path: Map<number, string>;
  slotOfPath: Map<string, number>;
}

const trees = new WeakMap<SearchIndex, { generation: number; tree: BrowseTree }>();

/** Browses the catalog tree. */
export function browse(index: SearchIndex, request: BrowseRequest): BrowseResult {
  index.refresh();
  const tree = treeOf(index);
  const entry = (slot: number) => index.entry(slot)!;
  let slots: number[];
  if (request.path !== undefined) {
    const at = tree.slotOfPath.get(request.path);
    slots = at === undefined ? [] : tree.children.get(at) ?? [];
    if (request.entityType !== undefined) {
      slots = slots.filter((slot) => entry(slot).document.entityType === request.entityType);
    }
  } else if (request.entityType !== undefined) {
    slots = index.slotsOfType(request.entityType).filter((slot) => {
      const { document } = entry(slot);
      return !document.glossaryRecord && document.entityType === request.entityType;
    });
  } else {
    slots = tree.roots;
  }
  const offset = request.offset ?? 0;
  const limit = request.limit ?? DEFAULT_BROWSE_LIMIT;
  const page = topOf(slots, offset + limit, (a, b) => byName(entry(a), entry(b))).slice(offset);
  return {
    "@search.count": slots.length,
    value: page.map((slot) => browseItem(entry(slot), tree)),
  };
}

/** The containment tree of the catalog's assets (slots of the index): its roots and each one's children. */
export interface ContainerTree {
  roots: readonly number[];
  children: ReadonlyMap<number, readonly number[]>;
}

/** The tree {@link browse} walks, brought up to date with the store; `navigate` walks it too. */
export function containerTree(index: SearchIndex): ContainerTree {
  index.refresh();
  const tree = treeOf(index);
  return { roots: tree.roots, children: tree.children };
}

function byName(a: IndexEntry, b: IndexEntry): number {
  if (a.nameKey !== b.nameKey) return a.nameKey < b.nameKey ? -1 : 1;
  return a.document.id < b.document.id ? -1 : a.document.id > b.document.id ? 1 : 0;
}

function browseItem(entry: IndexEntry, tree: BrowseTree): BrowseItem {
  const d = entry.document;
  const owner = d.contact.filter((c) => c.contactType === "Owner").map((c) => {
    const item: BrowseOwner = { id: c.id, contactType: "Owner" };
    if (c.info) item.displayName = c.info;
    return item;
  });
  return {
    entityType: d.entityType,
    id: d.id,
    isLeaf: !tree.children.has(entry.slot),
    name: d.name,
    owner,
    path: tree.path.get(entry.slot) ?? pathText(d, tree.path.get(tree.parent[entry.slot])),
    qualifiedName: d.qualifiedName,
  };
}

function treeOf(index: SearchIndex): BrowseTree {
  const cached = trees.get(index);
  if (cached?.generation === index.generation) return cached.tree;
  const tree = buildTree(index);
  trees.set(index, { generation: index.generation, tree });
  return tree;
}

type Asset = AssetOutline;

// Built in three passes over the assets' outlines, read from SQLite each time rather than held: a catalog
// of a million entities then needs in memory its qualified names (to find containers by name), a few slot
// arrays, and the paths of the assets with children only.
function buildTree(index: SearchIndex): BrowseTree {
  // Pass 1: which slots are assets (glossaries and terms of the glossary API are in the search index but
  // are no assets, and the outlines leave them out), and the first asset of each qualified name.
  const order: number[] = [];
  const slotOfQualifiedName = new Map<string, number>();
  let highest = -1;
  for (const { slot, qualifiedName } of index.assetOutlines()) {
    order.push(slot);
    highest = Math.max(highest, slot);
    if (!slotOfQualifiedName.has(qualifiedName)) slotOfQualifiedName.set(qualifiedName, slot);
  }
  const isAsset = new Uint8Array(highest + 1);
  for (const slot of order) isAsset[slot] = 1;
  // Pass 2: each asset's container.
  const parents = new Int32Array(highest + 1).fill(-1);
  for (const asset of index.assetOutlines()) {
    const container = referencedContainer(index, asset, isAsset, slotOfQualifiedName) ??
      qualifiedNameParent(asset.qualifiedName, slotOfQualifiedName);
    if (container !== undefined && container !== asset.slot) parents[asset.slot] = container;
  }
  slotOfQualifiedName.clear();
  // Paths, top down, of every asset that has a child (a leaf is never on a reference cycle, so walking from
  // its container cuts cycles where walking from the leaf did).
  const hasChild = new Uint8Array(highest + 1);
  for (const slot of order) if (parents[slot] >= 0) hasChild[parents[slot]] = 1;
  const outlines = new Map<number, Asset>();
  const outlineOf = (slot: number) => {
    let outline = outlines.get(slot);
    if (!outline) outlines.set(slot, outline = index.assetOutline(slot)!);
    return outline;
  };
  const path = new Map<number, string>();
  for (const slot of order) {
    const from = hasChild[slot] ? slot : parents[slot];
    if (from >= 0) pathOf(from, outlineOf, parents, path);
  }
  outlines.clear();
  const children = new Map<number, number[]>();
  const roots: number[] = [];
  for (const slot of order) {
    const up = parents[slot];
    if (up < 0) {
      roots.push(slot);
    } else {
      const siblings = children.get(up);
      if (siblings) siblings.push(slot);
      else children.set(up, [slot]);
    }
  }
  for (const slot of path.keys()) if (!children.has(slot)) path.delete(slot);
  // Pass 3: the asset at each path, the last of several as before; only assets with children are kept (a
  // leaf has nothing to browse into), but a later leaf with the same path still hides an earlier one.
  const slotOfPath = new Map<string, number>();
  for (const slot of order) {
    const text = path.get(slot);
    if (text !== undefined) slotOfPath.set(text, slot);
  }
  for (const outline of index.assetOutlines()) {
    if (children.has(outline.slot)) continue;
    const up = parents[outline.slot];
    const text = pathText(outline, up < 0 ? undefined : path.get(up));
    const holder = slotOfPath.get(text);
    if (holder !== undefined && holder < outline.slot) slotOfPath.delete(text);
  }
  return { children, roots, parent: parents, path, slotOfPath };
}

function referencedContainer(
  index: SearchIndex,
  asset: Asset,
  isAsset: Uint8Array,
  slotOfQualifiedName: Map<string, number>,
): number | undefined {
  for (const reference of asset.containers) {
    if (reference.guid !== undefined) {
      const slot = index.slotOf(reference.guid);
      if (slot !== undefined && isAsset[slot] === 1) return slot;
    }
    if (reference.qualifiedName !== undefined) {
      const slot = slotOfQualifiedName.get(reference.qualifiedName);
      if (slot !== undefined) return slot;
    }
  }
  return undefined;
}

// A root's path is its type and qualified name without the scheme; a child's, its parent's and its own
// type and name.
function pathText(
  d: { entityType: string; name: string; qualifiedName: string },
  parentPath?: string,
): string {
  return parentPath === undefined
    ? `/${d.entityType}#${d.qualifiedName.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")}`
    : `${parentPath}/${d.entityType}#${d.name}`;
}

// The entity whose qualified name is the longest proper prefix ending before a "/" or "#" (not inside the
// scheme's "://").
function qualifiedNameParent(
  qualifiedName: string,
  slotOfQualifiedName: Map<string, number>,
): number | undefined {
  const scheme = qualifiedName.indexOf("://");
  const floor = scheme >= 0 ? scheme + 3 : 0;
  for (let i = qualifiedName.length - 1; i > floor; i--) {
    const c = qualifiedName[i];
    if (c !== "/" && c !== "#") continue;
    const slot = slotOfQualifiedName.get(qualifiedName.slice(0, i));
    if (slot !== undefined) return slot;
  }
  return undefined;
}

// Walks up to a root or a known path, then fills in paths on the way down. A reference cycle is cut at
// the entity where it closes, which becomes a root.
function pathOf(
  slot: number,
  outlineOf: (slot: number) => Asset,
  parents: Int32Array,
  path: Map<number, string>,
): void {
  const chain: number[] = [];
  const onChain = new Set<number>();
  let at = slot;
  while (at >= 0 && !path.has(at)) {
    if (onChain.has(at)) {
      parents[chain[chain.length - 1]] = -1;
      break;
    }
    chain.push(at);
    onChain.add(at);
    at = parents[at];
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    const up = parents[chain[i]];
    path.set(chain[i], pathText(outlineOf(chain[i]), up < 0 ? undefined : path.get(up)));
  }
}
