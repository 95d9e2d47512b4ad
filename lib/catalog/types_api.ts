/**
 * Atlas v2 type definition calls (`/atlas/v2/types/...`): list definitions and their headers, read one
 * by category and name or guid, create, update and delete in bulk, delete one by name.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { HttpClient } from "../http/client.ts";
 * const client = new CatalogClient(new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" } }));
 * // const def = await client.types.get("businessmetadata", { name: "Governance" });
 * // const headers = await client.types.listHeaders({ type: "ENTITY" });
 * ```
 *
 * @module
 */
import { UsageError } from "../core/errors.ts";
import type { HttpClient } from "../http/client.ts";
import { ATLAS_V2, segment } from "./paths.ts";
import type {
  AtlasTypeDef,
  AtlasTypeDefHeader,
  AtlasTypesDef,
  TypeCategory,
  TypeDefCategory,
} from "./types_definitions.ts";

/** Options of {@link TypeDefApi.list} and {@link TypeDefApi.listHeaders}. */
export interface ListTypeDefsOptions {
  /** Only definitions of this category. */
  type?: TypeCategory;
  /** Include term templates in the answer. */
  includeTermTemplate?: boolean;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** Which definition to read: by its unique name or by its guid (exactly one). */
export interface TypeDefRef {
  /** Unique name of the type, such as `azure_sql_table`. */
  name?: string;
  /** GUID of the type definition. */
  guid?: string;
}

const TYPES = `${ATLAS_V2}/types`;

/**
 * The Atlas type system calls of one catalog account (`client.types`): read, create, update and delete
 * entity, classification, enum, relationship, struct, business metadata and term template definitions.
 */
export class TypeDefApi {
  readonly #http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds one as `client.types`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** All type definitions, grouped by kind, optionally of one category. */
  list(options: ListTypeDefsOptions = {}): Promise<AtlasTypesDef> {
    return this.#http.request({
      method: "GET",
      path: `${TYPES}/typedefs`,
      query: { type: options.type, includeTermTemplate: options.includeTermTemplate },
      signal: options.signal,
    });
  }

  /** Name, guid and category of every type definition (much smaller than {@link TypeDefApi.list}). */
  listHeaders(options: ListTypeDefsOptions = {}): Promise<AtlasTypeDefHeader[]> {
    return this.#http.request({
      method: "GET",
      path: `${TYPES}/typedefs/headers`,
      query: { type: options.type, includeTermTemplate: options.includeTermTemplate },
      signal: options.signal,
    });
  }

  /** One definition of a known category, e.g. `get("businessmetadata", { name: "Governance" })`. */
  async get(category: TypeDefCategory, ref: TypeDefRef, signal?: AbortSignal): Promise<AtlasTypeDef> {
    return await this.#http.request({
      method: "GET",
      path: `${TYPES}/${category}def/${refPath(ref)}`,
      signal,
    });
  }

  /** One definition of any category (`/types/typedef/name/{name}` or `/guid/{guid}`). */
  async getAny(ref: TypeDefRef, signal?: AbortSignal): Promise<AtlasTypeDef> {
    return await this.#http.request({ method: "GET", path: `${TYPES}/typedef/${refPath(ref)}`, signal });
  }

  /** Creates the definitions; the service refuses one whose name exists, so this is not retried. */
  create(defs: AtlasTypesDef, signal?: AbortSignal): Promise<AtlasTypesDef> {
    return this.#http.request({ method: "POST", path: `${TYPES}/typedefs`, body: defs, signal });
  }

  /** Updates existing definitions (for example, adds attributes to a business metadata group). */
  update(defs: AtlasTypesDef, signal?: AbortSignal): Promise<AtlasTypesDef> {
    return this.#http.request({ method: "PUT", path: `${TYPES}/typedefs`, body: defs, signal });
  }

  /** Deletes the definitions named in `defs`. */
  async deleteMany(defs: AtlasTypesDef, signal?: AbortSignal): Promise<void> {
    await this.#http.request({ method: "DELETE", path: `${TYPES}/typedefs`, body: defs, signal });
  }

  /** Deletes one definition by name. */
  async delete(name: string, signal?: AbortSignal): Promise<void> {
    await this.#http.request({ method: "DELETE", path: `${TYPES}/typedef/name/${segment(name)}`, signal });
  }
}

function refPath(ref: TypeDefRef): string {
  const name = ref.name?.trim() ? ref.name : undefined;
  const guid = ref.guid?.trim() ? ref.guid : undefined;
  if ((name === undefined) === (guid === undefined)) {
    throw new UsageError("Give exactly one of a type definition's name or guid.");
  }
  return name !== undefined ? `name/${segment(name)}` : `guid/${segment(guid!)}`;
}
