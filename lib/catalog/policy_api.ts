/**
 * Metadata policy calls (collection roles; api-version 2021-07-01-preview, under `/policyStore` of the
 * account endpoint): the built-in metadata roles, the metadata policies (all, or one collection's), one
 * policy by id, and the update of a policy. Contract:
 * `rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.MetadataPolicies/preview/2021-07-01-preview/purviewMetadataPolicy.json`.
 *
 * Lists answer `values` and, while there is more, a `nextLink`; the service answers one even after its
 * last page (recorded: `fixtures/recorded/net/Administration/MetadataRolesList.json`), so pages are
 * followed until one has no `nextLink`, the paging guard stopping a link that repeats. Only the link's
 * query is used: the request goes to the configured account endpoint, never to a host the answer names.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * async function salesPolicyVersion(): Promise<number | undefined> {
 *   return (await client.policies.forCollection("sales")).version;
 * }
 * ```
 *
 * @module
 */
import { CatalogError, NotFoundError } from "../core/errors.ts";
import type { HttpClient } from "../http/client.ts";
import { pageSignature } from "../http/paging_guard.ts";
import type { MetadataPolicy, MetadataRole, PolicyStorePage } from "./policy_types.ts";

/** The api-version of the metadata policies contract. */
export const POLICY_API_VERSION = "2021-07-01-preview";
const ROLES = "/policyStore/metadataRoles";
const POLICIES = "/policyStore/metadataPolicies";

/** The metadata role and policy calls of one account (`client.policies`). */
export class PolicyApi {
  readonly #http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds one as `client.policies`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** The metadata roles of the account (every page). */
  listRoles(signal?: AbortSignal): Promise<MetadataRole[]> {
    return this.#all<MetadataRole>("the metadata role list", ROLES, {}, signal);
  }

  /** The metadata policies of the account, or only the named collection's (every page). */
  listPolicies(collectionName?: string, signal?: AbortSignal): Promise<MetadataPolicy[]> {
    return this.#all<MetadataPolicy>("the metadata policy list", POLICIES, { collectionName }, signal);
  }

  /** A collection's policy; a NotFoundError when the service answers none for it. */
  async forCollection(collectionName: string, signal?: AbortSignal): Promise<MetadataPolicy> {
    const [policy] = await this.listPolicies(collectionName, signal);
    if (!policy) {
      throw new NotFoundError({
        status: 404,
        message: `No metadata policy was answered for collection '${collectionName}'.`,
        hint: "Check the collection's name (not its friendly name) with `govcat collections list`.",
      });
    }
    return policy;
  }

  /** One policy by its id. */
  get(policyId: string, signal?: AbortSignal): Promise<MetadataPolicy> {
    return this.#http.request({
      method: "GET",
      area: "account",
      path: `${POLICIES}/${encodeURIComponent(policyId)}`,
      apiVersion: POLICY_API_VERSION,
      signal,
    });
  }

  /**
   * Replaces a policy with `policy` (read it first and send it back changed, with the version read); answers
   * the policy as stored, with its new version. Safe to repeat: the same body leaves the same rules.
   */
  update(policyId: string, policy: MetadataPolicy, signal?: AbortSignal): Promise<MetadataPolicy> {
    return this.#http.request({
      method: "PUT",
      area: "account",
      path: `${POLICIES}/${encodeURIComponent(policyId)}`,
      apiVersion: POLICY_API_VERSION,
      body: policy,
      idempotent: true,
      signal,
    });
  }

  async #all<T>(
    what: string,
    path: string,
    query: Record<string, string | undefined>,
    signal?: AbortSignal,
  ): Promise<T[]> {
    const guard = this.#http.pagingGuard(what);
    const items: T[] = [];
    let next: Record<string, string> | undefined;
    let link: string | undefined;
    for (;;) {
      guard.beforePage(link);
      const page = await this.#http.request<PolicyStorePage<T>>({
        method: "GET",
        area: "account",
        path,
        apiVersion: POLICY_API_VERSION,
        query: next ?? query,
        signal,
      });
      const values = Array.isArray(page?.values) ? page.values : [];
      guard.afterPage(values.length, pageSignature(values, (item) => (item as { id?: unknown }).id));
      items.push(...values);
      if (!page?.nextLink) return items;
      link = page.nextLink;
      next = nextQuery(what, link);
    }
  }
}

/** The query of a `nextLink` but its api-version (the client sends its own). */
function nextQuery(what: string, nextLink: string): Record<string, string> {
  let url: URL;
  try {
    url = new URL(nextLink, "http://next.invalid");
  } catch (cause) {
    throw new CatalogError({
      message: `${what} could not be paged: the nextLink is not a URL: ${nextLink}.`,
      hint: "Retry; if it persists, report the account's paging problem.",
      cause,
    });
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (name !== "api-version") query[name] = value;
  return query;
}
