/**
 * Account API calls (2019-11-01-preview): the account's properties. Collections, on the same API, arrive
 * with their issue.
 *
 * @module
 */
import type { HttpClient } from "../http.ts";

/** Account properties as the account contract returns them (fields the service adds are kept). */
export interface AccountProperties {
  id?: string;
  name?: string;
  type?: string;
  location?: string;
  sku?: { name?: string; capacity?: number };
  systemData?: Record<string, unknown>;
  properties?: {
    friendlyName?: string;
    provisioningState?: string;
    endpoints?: Record<string, string>;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

export class AccountApi {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** The account's configuration: name, location, endpoints, provisioning state. */
  get(signal?: AbortSignal): Promise<AccountProperties> {
    return this.#http.request({ method: "GET", area: "account", path: "/account/", signal });
  }
}
