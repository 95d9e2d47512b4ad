/**
 * Scanning API calls (2023-09-01) on the account's scanning resources: key vault connections
 * (`/scan/azureKeyVaults`) and credentials (`/scan/credentials`). Each has create or replace, get, list
 * and delete. A credential holds references to key vault secrets, never a secret's value.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * await client.scan.putKeyVaultConnection("vault", { properties: { baseUrl: "https://vault.vault.azure.net/" } });
 * for await (const credential of client.scan.listCredentials()) console.log(credential.name, credential.kind);
 * ```
 *
 * @module
 */
import { type PutResult, ScanApiBase, segment } from "./scan_base_api.ts";
import type { Credential, KeyVaultConnection } from "./scan_resource_types.ts";

const KEY_VAULTS = "/scan/azureKeyVaults";
const CREDENTIALS = "/scan/credentials";

/** Key vault connections and credentials of the account. */
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

  /** Deletes a key vault connection. */
  deleteKeyVaultConnection(name: string, signal?: AbortSignal): Promise<void> {
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

  /** Deletes a credential. */
  deleteCredential(name: string, signal?: AbortSignal): Promise<void> {
    return this.remove(`${CREDENTIALS}/${segment(name)}`, signal);
  }
}
