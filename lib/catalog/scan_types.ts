/**
 * Wire types of the scanning API (2023-09-01): data sources, scans, scan runs and the answer to a cancel,
 * scan triggers and classification rules, with the data source kinds the contract defines.
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

/** An error as scanning results and operation responses carry it. */
export interface ScanErrorInfo {
  code?: string;
  message?: string;
  target?: string;
  details?: ScanErrorInfo[];
}

/** One run of a scan (the contract's ScanResultWithIngestion), as the status and history calls answer it. */
export interface ScanRun {
  id?: string;
  parentId?: string | null;
  ingestionJobId?: string;
  resourceId?: string | null;
  status?: ScanRunStatus | string;
  startTime?: string;
  endTime?: string | null;
  scanRulesetVersion?: number;
  scanRulesetType?: "Custom" | "System" | string;
  scanLevelType?: ScanLevel | string;
  errorMessage?: string | null;
  error?: ScanErrorInfo | null;
  runType?: string;
  dataSourceType?: string;
  diagnostics?: {
    notifications?: { message?: string; code?: number }[];
    exceptionCountMap?: Record<string, number>;
  };
  discoveryExecutionDetails?: {
    discoveryStartTime?: string | null;
    discoveryEndTime?: string | null;
    /** Queued, Running, Succeeded, Failed, Cancelled, Delayed, Throttled, CompletedWithExceptions… */
    status?: string;
    statistics?: Record<string, unknown>;
    isErrorLogAvailable?: boolean;
  };
  ingestionExecutionDetails?: {
    ingestionStartTime?: string | null;
    ingestionEndTime?: string | null;
    /** None, Queued, InProgress, Succeeded, PartialSucceeded, Failed, Canceling, Canceled… */
    status?: string;
    statistics?: Record<string, unknown>;
    estimatedTimeRemainingInSeconds?: number;
    isErrorLogAvailable?: boolean;
    lastUpdatedAt?: string;
  };
  [key: string]: unknown;
}

/** What the service answers to a cancel: the state of the cancel request itself, not of the run. */
export interface ScanOperationResponse {
  /** The run the request is about. */
  scanResultId?: string;
  startTime?: string;
  endTime?: string | null;
  status?: ScanRunStatus | string;
  error?: ScanErrorInfo | null;
  [key: string]: unknown;
}

/** A day of the week, as trigger schedules name them. */
export type WeekDay = "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";

/** When in a period a trigger fires. */
export interface RecurrenceSchedule {
  minutes?: number[] | null;
  hours?: number[] | null;
  weekDays?: (WeekDay | string)[] | null;
  monthDays?: number[] | null;
  /** `{day: "Wednesday", occurrence: 2}`: the second Wednesday of the month. */
  monthlyOccurrences?: { day?: WeekDay | string; occurrence?: number }[] | null;
}

/** The scan trigger (schedule) of a scan; every scan has at most one, named `default`. */
export interface ScanTrigger {
  id?: string;
  name?: string;
  properties?: {
    recurrence?: {
      frequency?: "Week" | "Month" | "Day" | "Hour" | string;
      interval?: number;
      startTime?: string;
      endTime?: string | null;
      schedule?: RecurrenceSchedule;
      timeZone?: string;
    };
    recurrenceInterval?: string | null;
    state?: "Enabled" | "Disabled" | string;
    scanLevel?: ScanLevel | string;
    incrementalScanStartTime?: string;
    createdAt?: string;
    lastModifiedAt?: string;
    lastScheduled?: string | null;
    [key: string]: unknown;
  };
  /** Why the service considers the trigger unusable, when it does. */
  validationErrorInfo?: string;
  [key: string]: unknown;
}

/** A pattern of a custom classification rule; `Regex` is the only kind. */
export interface ClassificationRulePattern {
  kind: "Regex" | string;
  pattern?: string;
}

/**
 * A classification rule. A `Custom` one names a classification and the regex patterns of column names and
 * values that earn it; a `System` one is built into the service.
 */
export interface ClassificationRule {
  id?: string;
  name?: string;
  kind: "Custom" | "System" | string;
  properties?: {
    classificationName?: string;
    description?: string;
    ruleStatus?: "Enabled" | "Disabled" | string;
    minimumPercentageMatch?: number;
    columnPatterns?: ClassificationRulePattern[];
    dataPatterns?: ClassificationRulePattern[];
    /** Counts the rule's writes (read-only). */
    version?: number;
    classificationAction?: "Keep" | "Delete" | string;
    createdAt?: string;
    lastModifiedAt?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** Kinds of classification rule the contract defines. */
export const CLASSIFICATION_RULE_KINDS: readonly string[] = ["Custom", "System"];

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
