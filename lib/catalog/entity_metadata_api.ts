/**
 * The metadata half of the Atlas v2 entity calls: classifications, labels and business metadata of
 * entities (by GUID or by type name and qualified name), and the business metadata CSV import.
 * {@link EntityApi} extends it, so callers reach all of these as `client.entity.…`.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { HttpClient } from "../http/client.ts";
 * const client = new CatalogClient(new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" } }));
 * // await client.entity.label("add", { guid }, ["finance", "gold"]);
 * // await client.entity.addOrUpdateBusinessMetadata(guid, { Governance: { dataOwner: "sales-data" } });
 * ```
 *
 * @module
 */
import type { HttpClient } from "../http/client.ts";
import {
  CLASSIFICATION_CALLS,
  type ClassificationCall,
  ENTITY_PATH,
  entityCallTarget,
  type EntityRef,
  LABEL_CALLS,
  type LabelCall,
  uniqueAttributePath,
} from "./entity_metadata_calls.ts";
import { segment } from "./paths.ts";

export { ENTITY_PATH, type EntityRef, uniqueAttributePath };
import type {
  AtlasClassification,
  AtlasClassifications,
  AtlasEntityHeader,
  BulkImportResult,
  BusinessMetadataValues,
} from "./atlas_model.ts";

/** Options of the business metadata writes of {@link EntityMetadataApi}. */
export interface BusinessMetadataWriteOptions {
  /** Replace all of the entity's business metadata with the payload, instead of merging into it. */
  isOverwrite?: boolean;
  /** Aborts the request. */
  signal?: AbortSignal;
}

const ENTITY = ENTITY_PATH;

/** Classification, label and business metadata calls of entities; see {@link EntityApi}. */
export class EntityMetadataApi {
  /** The HTTP core every call goes through (`area: "datamap"`). */
  protected readonly http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds one as `client.entity`. */
  constructor(http: HttpClient) {
    this.http = http;
  }

  // ---- Classifications --------------------------------------------------------------------------------

  /** The classifications attached to the entity with this GUID (propagated ones included). */
  getClassifications(guid: string, signal?: AbortSignal): Promise<AtlasClassifications> {
    return this.http.request({
      method: "GET",
      path: `${ENTITY}/guid/${segment(guid)}/classifications`,
      signal,
    });
  }

  /** One classification of the entity, by classification type name (NotFoundError when absent). */
  getClassification(guid: string, name: string, signal?: AbortSignal): Promise<AtlasClassification> {
    return this.http.request({
      method: "GET",
      path: `${ENTITY}/guid/${segment(guid)}/classification/${segment(name)}`,
      signal,
    });
  }

  /**
   * Adds classifications to the entity (`add`; the service refuses one it carries already) or updates the
   * attributes of ones it carries (`update`). See {@link CLASSIFICATION_CALLS}.
   */
  async classify(
    call: Exclude<ClassificationCall, "remove">,
    ref: EntityRef,
    list: AtlasClassification[],
    signal?: AbortSignal,
  ): Promise<void> {
    const { method, below, idempotent } = CLASSIFICATION_CALLS[call];
    await this.http.request({ method, ...entityCallTarget(ref, below), body: list, idempotent, signal });
  }

  /** Removes one classification from the entity, by classification type name. */
  async removeClassification(ref: EntityRef, name: string, signal?: AbortSignal): Promise<void> {
    const { method, below, idempotent } = CLASSIFICATION_CALLS.remove;
    await this.http.request({ method, ...entityCallTarget(ref, below, name), idempotent, signal });
  }

  /** Adds one classification to many entities (`POST /entity/bulk/classification`). */
  async addClassificationToEntities(
    classification: AtlasClassification,
    guids: string[],
    signal?: AbortSignal,
  ): Promise<void> {
    await this.http.request({
      method: "POST",
      path: `${ENTITY}/bulk/classification`,
      body: { classification, entityGuids: guids },
      signal,
    });
  }

  /**
   * Sets the classifications of many entities, keyed by guid, each header listing its `classifications`.
   * Returns the service's one line per change (`Add:…`, `Update:…`).
   */
  setClassifications(headers: Record<string, AtlasEntityHeader>, signal?: AbortSignal): Promise<string[]> {
    return this.http.request({
      method: "POST",
      path: `${ENTITY}/bulk/setClassifications`,
      body: { guidHeaderMap: headers },
      idempotent: true,
      signal,
    });
  }

  // ---- Labels -----------------------------------------------------------------------------------------

  /**
   * Appends labels to those the entity carries (`add`), replaces them (`set`; an empty list removes them
   * all) or removes these (`remove`; labels it does not carry are ignored). See {@link LABEL_CALLS}.
   */
  async label(call: LabelCall, ref: EntityRef, labels: string[], signal?: AbortSignal): Promise<void> {
    const { method, below, idempotent } = LABEL_CALLS[call];
    await this.http.request({ method, ...entityCallTarget(ref, below), body: labels, idempotent, signal });
  }

  // ---- Business metadata ------------------------------------------------------------------------------

  /** Adds or updates business metadata groups (`{bmName: {attribute: value}}`) on an entity. */
  async addOrUpdateBusinessMetadata(
    guid: string,
    bm: BusinessMetadataValues,
    options: BusinessMetadataWriteOptions = {},
  ): Promise<void> {
    await this.http.request({
      method: "POST",
      path: `${ENTITY}/guid/${segment(guid)}/businessmetadata`,
      query: { isOverwrite: options.isOverwrite },
      body: bm,
      idempotent: true,
      signal: options.signal,
    });
  }

  /** Removes the named attributes of the named groups from an entity. */
  async removeBusinessMetadata(
    guid: string,
    bm: BusinessMetadataValues,
    signal?: AbortSignal,
  ): Promise<void> {
    await this.http.request({
      method: "DELETE",
      path: `${ENTITY}/guid/${segment(guid)}/businessmetadata`,
      body: bm,
      signal,
    });
  }

  /** Adds or updates attributes of one business metadata group on an entity. */
  async addOrUpdateBusinessMetadataAttributes(
    guid: string,
    bmName: string,
    attributes: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<void> {
    await this.http.request({
      method: "POST",
      path: `${ENTITY}/guid/${segment(guid)}/businessmetadata/${segment(bmName)}`,
      body: attributes,
      idempotent: true,
      signal,
    });
  }

  /** Removes attributes of one business metadata group from an entity (values in the body are ignored). */
  async removeBusinessMetadataAttributes(
    guid: string,
    bmName: string,
    attributes: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<void> {
    await this.http.request({
      method: "DELETE",
      path: `${ENTITY}/guid/${segment(guid)}/businessmetadata/${segment(bmName)}`,
      body: attributes,
      signal,
    });
  }

  /**
   * Imports business metadata values from a CSV file (the columns of
   * {@link EntityApi.getBusinessMetadataTemplate}), sent as the multipart `file` part.
   */
  importBusinessMetadata(
    csv: string | Uint8Array,
    fileName: string,
    signal?: AbortSignal,
  ): Promise<BulkImportResult> {
    const form = new FormData();
    form.append("file", new Blob([csv as BlobPart], { type: "text/csv" }), fileName);
    return this.http.request({
      method: "POST",
      path: `${ENTITY}/businessmetadata/import`,
      body: form,
      // Setting the same values again leaves them as they are.
      idempotent: true,
      signal,
    });
  }

  /** The CSV header line the business metadata import expects. */
  async getBusinessMetadataTemplate(signal?: AbortSignal): Promise<string> {
    const text = await this.http.request<string>({
      method: "GET",
      path: `${ENTITY}/businessmetadata/import/template`,
      headers: { accept: "application/octet-stream, text/csv, application/json" },
      responseType: "text",
      signal,
    });
    return unquoted(text);
  }
}

/** The template may arrive as a JSON string literal (`"EntityType,…"`); the CSV text is what callers want. */
function unquoted(text: string): string {
  if (!text.startsWith('"')) return text;
  try {
    const value = JSON.parse(text);
    return typeof value === "string" ? value : text;
  } catch {
    return text;
  }
}
