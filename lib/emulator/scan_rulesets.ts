/**
 * Scan rulesets of the emulator's scanning API: the account's custom ones (`/scan/scanrulesets/{name}`:
 * create or replace, get, list, delete, which answers the deleted ruleset; `version` counts their writes)
 * and the service's system ones, one per data source kind with a ruleset model in the contract
 * (`/scan/systemScanRulesets`: list, by data source kind, and each kind's versions, one version, the
 * latest). The system rulesets are fixed: every
 * kind has versions 1 to {@link SYSTEM_RULESET_LATEST}.
 *
 * A scan names its ruleset (`properties.scanRulesetName` and `scanRulesetType`): a custom ruleset must
 * exist and be of its data source's kind, a system ruleset is the one of its data source's kind
 * ({@link checkScanRuleset}); anything else is refused as the service refuses it, a 400 naming the field.
 *
 * @module
 */
import { jsonResponse } from "./errors.ts";
import type { RouteDefinition } from "./router.ts";
import type { ScanContext } from "./scan_area.ts";
import { namedResourceRoutes, writableProperties } from "./scan_credentials.ts";
import type { StoredScanResource } from "./scan_store.ts";
import { iso, isRecord, optionalString, scanBadRequest, scanNotFound, scanPage } from "./scan_support.ts";

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

const FILE_EXTENSIONS = [
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

export function scanRulesetRoutes(c: ScanContext): RouteDefinition[] {
  return namedResourceRoutes(c, {
    kind: "ruleset",
    path: "/scan/scanrulesets",
    param: "scanRulesetName",
    what: "Scan ruleset",
    notFoundCode: "ScanRulesetNotFound",
    example: '{"kind": "AzureStorage", "properties": {"scanningRule": {…}, …}}',
    // Recorded: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/
    // ScanningServiceClientTest/ScanRulesOperations.json (DELETE answers 200 with the ruleset).
    deleteAnswersResource: true,
    accept: (body, current) => {
      const kind = body.kind;
      if (typeof kind !== "string" || !RULESET_KINDS.includes(kind)) {
        throw scanBadRequest(
          `Scan ruleset kind ${JSON.stringify(kind ?? null)} is not one of ${RULESET_KINDS.join(", ")}.`,
          "kind",
        );
      }
      optionalString(body, "scanRulesetType", "scanRulesetType", ["Custom"]);
      const properties = writableProperties(body);
      optionalString(properties, "description", "properties.description");
      for (const field of ["excludedSystemClassifications", "includedCustomClassificationRuleNames"]) {
        stringList(properties[field], `properties.${field}`);
      }
      const rule = properties.scanningRule;
      if (rule !== undefined && rule !== null) {
        if (!isRecord(rule)) {
          throw scanBadRequest("properties.scanningRule must be an object.", "properties.scanningRule");
        }
        for (const extension of stringList(rule.fileExtensions, "properties.scanningRule.fileExtensions")) {
          if (!FILE_EXTENSIONS.includes(extension)) {
            throw scanBadRequest(
              `properties.scanningRule.fileExtensions holds '${extension}', not one of ${
                FILE_EXTENSIONS.join(", ")
              }.`,
              "properties.scanningRule.fileExtensions",
            );
          }
        }
        const custom = rule.customFileExtensions;
        if (custom !== undefined && custom !== null && !Array.isArray(custom)) {
          throw scanBadRequest(
            "properties.scanningRule.customFileExtensions must be an array.",
            "properties.scanningRule.customFileExtensions",
          );
        }
      }
      const version = Number(current?.body.version ?? 0) + 1;
      return { kind, version, properties };
    },
    wire: rulesetWire,
  });
}

function stringList(value: unknown, target: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw scanBadRequest(`${target} must be an array of strings.`, target);
  }
  if (new Set(value).size !== value.length) throw scanBadRequest(`${target} lists a value twice.`, target);
  return value as string[];
}

/**
 * A custom ruleset as the service answers it: besides what was sent, `collection` and (when unset)
 * `temporaryResourceFilters` as its kind's system ruleset has them, and `scanningRule.customFileExtensions`
 * null when not sent (recorded: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/
 * SessionRecords/ScanningServiceClientTest/ScanRulesOperations.json).
 */
function rulesetWire(stored: StoredScanResource): Record<string, unknown> {
  const kind = String(stored.body.kind);
  const properties = stored.body.properties as Record<string, unknown>;
  const rule = isRecord(properties.scanningRule)
    ? { scanningRule: { customFileExtensions: null, ...properties.scanningRule } }
    : {};
  return {
    id: `scanrulesets/${stored.name}`,
    name: stored.name,
    kind,
    scanRulesetType: "Custom",
    status: "Enabled",
    version: stored.body.version,
    properties: {
      collection: null,
      temporaryResourceFilters: temporaryResourceFilters(kind),
      ...properties,
      ...rule,
      createdAt: iso(stored.createdAt),
      lastModifiedAt: iso(stored.modifiedAt),
    },
  };
}

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

function temporaryResourceFilters(kind: string): unknown[] | null {
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

/**
 * Checks the ruleset a scan names and fills in what is left out: no name means the system ruleset of the
 * data source's kind; a name without a type is a custom ruleset when one has that name, else a system one.
 */
export function checkScanRuleset(
  c: ScanContext,
  properties: Record<string, unknown>,
  sourceKind: string,
): { scanRulesetName: string; scanRulesetType: string } {
  const name = optionalString(properties, "scanRulesetName", "properties.scanRulesetName");
  let type = optionalString(properties, "scanRulesetType", "properties.scanRulesetType", [
    "Custom",
    "System",
  ]);
  if (!name) {
    if (type === "Custom") {
      throw scanBadRequest(
        "A scan with a custom ruleset needs properties.scanRulesetName.",
        "properties.scanRulesetName",
      );
    }
    return { scanRulesetName: sourceKind, scanRulesetType: "System" };
  }
  const custom = c.store.get("ruleset", "", name);
  type ??= custom ? "Custom" : "System";
  const target = "properties.scanRulesetName";
  if (type === "Custom") {
    if (!custom) {
      throw scanBadRequest(
        `Scan ruleset '${name}' does not exist; create it first (PUT /scan/scanrulesets/{name}) or name ` +
          `the system ruleset ${sourceKind} with scanRulesetType System.`,
        target,
      );
    }
    if (custom.body.kind !== sourceKind) {
      throw scanBadRequest(
        `Scan ruleset '${custom.name}' is for ${custom.body.kind} data sources, not ${sourceKind}.`,
        target,
      );
    }
    return { scanRulesetName: custom.name, scanRulesetType: "Custom" };
  }
  if (name.toLowerCase() !== sourceKind.toLowerCase()) {
    throw scanBadRequest(
      `There is no system scan ruleset '${name}' for ${sourceKind} data sources; the system ruleset of ` +
        `this data source is ${sourceKind}.`,
      target,
    );
  }
  return { scanRulesetName: sourceKind, scanRulesetType: "System" };
}
