/**
 * The collections of the account API (2019-11-01-preview), mounted without a prefix beside `GET /account`:
 * list (paged with `$skipToken` and `nextLink`), get, create or update (PUT), delete, the names of a
 * collection's children (paged) and its path from the root.
 *
 * Collections form a tree under the root collection, which is named after the account and cannot be deleted
 * or moved. A PUT checks the name (3 to 36 letters, digits or hyphens), that the parent exists and that the
 * move would not put a collection under itself; a delete is refused while the collection has child
 * collections or assets (entities whose `collectionId` names it). Errors use the account API's
 * `{"error": {code, message, target, details}}` shape.
 *
 * @example
 * ```ts
 * import { createCollectionsArea } from "./area.ts";
 * // A small page size, so tests see nextLink without creating hundreds of collections.
 * const area = createCollectionsArea({ pageSize: 2 });
 * ```
 *
 * @module
 */
import type { ApiArea, AreaDependencies } from "../area.ts";
import {
  collectionNameProblem,
  collectionNotFound,
  duplicateFriendlyName,
  hasAssets,
  hasChildCollections,
  invalidCollectionBody,
  invalidCollectionName,
  invalidParent,
  invalidSkipToken,
  rootNotDeletable,
} from "./errors.ts";
import { API_IDENTITY, CollectionStore, type StoredCollection } from "./store.ts";
import { jsonResponse } from "../errors.ts";
import { decodeSkipToken, encodeSkipToken, SKIP_TOKEN } from "../skip_tokens.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";

/** Collections per page of the list routes unless the area is built with another size. */
export const DEFAULT_COLLECTIONS_PAGE_SIZE = 100;

/** How to build the area. */
export interface CollectionsAreaOptions {
  /** Items per page of `GET /account/collections` and `getChildCollectionNames`. */
  pageSize?: number;
}

/** Builds the collections area; {@link collectionsArea} is the one the emulator mounts. */
export function createCollectionsArea(options: CollectionsAreaOptions = {}): ApiArea {
  const pageSize = Math.max(1, Math.floor(options.pageSize ?? DEFAULT_COLLECTIONS_PAGE_SIZE));
  return (deps) => collectionRoutes(deps, CollectionStore.open(deps.store, deps.now()), pageSize);
}

/** Routes of the collections area (paths start with `/account`, as the area is mounted with no prefix). */
export const collectionsArea: ApiArea = createCollectionsArea();

function collectionRoutes(
  deps: AreaDependencies,
  store: CollectionStore,
  pageSize: number,
): RouteDefinition[] {
  const existing = (name: string): StoredCollection =>
    store.get(name) ?? throwError(collectionNotFound(name));
  return [
    {
      method: "GET",
      path: "/account/collections",
      handler: ({ url }) => jsonResponse(page(url, store.list().map(toWire), pageSize)),
    },
    {
      method: "GET",
      path: "/account/collections/{collectionName}",
      handler: ({ params }) => jsonResponse(toWire(existing(params.collectionName))),
    },
    {
      method: "PUT",
      path: "/account/collections/{collectionName}",
      handler: async (ctx) => jsonResponse(toWire(await createOrUpdate(ctx, store, deps.now()))),
    },
    {
      method: "DELETE",
      path: "/account/collections/{collectionName}",
      handler: ({ params }) => {
        const collection = existing(params.collectionName);
        refuseDelete(collection, store, deps);
        store.delete(collection.name);
        return new Response(null, { status: 204 });
      },
    },
    {
      method: "GET",
      path: "/account/collections/{collectionName}/getChildCollectionNames",
      handler: ({ params, url }) => {
        const children = store.children(existing(params.collectionName).name)
          .map((child) => ({ name: child.name, friendlyName: child.friendlyName }));
        return jsonResponse(page(url, children, pageSize));
      },
    },
    {
      method: "GET",
      path: "/account/collections/{collectionName}/getCollectionPath",
      handler: ({ params }) => {
        const ancestors = store.ancestors(existing(params.collectionName).name);
        return jsonResponse({
          parentNameChain: ancestors.map((c) => c.name),
          parentFriendlyNameChain: ancestors.map((c) => c.friendlyName),
        });
      },
    },
  ];
}

/** The fields of a PUT body the service reads; read-only ones (`name`, `systemData`, …) are ignored. */
interface CollectionBody {
  friendlyName?: string;
  description?: string;
  parentName?: string;
}

async function createOrUpdate(
  ctx: RouteContext,
  store: CollectionStore,
  now: number,
): Promise<StoredCollection> {
  const requested = ctx.params.collectionName;
  const problem = collectionNameProblem(requested);
  if (problem) {
    await ctx.request.body?.cancel();
    throw invalidCollectionName(requested, problem);
  }
  const body = readCollectionBody(await ctx.request.text());
  const current = store.get(requested);
  const isRoot = current !== undefined && current.parent === undefined;
  let parent: StoredCollection | undefined;
  if (isRoot) {
    if (body.parentName !== undefined) {
      throw invalidParent(`Collection '${current.name}' is the root collection and cannot have a parent.`);
    }
  } else {
    const parentName = body.parentName ?? current?.parent;
    if (parentName === undefined) {
      throw invalidParent(
        `A new collection needs parentCollection.referenceName; the root collection is '${store.root().name}'.`,
      );
    }
    parent = store.get(parentName);
    if (!parent) throw invalidParent(`Parent collection '${parentName}' does not exist.`);
    const lineage = [...store.ancestors(parent.name).map((c) => c.name), parent.name];
    if (lineage.includes(requested.toLowerCase())) {
      throw invalidParent(
        `Collection '${requested}' cannot move under '${parent.name}': it would become its own ancestor.`,
      );
    }
  }
  const friendlyName = body.friendlyName ?? current?.friendlyName ?? requested;
  if (parent) {
    const clash = store.children(parent.name).find((sibling) =>
      sibling.name !== requested.toLowerCase() &&
      sibling.friendlyName.toLowerCase() === friendlyName.toLowerCase()
    );
    if (clash) throw duplicateFriendlyName(friendlyName, parent.name, clash.name);
  }
  const description = body.description === undefined ? current?.description : body.description || undefined;
  return store.put(
    { name: requested, friendlyName, description, parent: parent?.name },
    API_IDENTITY,
    now,
  );
}

function readCollectionBody(text: string): CollectionBody {
  if (text.trim() === "") {
    throw invalidCollectionBody(
      "The request body must be a collection, e.g. " +
        '{"friendlyName": "Finance", "parentCollection": {"referenceName": "<parent name>"}}.',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidCollectionBody(`The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(value)) throw invalidCollectionBody("The request body must be a JSON object.");
  const body: CollectionBody = {};
  if (value.friendlyName !== undefined && value.friendlyName !== null) {
    if (typeof value.friendlyName !== "string" || value.friendlyName.trim() === "") {
      throw invalidCollectionBody("friendlyName must be a non-empty string.", "friendlyName");
    }
    body.friendlyName = value.friendlyName;
  }
  if (value.description !== undefined && value.description !== null) {
    if (typeof value.description !== "string") {
      throw invalidCollectionBody("description must be a string.", "description");
    }
    body.description = value.description;
  }
  const parent = value.parentCollection;
  if (parent !== undefined && parent !== null) {
    if (!isRecord(parent) || typeof parent.referenceName !== "string" || parent.referenceName === "") {
      throw invalidParent('parentCollection must be {"referenceName": "<parent collection name>"}.');
    }
    body.parentName = parent.referenceName;
  }
  return body;
}

function refuseDelete(collection: StoredCollection, store: CollectionStore, deps: AreaDependencies): void {
  if (collection.parent === undefined) throw rootNotDeletable(collection.name);
  const children = store.children(collection.name);
  if (children.length > 0) throw hasChildCollections(collection.name, children.map((c) => c.name));
  const assets = deps.store.list()
    .filter((entity) => entity.collectionId?.toLowerCase() === collection.name).length;
  if (assets > 0) throw hasAssets(collection.name, assets);
}

/** A collection in the contract's shape. */
function toWire(collection: StoredCollection): Record<string, unknown> {
  return {
    name: collection.name,
    friendlyName: collection.friendlyName,
    ...(collection.description === undefined ? {} : { description: collection.description }),
    ...(collection.parent === undefined
      ? {}
      : { parentCollection: { type: "CollectionReference", referenceName: collection.parent } }),
    collectionProvisioningState: "Succeeded",
    systemData: {
      createdBy: collection.createdBy,
      createdByType: collection.createdByType,
      createdAt: new Date(collection.createdAt).toISOString(),
      lastModifiedBy: collection.lastModifiedBy,
      lastModifiedByType: collection.lastModifiedByType,
      lastModifiedAt: new Date(collection.lastModifiedAt).toISOString(),
    },
  };
}

/**
 * One page of `items`: `{value, count, nextLink}` where `count` is the total and `nextLink` (absent on the
 * last page) repeats the request's URL with the next `$skipToken`. Tokens are opaque offsets.
 */
function page<T>(url: URL, items: T[], pageSize: number): Record<string, unknown> {
  const offset = skipTokenOffset(url.searchParams.get(SKIP_TOKEN));
  const value = items.slice(offset, offset + pageSize);
  const result: Record<string, unknown> = { value, count: items.length };
  if (offset + pageSize < items.length) {
    const next = new URL(url.pathname, url.origin);
    const apiVersion = url.searchParams.get("api-version");
    if (apiVersion) next.searchParams.set("api-version", apiVersion);
    next.searchParams.set(SKIP_TOKEN, encodeSkipToken("offset", offset + pageSize));
    result.nextLink = next.toString();
  }
  return result;
}

function skipTokenOffset(token: string | null): number {
  return decodeSkipToken("offset", token) ?? throwError(invalidSkipToken());
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function throwError(error: Error): never {
  throw error;
}
