/**
 * Wire types of the scanning API (2023-09-01): data sources, scans, scan runs and the answer to a cancel,
 * scan triggers and classification rules, with the data source kinds the contract defines.
 *
 * @module
 */

/** A reference to a collection, as data sources and scans carry it. */
export interface CollectionReference {
  /** Reference name of the collection (its `name`, not its friendly name). */
  referenceName?: string;
  /** Always `CollectionReference` when the service writes it. */
  type?: string;
  /** When the reference last changed (an ISO 8601 date and time); set by the service. */
  lastModifiedAt?: string;
}

/** A data source. `kind` is one of {@link DATA_SOURCE_KINDS}; its properties depend on the kind. */
export interface DataSource {
  /** Resource id of the data source, a path under `/datasources`; set by the service. */
  id?: string;
  /** Name of the data source, unique in the account. */
  name?: string;
  /** Kind of source (`AdlsGen2`, `AzureSqlDatabase`, ...); decides which `properties` apply. */
  kind: string;
  /** How it was registered: by hand (`Manual`) or discovered (`AutoNative`, `AutoManaged`). */
  creationType?: "Manual" | "AutoNative" | "AutoManaged" | string;
  /**
   * Where the source is (`endpoint`, `serverEndpoint`, resource ids) and the collection it is registered in;
   * the fields depend on `kind`.
   */
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
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** A scan of a data source. `kind` is the data source kind plus how it authenticates (`AdlsGen2Msi`). */
export interface Scan {
  /** Resource id of the scan; set by the service. */
  id?: string;
  /** Name of the scan, unique within its data source. */
  name?: string;
  /** Name of the data source the scan reads. */
  dataSourceName?: string;
  /** Source kind and authentication together (`AdlsGen2Msi`, `AzureSqlDatabaseCredential`, ...). */
  kind: string;
  /** How the scan was created (`Manual`, ...). */
  creationType?: string;
  /**
   * The scan ruleset, the collection assets land in, the credential and integration runtime to use; the
   * fields depend on `kind`.
   */
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
  /** Fields of newer contract versions, kept as read. */
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
  /** Error code the service gives. */
  code?: string;
  /** Message for people. */
  message?: string;
  /** What the error is about. */
  target?: string;
  /** Errors that caused this one. */
  details?: ScanErrorInfo[];
}

/** One run of a scan (the contract's ScanResultWithIngestion), as the status and history calls answer it. */
export interface ScanRun {
  /** Run id; pass it to the status and cancel calls. */
  id?: string;
  /**
   * The run id in the service's answer to a start (`{scanResultId, startTime, endTime, status, error}`,
   * recorded: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/
   * ScanClientTest/ScanRunOperations.json); a run read back carries `id` instead.
   */
  scanResultId?: string | null;
  /** Assets the run found (recorded in the same session's runs list). */
  assetsDiscovered?: number;
  /** Assets the run classified. */
  assetsClassified?: number;
  /** When the run was queued. */
  queuedTime?: string | null;
  /** When the run's pipeline started; null until then. */
  pipelineStartTime?: string | null;
  /** Id of the run this one belongs to, for a sub-run. */
  parentId?: string | null;
  /** Id of the job that writes the discovered assets to the data map. */
  ingestionJobId?: string;
  /** Resource id of the scanned source. */
  resourceId?: string | null;
  /** Where the run stands; `Succeeded`, `Failed` and `Canceled` are final. */
  status?: ScanRunStatus | string;
  /** When the run started (an ISO 8601 date and time). */
  startTime?: string;
  /** When the run ended; null while it runs. */
  endTime?: string | null;
  /** Version of the scan ruleset the run used. */
  scanRulesetVersion?: number;
  /** Whether that ruleset is `Custom` or `System`. */
  scanRulesetType?: "Custom" | "System" | string;
  /** Whether the run was `Full` or `Incremental`. */
  scanLevelType?: ScanLevel | string;
  /** Why the run failed, as text. */
  errorMessage?: string | null;
  /** Why the run failed, structured. */
  error?: ScanErrorInfo | null;
  /** How the run was started (manually or by the trigger). */
  runType?: string;
  /** Kind of the scanned source (`AdlsGen2`, ...). */
  dataSourceType?: string;
  /** Notifications and exception counts of the run. */
  diagnostics?: {
    notifications?: { message?: string; code?: number }[];
    exceptionCountMap?: Record<string, number>;
  };
  /** Progress of discovery (reading the source): times, status and counts. */
  discoveryExecutionDetails?: {
    discoveryStartTime?: string | null;
    discoveryEndTime?: string | null;
    /** Queued, Running, Succeeded, Failed, Cancelled, Delayed, Throttled, CompletedWithExceptions… */
    status?: string;
    statistics?: Record<string, unknown>;
    isErrorLogAvailable?: boolean;
  };
  /** Progress of ingestion (writing assets to the data map): times, status, counts, time left. */
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
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** What the service answers to a cancel: the state of the cancel request itself, not of the run. */
export interface ScanOperationResponse {
  /** The run the request is about. */
  scanResultId?: string;
  /** When the cancel request was accepted. */
  startTime?: string;
  /** When the cancel request finished; null while it is pending. */
  endTime?: string | null;
  /** State of the cancel request. */
  status?: ScanRunStatus | string;
  /** Why the cancel request failed, if it did. */
  error?: ScanErrorInfo | null;
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** A day of the week, as trigger schedules name them. */
export type WeekDay = "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";

/** When in a period a trigger fires. */
export interface RecurrenceSchedule {
  /** Minutes of the hour to fire at (0 to 59). */
  minutes?: number[] | null;
  /** Hours of the day to fire at (0 to 23), in the trigger's time zone. */
  hours?: number[] | null;
  /** Days of the week to fire on, for a weekly recurrence. */
  weekDays?: (WeekDay | string)[] | null;
  /** Days of the month to fire on (1 to 31), for a monthly recurrence. */
  monthDays?: number[] | null;
  /** `{day: "Wednesday", occurrence: 2}`: the second Wednesday of the month. */
  monthlyOccurrences?: { day?: WeekDay | string; occurrence?: number }[] | null;
}

/** The scan trigger (schedule) of a scan; every scan has at most one, named `default`. */
export interface ScanTrigger {
  /** Resource id of the trigger; set by the service. */
  id?: string;
  /** Name of the trigger; always `default`. */
  name?: string;
  /**
   * The recurrence (`frequency`, `interval`, `startTime`, `schedule`, `timeZone`), whether it is `Enabled`,
   * and the scan level of the runs it starts.
   */
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
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** A pattern of a custom classification rule; `Regex` is the only kind. */
export interface ClassificationRulePattern {
  /** Kind of pattern; `Regex`. */
  kind: "Regex" | string;
  /** The regular expression to match. */
  pattern?: string;
}

/**
 * A classification rule. A `Custom` one names a classification and the regex patterns of column names and
 * values that earn it; a `System` one is built into the service.
 */
export interface ClassificationRule {
  /** Resource id of the rule; set by the service. */
  id?: string;
  /** Name of the rule, unique in the account. */
  name?: string;
  /** `Custom` for a rule of the account, `System` for one built into the service. */
  kind: "Custom" | "System" | string;
  /**
   * What the rule applies (`classificationName`), when (`columnPatterns`, `dataPatterns`,
   * `minimumPercentageMatch`) and whether it is enabled.
   */
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
  /** Fields of newer contract versions, kept as read. */
  [key: string]: unknown;
}

/** Kinds of classification rule the contract defines. */
export const CLASSIFICATION_RULE_KINDS: readonly string[] = ["Custom", "System"];

/** One page of a scanning list. */
export interface ScanPage<T> {
  /** Items of this page. */
  value: T[];
  /** URL of the next page; absent or null on the last page. */
  nextLink?: string | null;
  /** Number of items the service reports for the list. */
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
