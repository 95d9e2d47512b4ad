/**
 * Replays the published scanning contract's examples (Azure.Analytics.Purview.Scanning, 2023-09-01,
 * served under `/scan`) against the emulator, for the resources it serves: data sources, scans, scan runs
 * (start, status, cancel, history), triggers (with enable and disable), classification rules, key vault
 * connections, credentials, scan rulesets and system scan rulesets, integration runtimes (status, auth keys,
 * interactive query), the managed virtual network and its private endpoints, scan filters and
 * classification rule versions (with tagging). For every example: prepare what it refers to (SCENARIOS),
 * build the request from the example's parameters and the operation's method and path template, send it to
 * a fresh seeded emulator, and check that
 *   (a) the status is the example's own — an example answering both 201 and 200 is replayed twice, onto
 *       nothing (201) and onto what the same request created (200); or, for the RECORDED_ANSWERS, the
 *       status and body the service was recorded answering (deletes: 200 and the deleted resource),
 *   (b) a 2xx body validates against the operation's response schema (204: no body); a custom
 *       classification rule also against `CustomClassificationRule` (the contract's discriminator
 *       subtype, which the validator does not pick by itself),
 *   (c) an error body validates against the contract's `ErrorResponseModel` (code and message required),
 *       for the ERROR_CASES at the end.
 *
 * Several examples pass parameters their operation does not declare (`triggerName`, the subscription,
 * resource group and catalog of the classification rule examples, `skipToken: null`): the scenarios drop
 * them, as a client would not send them. Every example of the contract is replayed.
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import type { EmulatorApi, Json, Reply } from "../support/contract/emulator_api.ts";
import {
  type Contract,
  type ContractExample,
  type ContractOperation,
  referenceAvailable,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";
import {
  azureErrorSchema,
  type ErrorCase,
  type RecordedAnswer,
  replayErrorCase,
  replayExample,
  type ReplayProfile,
  type ReplayScenario,
  validate,
} from "../support/contract/replay.ts";
import {
  dropUndeclared,
  loadScanningContract,
  SCAN_API_VERSION,
  scanSetup,
} from "../support/contract/scanning.ts";

const { collection, source, scan, run, trigger, rule } = scanSetup;
const V = { "api-version": SCAN_API_VERSION };

/**
 * Examples of resources the emulator does not serve, by file name prefix, with the reason. None: every
 * operation of the contract is served; an entry here must name a prefix some example has.
 */
const SKIPPED_PREFIXES: Record<string, string> = {};

function skipReason(file: string): string | undefined {
  return Object.entries(SKIPPED_PREFIXES).find(([prefix]) => file.startsWith(prefix))?.[1];
}

/** A scenario: the example's undeclared parameters dropped, then `steps` run with its parameters. */
function scenario(
  steps: string[],
  prepare?: (api: EmulatorApi, params: Json) => Promise<unknown>,
): ReplayScenario {
  return {
    steps: ["drop parameters the operation does not declare", ...steps],
    prepare: async ({ api, params, example, contract }) => {
      dropUndeclared(params, contract.operations.get(example.operationId)!);
      await prepare?.(api, params);
    },
  };
}

/** A data source and its scan, the set-up most scenarios and error cases start with. */
async function sourceAndScan(api: EmulatorApi, dataSourceName: unknown, scanName: unknown): Promise<void> {
  await source(api, dataSourceName);
  await scan(api, dataSourceName, scanName);
}

const withSource = scenario(["create the data source"], (api, p) => source(api, p.dataSourceName));
const withScan = scenario(
  ["create the data source and its scan"],
  (api, p) => sourceAndScan(api, p.dataSourceName, p.scanName),
);
const withRun = scenario(["create the data source and its scan", "start the run"], async (api, p) => {
  await sourceAndScan(api, p.dataSourceName, p.scanName);
  await run(api, p.dataSourceName, p.scanName, p.runId);
});
const withTrigger = scenario(["create the data source, its scan and the scan's trigger"], async (api, p) => {
  await sourceAndScan(api, p.dataSourceName, p.scanName);
  await trigger(api, p.dataSourceName, p.scanName);
});
const withRule = scenario(
  ["create the classification rule"],
  (api, p) => rule(api, p.classificationRuleName),
);

const SCENARIOS: Record<string, ReplayScenario> = {
  "DataSources_CreateOrReplace.json": scenario(
    ["create the collection the body names (Collection-rZX)"],
    (api) => collection(api, "Collection-rZX"),
  ),
  "DataSources_Delete.json": withSource,
  "DataSources_Get.json": withSource,
  "DataSources_List.json": withSource,

  "Scans_Delete.json": withScan,
  "Scans_Get.json": withScan,
  "Scans_ListByDataSource.json": withScan,
  "ScanResult_RunScan.json": withScan,
  "ScanResult_GetScanStatus.json": withRun,
  "ScanResult_CancelScan.json": withRun,
  "ScanResult_ListScanHistory.json": scenario(
    ["create the data source and its scan", "start a run"],
    async (api, p) => {
      await sourceAndScan(api, p.dataSourceName, p.scanName);
      await run(api, p.dataSourceName, p.scanName, crypto.randomUUID());
    },
  ),
  "Triggers_CreateOrReplace.json": withScan,
  "Triggers_Delete.json": withTrigger,
  "Triggers_Get.json": withTrigger,
  "Triggers_Enable.json": withTrigger,
  "Triggers_Disable.json": withTrigger,
  "ClassificationRules_CreateOrReplace.json": scenario([]),
  "ClassificationRules_Delete.json": withRule,
  "ClassificationRules_Get.json": withRule,
  "ClassificationRules_List.json": scenario(
    ["create classification rules ClassificationRule1 and -2"],
    async (api) => {
      await rule(api, "ClassificationRule1");
      await rule(api, "ClassificationRule2");
    },
  ),
};

/** A key vault connection, which credentials name for their secrets. */
function keyVault(api: EmulatorApi, name: unknown): Promise<Reply> {
  return api.ok(`create key vault connection ${name}`, "PUT", `/azureKeyVaults/${name}`, {
    query: V,
    body: { properties: { baseUrl: "https://contoso-kv.vault.azure.net/" } },
  });
}

/** A credential whose password is a secret of key vault connection `vault` (created with it). */
async function credential(api: EmulatorApi, name: unknown, kind = "BasicAuth"): Promise<Reply> {
  await keyVault(api, "vault");
  return api.ok(`create credential ${name}`, "PUT", `/credentials/${name}`, {
    query: V,
    body: {
      kind,
      properties: {
        description: "test description",
        typeProperties: kind === "AccountKey"
          ? { accountKey: secretReference("vault") }
          : { user: "scanner", password: secretReference("vault") },
      },
    },
  });
}

function secretReference(vault: string): Json {
  return {
    type: "AzureKeyVaultSecret",
    secretName: "scanner-password",
    store: { referenceName: vault, type: "LinkedServiceReference" },
  };
}

/** A custom scan ruleset of kind AzureStorage. */
function ruleset(api: EmulatorApi, name: unknown): Promise<Reply> {
  return api.ok(`create scan ruleset ${name}`, "PUT", `/scanrulesets/${name}`, {
    query: V,
    body: {
      kind: "AzureStorage",
      scanRulesetType: "Custom",
      properties: { scanningRule: { fileExtensions: ["CSV", "PARQUET"] } },
    },
  });
}

/** A self-hosted integration runtime. */
function selfHosted(api: EmulatorApi, name: unknown): Promise<Reply> {
  return api.ok(`create self-hosted integration runtime ${name}`, "PUT", `/integrationruntimes/${name}`, {
    query: V,
    body: { kind: "SelfHosted", properties: { description: "on premises" } },
  });
}

/** The managed virtual network defaultv2. */
function network(api: EmulatorApi): Promise<Reply> {
  return api.ok("create managed virtual network defaultv2", "PUT", "/managedvirtualnetworks/defaultv2", {
    query: V,
    body: { properties: {} },
  });
}

/** The managed virtual network and a managed integration runtime in it. */
async function managed(api: EmulatorApi, name: unknown): Promise<Reply> {
  await network(api);
  return api.ok(`create managed integration runtime ${name}`, "PUT", `/integrationruntimes/${name}`, {
    query: V,
    body: {
      kind: "Managed",
      properties: {
        managedVirtualNetworkReference: {
          referenceName: "defaultv2",
          type: "ManagedVirtualNetworkReference",
        },
        typeProperties: { computeProperties: { location: "westus2" } },
      },
    },
  });
}

/** The managed virtual network and a private endpoint in it. */
async function endpoint(api: EmulatorApi, name: unknown): Promise<Reply> {
  await network(api);
  return api.ok(
    `create managed private endpoint ${name}`,
    "PUT",
    `/managedvirtualnetworks/defaultv2/managedprivateendpoints/${name}`,
    {
      query: V,
      body: {
        properties: { groupId: "blob", privateLinkResourceId: "/subscriptions/x/storageAccounts/sales" },
      },
    },
  );
}

const withSelfHosted = scenario(
  ["create the self-hosted integration runtime"],
  (api, p) => selfHosted(api, p.integrationRuntimeName),
);
const withManaged = scenario(
  ["create managed virtual network defaultv2 and the managed integration runtime in it"],
  (api, p) => managed(api, p.integrationRuntimeName),
);
const withEndpoint = scenario(
  ["create managed virtual network defaultv2 and the private endpoint"],
  (api, p) => endpoint(api, p.managedPrivateEndpointName),
);

/** The custom filter of a scan. */
function filter(api: EmulatorApi, ds: unknown, scanName: unknown): Promise<Reply> {
  return api.ok(
    `create the filter of ${ds}/${scanName}`,
    "PUT",
    `/datasources/${ds}/scans/${scanName}/filters/custom`,
    {
      query: V,
      body: {
        properties: {
          includeUriPrefixes: ["https://sales.blob.core.windows.net/raw"],
          excludeUriPrefixes: [],
        },
      },
    },
  );
}

/** A classification rule written `times` times, so that it has versions 1 to `times`. */
async function ruleVersions(api: EmulatorApi, name: unknown, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await rule(api, name);
}

Object.assign(SCENARIOS, {
  "Filters_CreateOrReplace.json": withScan,
  "Filters_Get.json": scenario(
    ["create the data source, its scan and the scan's filter"],
    async (api, p) => {
      await sourceAndScan(api, p.dataSourceName, p.scanName);
      await filter(api, p.dataSourceName, p.scanName);
    },
  ),
  "ClassificationRules_ListVersionsByRuleName.json": scenario(
    ["write the classification rule twice (versions 1 and 2)"],
    (api, p) => ruleVersions(api, p.classificationRuleName, 2),
  ),
  "ClassificationRules_TagClassificationVersion.json": scenario(
    ["write the classification rule three times (versions 1 to 3)"],
    (api, p) => ruleVersions(api, p.classificationRuleName, 3),
  ),
});

Object.assign(SCENARIOS, {
  "IntegrationRuntimes_CreateOrReplace.json": scenario([]),
  "IntegrationRuntimes_Get.json": withSelfHosted,
  "IntegrationRuntimes_Delete.json": withSelfHosted,
  "IntegrationRuntimes_ListByAccount.json": withSelfHosted,
  "IntegrationRuntimes_Status.json": withSelfHosted,
  "IntegrationRuntimes_ListAuthKeys.json": withSelfHosted,
  "IntegrationRuntimes_RegenerateAuthKey.json": scenario(
    [
      "create the self-hosted integration runtime",
      "send keyName authKey1: the example's 'test-key' is not one of the contract's key names",
    ],
    async (api, p) => {
      await selfHosted(api, p.integrationRuntimeName);
      (p.body as Json).keyName = "authKey1";
    },
  ),
  "IntegrationRuntimes_EnableInteractiveQuery.json": withManaged,
  "IntegrationRuntimes_DisableInteractiveQuery.json": withManaged,
  "ManagedVirtualNetworks_CreateOrReplace.json": scenario([]),
  "ManagedVirtualNetworks_Get.json": scenario(
    ["create managed virtual network defaultv2"],
    (api) => network(api),
  ),
  "ManagedVirtualNetworks_ListByAccount.json": scenario(
    ["create managed virtual network defaultv2"],
    (api) => network(api),
  ),
  "ManagedPrivateEndpoints_CreateOrReplace.json": scenario(
    ["create managed virtual network defaultv2"],
    (api) => network(api),
  ),
  "ManagedPrivateEndpoints_Get.json": withEndpoint,
  "ManagedPrivateEndpoints_Delete.json": withEndpoint,
  "ManagedPrivateEndpoints_ListByAccount.json": scenario(
    ["create managed virtual network defaultv2 and a private endpoint"],
    (api) => endpoint(api, "myManagedPrivateEndpoint"),
  ),
});

Object.assign(SCENARIOS, {
  "ScanRulesets_CreateOrReplace.json": scenario([]),
  "ScanRulesets_Get.json": scenario(["create the scan ruleset"], (api, p) => ruleset(api, p.scanRulesetName)),
  "ScanRulesets_Delete.json": scenario(
    ["create the scan ruleset"],
    (api, p) => ruleset(api, p.scanRulesetName),
  ),
  "ScanRulesets_List.json": scenario(
    ["create scan rulesets ScanRuleset1 and -2"],
    async (api) => {
      await ruleset(api, "ScanRuleset1");
      await ruleset(api, "ScanRuleset2");
    },
  ),
  "SystemScanRulesets_List.json": scenario([]),
  "SystemScanRulesets_Get.json": scenario([]),
  "SystemScanRulesets_GetByVersion.json": scenario([]),
  "SystemScanRulesets_GetLatest.json": scenario([]),
  "SystemScanRulesets_ListVersionsByDataSource.json": scenario([]),
  "Scans_CreateOrReplace.json": scenario(
    [
      "create the collection the body names (Collection-rZX)",
      "create the data source (AzureStorage)",
      "create a key vault connection and the credential the body names (CredentialAKV, AccountKey)",
    ],
    async (api, p) => {
      await collection(api, "Collection-rZX");
      await source(api, p.dataSourceName);
      await credential(api, "CredentialAKV", "AccountKey");
    },
  ),
  "KeyVaultConnections_CreateOrReplace.json": scenario([]),
  "KeyVaultConnections_Get.json": scenario(
    ["create the key vault connection"],
    (api, p) => keyVault(api, p.azureKeyVaultName),
  ),
  "KeyVaultConnections_Delete.json": scenario(
    ["create the key vault connection"],
    (api, p) => keyVault(api, p.azureKeyVaultName),
  ),
  "KeyVaultConnections_List.json": scenario(
    ["create key vault connections AzureKeyVault1 and -2"],
    async (api) => {
      await keyVault(api, "AzureKeyVault1");
      await keyVault(api, "AzureKeyVault2");
    },
  ),
  "Credential_CreateOrReplace.json": scenario([]),
  "Credential_Get.json": scenario(
    ["create a key vault connection and the credential"],
    (api, p) => credential(api, p.credentialName),
  ),
  "Credential_Delete.json": scenario(
    ["create a key vault connection and the credential"],
    (api, p) => credential(api, p.credentialName),
  ),
  "Credential_List.json": scenario(
    ["create a key vault connection and credentials myCredential1 (BasicAuth) and -2 (SqlAuth)"],
    async (api) => {
      await credential(api, "myCredential1");
      await credential(api, "myCredential2", "SqlAuth");
    },
  ),
});

/** Where the recordings live in Azure/azure-sdk-for-net. */
const NET_RECORDS =
  "Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords";

/**
 * Examples whose answer the emulator gives as Microsoft's recorded traffic shows the service giving, not as
 * the contract's example: a delete answers 200 with the deleted resource (the `_Get` operation's schema),
 * not 204. Each entry names the recording.
 */
const RECORDED_ANSWERS: Record<string, { status: number; schemaOf: string; recording: string }> = {
  "DataSources_Delete.json": {
    status: 200,
    schemaOf: "DataSources_Get",
    recording: `${NET_RECORDS}/DataSourceClientTest/DataSourceOperations.json`,
  },
  "Scans_Delete.json": {
    status: 200,
    schemaOf: "Scans_Get",
    recording: `${NET_RECORDS}/ScanClientTest/ScanOperations.json`,
  },
  "Triggers_Delete.json": {
    status: 200,
    schemaOf: "Triggers_Get",
    recording: `${NET_RECORDS}/ScanClientTest/ScanTriggerOperations.json`,
  },
  "ClassificationRules_Delete.json": {
    status: 200,
    schemaOf: "ClassificationRules_Get",
    recording: `${NET_RECORDS}/ClassificationRuleClientTest/ClassificationRuleOperations.json`,
  },
  "KeyVaultConnections_Delete.json": {
    status: 200,
    schemaOf: "KeyVaultConnections_Get",
    recording: `${NET_RECORDS}/ScanningServiceClientTest/KeyVaultReferenceOperations.json`,
  },
  "ScanRulesets_Delete.json": {
    status: 200,
    schemaOf: "ScanRulesets_Get",
    recording: `${NET_RECORDS}/ScanningServiceClientTest/ScanRulesOperations.json`,
  },
};

function recordedAnswer(contract: Contract, file: string): RecordedAnswer | undefined {
  const entry = RECORDED_ANSWERS[file];
  if (!entry) return undefined;
  const schema = contract.operations.get(entry.schemaOf)?.responses["200"]?.schema;
  assert.ok(schema, `${entry.schemaOf} has no 200 schema`);
  return { status: entry.status, schema, recording: entry.recording };
}

// ---- checks ----------------------------------------------------------------------------------------------

function profileOf(contract: Contract): ReplayProfile {
  return { contract, apiVersion: SCAN_API_VERSION, errorSchema: azureErrorSchema };
}

/**
 * The checks a classification rule example adds: custom rules against the subtype the `kind`
 * discriminator names. None for the other examples.
 */
function ruleChecks(
  profile: ReplayProfile,
  example: ContractExample,
): ((operation: ContractOperation, reply: Reply) => string[]) | undefined {
  if (!example.operationId.startsWith("ClassificationRules_")) return undefined;
  return (_operation, reply) => {
    const body = reply.json as Json | undefined;
    const rules = Array.isArray(body?.value) ? body.value as Json[] : body ? [body] : [];
    return rules.filter((r) => r.kind === "Custom").flatMap((r) =>
      validate(profile, r, { $ref: "#/definitions/CustomClassificationRule" }).map((e) =>
        `rule ${r.name} does not match CustomClassificationRule:\n${e}`
      )
    );
  };
}

/** Error answers of the scanning routes, which must come in the contract's error shape. */
const ERROR_CASES: ErrorCase[] = [
  {
    name: "ScanResult_GetScanStatus of an unknown run",
    operationId: "ScanResult_GetScanStatus",
    status: 404,
    send: async (api) => {
      await sourceAndScan(api, "lake", "daily");
      return api.send("GET", `/datasources/lake/scans/daily/runs/${crypto.randomUUID()}`, { query: V });
    },
  },
  {
    name: "ScanResult_CancelScan of a run id that is not a GUID",
    operationId: "ScanResult_CancelScan",
    status: 400,
    send: async (api) => {
      await sourceAndScan(api, "lake", "daily");
      return api.send("POST", "/datasources/lake/scans/daily/runs/latest:cancel", { query: V });
    },
  },
  {
    name: "ScanResult_CancelScan of a run already cancelled",
    operationId: "ScanResult_CancelScan",
    status: 409,
    send: async (api) => {
      const runId = crypto.randomUUID();
      await sourceAndScan(api, "lake", "daily");
      await run(api, "lake", "daily", runId);
      await api.ok("cancel the run", "POST", `/datasources/lake/scans/daily/runs/${runId}:cancel`, {
        query: V,
      });
      return api.send("POST", `/datasources/lake/scans/daily/runs/${runId}:cancel`, { query: V });
    },
  },
  {
    name: "Triggers_Enable of a scan without a trigger",
    operationId: "Triggers_Enable",
    status: 404,
    send: async (api) => {
      await sourceAndScan(api, "lake", "daily");
      return api.send("POST", "/datasources/lake/scans/daily/triggers/default:enable", { query: V });
    },
  },
  {
    name: "Triggers_CreateOrReplace with an unknown week day",
    operationId: "Triggers_CreateOrReplace",
    status: 400,
    send: async (api) => {
      await sourceAndScan(api, "lake", "daily");
      return api.send("PUT", "/datasources/lake/scans/daily/triggers/default", {
        query: V,
        body: { properties: { recurrence: { frequency: "Week", schedule: { weekDays: ["Funday"] } } } },
      });
    },
  },
  {
    name: "ClassificationRules_Get of an unknown rule",
    operationId: "ClassificationRules_Get",
    status: 404,
    send: (api) => api.send("GET", "/classificationrules/nosuchrule", { query: V }),
  },
  {
    name: "ClassificationRules_CreateOrReplace of a custom rule without patterns",
    operationId: "ClassificationRules_CreateOrReplace",
    status: 400,
    send: (api) =>
      api.send("PUT", "/classificationrules/emp-id", {
        query: V,
        body: { kind: "Custom", properties: { classificationName: "EMP" } },
      }),
  },
  {
    name: "KeyVaultConnections_CreateOrReplace without a baseUrl",
    operationId: "KeyVaultConnections_CreateOrReplace",
    status: 400,
    send: (api) => api.send("PUT", "/azureKeyVaults/vault", { query: V, body: { properties: {} } }),
  },
  {
    name: "KeyVaultConnections_Get of an unknown connection",
    operationId: "KeyVaultConnections_Get",
    status: 404,
    send: (api) => api.send("GET", "/azureKeyVaults/nosuchvault", { query: V }),
  },
  {
    name: "Credential_CreateOrReplace with a password value instead of a key vault secret",
    operationId: "Credential_CreateOrReplace",
    status: 400,
    send: async (api) => {
      const reply = await api.send("PUT", "/credentials/sql-reader", {
        query: V,
        body: { kind: "SqlAuth", properties: { typeProperties: { user: "sa", password: "Hunter2-Secret" } } },
      });
      assert.doesNotMatch(reply.text, /Hunter2-Secret/, "the refusal repeats the password");
      return reply;
    },
  },
  {
    name: "Credential_CreateOrReplace naming a key vault connection that does not exist",
    operationId: "Credential_CreateOrReplace",
    status: 400,
    send: (api) =>
      api.send("PUT", "/credentials/sql-reader", {
        query: V,
        body: {
          kind: "SqlAuth",
          properties: { typeProperties: { password: secretReference("nosuchvault") } },
        },
      }),
  },
  {
    name: "Credential_Delete of an unknown credential",
    operationId: "Credential_Delete",
    status: 404,
    send: (api) => api.send("DELETE", "/credentials/nosuchcredential", { query: V }),
  },
  {
    name: "Scans_CreateOrReplace naming a credential that does not exist",
    operationId: "Scans_CreateOrReplace",
    status: 400,
    send: async (api) => {
      await source(api, "lake");
      return api.send("PUT", "/datasources/lake/scans/daily", {
        query: V,
        body: {
          kind: "AzureStorageCredential",
          properties: { credential: { referenceName: "nosuchcredential", credentialType: "AccountKey" } },
        },
      });
    },
  },
  {
    name: "Scans_CreateOrReplace naming a custom scan ruleset that does not exist",
    operationId: "Scans_CreateOrReplace",
    status: 400,
    send: async (api) => {
      await source(api, "lake");
      return api.send("PUT", "/datasources/lake/scans/daily", {
        query: V,
        body: {
          kind: "AzureStorageMsi",
          properties: { scanRulesetName: "nosuchrules", scanRulesetType: "Custom" },
        },
      });
    },
  },
  {
    name: "Scans_CreateOrReplace naming a custom scan ruleset of another kind",
    operationId: "Scans_CreateOrReplace",
    status: 400,
    send: async (api) => {
      await source(api, "lake");
      await api.ok("create an AdlsGen2 ruleset", "PUT", "/scanrulesets/lake-rules", {
        query: V,
        body: { kind: "AdlsGen2", properties: {} },
      });
      return api.send("PUT", "/datasources/lake/scans/daily", {
        query: V,
        body: {
          kind: "AzureStorageMsi",
          properties: { scanRulesetName: "lake-rules", scanRulesetType: "Custom" },
        },
      });
    },
  },
  {
    name: "ScanRulesets_CreateOrReplace of an unknown kind",
    operationId: "ScanRulesets_CreateOrReplace",
    status: 400,
    send: (api) => api.send("PUT", "/scanrulesets/rules", { query: V, body: { kind: "Whatever" } }),
  },
  {
    name: "ScanRulesets_Get of an unknown ruleset",
    operationId: "ScanRulesets_Get",
    status: 404,
    send: (api) => api.send("GET", "/scanrulesets/nosuchrules", { query: V }),
  },
  {
    name: "SystemScanRulesets_Get of a data source type without a system ruleset",
    operationId: "SystemScanRulesets_Get",
    status: 404,
    send: (api) => api.send("GET", "/systemScanRulesets/datasources/Databricks", { query: V }),
  },
  {
    name: "SystemScanRulesets_GetByVersion of a version that does not exist",
    operationId: "SystemScanRulesets_GetByVersion",
    status: 404,
    send: (api) =>
      api.send("GET", "/systemScanRulesets/versions/99", { query: { ...V, dataSourceType: "AzureStorage" } }),
  },
  {
    name: "SystemScanRulesets_GetLatest of an unknown data source type",
    operationId: "SystemScanRulesets_GetLatest",
    status: 400,
    send: (api) =>
      api.send("GET", "/systemScanRulesets/versions/latest", { query: { ...V, dataSourceType: "Whatever" } }),
  },
  {
    name: "IntegrationRuntimes_Get of an unknown runtime",
    operationId: "IntegrationRuntimes_Get",
    status: 404,
    send: (api) => api.send("GET", "/integrationruntimes/nosuchruntime", { query: V }),
  },
  {
    name: "IntegrationRuntimes_CreateOrReplace of a managed runtime in a network that does not exist",
    operationId: "IntegrationRuntimes_CreateOrReplace",
    status: 400,
    send: (api) =>
      api.send("PUT", "/integrationruntimes/cloud", {
        query: V,
        body: {
          kind: "Managed",
          properties: { managedVirtualNetworkReference: { referenceName: "defaultv2" } },
        },
      }),
  },
  {
    name: "IntegrationRuntimes_ListAuthKeys of a managed runtime",
    operationId: "IntegrationRuntimes_ListAuthKeys",
    status: 400,
    send: async (api) => {
      await managed(api, "cloud");
      return api.send("POST", "/integrationruntimes/cloud:listAuthKeys", { query: V });
    },
  },
  {
    name: "IntegrationRuntimes_RegenerateAuthKey of a key name outside the contract",
    operationId: "IntegrationRuntimes_RegenerateAuthKey",
    status: 400,
    send: async (api) => {
      await selfHosted(api, "onprem");
      return api.send("POST", "/integrationruntimes/onprem:regenerateAuthKey", {
        query: V,
        body: { keyName: "test-key" },
      });
    },
  },
  {
    name: "IntegrationRuntimes_EnableInteractiveQuery of a self-hosted runtime",
    operationId: "IntegrationRuntimes_EnableInteractiveQuery",
    status: 400,
    send: async (api) => {
      await selfHosted(api, "onprem");
      return api.send("POST", "/integrationruntimes/onprem:enableInteractiveQuery", {
        query: V,
        body: { autoTerminationMinutes: 60 },
      });
    },
  },
  {
    name: "ManagedVirtualNetworks_CreateOrReplace of a name the contract does not allow",
    operationId: "ManagedVirtualNetworks_CreateOrReplace",
    status: 400,
    send: (api) =>
      api.send("PUT", "/managedvirtualnetworks/mynetwork", { query: V, body: { properties: {} } }),
  },
  {
    name: "ManagedVirtualNetworks_Get before it is created",
    operationId: "ManagedVirtualNetworks_Get",
    status: 404,
    send: (api) => api.send("GET", "/managedvirtualnetworks/defaultv2", { query: V }),
  },
  {
    name: "ManagedPrivateEndpoints_CreateOrReplace without a groupId",
    operationId: "ManagedPrivateEndpoints_CreateOrReplace",
    status: 400,
    send: async (api) => {
      await network(api);
      return api.send("PUT", "/managedvirtualnetworks/defaultv2/managedprivateendpoints/sales", {
        query: V,
        body: { properties: { privateLinkResourceId: "/subscriptions/x/storageAccounts/sales" } },
      });
    },
  },
  {
    name: "ManagedPrivateEndpoints_Delete of an unknown endpoint",
    operationId: "ManagedPrivateEndpoints_Delete",
    status: 404,
    send: async (api) => {
      await network(api);
      return api.send("DELETE", "/managedvirtualnetworks/defaultv2/managedprivateendpoints/nosuch", {
        query: V,
      });
    },
  },
  {
    name: "Scans_CreateOrReplace connected via an integration runtime that does not exist",
    operationId: "Scans_CreateOrReplace",
    status: 400,
    send: async (api) => {
      await source(api, "lake");
      return api.send("PUT", "/datasources/lake/scans/daily", {
        query: V,
        body: { kind: "AzureStorageMsi", properties: { connectedVia: { referenceName: "nosuchruntime" } } },
      });
    },
  },
  {
    name: "Filters_Get of a scan without a filter",
    operationId: "Filters_Get",
    status: 404,
    send: async (api) => {
      await sourceAndScan(api, "lake", "daily");
      return api.send("GET", "/datasources/lake/scans/daily/filters/custom", { query: V });
    },
  },
  {
    name: "Filters_CreateOrReplace without excludeUriPrefixes",
    operationId: "Filters_CreateOrReplace",
    status: 400,
    send: async (api) => {
      await sourceAndScan(api, "lake", "daily");
      return api.send("PUT", "/datasources/lake/scans/daily/filters/custom", {
        query: V,
        body: { properties: { includeUriPrefixes: ["https://sales.blob.core.windows.net/raw"] } },
      });
    },
  },
  {
    name: "Filters_CreateOrReplace of a scan that does not exist",
    operationId: "Filters_CreateOrReplace",
    status: 404,
    send: async (api) => {
      await source(api, "lake");
      return api.send("PUT", "/datasources/lake/scans/nosuchscan/filters/custom", {
        query: V,
        body: { properties: { includeUriPrefixes: [], excludeUriPrefixes: [] } },
      });
    },
  },
  {
    name: "ClassificationRules_ListVersionsByRuleName of an unknown rule",
    operationId: "ClassificationRules_ListVersionsByRuleName",
    status: 404,
    send: (api) => api.send("GET", "/classificationrules/nosuchrule/versions", { query: V }),
  },
  {
    name: "ClassificationRules_TagClassificationVersion of a version that does not exist",
    operationId: "ClassificationRules_TagClassificationVersion",
    status: 404,
    send: async (api) => {
      await rule(api, "emp-id");
      return api.send("POST", "/classificationrules/emp-id/versions/7:tag", {
        query: { ...V, action: "Keep" },
      });
    },
  },
  {
    name: "ClassificationRules_TagClassificationVersion with an action outside the contract",
    operationId: "ClassificationRules_TagClassificationVersion",
    status: 400,
    send: async (api) => {
      await rule(api, "emp-id");
      return api.send("POST", "/classificationrules/emp-id/versions/1:tag", {
        query: { ...V, action: "Archive" },
      });
    },
  },
];

// ---- registration ----------------------------------------------------------------------------------------

if (!referenceAvailable({ quiet: true })) {
  Deno.test({
    name: `scanning contract examples replayed against the emulator ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contract = await loadScanningContract();
  const profile = profileOf(contract);
  const examples = [...contract.examples.values()].sort((a, b) => a.file.localeCompare(b.file));

  Deno.test("scanning contract: every example has a setup entry or a skip reason, and no stale entry", () => {
    assert.equal(contract.prefix, "/scan");
    const files = new Set(examples.map((e) => e.file));
    for (const file of Object.keys(SCENARIOS)) {
      assert.ok(files.has(file), `${file} is not a scanning example`);
    }
    const unplanned = examples.filter((e) => !SCENARIOS[e.file] && !skipReason(e.file));
    assert.deepEqual(unplanned.map((e) => e.file), [], "examples with no setup decision");
    for (const prefix of Object.keys(SKIPPED_PREFIXES)) {
      assert.ok(examples.some((e) => e.file.startsWith(prefix)), `no example is skipped by ${prefix}`);
    }
    for (const file of Object.keys(RECORDED_ANSWERS)) {
      assert.ok(files.has(file), `${file} (RECORDED_ANSWERS) is not a scanning example`);
    }
  });

  // Examples of resources the emulator does not serve are accounted for by the test above (each has its
  // reason in SKIPPED_PREFIXES), not registered as ignored tests one by one.
  for (const example of examples.filter((e) => skipReason(e.file) === undefined)) {
    const statuses = Object.keys(example.responses).map(Number).sort();
    for (const status of statuses) {
      const recorded = recordedAnswer(contract, example.file);
      const suffix = recorded
        ? ` -> ${recorded.status} as recorded`
        : statuses.length > 1
        ? ` -> ${status}`
        : "";
      Deno.test(
        `scanning contract example ${example.file}${suffix}`,
        () =>
          replayExample(
            profile,
            example,
            SCENARIOS[example.file],
            ruleChecks(profile, example),
            recorded ? undefined : status,
            recorded,
          ),
      );
    }
  }

  for (const errorCase of ERROR_CASES) {
    Deno.test(
      `scanning contract error shape: ${errorCase.name} -> ${errorCase.status}`,
      () => replayErrorCase(profile, errorCase),
    );
  }
}
