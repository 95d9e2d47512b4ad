/**
 * Atlas v2 entity calls: get, create or update, bulk, by unique attribute, delete.
 *
 * @module
 */
import type { HttpClient } from "../http.ts";
import { ATLAS_V2, segment } from "./paths.ts";
import type {
  AtlasEntitiesWithExtInfo,
  AtlasEntity,
  AtlasEntityWithExtInfo,
  EntityMutationResult,
} from "./types.ts";

export interface GetEntityOptions {
  /** Return only minimal information about referred entities. */
  minExtInfo?: boolean;
  /** Leave out relationship attributes. */
  ignoreRelationships?: boolean;
  signal?: AbortSignal;
}

export class EntityApi {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Entity by GUID with its referred entities. */
  get(guid: string, options: GetEntityOptions = {}): Promise<AtlasEntityWithExtInfo> {
    return this.#http.request({
      method: "GET",
      path: `${ATLAS_V2}/entity/guid/${segment(guid)}`,
      query: { minExtInfo: options.minExtInfo, ignoreRelationships: options.ignoreRelationships },
      signal: options.signal,
    });
  }

  /** Entity by type name and unique attribute (qualifiedName). */
  getByUniqueAttribute(
    typeName: string,
    qualifiedName: string,
    options: GetEntityOptions = {},
  ): Promise<AtlasEntityWithExtInfo> {
    return this.#http.request({
      method: "GET",
      path: `${ATLAS_V2}/entity/uniqueAttribute/type/${segment(typeName)}`,
      query: {
        "attr:qualifiedName": qualifiedName,
        minExtInfo: options.minExtInfo,
        ignoreRelationships: options.ignoreRelationships,
      },
      signal: options.signal,
    });
  }

  /** Many entities by GUID in one call. */
  getMany(guids: string[], options: GetEntityOptions = {}): Promise<AtlasEntitiesWithExtInfo> {
    return this.#http.request({
      method: "GET",
      path: `${ATLAS_V2}/entity/bulk`,
      query: {
        guid: guids,
        minExtInfo: options.minExtInfo,
        ignoreRelationships: options.ignoreRelationships,
      },
      signal: options.signal,
    });
  }

  /**
   * Creates the entity, or updates the one with the same type and qualifiedName. An upsert by unique
   * attribute, so repeating it is harmless and the HTTP core may retry it.
   */
  createOrUpdate(
    entity: AtlasEntity | AtlasEntityWithExtInfo,
    signal?: AbortSignal,
  ): Promise<EntityMutationResult> {
    const body = "entity" in entity && typeof entity.entity === "object" ? entity : { entity };
    return this.#http.request({
      method: "POST",
      path: `${ATLAS_V2}/entity`,
      body,
      idempotent: true,
      signal,
    });
  }

  /** Creates or updates many entities in one call (Atlas applies them together). */
  createOrUpdateMany(
    entities: AtlasEntity[] | AtlasEntitiesWithExtInfo,
    signal?: AbortSignal,
  ): Promise<EntityMutationResult> {
    const body = Array.isArray(entities) ? { entities } : entities;
    return this.#http.request({
      method: "POST",
      path: `${ATLAS_V2}/entity/bulk`,
      body,
      idempotent: true,
      signal,
    });
  }

  delete(guid: string, signal?: AbortSignal): Promise<EntityMutationResult> {
    return this.#http.request({ method: "DELETE", path: `${ATLAS_V2}/entity/guid/${segment(guid)}`, signal });
  }

  deleteByUniqueAttribute(
    typeName: string,
    qualifiedName: string,
    signal?: AbortSignal,
  ): Promise<EntityMutationResult> {
    return this.#http.request({
      method: "DELETE",
      path: `${ATLAS_V2}/entity/uniqueAttribute/type/${segment(typeName)}`,
      query: { "attr:qualifiedName": qualifiedName },
      signal,
    });
  }

  deleteMany(guids: string[], signal?: AbortSignal): Promise<EntityMutationResult> {
    return this.#http.request({
      method: "DELETE",
      path: `${ATLAS_V2}/entity/bulk`,
      query: { guid: guids },
      signal,
    });
  }
}
