/**
 * Atlas v2 relationship calls (`/atlas/v2/relationship`): create, update, read and delete a relationship
 * between two entities.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { HttpClient } from "../http/client.ts";
 * const client = new CatalogClient(new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" } }));
 * // const created = await client.relationships.create({
 * //   typeName: "dataset_process_inputs", end1: { guid: datasetGuid }, end2: { guid: processGuid },
 * // });
 * ```
 *
 * @module
 */
import type { HttpClient } from "../http/client.ts";
import { ATLAS_V2, segment } from "./paths.ts";
import type { AtlasRelationship, AtlasRelationshipWithExtInfo } from "./atlas_model.ts";

/** Options of {@link RelationshipApi.get}. */
export interface GetRelationshipOptions {
  /** Include the headers of both ends' entities (`referredEntities`). */
  extendedInfo?: boolean;
  /** Aborts the request. */
  signal?: AbortSignal;
}

const RELATIONSHIP = `${ATLAS_V2}/relationship`;

/**
 * The Atlas relationship calls of one catalog account (`client.relationships`): relationships between two
 * entities, such as a table and its columns or a process and its inputs, by GUID.
 */
export class RelationshipApi {
  readonly #http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds one as `client.relationships`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Creates a relationship; a true create, so it is not repeated after the request may have arrived. */
  create(relationship: AtlasRelationship, signal?: AbortSignal): Promise<AtlasRelationship> {
    return this.#http.request({ method: "POST", path: RELATIONSHIP, body: relationship, signal });
  }

  /** Updates the relationship with the guid given in `relationship`. */
  update(relationship: AtlasRelationship, signal?: AbortSignal): Promise<AtlasRelationship> {
    return this.#http.request({ method: "PUT", path: RELATIONSHIP, body: relationship, signal });
  }

  /** The relationship with this GUID; with `extendedInfo`, also the headers of the entities at its ends. */
  get(guid: string, options: GetRelationshipOptions = {}): Promise<AtlasRelationshipWithExtInfo> {
    return this.#http.request({
      method: "GET",
      path: `${RELATIONSHIP}/guid/${segment(guid)}`,
      query: { extendedInfo: options.extendedInfo },
      signal: options.signal,
    });
  }

  /** Deletes the relationship with this GUID; the entities at its ends stay. */
  async delete(guid: string, signal?: AbortSignal): Promise<void> {
    await this.#http.request({ method: "DELETE", path: `${RELATIONSHIP}/guid/${segment(guid)}`, signal });
  }
}
