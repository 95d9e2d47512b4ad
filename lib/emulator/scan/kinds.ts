/**
 * The kinds the scanning API (2023-09-01) knows: the `kind` discriminator values of a data source, of a
 * scan and of a scan ruleset, the file types a scanning rule names, its naming rule for data sources and
 * scans, and the looser one of classification rules.
 *
 * @module
 */

/**
 * The `kind` values of a data source (DataSourceType, one model per kind in the scanning contract): the
 * emulator's own copy, not the client's (`lib/catalog/scan_types.ts`), so a wrong client list makes the
 * client's tests fail instead of agreeing with the emulator. `tests/contract/emulator_lists_test.ts`
 * compares it, and {@link SCAN_KINDS}, to the contract.
 */
export const DATA_SOURCE_KINDS: readonly string[] = [
  "AzureSubscription",
  "AzureResourceGroup",
  "AzureSynapseWorkspace",
  "AzureSynapse",
  "AdlsGen1",
  "AdlsGen2",
  "AmazonAccount",
  "AmazonS3",
  "AmazonSql",
  "AzureCosmosDb",
  "AzureDataExplorer",
  "AzureFileService",
  "AzureSqlDatabase",
  "AmazonPostgreSql",
  "AzurePostgreSql",
  "SqlServerDatabase",
  "AzureSqlDatabaseManagedInstance",
  "AzureSqlDataWarehouse",
  "AzureMySql",
  "AzureStorage",
  "Teradata",
  "Oracle",
  "SapS4Hana",
  "SapEcc",
  "PowerBI",
];

/**
 * The data source kinds whose properties are the contract's `AzureDataSourceProperties` (an Azure
 * resource: `resourceGroup`, `subscriptionId`, `location`, `resourceName`, `resourceId`,
 * `dataUseGovernance`).
 */
export const AZURE_RESOURCE_KINDS: readonly string[] = [
  "AzureSynapseWorkspace",
  "AzureSynapse",
  "AdlsGen1",
  "AdlsGen2",
  "AzureCosmosDb",
  "AzureDataExplorer",
  "AzureFileService",
  "AzureSqlDatabase",
  "AzurePostgreSql",
  "SqlServerDatabase",
  "AzureSqlDatabaseManagedInstance",
  "AzureSqlDataWarehouse",
  "AzureMySql",
  "AzureStorage",
];

/**
 * The data source kinds with a scan ruleset model in the contract (the `x-ms-discriminator-value` of each
 * `…ScanRuleset` and `…SystemScanRuleset` definition): the kinds a custom ruleset may have, and those with
 * a system ruleset.
 */
export const RULESET_KINDS: readonly string[] = [
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

/** The file types a scanning rule names (`ScanningRule.fileExtensions`). */
export const FILE_EXTENSIONS: readonly string[] = [
  "AVRO",
  "ORC",
  "PARQUET",
  "JSON",
  "TXT",
  "XML",
  "Documents",
  "CSV",
  "PSV",
  "SSV",
  "TSV",
  "GZ",
  "DOC",
  "DOCM",
  "DOCX",
  "DOT",
  "ODP",
  "ODS",
  "ODT",
  "PDF",
  "POT",
  "PPS",
  "PPSX",
  "PPT",
  "PPTM",
  "PPTX",
  "XLC",
  "XLS",
  "XLSB",
  "XLSM",
  "XLSX",
  "XLT",
];

/** Scan kinds of the contract: the data source kind followed by how the scan authenticates. */
export const SCAN_KINDS: readonly string[] = [
  "AzureSubscriptionCredential",
  "AzureSubscriptionMsi",
  "AzureResourceGroupCredential",
  "AzureResourceGroupMsi",
  "AzureSynapseWorkspaceCredential",
  "AzureSynapseWorkspaceMsi",
  "AzureSynapseCredential",
  "AzureSynapseMsi",
  "AdlsGen1Credential",
  "AdlsGen1Msi",
  "AdlsGen2Credential",
  "AdlsGen2Msi",
  "AmazonAccountCredential",
  "AmazonS3Credential",
  "AmazonS3RoleARN",
  "AmazonSqlCredential",
  "AzureCosmosDbCredential",
  "AzureDataExplorerCredential",
  "AzureDataExplorerMsi",
  "AzureFileServiceCredential",
  "AzureSqlDatabaseCredential",
  "AzureSqlDatabaseMsi",
  "AzureSqlDatabaseNativeAuth",
  "AmazonPostgreSqlCredential",
  "AzurePostgreSqlCredential",
  "SqlServerDatabaseCredential",
  "AzureSqlDatabaseManagedInstanceCredential",
  "AzureSqlDatabaseManagedInstanceMsi",
  "AzureSqlDatabaseManagedInstanceNativeAuth",
  "AzureSqlDataWarehouseCredential",
  "AzureSqlDataWarehouseMsi",
  "AzureMySqlCredential",
  "AzureStorageCredential",
  "AzureStorageMsi",
  "TeradataTeradataCredential",
  "TeradataTeradataUserPass",
  "TeradataUserPass",
  "OracleOracleCredential",
  "OracleOracleUserPass",
  "SapS4HanaSapS4HanaCredential",
  "SapS4HanaSapS4HanaUserPass",
  "SapEccSapEccCredential",
  "SapEccSapEccUserPass",
  "PowerBICredential",
  "PowerBIDelegated",
  "PowerBIMsi",
];

/** The data source kind a scan kind belongs to: the longest data source kind it starts with. */
export function dataSourceKindOfScan(scanKind: string): string | undefined {
  let best: string | undefined;
  for (const kind of DATA_SOURCE_KINDS) {
    if (scanKind.startsWith(kind) && (!best || kind.length > best.length)) best = kind;
  }
  return best;
}

/** Names of data sources and scans: 3 to 63 letters or digits, single hyphens. */
export const SCAN_RESOURCE_NAME = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;

/** Why a name would be refused, or undefined when it is valid. */
export function scanNameProblem(name: string): string | undefined {
  if (name.length < 3 || name.length > 63) return `it has ${name.length} characters; names have 3 to 63`;
  if (!SCAN_RESOURCE_NAME.test(name)) {
    return "it may contain only letters, digits and single hyphens between them";
  }
  return undefined;
}

/**
 * Why a classification rule name would be refused, or undefined when it is valid. The service is not held
 * to {@link SCAN_RESOURCE_NAME} here: it created `test_classificationrule1009` (201; recorded:
 * Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/
 * ClassificationRuleClientTest/ClassificationRuleOperations.json). Only names that cannot be one path
 * segment are refused: empty, `.` or `..`, or holding a slash, a backslash or a control character.
 */
export function classificationRuleNameProblem(name: string): string | undefined {
  if (name === "") return "it is empty";
  if (name === "." || name === "..") return "a name of dots only would name another path";
  if (/[\/\\]/.test(name)) return "it may not contain / or \\, which would split the URL path";
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return "it may not contain control characters";
  return undefined;
}

/** A scan run id: a GUID, optionally in braces. */
export const RUN_ID = /^[{]?[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}[}]?$/;

/** Scan levels of a run or trigger. */
export const SCAN_LEVELS: readonly string[] = ["Full", "Incremental"];
