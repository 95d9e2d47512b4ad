/**
 * Wire types of the scanning API (2023-09-01): data sources, scans, scan runs, scan triggers and
 * classification rules, with the data source and scan kinds the contract defines.
 *
 * @module
 */

/** A reference to a collection, as data sources and scans carry it. */
export interface CollectionReference {
  referenceName?: string;
  type?: string;
  lastModifiedAt?: string;
}

/** A data source. `kind` is one of {@link DATA_SOURCE_KINDS}; its properties depend on the kind. */
export interface DataSource {
  id?: string;
  name?: string;
  kind: string;
  creationType?: "Manual" | "AutoNative" | "AutoManaged" | string;
  properties?: {
    collection?: CollectionReference;
    createdAt?: string;
    lastModifiedAt?: string;
    endpoint?: string;
    serverEndpoint?: string;
    resourceGroup?: string;
    subscriptionId?: string;
    location?: string;
    resourceName?: string;
    resourceId?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** A scan of a data source. `kind` is the data source kind plus how it authenticates (`AdlsGen2Msi`). */
export interface Scan {
  id?: string;
  name?: string;
  dataSourceName?: string;
  kind: string;
  creationType?: string;
  properties?: {
    scanRulesetName?: string;
    scanRulesetType?: "Custom" | "System" | string;
    collection?: CollectionReference;
    credential?: { referenceName?: string; credentialType?: string };
    connectedVia?: { referenceName?: string } | null;
    createdAt?: string;
    lastModifiedAt?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** How much a run scans. */
export type ScanLevel = "Full" | "Incremental";

/** The status of a scan run. */
export type ScanRunStatus =
  | "Accepted"
  | "InProgress"
  | "TransientFailure"
  | "Succeeded"
  | "Failed"
  | "Canceled";

/** One run of a scan (the contract's ScanResultWithIngestion). */
export interface ScanRun {
  id?: string;
  parentId?: string | null;
  ingestionJobId?: string;
  resourceId?: string | null;
  status?: ScanRunStatus | string;
  startTime?: string;
  endTime?: string | null;
  scanRulesetVersion?: number;
  scanRulesetType?: string;
  scanLevelType?: ScanLevel | string;
  errorMessage?: string | null;
  runType?: string;
  dataSourceType?: string;
  discoveryExecutionDetails?: Record<string, unknown>;
  ingestionExecutionDetails?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The scan trigger (schedule) of a scan. */
export interface ScanTrigger {
  id?: string;
  name?: string;
  properties?: {
    recurrence?: {
      frequency?: "Week" | "Month" | "Day" | "Hour" | string;
      interval?: number;
      startTime?: string;
      endTime?: string;
      schedule?: Record<string, unknown>;
      timeZone?: string;
    };
    recurrenceInterval?: string | null;
    state?: "Enabled" | "Disabled" | string;
    scanLevel?: ScanLevel | string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** A classification rule: a custom one names a classification and its regex patterns. */
export interface ClassificationRule {
  id?: string;
  name?: string;
  kind: "Custom" | "System" | string;
  properties?: {
    classificationName?: string;
    description?: string;
    ruleStatus?: "Enabled" | "Disabled" | string;
    minimumPercentageMatch?: number;
    columnPatterns?: { kind: "Regex"; pattern: string }[];
    dataPatterns?: { kind: "Regex"; pattern: string }[];
    version?: number;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** One page of a scanning list. */
export interface ScanPage<T> {
  value: T[];
  nextLink?: string | null;
  count?: number;
}

/** Data source kinds the contract defines a model for. */
export const DATA_SOURCE_KINDS: readonly string[] = [
  "AdlsGen1",
  "AdlsGen2",
  "AmazonAccount",
  "AmazonPostgreSql",
  "AmazonS3",
  "AmazonSql",
  "AzureCosmosDb",
  "AzureDataExplorer",
  "AzureFileService",
  "AzureMySql",
  "AzurePostgreSql",
  "AzureResourceGroup",
  "AzureSqlDataWarehouse",
  "AzureSqlDatabase",
  "AzureSqlDatabaseManagedInstance",
  "AzureStorage",
  "AzureSubscription",
  "AzureSynapse",
  "AzureSynapseWorkspace",
  "Oracle",
  "PowerBI",
  "SapEcc",
  "SapS4Hana",
  "SqlServerDatabase",
  "Teradata",
];
