/**
 * Scanning API calls (2023-09-01) on the account's scanning resources: key vault connections
 * (`/scan/azureKeyVaults`), credentials (`/scan/credentials`) and custom scan rulesets
 * (`/scan/scanrulesets`), each with create or replace, get, list and delete; and the service's system scan
 * rulesets (`/scan/systemScanRulesets`: list, by data source type, versions, one version, the latest); the
 * custom filter of a scan (`…/scans/{scan}/filters/custom`: create or replace, get); and the versions of a
 * classification rule (list, tag one with Keep or Delete). A credential holds references to key vault
 * secrets, never a secret's value.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * async function registerVault(): Promise<void> {
 *   const baseUrl = "https://vault.vault.azure.net/";
 *   await client.scan.putKeyVaultConnection("vault", { properties: { baseUrl } });
 *   for await (const credential of client.scan.listCredentials()) {
 *     console.log(credential.name, credential.kind);
 *   }
 * }
 * ```
 *
 * @module
 */
import { type PutResult, ScanApiBase, segment } from "./scan_base_api.ts";
import type {
  ClassificationAction,
  Credential,
  KeyVaultConnection,
  ScanActionResponse,
  ScanFilter,
  ScanRuleset,
} from "./scan_resource_types.ts";
import type { ClassificationRule } from "./scan_types.ts";

const KEY_VAULTS = "/scan/azureKeyVaults";
const CREDENTIALS = "/scan/credentials";
const RULESETS = "/scan/scanrulesets";
const SYSTEM_RULESETS = "/scan/systemScanRulesets";

/** Key vault connections, credentials and scan rulesets of the account. */
export class ScanAdminApi extends ScanApiBase {
  /** Creates or replaces a key vault connection (201 when new, 200 when replaced). */
  putKeyVaultConnection(
    name: string,
    body: KeyVaultConnection,
    signal?: AbortSignal,
  ): Promise<PutResult<KeyVaultConnection>> {
    return this.put(`${KEY_VAULTS}/${segment(name)}`, body, signal);
  }

  /** One key vault connection (404 NotFoundError when there is none by that name). */
  getKeyVaultConnection(name: string, signal?: AbortSignal): Promise<KeyVaultConnection> {
    return this.get(`${KEY_VAULTS}/${segment(name)}`, signal);
  }

  /** Every key vault connection of the account, page after page. */
  listKeyVaultConnections(options: { signal?: AbortSignal } = {}): AsyncGenerator<KeyVaultConnection> {
    return this.list<KeyVaultConnection>(KEY_VAULTS, options.signal);
  }

  /** Deletes a key vault connection; answers it (undefined on an empty 204). */
  deleteKeyVaultConnection(name: string, signal?: AbortSignal): Promise<KeyVaultConnection | undefined> {
    return this.remove(`${KEY_VAULTS}/${segment(name)}`, signal);
  }

  /** Creates or replaces a credential (201 when new, 200 when replaced). */
  putCredential(name: string, body: Credential, signal?: AbortSignal): Promise<PutResult<Credential>> {
    return this.put(`${CREDENTIALS}/${segment(name)}`, body, signal);
  }

  /** One credential (404 NotFoundError when there is none by that name). */
  getCredential(name: string, signal?: AbortSignal): Promise<Credential> {
    return this.get(`${CREDENTIALS}/${segment(name)}`, signal);
  }

  /** Every credential of the account, page after page. */
  listCredentials(options: { signal?: AbortSignal } = {}): AsyncGenerator<Credential> {
    return this.list<Credential>(CREDENTIALS, options.signal);
  }

  /** Deletes a credential; answers it (undefined on an empty 204). */
  deleteCredential(name: string, signal?: AbortSignal): Promise<Credential | undefined> {
    return this.remove(`${CREDENTIALS}/${segment(name)}`, signal);
  }

  /** Creates or replaces a custom scan ruleset (201 when new, 200 when replaced). */
  putScanRuleset(name: string, body: ScanRuleset, signal?: AbortSignal): Promise<PutResult<ScanRuleset>> {
    return this.put(`${RULESETS}/${segment(name)}`, body, signal);
  }

  /** One custom scan ruleset (404 NotFoundError when there is none by that name). */
  getScanRuleset(name: string, signal?: AbortSignal): Promise<ScanRuleset> {
    return this.get(`${RULESETS}/${segment(name)}`, signal);
  }

  /** Every custom scan ruleset of the account, page after page. */
  listScanRulesets(options: { signal?: AbortSignal } = {}): AsyncGenerator<ScanRuleset> {
    return this.list<ScanRuleset>(RULESETS, options.signal);
  }

  /** Deletes a custom scan ruleset; answers it (undefined on an empty 204). */
  deleteScanRuleset(name: string, signal?: AbortSignal): Promise<ScanRuleset | undefined> {
    return this.remove(`${RULESETS}/${segment(name)}`, signal);
  }

  /** The latest system scan ruleset of every data source type that has one. */
  listSystemScanRulesets(options: { signal?: AbortSignal } = {}): AsyncGenerator<ScanRuleset> {
    return this.list<ScanRuleset>(SYSTEM_RULESETS, options.signal);
  }

  /** The system scan ruleset of a data source type (`AzureStorage`). */
  getSystemScanRuleset(dataSourceType: string, signal?: AbortSignal): Promise<ScanRuleset> {
    return this.get(`${SYSTEM_RULESETS}/datasources/${segment(dataSourceType)}`, signal);
  }

  /** Every version of the system scan ruleset of a data source type, newest first. */
  listSystemScanRulesetVersions(
    dataSourceType: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<ScanRuleset> {
    return this.list<ScanRuleset>(`${SYSTEM_RULESETS}/versions`, options.signal, { dataSourceType });
  }

  /** One version of the system scan ruleset of a data source type. */
  getSystemScanRulesetVersion(
    version: number,
    dataSourceType: string,
    signal?: AbortSignal,
  ): Promise<ScanRuleset> {
    return this.http.request({
      method: "GET",
      area: "scan",
      path: `${SYSTEM_RULESETS}/versions/${segment(version)}`,
      query: { dataSourceType },
      signal,
    });
  }

  /** The latest version of the system scan ruleset of a data source type. */
  getLatestSystemScanRuleset(dataSourceType: string, signal?: AbortSignal): Promise<ScanRuleset> {
    return this.http.request({
      method: "GET",
      area: "scan",
      path: `${SYSTEM_RULESETS}/versions/latest`,
      query: { dataSourceType },
      signal,
    });
  }

  /** Creates or replaces the custom filter of a scan (201 when new, 200 when replaced). */
  putScanFilter(
    dataSource: string,
    scan: string,
    body: ScanFilter,
    signal?: AbortSignal,
  ): Promise<PutResult<ScanFilter>> {
    return this.put(filterPath(dataSource, scan), body, signal);
  }

  /** The custom filter of a scan (404 NotFoundError when the scan has none). */
  getScanFilter(dataSource: string, scan: string, signal?: AbortSignal): Promise<ScanFilter> {
    return this.get(filterPath(dataSource, scan), signal);
  }

  /** Every version of a classification rule, newest first. */
  listClassificationRuleVersions(
    name: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<ClassificationRule> {
    return this.list<ClassificationRule>(
      `/scan/classificationrules/${segment(name)}/versions`,
      options.signal,
    );
  }

  /**
   * Tags a version of a classification rule with what to do with the classifications it applied (`Keep`
   * or `Delete`); the service answers 202. Tagging sets a value, so a repeat is retried like a GET.
   */
  tagClassificationRuleVersion(
    name: string,
    version: number,
    action: ClassificationAction,
    signal?: AbortSignal,
  ): Promise<ScanActionResponse> {
    return this.http.request({
      method: "POST",
      area: "scan",
      path: `/scan/classificationrules/${segment(name)}/versions/${segment(version)}:tag`,
      query: { action },
      idempotent: true,
      signal,
    });
  }
}

function filterPath(dataSource: string, scan: string): string {
  return `/scan/datasources/${segment(dataSource)}/scans/${segment(scan)}/filters/custom`;
}
