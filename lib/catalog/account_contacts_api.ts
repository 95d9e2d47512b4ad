/**
 * Contacts of the account API (2023-10-01-preview; contract:
 * ../shared/reference/rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Account/preview/2023-10-01-preview/account.json):
 * contact group definitions (the kinds of contact: the system groups Expert and Owner, and custom ones)
 * and contact assignments (a principal as a contact of one group on one scope, e.g. a collection).
 * `client.contacts`. Every request carries api-version 2023-10-01-preview, whatever the account area's.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * async function expertsOfSales(): Promise<string[]> {
 *   const list = await client.contacts.listAssignments({ scope: "sales", contactGroup: "Expert" });
 *   return list.map((a) => a.principalId ?? "");
 * }
 * ```
 *
 * @module
 */
import type { HttpClient } from "../http/client.ts";
import { allSkipTokenPages, SKIP_TOKEN } from "./skip_token_pages.ts";

/** The api-version of the account API's contacts, domains and feature flags. */
export const ACCOUNT_PREVIEW_API_VERSION = "2023-10-01-preview";

/** The contract's EntityReferenceType: what a scope reference names. */
export type ReferenceType =
  | "CollectionReference"
  | "DatasourceReference"
  | "ScanReference"
  | "AdaptiveScopeReference"
  | "ContactGroupDefinitionReference"
  | "Unknown";

/** A reference to a named thing (the contract's EntityReference). */
export interface EntityReference {
  /** What kind of thing it names. */
  type?: ReferenceType | string;
  /** The thing's name. */
  referenceName?: string;
}

/** A contact group definition (the contract's ContactGroupDefinition). */
export interface ContactGroupDefinition {
  /** Its name, set by the path. */
  name?: string;
  /** Name people see. */
  friendlyName?: string;
  /** What the group's contacts are for. */
  description?: string;
  /** `System` (Expert, Owner) or `Custom`; set by the service. */
  contactGroupType?: "Custom" | "System" | string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A contact assignment (the contract's ContactAssignment). */
export interface ContactAssignment {
  /** Its id (a GUID), set by the path. */
  assignmentId?: string;
  /** Object id of the user or group who is the contact. */
  principalId?: string;
  /** The group, `{type: "ContactGroupDefinitionReference", referenceName}`. */
  contactGroup?: EntityReference;
  /** Where the principal is a contact, e.g. `{type: "CollectionReference", referenceName: "sales"}`. */
  scope?: EntityReference;
  /** Who created and last changed the assignment, and when. */
  systemData?: Record<string, unknown>;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** Filters of {@link ContactsApi.listAssignments}; each narrows the list. */
export interface ContactAssignmentFilter {
  /** Name of the scope (e.g. a collection name). */
  scope?: string;
  /** Name of the contact group. */
  contactGroup?: string;
  /** Type of the scope. */
  referenceType?: ReferenceType | string;
}

const GROUPS = "/account/contactGroupDefinitions";
const ASSIGNMENTS = "/account/contactAssignments";

/** The contact calls of one account (`client.contacts`). */
export class ContactsApi {
  readonly #http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds one as `client.contacts`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Every contact group definition, the system ones included (all pages). */
  listGroups(signal?: AbortSignal): Promise<ContactGroupDefinition[]> {
    return allSkipTokenPages(
      this.#http,
      "the contact group list",
      (token) => this.#get(GROUPS, { [SKIP_TOKEN]: token }, signal),
      (group) => group.name,
    );
  }

  /** One contact group definition; a NotFoundError when there is none of that name. */
  getGroup(name: string, signal?: AbortSignal): Promise<ContactGroupDefinition> {
    return this.#get(`${GROUPS}/${encodeURIComponent(name)}`, {}, signal);
  }

  /** Creates or replaces a custom contact group definition; answers it as stored. */
  putGroup(
    name: string,
    definition: Pick<ContactGroupDefinition, "friendlyName" | "description">,
    signal?: AbortSignal,
  ): Promise<ContactGroupDefinition> {
    return this.#send("PUT", `${GROUPS}/${encodeURIComponent(name)}`, definition, signal);
  }

  /** Deletes a custom contact group definition (refused while it is assigned). */
  async deleteGroup(name: string, signal?: AbortSignal): Promise<void> {
    await this.#send("DELETE", `${GROUPS}/${encodeURIComponent(name)}`, undefined, signal);
  }

  /** Every contact assignment the filters keep (all pages). */
  listAssignments(filter: ContactAssignmentFilter = {}, signal?: AbortSignal): Promise<ContactAssignment[]> {
    const query = {
      scope: filter.scope,
      contactGroupDefinition: filter.contactGroup,
      referenceType: filter.referenceType,
    };
    return allSkipTokenPages(
      this.#http,
      "the contact assignment list",
      (token) => this.#get(ASSIGNMENTS, { ...query, [SKIP_TOKEN]: token }, signal),
      (assignment) => assignment.assignmentId,
    );
  }

  /** One contact assignment by id; a NotFoundError when there is none. */
  getAssignment(id: string, signal?: AbortSignal): Promise<ContactAssignment> {
    return this.#get(`${ASSIGNMENTS}/${encodeURIComponent(id)}`, {}, signal);
  }

  /** Creates or replaces the contact assignment `id` (a GUID); answers it as stored. */
  putAssignment(id: string, assignment: ContactAssignment, signal?: AbortSignal): Promise<ContactAssignment> {
    return this.#send("PUT", `${ASSIGNMENTS}/${encodeURIComponent(id)}`, assignment, signal);
  }

  /** Deletes a contact assignment. */
  async deleteAssignment(id: string, signal?: AbortSignal): Promise<void> {
    await this.#send("DELETE", `${ASSIGNMENTS}/${encodeURIComponent(id)}`, undefined, signal);
  }

  /** Names of the contact groups assigned on a scope (all pages). */
  scopedGroupNames(
    scope?: string,
    referenceType?: ReferenceType | string,
    signal?: AbortSignal,
  ): Promise<string[]> {
    return allSkipTokenPages(
      this.#http,
      "the scoped contact group names",
      (token) =>
        this.#get(
          "/account/getScopedContactGroupNames",
          { scope, referenceType, [SKIP_TOKEN]: token },
          signal,
        ),
      (name) => name,
    );
  }

  #get<T>(path: string, query: Record<string, string | undefined>, signal?: AbortSignal): Promise<T> {
    return this.#http.request({
      method: "GET",
      area: "account",
      path,
      query,
      apiVersion: ACCOUNT_PREVIEW_API_VERSION,
      signal,
    });
  }

  #send<T>(method: "PUT" | "DELETE", path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    return this.#http.request({
      method,
      area: "account",
      path,
      body,
      idempotent: true,
      apiVersion: ACCOUNT_PREVIEW_API_VERSION,
      signal,
    });
  }
}
