/**
 * The requests CatalogClient's scanning calls send, checked against the published scanning contract
 * (Azure.Analytics.Purview.Scanning, 2023-09-01, served under `/scan`): each call runs against a recording
 * server on 127.0.0.1 that answers what the matched operation's first contract example answers, and the
 * recorded request must match the expected operation (path template, method), carry api-version=2023-09-01,
 * use only declared query parameters (required ones present) and send a body that validates against the
 * body parameter's schema. List calls are iterated, and their answers carry no nextLink, so each call sends
 * one request.
 *
 * The contract writes actions as a suffix of the last segment (`{scanName}:run`, `{runId}:cancel`,
 * `default:enable`); for matching, both the contract's templates and the recorded path split the action
 * into a segment of its own.
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import { scanTemplate } from "../../lib/templates/scan_templates.ts";
import { type Contract, referenceAvailable, SKIPPED_SUFFIX } from "../support/contract/reference.ts";
import { loadScanningContract, SCAN_API_VERSION } from "../support/contract/scanning.ts";
import { checkRequest } from "../support/contract/requests.ts";
import {
  assertCallConforms,
  assertClientHas,
  caseLabel,
  type ClientCase,
  recordClientCall,
} from "../support/contract/client_calls.ts";

const RUN_ID = "138301e4-f4f9-4ab5-b734-bac446b236e7";
const SOURCE = {
  kind: "AzureStorage",
  properties: { endpoint: "https://sales.blob.core.windows.net/", collection: { referenceName: "sales" } },
};
const SCAN = {
  kind: "AzureStorageMsi",
  properties: { scanRulesetName: "AzureStorage", scanRulesetType: "System" },
};
/** The trigger `govcat scan template --name=scan-trigger` prints, as a user sends it. */
const TRIGGER = scanTemplate("scan-trigger")!.payload;
const RULE = {
  kind: "Custom",
  properties: {
    classificationName: "CONTOSO.EMPLOYEE_ID",
    ruleStatus: "Enabled",
    minimumPercentageMatch: 60,
    columnPatterns: [{ kind: "Regex", pattern: "^emp_?id$" }],
    dataPatterns: [{ kind: "Regex", pattern: "^E[0-9]{6}$" }],
  },
};

const KEY_VAULT = { properties: { baseUrl: "https://contoso-kv.vault.azure.net/", description: "secrets" } };
const CREDENTIAL = {
  kind: "SqlAuth",
  properties: {
    description: "reads the sales database",
    typeProperties: {
      user: "scanner",
      password: {
        type: "AzureKeyVaultSecret",
        secretName: "scanner-password",
        store: { referenceName: "contoso-kv", type: "LinkedServiceReference" },
      },
    },
  },
};

const RULESET = {
  kind: "AzureStorage",
  scanRulesetType: "Custom",
  properties: {
    description: "CSV and Parquet only",
    scanningRule: { fileExtensions: ["CSV", "PARQUET"] },
    excludedSystemClassifications: ["MICROSOFT.MISCELLANEOUS.IPADDRESS"],
    includedCustomClassificationRuleNames: ["employee-id"],
  },
};

const MANAGED_RUNTIME = {
  kind: "Managed",
  properties: {
    managedVirtualNetworkReference: { referenceName: "defaultv2", type: "ManagedVirtualNetworkReference" },
    typeProperties: { computeProperties: { location: "westus2" } },
  },
};
const ENDPOINT = {
  properties: {
    privateLinkResourceId:
      "/subscriptions/x/resourceGroups/sales/providers/Microsoft.Storage/storageAccounts/sales",
    groupId: "blob",
  },
};

const FILTER = {
  properties: {
    includeUriPrefixes: ["https://sales.blob.core.windows.net/raw"],
    excludeUriPrefixes: ["https://sales.blob.core.windows.net/raw/tmp"],
    excludeRegexes: ["\\.bak$"],
  },
};

const CASES: ClientCase[] = [
  { method: "scan.putDataSource", operationId: "DataSources_CreateOrReplace", args: ["sales-blob", SOURCE] },
  { method: "scan.getDataSource", operationId: "DataSources_Get", args: ["sales-blob"] },
  { method: "scan.listDataSources", operationId: "DataSources_List", args: [] },
  { method: "scan.deleteDataSource", operationId: "DataSources_Delete", args: ["sales-blob"] },
  { method: "scan.putScan", operationId: "Scans_CreateOrReplace", args: ["sales-blob", "nightly", SCAN] },
  { method: "scan.getScan", operationId: "Scans_Get", args: ["sales-blob", "nightly"] },
  { method: "scan.listScans", operationId: "Scans_ListByDataSource", args: ["sales-blob"] },
  { method: "scan.deleteScan", operationId: "Scans_Delete", args: ["sales-blob", "nightly"] },
  {
    method: "scan.runScan",
    operationId: "ScanResult_RunScan",
    args: ["sales-blob", "nightly", { runId: RUN_ID, scanLevel: "Full" }],
  },
  {
    method: "scan.runScan",
    variant: "with a new run id",
    operationId: "ScanResult_RunScan",
    args: ["sales-blob", "nightly"],
  },
  {
    method: "scan.getScanRun",
    operationId: "ScanResult_GetScanStatus",
    args: ["sales-blob", "nightly", RUN_ID],
  },
  {
    method: "scan.cancelScan",
    operationId: "ScanResult_CancelScan",
    args: ["sales-blob", "nightly", RUN_ID],
  },
  { method: "scan.listScanRuns", operationId: "ScanResult_ListScanHistory", args: ["sales-blob", "nightly"] },
  {
    method: "scan.putTrigger",
    operationId: "Triggers_CreateOrReplace",
    args: ["sales-blob", "nightly", TRIGGER],
  },
  { method: "scan.getTrigger", operationId: "Triggers_Get", args: ["sales-blob", "nightly"] },
  { method: "scan.deleteTrigger", operationId: "Triggers_Delete", args: ["sales-blob", "nightly"] },
  { method: "scan.enableTrigger", operationId: "Triggers_Enable", args: ["sales-blob", "nightly"] },
  { method: "scan.disableTrigger", operationId: "Triggers_Disable", args: ["sales-blob", "nightly"] },
  {
    method: "scan.putClassificationRule",
    operationId: "ClassificationRules_CreateOrReplace",
    args: ["employee-id", RULE],
  },
  { method: "scan.getClassificationRule", operationId: "ClassificationRules_Get", args: ["employee-id"] },
  { method: "scan.listClassificationRules", operationId: "ClassificationRules_List", args: [] },
  {
    method: "scan.deleteClassificationRule",
    operationId: "ClassificationRules_Delete",
    args: ["employee-id"],
  },
  {
    method: "scan.putKeyVaultConnection",
    operationId: "KeyVaultConnections_CreateOrReplace",
    args: ["contoso-kv", KEY_VAULT],
  },
  { method: "scan.getKeyVaultConnection", operationId: "KeyVaultConnections_Get", args: ["contoso-kv"] },
  { method: "scan.listKeyVaultConnections", operationId: "KeyVaultConnections_List", args: [] },
  {
    method: "scan.deleteKeyVaultConnection",
    operationId: "KeyVaultConnections_Delete",
    args: ["contoso-kv"],
  },
  {
    method: "scan.putCredential",
    operationId: "Credential_CreateOrReplace",
    args: ["sql-reader", CREDENTIAL],
  },
  { method: "scan.getCredential", operationId: "Credential_Get", args: ["sql-reader"] },
  { method: "scan.listCredentials", operationId: "Credential_List", args: [] },
  { method: "scan.deleteCredential", operationId: "Credential_Delete", args: ["sql-reader"] },
  {
    method: "scan.putScanRuleset",
    operationId: "ScanRulesets_CreateOrReplace",
    args: ["lake-rules", RULESET],
  },
  { method: "scan.getScanRuleset", operationId: "ScanRulesets_Get", args: ["lake-rules"] },
  { method: "scan.listScanRulesets", operationId: "ScanRulesets_List", args: [] },
  { method: "scan.deleteScanRuleset", operationId: "ScanRulesets_Delete", args: ["lake-rules"] },
  { method: "scan.listSystemScanRulesets", operationId: "SystemScanRulesets_List", args: [] },
  { method: "scan.getSystemScanRuleset", operationId: "SystemScanRulesets_Get", args: ["AzureStorage"] },
  {
    method: "scan.listSystemScanRulesetVersions",
    operationId: "SystemScanRulesets_ListVersionsByDataSource",
    args: ["AzureStorage"],
  },
  {
    method: "scan.getSystemScanRulesetVersion",
    operationId: "SystemScanRulesets_GetByVersion",
    args: [1, "AzureStorage"],
  },
  {
    method: "scan.getLatestSystemScanRuleset",
    operationId: "SystemScanRulesets_GetLatest",
    args: ["AzureStorage"],
  },
  {
    method: "scan.putIntegrationRuntime",
    operationId: "IntegrationRuntimes_CreateOrReplace",
    args: ["onprem", { kind: "SelfHosted", properties: { description: "on premises" } }],
  },
  {
    method: "scan.putIntegrationRuntime",
    variant: "managed",
    operationId: "IntegrationRuntimes_CreateOrReplace",
    args: ["cloud", MANAGED_RUNTIME],
  },
  { method: "scan.getIntegrationRuntime", operationId: "IntegrationRuntimes_Get", args: ["onprem"] },
  { method: "scan.listIntegrationRuntimes", operationId: "IntegrationRuntimes_ListByAccount", args: [] },
  { method: "scan.deleteIntegrationRuntime", operationId: "IntegrationRuntimes_Delete", args: ["onprem"] },
  { method: "scan.getIntegrationRuntimeStatus", operationId: "IntegrationRuntimes_Status", args: ["onprem"] },
  {
    method: "scan.listIntegrationRuntimeAuthKeys",
    operationId: "IntegrationRuntimes_ListAuthKeys",
    args: ["onprem"],
  },
  {
    method: "scan.regenerateIntegrationRuntimeAuthKey",
    operationId: "IntegrationRuntimes_RegenerateAuthKey",
    args: ["onprem", "authKey2"],
  },
  {
    method: "scan.enableInteractiveQuery",
    operationId: "IntegrationRuntimes_EnableInteractiveQuery",
    args: ["cloud", { autoTerminationMinutes: 30 }],
  },
  {
    method: "scan.disableInteractiveQuery",
    operationId: "IntegrationRuntimes_DisableInteractiveQuery",
    args: ["cloud"],
  },
  {
    method: "scan.putManagedVirtualNetwork",
    operationId: "ManagedVirtualNetworks_CreateOrReplace",
    args: ["defaultv2", { properties: {} }],
  },
  { method: "scan.getManagedVirtualNetwork", operationId: "ManagedVirtualNetworks_Get", args: ["defaultv2"] },
  {
    method: "scan.listManagedVirtualNetworks",
    operationId: "ManagedVirtualNetworks_ListByAccount",
    args: [],
  },
  {
    method: "scan.putManagedPrivateEndpoint",
    operationId: "ManagedPrivateEndpoints_CreateOrReplace",
    args: ["defaultv2", "sales-blob", ENDPOINT],
  },
  {
    method: "scan.getManagedPrivateEndpoint",
    operationId: "ManagedPrivateEndpoints_Get",
    args: ["defaultv2", "sales-blob"],
  },
  {
    method: "scan.listManagedPrivateEndpoints",
    operationId: "ManagedPrivateEndpoints_ListByAccount",
    args: ["defaultv2"],
  },
  {
    method: "scan.deleteManagedPrivateEndpoint",
    operationId: "ManagedPrivateEndpoints_Delete",
    args: ["defaultv2", "sales-blob"],
  },
  {
    method: "scan.putScanFilter",
    operationId: "Filters_CreateOrReplace",
    args: ["sales-blob", "nightly", FILTER],
  },
  { method: "scan.getScanFilter", operationId: "Filters_Get", args: ["sales-blob", "nightly"] },
  {
    method: "scan.listClassificationRuleVersions",
    operationId: "ClassificationRules_ListVersionsByRuleName",
    args: ["employee-id"],
  },
  {
    method: "scan.tagClassificationRuleVersion",
    operationId: "ClassificationRules_TagClassificationVersion",
    args: ["employee-id", 2, "Delete"],
  },
];

/** `…/{scanName}:run` → `…/{scanName}/:run`: the action becomes a segment of its own. */
function splitAction(path: string): string {
  return path.replace(/([^/]):([A-Za-z]+)$/, "$1/:$2");
}

/** The contract with every action suffix split off its path template (see {@link splitAction}). */
function withActionSegments(contract: Contract): Contract {
  const operations = new Map(
    [...contract.operations].map((
      [id, operation],
    ) => [id, { ...operation, path: splitAction(operation.path) }]),
  );
  return { ...contract, operations };
}

/** The first example's answer of the operation the request calls (its nextLink dropped), or a 404. */
function plausibleAnswer(contract: Contract, operationId: string): Response {
  const operation = contract.operations.get(operationId)!;
  const example = operation.exampleFiles.map((file) => contract.examples.get(file)).find((e) =>
    e !== undefined
  );
  const [status, response] = Object.entries(example?.responses ?? { "200": { body: {} } })[0];
  if (status === "204" || response.body === undefined) return new Response(null, { status: Number(status) });
  const body = structuredClone(response.body) as Record<string, unknown>;
  if ("nextLink" in body) body.nextLink = null;
  return Response.json(body, { status: Number(status) });
}

const AVAILABLE = referenceAvailable({ quiet: true });

if (!AVAILABLE) {
  Deno.test({
    name: `client scanning requests conform to the scanning contract ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contract = await loadScanningContract();
  const matching = withActionSegments(contract);

  Deno.test("scanning contract: served under /scan; every client case names one of its operations", () => {
    assert.equal(contract.prefix, "/scan");
    for (const clientCase of CASES) {
      assert.ok(
        contract.operations.has(clientCase.operationId),
        `${clientCase.operationId} is not in the contract`,
      );
    }
  });

  for (const clientCase of CASES) {
    const label = caseLabel(clientCase);
    Deno.test({
      name: `client request: ${label} -> ${clientCase.operationId} (scanning contract)`,
      fn: async () => {
        assertClientHas(clientCase.method, clientCase.operationId);
        const { requests, failure } = await recordClientCall(
          () => plausibleAnswer(contract, clientCase.operationId),
          clientCase.method,
          clientCase.args,
        );
        assert.equal(requests.length, 1, `${label} should send exactly one request (${failure})`);
        const request = requests[0];
        const { problems } = checkRequest(matching, { ...request, path: splitAction(request.path) }, {
          operationId: clientCase.operationId,
          apiVersion: SCAN_API_VERSION,
        });
        assertCallConforms(request, problems, failure);
      },
    });
  }

  Deno.test("scanning request checks flag a wrong action, method, query and body", () => {
    const check = (method: string, path: string, search: string, body = "", operationId?: string) =>
      checkRequest(matching, {
        method,
        path: splitAction(`/scan${path}`),
        search,
        body,
        headers: new Headers(body ? { "content-type": "application/json" } : {}),
      }, { operationId, apiVersion: SCAN_API_VERSION }).problems;
    const v = `?api-version=${SCAN_API_VERSION}`;
    const scan = "/datasources/lake/scans/daily";
    assert.deepEqual(check("POST", `${scan}/runs/${RUN_ID}:cancel`, v, "", "ScanResult_CancelScan"), []);
    assert.deepEqual(check("POST", `${scan}/runs/${RUN_ID}:stop`, v), [
      `no path template of the contract matches /scan${scan}/runs/${RUN_ID}/:stop`,
    ]);
    assert.deepEqual(check("GET", `${scan}/triggers/default:enable`, v), [
      "GET is not declared for /datasources/{dataSourceName}/scans/{scanName}/triggers/default/:enable " +
      "(declared: POST)",
    ]);
    assert.deepEqual(check("POST", `${scan}:run`, v), ["required query parameter runId is missing"]);
    assert.deepEqual(check("GET", `${scan}/runs/${RUN_ID}`, `${v}&scanLevel=Full`), [
      "query parameter scanLevel is not declared by ScanResult_GetScanStatus",
    ]);
    assert.deepEqual(check("PUT", "/classificationrules/emp-id", v, '{"properties":{}}'), [
      "body does not match the contract:\n$body.kind: required property is missing",
    ]);
  });
}
