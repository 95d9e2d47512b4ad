/**
 * Wire types of the scanning API's account resources (2023-09-01): key vault connections, credentials,
 * scan rulesets and system scan rulesets, custom scan filters, integration runtimes (with their status,
 * auth keys and interactive query), managed virtual networks and managed private endpoints.
 *
 * @module
 */

/** A connection to an Azure Key Vault, which credentials name to find their secrets. */
export interface KeyVaultConnection {
  id?: string;
  name?: string;
  properties?: { baseUrl?: string; description?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** Where a credential's secret lives: a secret of a key vault connection, never the secret itself. */
export interface KeyVaultSecretReference {
  type?: "AzureKeyVaultSecret" | string;
  secretName?: string;
  secretVersion?: string;
  store?: { referenceName?: string; type?: "LinkedServiceReference" | string };
}

/** A credential. `kind` is one of {@link CREDENTIAL_KINDS}; its `typeProperties` depend on the kind. */
export interface Credential {
  id?: string;
  name?: string;
  kind: string;
  properties?: {
    description?: string;
    typeProperties?: Record<string, unknown>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** Kinds of credential the contract defines. */
export const CREDENTIAL_KINDS: readonly string[] = [
  "AccountKey",
  "ServicePrincipal",
  "BasicAuth",
  "SqlAuth",
  "AmazonARN",
  "ConsumerKeyAuth",
  "DelegatedAuth",
  "ManagedIdentity",
];

/**
 * A scan ruleset: which file types a scan reads and which classifications it applies. `kind` is the data
 * source type it is for; the account's own are `Custom`, the service's `System` (versioned, read-only).
 */
export interface ScanRuleset {
  id?: string;
  name?: string;
  kind: string;
  scanRulesetType?: "Custom" | "System" | string;
  status?: "Enabled" | "Disabled" | string;
  version?: number;
  properties?: {
    description?: string | null;
    excludedSystemClassifications?: string[];
    includedCustomClassificationRuleNames?: string[];
    scanningRule?: { fileExtensions?: string[]; customFileExtensions?: Record<string, unknown>[] };
    createdAt?: string;
    lastModifiedAt?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** An integration runtime: `SelfHosted` (nodes you install) or `Managed` (in a managed virtual network). */
export interface IntegrationRuntime {
  id?: string;
  name?: string;
  kind: "Managed" | "SelfHosted" | string;
  properties?: {
    description?: string;
    managedVirtualNetworkReference?: { referenceName?: string; type?: string };
    typeProperties?: { computeProperties?: { location?: string } };
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** The status of an integration runtime (its state, and for a managed one the interactive query switch). */
export interface IntegrationRuntimeStatus {
  name?: string;
  kind: string;
  properties?: {
    state?: string;
    typeProperties?: Record<string, unknown>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** The keys a self-hosted runtime's nodes register with. Secrets. */
export interface IntegrationRuntimeAuthKeys {
  authKey1?: string | null;
  authKey2?: string | null;
}

/** What the service answers to an action it carries out later (202). */
export interface ScanActionResponse {
  status?: string;
  scanResultId?: string;
  startTime?: string;
  endTime?: string;
  error?: { code?: string; message?: string };
  [key: string]: unknown;
}

/** The account's managed virtual network (the contract allows one, `defaultv2`). */
export interface ManagedVirtualNetwork {
  id?: string;
  name?: string;
  properties?: { vNetId?: string; alias?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** A private endpoint of the managed virtual network to a resource's private link. */
export interface ManagedPrivateEndpoint {
  id?: string;
  name?: string;
  properties?: {
    privateLinkResourceId?: string;
    groupId?: string;
    fqdns?: string[];
    provisioningState?: string;
    connectionState?: { status?: string; actionsRequired?: string; description?: string };
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** The custom filter of a scan: which paths (URI prefixes, regular expressions) it reads or skips. */
export interface ScanFilter {
  id?: string;
  name?: string;
  properties?: {
    includeUriPrefixes: string[];
    excludeUriPrefixes: string[];
    includeRegexes?: string[];
    excludeRegexes?: string[];
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** What tagging a classification rule version sets: keep its classifications, or delete them. */
export type ClassificationAction = "Keep" | "Delete";
