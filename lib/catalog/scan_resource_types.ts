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
