/**
 * Lineage calls of the data map API: the lineage of an entity by GUID or by type and qualified name, and
 * the next page of an entity's immediate neighbours. Recording lineage is a process entity write; see
 * `lineage_builder.ts`.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { HttpClient } from "../http/client.ts";
 * const client = new CatalogClient(new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" } }));
 * // const upstream = await client.lineage.get(guid, { direction: "INPUT", depth: 2 });
 * // const page = await client.lineage.nextPage(guid, { direction: "OUTPUT", offset: 0, limit: 10 });
 * ```
 *
 * @module
 */
import type { HttpClient } from "../http/client.ts";
import type { QueryValue } from "../http/request_url.ts";
import type { AtlasLineageInfo, LineageNextPageOptions, LineageOptions } from "./lineage_types.ts";
import { ATLAS_V2, DATAMAP_PREFIX, segment } from "./paths.ts";

export type { AtlasLineageInfo, LineageNextPageOptions, LineageOptions } from "./lineage_types.ts";

const LINEAGE = `${ATLAS_V2}/lineage`;
/** The api-version the next-page call requires when the client is configured without one. */
const NEXT_PAGE_API_VERSION = "2023-09-01";

/** Lineage reads; `client.lineage`. */
export class LineageApi {
  /** The HTTP core every call goes through. */
  protected readonly http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds one as `client.lineage`. */
  constructor(http: HttpClient) {
    this.http = http;
  }

  /** The lineage of the entity with this GUID (`GET /atlas/v2/lineage/{guid}`). */
  get(guid: string, options: LineageOptions = {}): Promise<AtlasLineageInfo> {
    return this.http.request({
      method: "GET",
      path: `${LINEAGE}/${segment(guid)}`,
      query: lineageQuery(options),
      signal: options.signal,
    });
  }

  /** The lineage of the entity found by type name and qualified name. */
  getByUniqueAttribute(
    typeName: string,
    qualifiedName: string,
    options: LineageOptions = {},
  ): Promise<AtlasLineageInfo> {
    return this.http.request({
      method: "GET",
      path: `${LINEAGE}/uniqueAttribute/type/${segment(typeName)}`,
      query: { "attr:qualifiedName": qualifiedName, ...lineageQuery(options) },
      signal: options.signal,
    });
  }

  /**
   * One page of the entity's immediate neighbours in a direction (`GET /lineage/{guid}/next`, outside
   * `/atlas/v2` in the contract). `childrenCount` in the answer says how many there are in all.
   */
  nextPage(guid: string, options: LineageNextPageOptions): Promise<AtlasLineageInfo> {
    const path = `${DATAMAP_PREFIX}/lineage/${segment(guid)}/next`;
    // The contract makes api-version required on this call alone; send one even when none is configured.
    const configured = this.http.url({ path }).searchParams.has("api-version");
    return this.http.request({
      method: "GET",
      path,
      query: { direction: options.direction, offset: options.offset, limit: options.limit },
      apiVersion: configured ? undefined : NEXT_PAGE_API_VERSION,
      signal: options.signal,
    });
  }
}

// The contract marks direction required, so it is always sent (BOTH unless told otherwise).
function lineageQuery(options: LineageOptions): Record<string, QueryValue> {
  return {
    depth: options.depth,
    direction: options.direction ?? "BOTH",
    width: options.width,
    includeParent: options.includeParent,
    getDerivedLineage: options.getDerivedLineage,
  };
}
