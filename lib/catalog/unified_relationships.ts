/**
 * Relationships of terms, data products and critical data elements to other catalog entities
 * (`/{entityType}/{entityId}/relationships`): the generic {@link RelationshipsApi} (`client.relationships`)
 * and {@link RelatedResource}, a kind with `createRelationship`, `listRelationships` and
 * `deleteRelationship` of its own.
 *
 * @example
 * ```ts
 * import { UnifiedCatalogClient } from "./unified_api.ts";
 * import { loadConfig } from "../config/config.ts";
 * const url = "http://127.0.0.1:8085";
 * const client = UnifiedCatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: url, CATALOG_UNIFIED_ENDPOINT: url }),
 * );
 * async function linkSynonyms(): Promise<void> {
 *   await client.terms.createRelationship("term-1", { entityId: "term-2", relationshipType: "synonym" }, {
 *     entityType: "term",
 *   });
 *   for await (const link of client.relationships.list("terms", "term-1")) console.log(link.entityId);
 * }
 * ```
 *
 * @module
 */
import { z, type ZodType } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import type { HttpClient } from "../http/client.ts";
import { canonicalEnumValue, RELATIONSHIP_PATH_SEGMENTS, TERM_RELATIONSHIP_TYPES } from "./unified_enums.ts";
import { followPages } from "./unified_paging.ts";
import {
  idSegment,
  parseEntity,
  type ResourceSpec,
  UNIFIED_PREFIX,
  UnifiedResource,
  type UnifiedSchemas,
  unifiedSchemas,
} from "./unified_resource.ts";
import type { Relationship, RelationshipInput } from "./unified_query_schemas.ts";

/** Filters of a relationship list; both accept any letter case. */
export interface RelationshipFilter {
  /** Only relationships to entities of this category (`TERM`, `DATAPRODUCT`, `DATAASSET`, ...). */
  entityType?: string;
  /** Only relationships of this type: `Related`, `Synonym` or `Parent`. */
  relationshipType?: string;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** What names the relationship to delete. */
export interface RelationshipTarget extends RelationshipFilter {
  /** Id of the related entity whose relationship is removed. */
  entityId: string;
}

/**
 * The path segment of a kind with relationships, from a segment (`terms`, `dataProducts`) or an entity
 * category (`TERM`, `dataproduct`), any letter case.
 */
export function relationshipSegment(entityType: string): string {
  const wanted = String(entityType ?? "").trim().toLowerCase();
  for (const [category, segment] of Object.entries(RELATIONSHIP_PATH_SEGMENTS)) {
    if (wanted === category.toLowerCase() || wanted === segment.toLowerCase()) return segment;
  }
  const known = Object.values(RELATIONSHIP_PATH_SEGMENTS).join(", ");
  throw new UsageError(`entityType "${entityType}" has no relationships; use one of ${known}.`);
}

let entityTypeFilter: ZodType<{ entityType: string }> | undefined;

/** The query parameters of a relationship call, with enumerations checked and normalised. */
function relationshipQuery(
  filter: Partial<RelationshipTarget>,
  { entityCategorySchema, validateInput }: UnifiedSchemas,
): Record<string, string | undefined> {
  let relationshipType: string | undefined;
  if (filter.relationshipType !== undefined) {
    relationshipType = canonicalEnumValue(TERM_RELATIONSHIP_TYPES, filter.relationshipType);
    if (!relationshipType) {
      throw new UsageError(
        `relationshipType must be one of ${
          TERM_RELATIONSHIP_TYPES.join(", ")
        }, not "${filter.relationshipType}".`,
      );
    }
  }
  return {
    entityType: filter.entityType === undefined ? undefined : validateInput(
      entityTypeFilter ??= z.object({ entityType: entityCategorySchema }),
      { entityType: filter.entityType },
      "relationship filter",
    ).entityType,
    relationshipType,
    entityId: filter.entityId,
  };
}

/** Relationship calls addressed by kind and id (`client.relationships`). */
export class RelationshipsApi {
  readonly #http: HttpClient;
  readonly #apiVersion?: string;
  /**
   * The calls, sent through `http`; `UnifiedCatalogClient` builds one as `client.relationships`.
   * `apiVersion` overrides the area's (the data asset and data column relationships of 2026-03-20-preview).
   */
  constructor(http: HttpClient, apiVersion?: string) {
    this.#http = http;
    this.#apiVersion = apiVersion;
  }

  #path(entityType: string, entityId: string): string {
    return `${UNIFIED_PREFIX}/${relationshipSegment(entityType)}/${
      idSegment(entityId, "entityId")
    }/relationships`;
  }

  /** Every entity related to one entity (`GET /{entityType}/{entityId}/relationships`). */
  async *list(
    entityType: string,
    entityId: string,
    filter: RelationshipFilter = {},
  ): AsyncGenerator<Relationship> {
    const { signal, ...rest } = filter;
    const query = relationshipQuery(rest, await unifiedSchemas());
    yield* followPages<Relationship>(this.#http, {
      path: this.#path(entityType, entityId),
      query,
      signal,
      apiVersion: this.#apiVersion,
    });
  }

  /** Relates an entity to another; `options.entityType` is the category of the related entity. */
  async create(
    entityType: string,
    entityId: string,
    input: RelationshipInput,
    options: { entityType: string; signal?: AbortSignal },
  ): Promise<Relationship> {
    if (!options?.entityType) throw new UsageError("entityType (of the related entity) is required.");
    const schemas = await unifiedSchemas();
    const body = schemas.validateInput(schemas.relationshipInputSchema, input, "relationship");
    const created = await this.#http.request({
      method: "POST",
      area: "unified",
      path: this.#path(entityType, entityId),
      query: relationshipQuery({ entityType: options.entityType }, schemas),
      body,
      idempotent: false,
      apiVersion: this.#apiVersion,
      signal: options.signal,
    });
    return parseEntity<Relationship>(schemas.relationshipSchema, created ?? body, "relationship");
  }

  /** Removes the relationship to `target.entityId`. */
  async delete(entityType: string, entityId: string, target: RelationshipTarget): Promise<void> {
    if (!target?.entityId) throw new UsageError("entityId (of the related entity) is required.");
    const { signal, ...rest } = target;
    await this.#http.request({
      method: "DELETE",
      area: "unified",
      path: this.#path(entityType, entityId),
      query: relationshipQuery(rest, await unifiedSchemas()),
      apiVersion: this.#apiVersion,
      signal,
    });
  }
}

/** A kind whose entities have relationships: terms, data products, critical data elements. */
export class RelatedResource<T extends { id: string }, I> extends UnifiedResource<T, I> {
  readonly #relationships: RelationshipsApi;
  /** @internal */
  constructor(http: HttpClient, spec: ResourceSpec) {
    super(http, spec);
    this.#relationships = new RelationshipsApi(this.http);
  }

  /** Relates entity `id` to `input.entityId`, an entity of category `options.entityType`. */
  createRelationship(
    id: string,
    input: RelationshipInput,
    options: { entityType: string; signal?: AbortSignal },
  ): Promise<Relationship> {
    return this.#relationships.create(this.spec.collection, id, input, options);
  }

  /** Every relationship of entity `id`, all pages, optionally filtered. */
  async listRelationships(id: string, filter: RelationshipFilter = {}): Promise<Relationship[]> {
    const all: Relationship[] = [];
    for await (const link of this.#relationships.list(this.spec.collection, id, filter)) all.push(link);
    return all;
  }

  /** Removes the relationship of entity `id` to `target.entityId`. */
  deleteRelationship(id: string, target: RelationshipTarget): Promise<void> {
    return this.#relationships.delete(this.spec.collection, id, target);
  }
}
