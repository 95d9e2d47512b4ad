/**
 * Scanning API calls (2023-09-01) on integration runtimes (`/scan/integrationruntimes`: create or replace,
 * get, list, delete, status, auth keys, interactive query), the managed virtual network
 * (`/scan/managedvirtualnetworks`: create or replace, get, list) and its managed private endpoints
 * (create or replace, get, list, delete).
 *
 * Auth keys are secrets: a caller that logs registers them first ({@link authKeySecrets},
 * `logger.addSecret`), as the scan operations do, so no diagnostic written afterwards shows one.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * async function registerRuntime(): Promise<void> {
 *   await client.scan.putIntegrationRuntime("onprem", { kind: "SelfHosted" });
 *   console.log((await client.scan.getIntegrationRuntimeStatus("onprem")).properties?.state);
 * }
 * ```
 *
 * @module
 */
import { ScanAdminApi } from "./scan_admin_api.ts";
import { type PutResult, segment } from "./scan_base_api.ts";
import type {
  IntegrationRuntime,
  IntegrationRuntimeAuthKeys,
  IntegrationRuntimeStatus,
  ManagedPrivateEndpoint,
  ManagedVirtualNetwork,
  ScanActionResponse,
} from "./scan_resource_types.ts";

const RUNTIMES = "/scan/integrationruntimes";
const NETWORKS = "/scan/managedvirtualnetworks";

/** Which auth key of a self-hosted runtime to replace. */
export type AuthKeyName = "authKey1" | "authKey2";

/** Integration runtimes, the managed virtual network and its private endpoints. */
export class ScanRuntimeApi extends ScanAdminApi {
  /** Creates or replaces an integration runtime (201 when new, 200 when replaced). */
  putIntegrationRuntime(
    name: string,
    body: IntegrationRuntime,
    signal?: AbortSignal,
  ): Promise<PutResult<IntegrationRuntime>> {
    return this.put(runtimePath(name), body, signal);
  }

  /** One integration runtime (404 NotFoundError when there is none by that name). */
  getIntegrationRuntime(name: string, signal?: AbortSignal): Promise<IntegrationRuntime> {
    return this.get(runtimePath(name), signal);
  }

  /** Every integration runtime of the account, page after page. */
  listIntegrationRuntimes(options: { signal?: AbortSignal } = {}): AsyncGenerator<IntegrationRuntime> {
    return this.list<IntegrationRuntime>(RUNTIMES, options.signal);
  }

  /** Deletes an integration runtime; answers it (undefined on an empty 204). */
  deleteIntegrationRuntime(name: string, signal?: AbortSignal): Promise<IntegrationRuntime | undefined> {
    return this.remove(runtimePath(name), signal);
  }

  /** The state of an integration runtime. */
  getIntegrationRuntimeStatus(name: string, signal?: AbortSignal): Promise<IntegrationRuntimeStatus> {
    return this.get(`${runtimePath(name)}/status`, signal);
  }

  /** The two auth keys of a self-hosted runtime (secrets; masked in the logger from here on). */
  async listIntegrationRuntimeAuthKeys(
    name: string,
    signal?: AbortSignal,
  ): Promise<IntegrationRuntimeAuthKeys> {
    return await this.http.request<IntegrationRuntimeAuthKeys>({
      method: "POST",
      area: "scan",
      path: `${runtimePath(name)}:listAuthKeys`,
      idempotent: true,
      signal,
    });
  }

  /**
   * Replaces one auth key of a self-hosted runtime; the service answers the new key (the other null). Not
   * retried once sent: a second request would replace the key again.
   */
  async regenerateIntegrationRuntimeAuthKey(
    name: string,
    keyName: AuthKeyName,
    signal?: AbortSignal,
  ): Promise<IntegrationRuntimeAuthKeys> {
    return await this.http.request<IntegrationRuntimeAuthKeys>({
      method: "POST",
      area: "scan",
      path: `${runtimePath(name)}:regenerateAuthKey`,
      body: { keyName },
      signal,
    });
  }

  /** Turns interactive query on for a managed runtime (202); it stops after `autoTerminationMinutes` idle. */
  enableInteractiveQuery(
    name: string,
    options: { autoTerminationMinutes?: number; signal?: AbortSignal } = {},
  ): Promise<ScanActionResponse> {
    const body = options.autoTerminationMinutes === undefined
      ? {}
      : { autoTerminationMinutes: options.autoTerminationMinutes };
    return this.http.request({
      method: "POST",
      area: "scan",
      path: `${runtimePath(name)}:enableInteractiveQuery`,
      body,
      idempotent: true,
      signal: options.signal,
    });
  }

  /** Turns interactive query off for a managed runtime (202). */
  disableInteractiveQuery(name: string, signal?: AbortSignal): Promise<ScanActionResponse> {
    return this.http.request({
      method: "POST",
      area: "scan",
      path: `${runtimePath(name)}:disableInteractiveQuery`,
      idempotent: true,
      signal,
    });
  }

  /** Creates or replaces the managed virtual network (`defaultv2`). */
  putManagedVirtualNetwork(
    name: string,
    body: ManagedVirtualNetwork,
    signal?: AbortSignal,
  ): Promise<PutResult<ManagedVirtualNetwork>> {
    return this.put(`${NETWORKS}/${segment(name)}`, body, signal);
  }

  /** The managed virtual network by name. */
  getManagedVirtualNetwork(name: string, signal?: AbortSignal): Promise<ManagedVirtualNetwork> {
    return this.get(`${NETWORKS}/${segment(name)}`, signal);
  }

  /** The managed virtual networks of the account. */
  listManagedVirtualNetworks(options: { signal?: AbortSignal } = {}): AsyncGenerator<ManagedVirtualNetwork> {
    return this.list<ManagedVirtualNetwork>(NETWORKS, options.signal);
  }

  /** Creates or replaces a managed private endpoint of a managed virtual network. */
  putManagedPrivateEndpoint(
    network: string,
    name: string,
    body: ManagedPrivateEndpoint,
    signal?: AbortSignal,
  ): Promise<PutResult<ManagedPrivateEndpoint>> {
    return this.put(endpointPath(network, name), body, signal);
  }

  /** One managed private endpoint. */
  getManagedPrivateEndpoint(
    network: string,
    name: string,
    signal?: AbortSignal,
  ): Promise<ManagedPrivateEndpoint> {
    return this.get(endpointPath(network, name), signal);
  }

  /** Every managed private endpoint of a managed virtual network. */
  listManagedPrivateEndpoints(
    network: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<ManagedPrivateEndpoint> {
    return this.list<ManagedPrivateEndpoint>(
      `${NETWORKS}/${segment(network)}/managedprivateendpoints`,
      options.signal,
    );
  }

  /** Deletes a managed private endpoint; answers it (undefined on an empty 204). */
  deleteManagedPrivateEndpoint(
    network: string,
    name: string,
    signal?: AbortSignal,
  ): Promise<ManagedPrivateEndpoint | undefined> {
    return this.remove(endpointPath(network, name), signal);
  }
}

/** The keys of an answer, to register with a logger before anything else is written. */
export function authKeySecrets(keys: IntegrationRuntimeAuthKeys | undefined): string[] {
  return [keys?.authKey1, keys?.authKey2].filter((key): key is string =>
    typeof key === "string" && key !== ""
  );
}

function runtimePath(name: string): string {
  return `${RUNTIMES}/${segment(name)}`;
}

function endpointPath(network: string, name: string): string {
  return `${NETWORKS}/${segment(network)}/managedprivateendpoints/${segment(name)}`;
}
