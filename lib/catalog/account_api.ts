/**
 * Account API calls (2019-11-01-preview): the account's properties and the change of its friendly name,
 * its two Atlas Kafka access keys (list, regenerate one), and its resource set rule configuration (list,
 * get, create or replace, delete); and, from api-version 2023-10-01-preview, its domains (list, get) and
 * feature flags. Collections, on the same API, are `client.collections`; contacts are `client.contacts`.
 *
 * The access keys are secrets: a caller that logs should register them with its logger
 * ({@link accessKeySecrets}, `logger.addSecret`) before anything else is written.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * async function renameAccount(): Promise<void> {
 *   const account = await client.account.update({ friendlyName: "Contoso catalog" });
 *   console.log(account.properties?.friendlyName); // "Contoso catalog"
 * }
 * ```
 *
 * @module
 */
import type { HttpClient } from "../http/client.ts";
import { ACCOUNT_PREVIEW_API_VERSION } from "./account_contacts_api.ts";
import { allSkipTokenPages, SKIP_TOKEN } from "./skip_token_pages.ts";

/** Account properties as the account contract returns them (fields the service adds are kept). */
export interface AccountProperties {
  /** Azure resource id of the account. */
  id?: string;
  /** Name of the account, the first label of its `{name}.purview.azure.com` host. */
  name?: string;
  /** Azure resource type (`Microsoft.Purview/accounts`). */
  type?: string;
  /** Azure region the account lives in. */
  location?: string;
  /** Pricing tier and its capacity units. */
  sku?: { name?: string; capacity?: number };
  /** The account's managed identity (`SystemAssigned`), as the service answers it. */
  identity?: { type?: string; principalId?: string; tenantId?: string; [field: string]: unknown };
  /** Azure tags of the account (`{}` when none). */
  tags?: Record<string, string>;
  /** Who created and last changed the account, and when. */
  systemData?: Record<string, unknown>;
  /**
   * Its `friendlyName`, `provisioningState`, the `endpoints` (catalog, scan, guardian) it answers on, and
   * the Azure resources the service manages for it (`managedResources`, `managedResourceGroupName`).
   */
  properties?: {
    friendlyName?: string;
    provisioningState?: string;
    endpoints?: Record<string, string>;
    /** Connectors to other clouds, e.g. the `awsExternalId` AWS scans use. */
    cloudConnectors?: { awsExternalId?: string; [field: string]: unknown };
    /** Azure resource ids of the managed resource group, storage account and Event Hubs namespace. */
    managedResources?: { resourceGroup?: string; storageAccount?: string; eventHubNamespace?: string };
    /** Name of the managed resource group. */
    managedResourceGroupName?: string;
    [field: string]: unknown;
  };
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** What the data plane may change on the account (the contract's DataPlaneAccountUpdateParameters). */
export interface AccountUpdate {
  /** New name to show for the account. */
  friendlyName?: string;
}

/** The account's access keys: connection strings of its Atlas Kafka endpoint. */
export interface AccessKeys {
  /** Connection string of the primary key; a secret. */
  atlasKafkaPrimaryEndpoint?: string;
  /** Connection string of the secondary key; a secret. */
  atlasKafkaSecondaryEndpoint?: string;
}

/** Which access key to regenerate (the contract's AccessKeyOptions.keyType). */
export type AccessKeyType = "PrimaryAtlasKafkaKey" | "SecondaryAtlasKafkaKey";

/** A resource set rule configuration (the contract's ResourceSetRuleConfig). */
export interface ResourceSetRuleConfig {
  /** Name of the configuration; the account has one, `defaultResourceSetRuleConfig`. */
  name?: string;
  /** Whether advanced resource set processing is on (`resourceSetProcessing`) and since when. */
  advancedResourceSet?: { resourceSetProcessing?: string; modifiedAt?: string; [field: string]: unknown };
  /** Rules that group file paths into resource sets (patterns and replacements). */
  pathPatternConfig?: Record<string, unknown>;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A page of resource set rule configurations. */
export interface ResourceSetRuleConfigList {
  /** The configurations of this page. */
  value: ResourceSetRuleConfig[];
  /** Number of configurations. */
  count?: number;
  /** URL of the next page; absent on the last one. */
  nextLink?: string;
}

/** A domain of the account (the contract's Domain, 2023-10-01-preview); the API only reads them. */
export interface AccountDomain {
  /** Its name. */
  name?: string;
  /** Name people see. */
  friendlyName?: string;
  /** What the domain covers. */
  description?: string;
  /** `Domain` or `Collection`. */
  containerType?: string;
  /** `Prod` or `Test`. */
  environment?: string;
  /** `Succeeded` once ready; `Creating`, `Moving`, `Deleting` or `Failed` otherwise. */
  provisioningState?: string;
  /** Where a domain merged from another account came from. */
  mergeInfo?: Record<string, unknown>;
  /** Who created and last changed the domain, and when. */
  systemData?: Record<string, unknown>;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** The path of the account's one resource set rule configuration. */
const RULE_CONFIG = "/account/resourceSetRuleConfigs/defaultResourceSetRuleConfig";

/**
 * The values of `keys` that must never be written: each connection string whole, and the
 * `SharedAccessKey` it carries.
 */
export function accessKeySecrets(keys: AccessKeys): string[] {
  const secrets: string[] = [];
  for (const value of [keys.atlasKafkaPrimaryEndpoint, keys.atlasKafkaSecondaryEndpoint]) {
    if (typeof value !== "string" || value === "") continue;
    secrets.push(value);
    const key = /SharedAccessKey=([^;]+)/.exec(value)?.[1];
    if (key) secrets.push(key);
  }
  return secrets;
}

/** The account calls of one catalog (`client.account`). */
export class AccountApi {
  readonly #http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds one as `client.account`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** The account's configuration: name, location, endpoints, provisioning state. */
  get(signal?: AbortSignal): Promise<AccountProperties> {
    return this.#http.request({ method: "GET", area: "account", path: "/account/", signal });
  }

  /** Changes what the data plane may change (the friendly name); answers the account as it is now. */
  update(changes: AccountUpdate, signal?: AbortSignal): Promise<AccountProperties> {
    return this.#http.request({
      method: "PATCH",
      area: "account",
      path: "/account/",
      body: changes,
      idempotent: true,
      signal,
    });
  }

  /** The two access keys. Secrets: see {@link accessKeySecrets}. */
  listKeys(signal?: AbortSignal): Promise<AccessKeys> {
    return this.#http.request({
      method: "POST",
      area: "account",
      path: "/account/listkeys",
      idempotent: true,
      signal,
    });
  }

  /**
   * Replaces one access key with a new one (the old one stops working); answers both keys. Not retried
   * once sent: a second regeneration would replace the key the first one made.
   */
  regenerateKey(keyType: AccessKeyType, signal?: AbortSignal): Promise<AccessKeys> {
    return this.#http.request({
      method: "POST",
      area: "account",
      path: "/account/regeneratekeys",
      body: { keyType },
      signal,
    });
  }

  /** The resource set rule configurations of the account (one page; the account has at most one). */
  listResourceSetRules(skipToken?: string, signal?: AbortSignal): Promise<ResourceSetRuleConfigList> {
    return this.#http.request({
      method: "GET",
      area: "account",
      path: "/account/resourceSetRuleConfigs",
      query: { $skipToken: skipToken },
      signal,
    });
  }

  /** The account's resource set rule configuration; a NotFoundError when it has none. */
  getResourceSetRule(signal?: AbortSignal): Promise<ResourceSetRuleConfig> {
    return this.#http.request({ method: "GET", area: "account", path: RULE_CONFIG, signal });
  }

  /** Creates or replaces the account's resource set rule configuration; answers it as stored. */
  putResourceSetRule(config: ResourceSetRuleConfig, signal?: AbortSignal): Promise<ResourceSetRuleConfig> {
    return this.#http.request({ method: "PUT", area: "account", path: RULE_CONFIG, body: config, signal });
  }

  /** Deletes the resource set rule configuration; true when there was one (200), false when none (204). */
  async deleteResourceSetRule(signal?: AbortSignal): Promise<boolean> {
    let status = 0;
    await this.#http.request({
      method: "DELETE",
      area: "account",
      path: RULE_CONFIG,
      signal,
      onResponse: (answered) => status = answered,
    });
    return status !== 204;
  }

  /** Every domain of the account (all pages; api-version 2023-10-01-preview). */
  listDomains(signal?: AbortSignal): Promise<AccountDomain[]> {
    return allSkipTokenPages(
      this.#http,
      "the domain list",
      (token) =>
        this.#http.request<{ value?: AccountDomain[]; nextLink?: string }>({
          method: "GET",
          area: "account",
          path: "/account/domains",
          query: { [SKIP_TOKEN]: token },
          apiVersion: ACCOUNT_PREVIEW_API_VERSION,
          signal,
        }),
      (domain) => domain.name,
    );
  }

  /** One domain by name; a NotFoundError when the account has none of that name. */
  getDomain(name: string, signal?: AbortSignal): Promise<AccountDomain> {
    return this.#http.request({
      method: "GET",
      area: "account",
      path: `/account/domains/${encodeURIComponent(name)}`,
      apiVersion: ACCOUNT_PREVIEW_API_VERSION,
      signal,
    });
  }

  /** Whether each of the named features is on for the account (exposure control). */
  async getFeatures(features: string[], signal?: AbortSignal): Promise<Record<string, boolean>> {
    const answer = await this.#http.request<{ features?: Record<string, boolean> }>({
      method: "POST",
      area: "account",
      path: "/account/features",
      body: { features },
      idempotent: true,
      apiVersion: ACCOUNT_PREVIEW_API_VERSION,
      signal,
    });
    return answer.features ?? {};
  }
}
