/**
 * The calls every unified catalog kind shares: create, get, update (PUT of the full body), delete, list
 * (every page or the first), and the query, facets and count searches. One {@link UnifiedResource} per
 * kind is configured with its path and schemas.
 *
 * Retry safety: GET, PUT and DELETE are repeated on transient failures; a create (POST) is not repeated
 * once sent, because it may already exist; query, facets and count are POSTs that only read, so they are
 * marked idempotent and retried like a GET.
 *
 * @example
 * ```ts
 * import { UnifiedCatalogClient } from "./unified_api.ts";
 * import { loadConfig } from "../config/config.ts";
 * const url = "http://127.0.0.1:8085";
 * const client = UnifiedCatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: url, CATALOG_UNIFIED_ENDPOINT: url }),
 * );
 * async function describeFinance(): Promise<void> {
 *   const domain = await client.domains.create({ name: "Finance", type: "functionalunit", status: "draft" });
 *   await client.domains.update(domain.id, { description: "Money" }, { merge: true });
 * }
 * ```
 *
 * @module
 */
import { z, type ZodType } from "../deps/zod.ts";
import { CatalogError, UsageError } from "../core/errors.ts";
import type { HttpClient } from "../http/client.ts";
import type { QueryValue } from "../http/request_url.ts";
import { FILTER_STATUSES } from "./unified_enums.ts";
import { fetchPage, followPages, type Page } from "./unified_paging.ts";
import type { QueryBody } from "./unified_query_schemas.ts";

/**
 * The unified catalog's zod schemas as one namespace: the shared ones (`unified_schemas.ts`) and each
 * kind's (`unified_term_schemas.ts`, `unified_domain_schemas.ts`, ...).
 */
export type UnifiedSchemas =
  & typeof import("./unified_schemas.ts")
  & typeof import("./unified_term_schemas.ts")
  & typeof import("./unified_domain_schemas.ts")
  & typeof import("./unified_product_schemas.ts")
  & typeof import("./unified_okr_schemas.ts")
  & typeof import("./unified_policy_schemas.ts")
  & typeof import("./unified_query_schemas.ts");
let schemasModule: Promise<UnifiedSchemas> | undefined;

/**
 * The schemas modules, loaded by the first call that checks a body rather than with the client: their ~60
 * zod schemas take about 6 ms to build, which every tool server and command would pay at start-up
 * (the stdio fast start's first tool call among them) whether or not it ever calls the unified catalog.
 */
export function unifiedSchemas(): Promise<UnifiedSchemas> {
  return schemasModule ??= Promise.all([
    import("./unified_schemas.ts"),
    import("./unified_term_schemas.ts"),
    import("./unified_domain_schemas.ts"),
    import("./unified_product_schemas.ts"),
    import("./unified_okr_schemas.ts"),
    import("./unified_policy_schemas.ts"),
    import("./unified_query_schemas.ts"),
  ]).then((modules): UnifiedSchemas => Object.assign({}, ...modules));
}

/** Every unified catalog path starts here, below the area's base URL. */
export const UNIFIED_PREFIX = "/datagovernance/catalog";

/** Query parameters of list calls (skip, top, domainId, parentId, keyword, orderBy, ...). */
export type ListParams = Record<string, QueryValue> & { signal?: AbortSignal };

/** Options of {@link UnifiedResource.update}. */
export interface UpdateOptions {
  /** Read the entity first and lay the (partial) input over it, so fields not given are kept. */
  merge?: boolean;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** The answer of a facets call: counts per value of each requested facet. */
export interface FacetsResult {
  /** Facet name → the values found with how many entities have each. */
  facets?: Record<string, Array<{ value: unknown; count: number }>>;
  /** Fields the service adds, kept as read. */
  [key: string]: unknown;
}

/** The answer of a count call. */
export interface CountResult {
  /** Number of entities that match. */
  count: number;
  /** Fields the service adds, kept as read. */
  [key: string]: unknown;
}

/** How one kind is reached and checked. */
export interface ResourceSpec {
  /** Human name used in messages ("term"). */
  kind: string;
  /** Path of the collection below the unified prefix ("terms", "objectives/{id}/keyResults"). */
  collection: string;
  /** The kind's schemas in the schemas module: what the service returns, what govcat sends. */
  schemas(module: UnifiedSchemas): { entity: ZodType; input: ZodType };
  /** Status spelling of query filters; objectives use Draft, Published, Closed. */
  filterStatuses?: readonly string[];
}

/** Server-kept fields dropped before a merged body is sent back. */
const READ_ONLY_FIELDS = ["systemData"];

/** Path segment of an id, refusing an empty one (it would address the collection). */
export function idSegment(id: string, what = "id"): string {
  if (typeof id !== "string" || !id.trim()) throw new UsageError(`${what} is required.`);
  return encodeURIComponent(id.trim());
}

/**
 * Parses a response body with a loose entity schema; a body without the promised fields is an error, whose
 * hint names the variable setting the api-version of the call (`versionVariable`).
 */
export function parseEntity<T>(
  schema: ZodType,
  body: unknown,
  kind: string,
  versionVariable = "CATALOG_UNIFIED_API_VERSION",
): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data as T;
  throw new CatalogError({
    message: `The unified catalog answered with an unexpected ${kind}: ${z.prettifyError(result.error)}`,
    hint: `Check CATALOG_UNIFIED_ENDPOINT and ${versionVariable}.`,
  });
}

/** The generic calls of one unified catalog kind. `T` is the entity, `I` the accepted input. */
export class UnifiedResource<T extends { id: string }, I> {
  /** The HTTP core every call goes through. */
  protected readonly http: HttpClient;
  /** @internal */
  protected readonly spec: ResourceSpec;

  /** @internal */
  constructor(http: HttpClient, spec: ResourceSpec) {
    this.http = http;
    this.spec = spec;
  }

  /** Path of the collection, or of one entity when `id` is given. */
  protected path(id?: string, suffix = ""): string {
    const base = `${UNIFIED_PREFIX}/${this.spec.collection}`;
    return (id === undefined ? base : `${base}/${idSegment(id, `${this.spec.kind} id`)}`) + suffix;
  }

  /** Creates an entity. An id is generated when the input has none (the API takes the id in the body). */
  async create(input: I, options: { signal?: AbortSignal } = {}): Promise<T> {
    const module = await unifiedSchemas();
    const schemas = this.spec.schemas(module);
    const body = module.validateInput(schemas.input, input, `${this.spec.kind}`) as Record<string, unknown>;
    const withId = { ...body, id: typeof body.id === "string" && body.id ? body.id : crypto.randomUUID() };
    const created = await this.http.request({
      method: "POST",
      area: "unified",
      path: this.path(),
      body: withId,
      idempotent: false,
      signal: options.signal,
    });
    return parseEntity<T>(schemas.entity, created, this.spec.kind);
  }

  /** One entity by id (NotFoundError when it does not exist). */
  async get(id: string, options: { signal?: AbortSignal } = {}): Promise<T> {
    const body = await this.http.request({
      method: "GET",
      area: "unified",
      path: this.path(id),
      signal: options.signal,
    });
    return parseEntity<T>(this.spec.schemas(await unifiedSchemas()).entity, body, this.spec.kind);
  }

  /**
   * Replaces an entity (PUT of the full body, with the id repeated in it). With `{ merge: true }` a
   * partial input is laid over the entity as read now, so the fields it leaves out are kept.
   */
  async update(id: string, input: Partial<I>, options: UpdateOptions = {}): Promise<T> {
    let full: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    if (options.merge) {
      const current = { ...await this.get(id, options) } as Record<string, unknown>;
      for (const field of READ_ONLY_FIELDS) delete current[field];
      full = { ...current, ...full };
    }
    const module = await unifiedSchemas();
    const schemas = this.spec.schemas(module);
    const body = module.validateInput(schemas.input, { ...full, id }, `${this.spec.kind} update`);
    const updated = await this.http.request({
      method: "PUT",
      area: "unified",
      path: this.path(id),
      body,
      signal: options.signal,
    });
    return parseEntity<T>(schemas.entity, updated, this.spec.kind);
  }

  /** Deletes an entity. */
  async delete(id: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.http.request({
      method: "DELETE",
      area: "unified",
      path: this.path(id),
      signal: options.signal,
    });
  }

  /** Every entity of the list, following `nextLink` on the configured origin only. */
  async *list(params: ListParams = {}): AsyncGenerator<T> {
    const { signal, ...query } = params;
    yield* followPages<T>(this.http, { path: this.path(), query, signal });
  }

  /** The first page of the list: `{ value, nextLink? }`. */
  async listPage(params: ListParams = {}): Promise<Page<T>> {
    const { signal, ...query } = params;
    return await fetchPage<T>(this.http, { path: this.path(), query, signal });
  }

  /** Entities matching a query body (filters, paging, order); status filters in any letter case. */
  async query(body: QueryBody = {}, options: { signal?: AbortSignal } = {}): Promise<Page<T>> {
    const answer = await this.#search<Partial<Page<T>>>("/query", body, options.signal);
    const page: Page<T> = { value: Array.isArray(answer?.value) ? answer.value : [] };
    if (answer?.nextLink) page.nextLink = answer.nextLink;
    return page;
  }

  /** Counts per value of the requested facets (`{ facets: [{ name: "status" }] }`). */
  async facets(
    body: QueryBody & { facets?: Array<{ name: string }> } = {},
    options: { signal?: AbortSignal } = {},
  ): Promise<FacetsResult> {
    return await this.#search<FacetsResult>("/facets", body, options.signal);
  }

  /** How many entities match (`{ nameKeyword }` is the duplicate check). */
  async count(body: QueryBody = {}, options: { signal?: AbortSignal } = {}): Promise<CountResult> {
    return await this.#search<CountResult>("/query/count", body, options.signal);
  }

  async #search<R>(suffix: string, body: QueryBody, signal?: AbortSignal): Promise<R> {
    const { queryBodySchema, validateInput } = await unifiedSchemas();
    const schema = queryBodySchema(this.spec.filterStatuses ?? FILTER_STATUSES);
    return await this.http.request<R>({
      method: "POST",
      area: "unified",
      path: this.path() + suffix,
      body: validateInput(schema, body, `${this.spec.kind} ${suffix.slice(1)} body`),
      // A search changes nothing; repeating it is harmless.
      idempotent: true,
      signal,
    });
  }
}
