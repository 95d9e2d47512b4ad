/**
 * The service's system scan rulesets in the emulator's scanning API, one per data source kind with a ruleset
 * model in the contract (`/scan/systemScanRulesets`: list, by data source kind, and each kind's versions,
 * one version, the latest). They are fixed: every kind has versions 1 to {@link SYSTEM_RULESET_LATEST}.
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import type { RouteDefinition } from "../router.ts";
import type { ScanContext } from "./area.ts";
import { FILE_EXTENSIONS, RULESET_KINDS } from "./kinds.ts";
import { scanBadRequest, scanNotFound, scanPage } from "./support.ts";

/** Every data source type of the contract (`DataSourceType`), as the `dataSourceType` parameter takes. */
export const DATA_SOURCE_TYPES: readonly string[] = [
  "None",
  "Fabric",
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
  "ArcEnabledSqlServer",
  "AmazonPostgreSql",
  "AzurePostgreSql",
  "Databricks",
  "SqlServerDatabase",
  "AzureSqlDatabaseManagedInstance",
  "AzureSqlDataWarehouse",
  "AzureMySql",
  "Hdfs",
  "TableauServer",
  "AzureStorage",
  "Teradata",
  "Oracle",
  "PostgreSql",
  "AmazonRedShift",
  "DatabricksHms",
  "SapS4Hana",
  "SapEcc",
  "Snowflake",
  "PowerBI",
  "Trident",
  "Dataverse",
  "DatabricksUnityCatalog",
];

/** The latest version of every system scan ruleset. */
export const SYSTEM_RULESET_LATEST = 2;
/** When the emulated service published its system rulesets. */
const SYSTEM_RULESET_TIME = "2023-09-01T00:00:00.000Z";

/**
 * What the service's system rulesets hold beyond the contract's fields, as recorded (Azure/azure-sdk-for-net
 * sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/ScanningServiceClientTest/
 * GetSystemRulesets.json and SystemRulesetsDataSourceOperations.json): the file stores' rulesets carry
 * `scanningRule.fileExtensions` (every file type; AmazonS3's without GZ) and `customFileExtensions: null`;
 * every ruleset carries `collection: null` and `temporaryResourceFilters` — the pattern below for the
 * Amazon kinds, an empty list for the file stores and Cosmos DB, null for the others.
 */
const SYSTEM_FILE_STORES = ["AdlsGen1", "AdlsGen2", "AmazonS3", "AzureFileService", "AzureStorage"];
const TEMPORARY_RESOURCE_FILTER = {
  resourceFilterPattern: "(_SUCCESS|_started_\\d*|_committed_\\d*|_committed_vacuum\\d*)$",
  ingestTemporaryResource: true,
};

export function temporaryResourceFilters(kind: string): unknown[] | null {
  if (kind.startsWith("Amazon") && kind !== "AmazonAccount") return [TEMPORARY_RESOURCE_FILTER];
  if (SYSTEM_FILE_STORES.includes(kind) || kind === "AzureCosmosDb") return [];
  return null;
}

/** One version of the system ruleset of a kind. */
function systemRuleset(kind: string, version: number): Record<string, unknown> {
  const fileStore = SYSTEM_FILE_STORES.includes(kind);
  const scanningRule = fileStore
    ? {
      scanningRule: {
        fileExtensions: kind === "AmazonS3"
          ? FILE_EXTENSIONS.filter((e) => e !== "GZ")
          : [...FILE_EXTENSIONS],
        customFileExtensions: null,
      },
    }
    : {};
  return {
    id: `systemscanrulesets/${kind}`,
    name: kind,
    kind,
    scanRulesetType: "System",
    status: "Enabled",
    version,
    properties: {
      ...scanningRule,
      description: `The system scan ruleset of ${kind} data sources, version ${version}: all supported ` +
        (fileStore ? "file types and all supported " : "") + "system classification rules.",
      createdAt: SYSTEM_RULESET_TIME,
      lastModifiedAt: SYSTEM_RULESET_TIME,
      collection: null,
      excludedSystemClassifications: [],
      includedCustomClassificationRuleNames: [],
      temporaryResourceFilters: temporaryResourceFilters(kind),
    },
  };
}

/** The `dataSourceType` of a system ruleset request: a kind of the contract with a system ruleset. */
function systemKind(value: string | null, target: string): string {
  if (value === null || value === "") {
    throw scanBadRequest(
      `The ${target} parameter is required; it is a data source type such as AzureStorage.`,
      target,
    );
  }
  const kind = DATA_SOURCE_TYPES.find((k) => k.toLowerCase() === value.toLowerCase());
  if (!kind) {
    throw scanBadRequest(`${target} '${value}' is not a data source type of the contract.`, target);
  }
  if (!RULESET_KINDS.includes(kind)) {
    throw scanNotFound("System scan ruleset of data source type", kind, "SystemScanRulesetNotFound");
  }
  return kind;
}

export function systemRulesetRoutes(c: ScanContext): RouteDefinition[] {
  const base = "/scan/systemScanRulesets";
  const queryKind = (url: URL) => systemKind(url.searchParams.get("dataSourceType"), "dataSourceType");
  const versions = (kind: string) =>
    Array.from({ length: SYSTEM_RULESET_LATEST }, (_, i) => systemRuleset(kind, SYSTEM_RULESET_LATEST - i));
  return [
    {
      method: "GET",
      path: base,
      handler: ({ url }) =>
        jsonResponse(
          scanPage(url, RULESET_KINDS.map((k) => systemRuleset(k, SYSTEM_RULESET_LATEST)), c.pageSize),
        ),
    },
    {
      method: "GET",
      path: `${base}/datasources/{dataSourceType}`,
      handler: ({ params }) =>
        jsonResponse(
          systemRuleset(systemKind(params.dataSourceType, "dataSourceType"), SYSTEM_RULESET_LATEST),
        ),
    },
    {
      method: "GET",
      path: `${base}/versions`,
      handler: ({ url }) => jsonResponse(scanPage(url, versions(queryKind(url)), c.pageSize)),
    },
    {
      method: "GET",
      path: `${base}/versions/latest`,
      handler: ({ url }) => jsonResponse(systemRuleset(queryKind(url), SYSTEM_RULESET_LATEST)),
    },
    {
      method: "GET",
      path: `${base}/versions/{version}`,
      handler: ({ url, params }) => {
        const version = Number(params.version);
        if (!/^\d{1,9}$/.test(params.version)) {
          throw scanBadRequest(`version '${params.version}' is not a whole number.`, "version");
        }
        const kind = queryKind(url);
        if (version < 1 || version > SYSTEM_RULESET_LATEST) {
          throw scanNotFound(
            `Version ${version} of the system scan ruleset`,
            kind,
            "SystemScanRulesetNotFound",
          );
        }
        return jsonResponse(systemRuleset(kind, version));
      },
    },
  ];
}
