/**
 * Atlas v2 entity calls: read (by GUID, by unique attribute, in bulk, headers), create or update, partial
 * updates, delete and moving entities between collections. Classifications, labels and business metadata
 * are inherited from {@link EntityMetadataApi} (`entity_metadata_api.ts`), so all are `client.entity.…`.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { HttpClient } from "../http/client.ts";
 * const client = new CatalogClient(new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" } }));
 * // const header = await client.entity.getHeader(guid);
 * // await client.entity.partialUpdateAttribute(guid, "description", "Revenue per quarter");
 * ```
 *
 * @module
 */
import type { QueryValue } from "../http/request_url.ts";
import { ENTITY_PATH, EntityMetadataApi, uniqueAttributePath } from "./entity_metadata_api.ts";
import { DATAMAP_PREFIX, segment } from "./paths.ts";
import type {
  AtlasEntitiesWithExtInfo,
  AtlasEntity,
  AtlasEntityHeader,
  AtlasEntityWithExtInfo,
  EntityMutationResult,
} from "./atlas_model.ts";

export type { BusinessMetadataWriteOptions } from "./entity_metadata_api.ts";

/** Options of the entity reads of {@link EntityApi}. */
export interface GetEntityOptions {
  /** Return only minimal information about referred entities. */
  minExtInfo?: boolean;
  /** Leave out relationship attributes. */
  ignoreRelationships?: boolean;
  /** Aborts the request. */
  signal?: AbortSignal;
}

const ENTITY = ENTITY_PATH;
const uniquePath = uniqueAttributePath;

/** Entity calls; the classification, label and business metadata ones come from {@link EntityMetadataApi}. */
export class EntityApi extends EntityMetadataApi {
  // ---- Read -------------------------------------------------------------------------------------------

  /** Entity by GUID with its referred entities. */
  get(guid: string, options: GetEntityOptions = {}): Promise<AtlasEntityWithExtInfo> {
    return this.http.request({
      method: "GET",
      path: `${ENTITY}/guid/${segment(guid)}`,
      query: readQuery(options),
      signal: options.signal,
    });
  }

  /** The entity's header: guid, type, name, status, classification names and labels, no attributes. */
  getHeader(guid: string, signal?: AbortSignal): Promise<AtlasEntityHeader> {
    return this.http.request({ method: "GET", path: `${ENTITY}/guid/${segment(guid)}/header`, signal });
  }

  /** Entity by type name and unique attribute (qualifiedName). */
  getByUniqueAttribute(
    typeName: string,
    qualifiedName: string,
    options: GetEntityOptions = {},
  ): Promise<AtlasEntityWithExtInfo> {
    return this.http.request({
      method: "GET",
      path: uniquePath(typeName),
      query: { "attr:qualifiedName": qualifiedName, ...readQuery(options) },
      signal: options.signal,
    });
  }

  /** Many entities of one type by their qualified names (`attr_1:qualifiedName`, `attr_2:…`). */
  listByUniqueAttributes(
    typeName: string,
    qualifiedNames: string[],
    options: GetEntityOptions = {},
  ): Promise<AtlasEntitiesWithExtInfo> {
    const names: Record<string, QueryValue> = {};
    qualifiedNames.forEach((name, i) => (names[`attr_${i + 1}:qualifiedName`] = name));
    return this.http.request({
      method: "GET",
      path: `${ENTITY}/bulk/uniqueAttribute/type/${segment(typeName)}`,
      query: { ...names, ...readQuery(options) },
      signal: options.signal,
    });
  }

  /** Many entities by GUID in one call. */
  getMany(guids: string[], options: GetEntityOptions = {}): Promise<AtlasEntitiesWithExtInfo> {
    return this.http.request({
      method: "GET",
      path: `${ENTITY}/bulk`,
      query: { guid: guids, ...readQuery(options) },
      signal: options.signal,
    });
  }

  // ---- Write ------------------------------------------------------------------------------------------

  /**
   * Creates the entity, or updates the one with the same type and qualifiedName. An upsert by unique
   * attribute, so repeating it is harmless and the HTTP core may retry it.
   */
  createOrUpdate(
    entity: AtlasEntity | AtlasEntityWithExtInfo,
    signal?: AbortSignal,
  ): Promise<EntityMutationResult> {
    const body = "entity" in entity && typeof entity.entity === "object" ? entity : { entity };
    return this.http.request({ method: "POST", path: ENTITY, body, idempotent: true, signal });
  }

  /**
   * Creates or updates many entities in one call (Atlas applies them together). `collectionId` puts every
   * written entity in that collection; `businessAttributeUpdateBehavior` says what an update does with the
   * business metadata it carries (the service ignores it by default).
   */
  createOrUpdateMany(
    entities: AtlasEntity[] | AtlasEntitiesWithExtInfo,
    signal?: AbortSignal,
    options: {
      collectionId?: string;
      businessAttributeUpdateBehavior?: "ignore" | "merge" | "replace";
      /**
       * Whether the HTTP core may repeat the call after a lost answer (default true: an upsert by unique
       * attribute). Bulk imports say false and check what was applied instead, so no row is written twice.
       */
      idempotent?: boolean;
    } = {},
  ): Promise<EntityMutationResult> {
    const body = Array.isArray(entities) ? { entities } : entities;
    return this.http.request({
      method: "POST",
      path: `${ENTITY}/bulk`,
      query: {
        collectionId: options.collectionId,
        businessAttributeUpdateBehavior: options.businessAttributeUpdateBehavior,
      },
      body,
      idempotent: options.idempotent ?? true,
      signal,
    });
  }

  /** Sets one attribute of an entity to `value` (any JSON value), leaving the others as they are. */
  partialUpdateAttribute(
    guid: string,
    attributeName: string,
    value: unknown,
    signal?: AbortSignal,
  ): Promise<EntityMutationResult> {
    return this.http.request({
      method: "PUT",
      path: `${ENTITY}/guid/${segment(guid)}`,
      query: { name: attributeName },
      // Encoded here: the HTTP core would send a bare string as is, and the service expects JSON.
      body: JSON.stringify(value ?? null),
      headers: { "content-type": "application/json" },
      signal,
    });
  }

  /** Updates the entity found by type and qualifiedName with the attributes given in `entity`. */
  partialUpdateByUniqueAttribute(
    typeName: string,
    qualifiedName: string,
    entity: AtlasEntityWithExtInfo,
    signal?: AbortSignal,
  ): Promise<EntityMutationResult> {
    return this.http.request({
      method: "PUT",
      path: uniquePath(typeName),
      query: { "attr:qualifiedName": qualifiedName },
      body: entity,
      signal,
    });
  }

  /**
   * Deletes the entity with this GUID. Atlas deletes softly: the entity stays readable with status
   * `DELETED`. The answer lists the entities deleted (contained ones, such as columns, included).
   */
  delete(guid: string, signal?: AbortSignal): Promise<EntityMutationResult> {
    return this.http.request({ method: "DELETE", path: `${ENTITY}/guid/${segment(guid)}`, signal });
  }

  /**
   * Deletes the entity of type `typeName` with this `qualifiedName`, softly like {@link EntityApi.delete}.
   */
  deleteByUniqueAttribute(
    typeName: string,
    qualifiedName: string,
    signal?: AbortSignal,
  ): Promise<EntityMutationResult> {
    return this.http.request({
      method: "DELETE",
      path: uniquePath(typeName),
      query: { "attr:qualifiedName": qualifiedName },
      signal,
    });
  }

  /** Deletes every entity of `guids` in one request, softly like {@link EntityApi.delete}. */
  deleteMany(guids: string[], signal?: AbortSignal): Promise<EntityMutationResult> {
    return this.http.request({ method: "DELETE", path: `${ENTITY}/bulk`, query: { guid: guids }, signal });
  }

  /** Moves entities into another collection (`POST /entity/moveTo`). Repeating it changes nothing more. */
  moveToCollection(
    collectionId: string,
    guids: string[],
    signal?: AbortSignal,
  ): Promise<EntityMutationResult> {
    return this.http.request({
      method: "POST",
      path: `${DATAMAP_PREFIX}/entity/moveTo`,
      query: { collectionId },
      body: { entityGuids: guids },
      idempotent: true,
      signal,
    });
  }
}

function readQuery(options: GetEntityOptions): Record<string, QueryValue> {
  return { minExtInfo: options.minExtInfo, ignoreRelationships: options.ignoreRelationships };
}
