/**
 * Wire types of the scanning API's account resources (2023-09-01): key vault connections, credentials,
 * scan rulesets and system scan rulesets, custom scan filters, integration runtimes (with their status,
 * auth keys and interactive query), managed virtual networks and managed private endpoints.
 *
 * @module
 */

/** A connection to an Azure Key Vault, which credentials name to find their secrets. */
export interface KeyVaultConnection {
  /** Resource id; set by the service. */
  id?: string;
  /** Name of the connection, as credentials refer to it. */
  name?: string;
  /** The vault's `baseUrl` (`https://{vault}.vault.azure.net/`) and a description. */
  properties?: { baseUrl?: string; description?: string; [key: string]: unknown };
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** Where a credential's secret lives: a secret of a key vault connection, never the secret itself. */
export interface KeyVaultSecretReference {
  /** Always `AzureKeyVaultSecret`. */
  type?: "AzureKeyVaultSecret" | string;
  /** Name of the secret in the vault. */
  secretName?: string;
  /** Version of the secret; the latest when omitted. */
  secretVersion?: string;
  /** The key vault connection, by its `referenceName`. */
  store?: { referenceName?: string; type?: "LinkedServiceReference" | string };
}

/** A credential. `kind` is one of {@link CREDENTIAL_KINDS}; its `typeProperties` depend on the kind. */
export interface Credential {
  /** Resource id; set by the service. */
  id?: string;
  /** Name of the credential, as scans refer to it. */
  name?: string;
  /** How the credential authenticates (`ServicePrincipal`, `SqlAuth`, ...). */
  kind: string;
  /** A description and the kind's `typeProperties` (user names, tenant, {@link KeyVaultSecretReference}s). */
  properties?: {
    description?: string;
    typeProperties?: Record<string, unknown>;
    [key: string]: unknown;
  };
  /** Fields of newer contract versions, kept as read. */
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
  /** Resource id; set by the service. */
  id?: string;
  /** Name of the ruleset, as scans refer to it. */
  name?: string;
  /** Data source kind the ruleset is for (`AdlsGen2`, ...). */
  kind: string;
  /** `Custom` for one of the account, `System` for one of the service. */
  scanRulesetType?: "Custom" | "System" | string;
  /** Whether the ruleset may be used. */
  status?: "Enabled" | "Disabled" | string;
  /** Version of a system ruleset; it changes as the service updates it. */
  version?: number;
  /** File extensions to read, custom classification rules to apply, system classifications to leave out. */
  properties?: {
    description?: string | null;
    excludedSystemClassifications?: string[];
    includedCustomClassificationRuleNames?: string[];
    scanningRule?: { fileExtensions?: string[]; customFileExtensions?: Record<string, unknown>[] };
    createdAt?: string;
    lastModifiedAt?: string;
    [key: string]: unknown;
  };
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** An integration runtime: `SelfHosted` (nodes you install) or `Managed` (in a managed virtual network). */
export interface IntegrationRuntime {
  /** Resource id; set by the service. */
  id?: string;
  /** Name of the runtime, as scans refer to it in `connectedVia`. */
  name?: string;
  /** `SelfHosted` or `Managed`. */
  kind: "Managed" | "SelfHosted" | string;
  /** A description and, for a managed runtime, its virtual network and compute location. */
  properties?: {
    description?: string;
    managedVirtualNetworkReference?: { referenceName?: string; type?: string };
    typeProperties?: { computeProperties?: { location?: string } };
    [key: string]: unknown;
  };
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** The status of an integration runtime (its state, and for a managed one the interactive query switch). */
export interface IntegrationRuntimeStatus {
  /** Name of the runtime. */
  name?: string;
  /** `SelfHosted` or `Managed`. */
  kind: string;
  /**
   * The runtime's `state` (`Online`, `Offline`, ...) and kind-specific details (nodes, interactive query).
   */
  properties?: {
    state?: string;
    typeProperties?: Record<string, unknown>;
    [key: string]: unknown;
  };
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** The keys a self-hosted runtime's nodes register with. Secrets. */
export interface IntegrationRuntimeAuthKeys {
  /** Primary key; a secret. */
  authKey1?: string | null;
  /** Secondary key; a secret. */
  authKey2?: string | null;
}

/** What the service answers to an action it carries out later (202). */
export interface ScanActionResponse {
  /** State of the action. */
  status?: string;
  /** Id of the run or operation the action is about. */
  scanResultId?: string;
  /** When the action started (an ISO 8601 date and time). */
  startTime?: string;
  /** When the action ended. */
  endTime?: string;
  /** Why the action failed, if it did. */
  error?: { code?: string; message?: string };
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** The account's managed virtual network (the contract allows one, `defaultv2`). */
export interface ManagedVirtualNetwork {
  /** Resource id; set by the service. */
  id?: string;
  /** Name of the network. */
  name?: string;
  /** Id of the virtual network (`vNetId`) and its alias; set by the service. */
  properties?: { vNetId?: string; alias?: string; [key: string]: unknown };
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** A private endpoint of the managed virtual network to a resource's private link. */
export interface ManagedPrivateEndpoint {
  /** Resource id; set by the service. */
  id?: string;
  /** Name of the endpoint. */
  name?: string;
  /**
   * The target resource (`privateLinkResourceId`, `groupId` such as `blob`), its host names, and the approval
   * state of the connection.
   */
  properties?: {
    privateLinkResourceId?: string;
    groupId?: string;
    fqdns?: string[];
    provisioningState?: string;
    connectionState?: { status?: string; actionsRequired?: string; description?: string };
    [key: string]: unknown;
  };
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** The custom filter of a scan: which paths (URI prefixes, regular expressions) it reads or skips. */
export interface ScanFilter {
  /** Resource id; set by the service. */
  id?: string;
  /** Name of the filter; a scan has one, `custom`. */
  name?: string;
  /** URI prefixes (and regular expressions) of paths to read and to skip. */
  properties?: {
    includeUriPrefixes: string[];
    excludeUriPrefixes: string[];
    includeRegexes?: string[];
    excludeRegexes?: string[];
    [key: string]: unknown;
  };
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** What tagging a classification rule version sets: keep its classifications, or delete them. */
export type ClassificationAction = "Keep" | "Delete";
