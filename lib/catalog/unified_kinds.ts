/**
 * The unified catalog kinds that differ from the generic {@link UnifiedResource}: terms (with a
 * hierarchy), key results (addressed under their objective) and policies.
 *
 * @example
 * ```ts
 * import { UnifiedCatalogClient } from "./unified_api.ts";
 * import { loadConfig } from "../config/config.ts";
 * const url = "http://127.0.0.1:8085";
 * const client = UnifiedCatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: url, CATALOG_UNIFIED_ENDPOINT: url }),
 * );
 * async function review(): Promise<void> {
 *   const tree = await client.terms.hierarchy("term-1");
 *   for await (const keyResult of client.keyResults.list("objective-1")) console.log(keyResult.status);
 * }
 * ```
 *
 * @module
 */
import type { HttpClient } from "../http/client.ts";
import type { Page } from "./unified_paging.ts";
import { RelatedResource } from "./unified_relationships.ts";
import { idSegment, type ListParams, UnifiedResource, type UpdateOptions } from "./unified_resource.ts";
import type { KeyResult, KeyResultInput } from "./unified_okr_schemas.ts";
import type { Term, TermInput } from "./unified_term_schemas.ts";

/** A term's place in the term tree, as the service returns it (shape not pinned by the notes). */
export type TermHierarchy = Record<string, unknown>;

/** Terms: the generic calls, relationships, and the hierarchy of a term. */
export class TermsApi extends RelatedResource<Term, TermInput> {
  /** The parents and children of a term (`GET terms/{termId}/hierarchies`). */
  async hierarchy(termId: string, options: { signal?: AbortSignal } = {}): Promise<TermHierarchy> {
    const body = await this.http.request<TermHierarchy | undefined>({
      method: "GET",
      area: "unified",
      path: this.path(termId, "/hierarchies"),
      signal: options.signal,
    });
    return body ?? {};
  }
}

/** Key results, each under its objective (`objectives/{objectiveId}/keyResults`). */
export class KeyResultsApi {
  readonly #http: HttpClient;
  /** The calls, sent through `http`; `UnifiedCatalogClient` builds one as `client.keyResults`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** The generic calls bound to one objective's key results. */
  #of(objectiveId: string): UnifiedResource<KeyResult, KeyResultInput> {
    return new UnifiedResource(this.#http, {
      kind: "key result",
      collection: `objectives/${idSegment(objectiveId, "objectiveId")}/keyResults`,
      schemas: (s) => ({ entity: s.keyResultSchema, input: s.keyResultInputSchema }),
    });
  }

  /** Adds a key result to an objective; needs domainId and status (NotTracked, OnTrack, Behind, AtRisk). */
  async create(
    objectiveId: string,
    input: KeyResultInput,
    options: { signal?: AbortSignal } = {},
  ): Promise<KeyResult> {
    return await this.#of(objectiveId).create(input, options);
  }

  /** One key result of the objective, by id (NotFoundError when it does not exist). */
  async get(objectiveId: string, id: string, options: { signal?: AbortSignal } = {}): Promise<KeyResult> {
    return await this.#of(objectiveId).get(id, options);
  }

  /** Replaces a key result (PUT); `{ merge: true }` keeps the fields a partial input leaves out. */
  async update(
    objectiveId: string,
    id: string,
    input: Partial<KeyResultInput>,
    options: UpdateOptions = {},
  ): Promise<KeyResult> {
    return await this.#of(objectiveId).update(id, input, options);
  }

  /** Deletes a key result of the objective. */
  async delete(objectiveId: string, id: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return await this.#of(objectiveId).delete(id, options);
  }

  /** Every key result of an objective, all pages. */
  async *list(objectiveId: string, params: ListParams = {}): AsyncGenerator<KeyResult> {
    yield* this.#of(objectiveId).list(params);
  }

  /** The first page of the objective's key results: `{ value, nextLink? }`. */
  async listPage(objectiveId: string, params: ListParams = {}): Promise<Page<KeyResult>> {
    return await this.#of(objectiveId).listPage(params);
  }
}
