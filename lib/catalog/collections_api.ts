/**
 * Collection calls of the account API (2019-11-01-preview): list (every page, or one), get, create or
 * update, delete, the names of a collection's children and its path from the root; and the catalog API's
 * (2023-02-01-preview) writes of entities into a collection (create or update one or many, move here).
 *
 * Pages are followed by the `$skipToken` their `nextLink` carries, sent to the configured account
 * endpoint: a `nextLink` naming another host never receives the bearer token.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * async function addFinanceEu(): Promise<void> {
 *   for await (const collection of client.collections.list()) console.log(collection.name);
 *   await client.collections.createOrUpdate("finance-eu", {
 *     friendlyName: "Finance EU",
 *     parentCollection: { referenceName: "finance" },
 *   });
 * }
 * ```
 *
 * @module
 */
import { CatalogError } from "../core/errors.ts";
import type { HttpClient } from "../http/client.ts";
import { pageSignature } from "../http/paging_guard.ts";
import type {
  Collection,
  CollectionInput,
  CollectionList,
  CollectionName,
  CollectionNameList,
  CollectionPath,
} from "./collections_types.ts";
import type {
  AtlasEntitiesWithExtInfo,
  AtlasEntity,
  AtlasEntityWithExtInfo,
  EntityMutationResult,
} from "./atlas_model.ts";

const COLLECTIONS = "/account/collections";
/** The collection-scoped entity writes live in the catalog API, with its own api-version. */
const CATALOG_COLLECTIONS = "/catalog/api/collections";
const CATALOG_API_VERSION = "2023-02-01-preview";
const SKIP_TOKEN = "$skipToken";

/** The collection calls of one account (`client.collections`). */
export class CollectionsApi {
  /** The HTTP core every call goes through. */
  protected readonly http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds one as `client.collections`. */
  constructor(http: HttpClient) {
    this.http = http;
  }

  /** Every collection of the account, page after page, as an async iterator. */
  async *list(options: { signal?: AbortSignal } = {}): AsyncGenerator<Collection> {
    yield* this.#pages("the collection list", (token) => this.listPage(token, options.signal));
  }

  /** Every collection of the account, in one array. */
  async listAll(options: { signal?: AbortSignal } = {}): Promise<Collection[]> {
    const all: Collection[] = [];
    for await (const collection of this.list(options)) all.push(collection);
    return all;
  }

  /** One page of collections; give the `$skipToken` of the previous page's `nextLink` for the next. */
  listPage(skipToken?: string, signal?: AbortSignal): Promise<CollectionList> {
    return this.http.request({
      method: "GET",
      area: "account",
      path: COLLECTIONS,
      query: { [SKIP_TOKEN]: skipToken },
      signal,
    });
  }

  /** One collection by name (404 NotFoundError when it does not exist). */
  get(name: string, signal?: AbortSignal): Promise<Collection> {
    return this.http.request({ method: "GET", area: "account", path: collectionPath(name), signal });
  }

  /**
   * Creates the collection, or updates it when it exists. A new collection needs `parentCollection`; an
   * update that leaves it out keeps the current parent.
   */
  createOrUpdate(name: string, collection: CollectionInput, signal?: AbortSignal): Promise<Collection> {
    return this.http.request({
      method: "PUT",
      area: "account",
      path: collectionPath(name),
      body: collection,
      signal,
    });
  }

  /** Deletes a collection; the service refuses while it has child collections or assets. */
  async delete(name: string, signal?: AbortSignal): Promise<void> {
    await this.http.request({ method: "DELETE", area: "account", path: collectionPath(name), signal });
  }

  /** The names and friendly names of a collection's direct children, every page. */
  async childNames(name: string, signal?: AbortSignal): Promise<CollectionName[]> {
    const names: CollectionName[] = [];
    const pages = this.#pages<CollectionName>(
      `the child collections of ${name}`,
      (token) =>
        this.http.request<CollectionNameList>({
          method: "GET",
          area: "account",
          path: `${collectionPath(name)}/getChildCollectionNames`,
          query: { [SKIP_TOKEN]: token },
          signal,
        }),
    );
    for await (const child of pages) names.push(child);
    return names;
  }

  /** The names and friendly names of a collection's ancestors, from the root to its parent. */
  path(name: string, signal?: AbortSignal): Promise<CollectionPath> {
    return this.http.request({
      method: "GET",
      area: "account",
      path: `${collectionPath(name)}/getCollectionPath`,
      signal,
    });
  }

  // ---- Entities of a collection (catalog API, 2023-02-01-preview) -----------------------------------------

  /**
   * Creates or updates an entity (and its referred entities) in the collection
   * (`POST /catalog/api/collections/{collection}/entity`); an upsert by qualified name, so safe to repeat.
   */
  createOrUpdateEntity(
    collection: string,
    entity: AtlasEntity | AtlasEntityWithExtInfo,
    signal?: AbortSignal,
  ): Promise<EntityMutationResult> {
    const body = "entity" in entity && typeof entity.entity === "object" ? entity : { entity };
    return this.#collectionEntity(collection, "", body, signal);
  }

  /** Creates or updates many entities in the collection (`.../entity/bulk`); safe to repeat. */
  createOrUpdateEntities(
    collection: string,
    entities: AtlasEntity[] | AtlasEntitiesWithExtInfo,
    signal?: AbortSignal,
  ): Promise<EntityMutationResult> {
    const body = Array.isArray(entities) ? { entities } : entities;
    return this.#collectionEntity(collection, "/bulk", body, signal);
  }

  /** Moves entities into the collection (`.../entity/moveHere`); repeating it changes nothing more. */
  moveEntitiesHere(collection: string, guids: string[], signal?: AbortSignal): Promise<EntityMutationResult> {
    return this.#collectionEntity(collection, "/moveHere", { entityGuids: guids }, signal);
  }

  #collectionEntity(
    collection: string,
    suffix: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<EntityMutationResult> {
    return this.http.request({
      method: "POST",
      path: `${CATALOG_COLLECTIONS}/${encodeURIComponent(collection)}/entity${suffix}`,
      apiVersion: CATALOG_API_VERSION,
      body,
      idempotent: true,
      signal,
    });
  }

  async *#pages<T>(
    what: string,
    fetchPage: (skipToken?: string) => Promise<{ value?: T[]; nextLink?: string }>,
  ): AsyncGenerator<T> {
    const guard = this.http.pagingGuard(what);
    let token: string | undefined;
    for (;;) {
      guard.beforePage(token);
      const result = await fetchPage(token);
      const items = Array.isArray(result?.value) ? result.value : [];
      guard.afterPage(items.length, pageSignature(items, (item) => (item as { name?: unknown }).name));
      yield* items;
      if (!result?.nextLink) return;
      token = skipTokenOf(result.nextLink);
    }
  }
}

function collectionPath(name: string): string {
  return `${COLLECTIONS}/${encodeURIComponent(name)}`;
}

function skipTokenOf(nextLink: string): string {
  let token: string | null = null;
  try {
    token = new URL(nextLink, "http://next.invalid").searchParams.get(SKIP_TOKEN);
  } catch {
    // Reported below.
  }
  if (!token) throw brokenPaging(`nextLink carries no ${SKIP_TOKEN}: ${nextLink}`);
  return token;
}

function brokenPaging(detail: string): CatalogError {
  return new CatalogError({
    message: `The collection list could not be paged: ${detail}.`,
    hint: "Retry; if it persists, list with a smaller scope or report the account's paging problem.",
  });
}
