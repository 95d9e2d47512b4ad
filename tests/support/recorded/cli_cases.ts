/**
 * The govcat commands tests/e2e/recorded_cli_test.ts runs against recorded answers: for each, the recorded
 * session and exchanges it is answered from, its arguments, the payload Microsoft's SDK sent where it takes
 * one, and the real values its output must show.
 *
 * @module
 */

/** One govcat command answered from recorded exchanges. */
export interface CliCase {
  /** Recorded session the answers come from. */
  session: string;
  /** The session's exchanges (numbered from 1) the command is answered from. */
  exchanges: number[];
  /** govcat's arguments; `{payload}` stands for the payload file. */
  args: string[];
  /** The exchange whose recorded request body is the payload file. */
  payloadFrom?: number;
  /** A payload file's content, when the recorded request body is not a file the command takes as is. */
  payloadText?: string;
  /** Real values of the recorded answer the output must show. */
  shows: string[];
  /** The exit code the recorded answer calls for: 0 unless it reports failed rows (1). */
  exitCode?: number;
  /**
   * The same operation as govcat's api-version (2023-09-01) addresses it, when the recorded api-version
   * (2018-12-01-preview) wrote its path otherwise (`runs/{id}/:cancel` is now `runs/{id}:cancel`): the
   * recorded answer is served there.
   */
  servedAt?: { method: string; path: string };
}

const SCAN = "net/Scanning";
const DS = "--data-source-name";
const RULE = "test_classificationrule1009";

export const CLI_CASES: CliCase[] = [
  // Key vault connections: the service took `baseurl` in lower case and answers the deleted connection.
  {
    session: `${SCAN}/KeyVaultReferenceOperations`,
    exchanges: [1],
    args: ["scan", "putKeyVaultConnection", "--key-vault-name=default-keyvault", "--payload-file={payload}"],
    payloadFrom: 1,
    shows: ["https://test-keyvault0908.vault.azure.net/"],
  },
  {
    session: `${SCAN}/KeyVaultReferenceOperations`,
    exchanges: [2],
    args: ["scan", "getKeyVaultConnection", "--key-vault-name=default-keyvault"],
    shows: ["https://test-keyvault0908.vault.azure.net/", "linkedservices/default-keyvault"],
  },
  {
    session: `${SCAN}/KeyVaultReferenceOperations`,
    exchanges: [3],
    args: ["scan", "deleteKeyVaultConnection", "--key-vault-name=default-keyvault", "--confirm"],
    shows: ["https://test-keyvault0908.vault.azure.net/"],
  },
  // Classification rules, named with an underscore as the service allowed.
  {
    session: `${SCAN}/ClassificationRuleOperations`,
    exchanges: [1],
    args: ["scan", "putClassificationRule", `--classification-rule-name=${RULE}`, "--payload-file={payload}"],
    payloadFrom: 1,
    shows: ["test_classification1009", "test-description1009"],
  },
  {
    session: `${SCAN}/ClassificationRuleOperations`,
    exchanges: [3],
    args: ["scan", "getClassificationRule", `--classification-rule-name=${RULE}`],
    shows: ["test-description1009-updated", "part_name"],
  },
  {
    session: `${SCAN}/ClassificationRuleOperations`,
    exchanges: [4],
    args: ["scan", "listClassificationRuleVersions", `--classification-rule-name=${RULE}`],
    shows: ["test_classification1009"],
  },
  {
    session: `${SCAN}/ClassificationRuleOperations`,
    exchanges: [5],
    args: [
      "scan",
      "tagClassificationRuleVersion",
      `--classification-rule-name=${RULE}`,
      "--version=2",
      "--action=Keep",
      "--confirm",
    ],
    servedAt: {
      method: "POST",
      path: `/scan/classificationrules/${RULE}/versions/2:tag?action=Keep`,
    },
    shows: ["Accepted"],
  },
  {
    session: `${SCAN}/ClassificationRuleOperations`,
    exchanges: [6],
    args: ["scan", "deleteClassificationRule", `--classification-rule-name=${RULE}`, "--confirm"],
    shows: ["test_classification1009", "classificationrules/test_classificationrule1009"],
  },
  {
    session: `${SCAN}/GetClassificationRules`,
    exchanges: [1],
    args: ["scan", "listClassificationRules"],
    shows: ["test_rule1008", "MICROSOFT.FINANCIAL.US.ABA_ROUTING_NUMBER"],
  },
  // Data sources.
  {
    session: `${SCAN}/DataSourceOperations`,
    exchanges: [1],
    args: ["scan", "putDataSource", `${DS}=test-datasources3`, "--payload-file={payload}"],
    payloadFrom: 1,
    shows: ["s3://testpurview", "dotnetllcpurviewaccount"],
  },
  {
    session: `${SCAN}/DataSourceOperations`,
    exchanges: [2],
    args: ["scan", "getDataSource", `${DS}=test-datasources3`],
    shows: ["s3://testpurview", "AmazonS3"],
  },
  {
    session: `${SCAN}/DataSourceOperations`,
    exchanges: [3],
    args: ["scan", "deleteDataSource", `${DS}=test-datasources3`, "--confirm"],
    shows: ["s3://testpurview", "datasources/test-datasources3"],
  },
  {
    session: `${SCAN}/GetDataSources`,
    exchanges: [1],
    args: ["scan", "listDataSources"],
    shows: ["test-source1008", "s3://testpurview"],
  },
  {
    session: "js/Scanning/should_list_all_available_data_sources",
    exchanges: [1],
    args: ["scan", "listDataSources"],
    shows: ["AzureBlob-Fq7", "https://joheredistorage2.blob.core.windows.net/"],
  },
  // Scans, their filters, runs and triggers.
  {
    session: `${SCAN}/ScanOperations`,
    exchanges: [1],
    args: [
      "scan",
      "putScan",
      `${DS}=test-datasource1009`,
      "--scan-name=test-scan1009-2",
      "--payload-file={payload}",
    ],
    payloadFrom: 1,
    shows: ["test-credential1009", "AmazonS3Credential"],
  },
  {
    session: `${SCAN}/ScanOperations`,
    exchanges: [2],
    args: ["scan", "getScan", `${DS}=test-datasource1009`, "--scan-name=test-scan1009-2"],
    shows: ["test-credential1009", "datasources/test-datasource1009/scans/test-scan1009-2"],
  },
  {
    session: `${SCAN}/ScanOperations`,
    exchanges: [3],
    args: ["scan", "deleteScan", `${DS}=test-datasource1009`, "--scan-name=test-scan1009-2", "--confirm"],
    shows: ["test-credential1009", "datasources/test-datasource1009/scans/test-scan1009-2"],
  },
  {
    session: `${SCAN}/GetScans`,
    exchanges: [1],
    args: ["scan", "listScans", `${DS}=test-datasource1014`],
    shows: ["test-scan1014", "test-credential1014"],
  },
  {
    session: `${SCAN}/FliterOperations`,
    exchanges: [1],
    args: [
      "scan",
      "putScanFilter",
      `${DS}=test-datasource1009`,
      "--scan-name=test-scan1009",
      "--payload-file={payload}",
    ],
    payloadFrom: 1,
    shows: ["https://foo.file.core.windows.net/share1/user/temp"],
  },
  {
    session: `${SCAN}/FliterOperations`,
    exchanges: [2],
    args: ["scan", "getScanFilter", `${DS}=test-datasource1009`, "--scan-name=test-scan1009"],
    shows: ["https://foo.file.core.windows.net/share1/aggregated"],
  },
  {
    session: `${SCAN}/ScanRunOperations`,
    exchanges: [1],
    args: [
      "scan",
      "run",
      `${DS}=test-datasource1014`,
      "--scan-name=test-scan1014",
      "--run-id=32767c50-ccd7-c3fd-5aea-94abe54044de",
    ],
    servedAt: {
      method: "POST",
      path:
        "/scan/datasources/test-datasource1014/scans/test-scan1014:run?runId=32767c50-ccd7-c3fd-5aea-94abe54044de",
    },
    shows: ["32767c50-ccd7-c3fd-5aea-94abe54044de", "Accepted"],
  },
  {
    session: `${SCAN}/ScanRunOperations`,
    exchanges: [2],
    args: ["scan", "runs", `${DS}=test-datasource1014`, "--scan-name=test-scan1014"],
    shows: ["32767c50-ccd7-c3fd-5aea-94abe54044de", "Queued", "AmazonS3"],
  },
  {
    session: `${SCAN}/ScanRunOperations`,
    exchanges: [3],
    args: [
      "scan",
      "cancelScan",
      `${DS}=test-datasource1014`,
      "--scan-name=test-scan1014",
      "--run-id=32767c50-ccd7-c3fd-5aea-94abe54044de",
      "--confirm",
    ],
    servedAt: {
      method: "POST",
      path:
        "/scan/datasources/test-datasource1014/scans/test-scan1014/runs/32767c50-ccd7-c3fd-5aea-94abe54044de:cancel",
    },
    shows: ["Accepted", "2021-10-14T09:48:30.3987485Z"],
  },
  {
    session: `${SCAN}/ScanTriggerOperations`,
    exchanges: [1],
    args: [
      "scan",
      "putTrigger",
      `${DS}=test-datasource1009`,
      "--scan-name=test-scan1009",
      "--payload-file={payload}",
    ],
    payloadFrom: 1,
    shows: ["China Standard Time", "Incremental"],
  },
  {
    session: `${SCAN}/ScanTriggerOperations`,
    exchanges: [2],
    args: ["scan", "deleteTrigger", `${DS}=test-datasource1009`, "--scan-name=test-scan1009", "--confirm"],
    shows: ["China Standard Time", "triggers/default"],
  },
  // Scan rulesets, custom and system.
  {
    session: `${SCAN}/ScanRulesOperations`,
    exchanges: [1],
    args: ["scan", "putScanRuleset", "--scan-ruleset-name=test-scanrule1008", "--payload-file={payload}"],
    payloadFrom: 1,
    shows: ["MICROSOFT.GOVERNMENT.US.ZIP_CODE", "test_rule1008"],
  },
  {
    session: `${SCAN}/ScanRulesOperations`,
    exchanges: [3],
    args: ["scan", "getScanRuleset", "--scan-ruleset-name=test-scanrule1008"],
    shows: ["test-description", "_committed_vacuum"],
  },
  {
    session: `${SCAN}/ScanRulesOperations`,
    exchanges: [4],
    args: ["scan", "deleteScanRuleset", "--scan-ruleset-name=test-scanrule1008", "--confirm"],
    shows: ["test-description", "scanrulesets/test-scanrule1008"],
  },
  {
    session: `${SCAN}/ListSystemRulesets`,
    exchanges: [1],
    args: ["scan", "listSystemScanRulesets"],
    shows: ["Microsoft default scan rule set that includes all supported system classification rules"],
  },
  {
    session: `${SCAN}/SystemRulesetsDataSourceOperations`,
    exchanges: [1],
    args: ["scan", "getSystemScanRuleset", "--data-source-type=AzureFileService"],
    shows: ["systemscanrulesets/AzureFileService", "PSV"],
  },
  {
    session: `${SCAN}/SystemRulesetsDataSourceOperations`,
    exchanges: [2],
    args: ["scan", "getSystemScanRulesetVersion", "--data-source-type=AzureFileService", "--version=1"],
    shows: ["systemscanrulesets/AzureFileService", "PSV"],
  },
  {
    session: `${SCAN}/SystemRulesetsDataSourceOperations`,
    exchanges: [3],
    args: ["scan", "getLatestSystemScanRuleset", "--data-source-type=AzureFileService"],
    shows: ["systemscanrulesets/AzureFileService", "PSV"],
  },
  {
    session: `${SCAN}/SystemRulesetsDataSourceOperations`,
    exchanges: [4],
    args: ["scan", "listSystemScanRulesetVersions", "--data-source-type=AzureFileService"],
    shows: ["systemscanrulesets/AzureFileService", "PSV"],
  },
  // The account and its collections.
  {
    session: "net/Account/GetTask",
    exchanges: [1],
    args: ["account", "get"],
    shows: ["udpatedFriendlyName", "chunyu@microsoft.com"],
  },
  {
    session: "js/Account/should_get_the_account_info",
    exchanges: [1],
    args: ["account", "get"],
    shows: [
      "qiaozhatest",
      "/subscriptions/92f95d8f-3c67-4124-91c7-8cf07cdbf241/resourceGroups/managed-rg-qiaozhatest",
    ],
  },
  {
    session: "net/Account/UpdateTask",
    exchanges: [1],
    args: ["account", "update", "--friendly-name=udpatedFriendlyName"],
    shows: ["udpatedFriendlyName"],
  },
  {
    session: "net/Account/ListKeysTask",
    exchanges: [2],
    args: ["account", "list-keys"],
    shows: ["atlasKafkaPrimaryEndpoint", "servicebus.windows.net"],
  },
  {
    session: "net/Account/RegenerateKeysTask",
    exchanges: [1],
    args: ["account", "regenerate-key", "--key-type=primary", "--confirm"],
    shows: ["atlasKafkaSecondaryEndpoint", "servicebus.windows.net"],
  },
  {
    session: "net/Account/CollectionsGetTask",
    exchanges: [2],
    args: ["collections", "get", "--collection-name=myCollection1"],
    shows: ["myCollection1", "dotnetllcpurviewaccount"],
  },
  {
    session: "js/Administration/should_list_all_available_collections",
    exchanges: [1],
    args: ["collections", "list"],
    shows: ["newpurviewllc", "The root collection."],
  },
  // Collection roles: the policies the service listed.
  {
    session: "js/Administration/should_list_all_available_metdatapolicies",
    exchanges: [1],
    args: ["policy", "list"],
    shows: [
      "policy_newpurviewllc",
      "purviewmetadatarole_builtin_collection-administrator:la7eio",
      '"count": 2',
    ],
  },
  // Search.
  {
    session: "net/Catalog/Suggest",
    exchanges: [1],
    args: ["search", "suggest", "--keywords=sampledata.csv"],
    shows: ["s3://testpurview/sampledata.csv", "aws_s3_v2_object"],
  },
  {
    session: "net/Catalog/AutoComplete",
    exchanges: [1],
    args: ["search", "autocomplete", "--keywords=sampledata"],
    shows: ["sampledata csv"],
  },
  {
    session: "net/Catalog/Search",
    exchanges: [1],
    args: ["search", "query", "--keywords=sampledata"],
    shows: ['"@search.count": 0'],
  },
  // Glossaries and type definitions.
  {
    session: "net/Catalog/GetGlossaryCategory",
    exchanges: [1],
    args: ["glossary", "list"],
    shows: ["660c6580-2700-402b-b5c0-3a034a5ba0e3"],
  },
  {
    session: "js/Datamap/should_create_a_glossary",
    exchanges: [1],
    args: ["glossary", "create", "--payload-file={payload}"],
    payloadFrom: 1,
    shows: ["5f055108-cfa3-4af9-9a9a-96170e73c206", "jsTesting-1"],
  },
  {
    session: "js/Catalog/should_delete_a_glossary",
    exchanges: [1],
    args: ["entity", "delete", "--guid=4f0ae4e5-4d3d-4922-9b5c-eb3fd972f762", "--confirm"],
    shows: ["AtlasGlossary", "jsLROTesting-2"],
  },
  {
    session: "js/Catalog/older_should_work_with_lro_helper",
    exchanges: [2],
    args: ["glossary", "read-terms-import", "--operation-id=5c69cd69-5201-46c4-a5b5-53493ff8c025"],
    shows: ["Running", "5c69cd69-5201-46c4-a5b5-53493ff8c025"],
  },
  {
    session: "js/Catalog/should_list_all_available_typedefs_sources",
    exchanges: [1],
    args: ["types", "list"],
    shows: ["glossary_term_status_value", "AtlasGlossaryTermRelationshipStatus"],
  },
  // Business metadata: Microsoft's own test file, whose header the service parsed.
  {
    session: "js/Datamap/import_entity_business_metadata_",
    exchanges: [1],
    args: ["entity", "import-business-metadata", "--bm-file={payload}"],
    payloadText: "TypeName,UniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue," +
      'UniqueAttributeName[optional]\nhive_database,hive_db_1,bmWithAllTypes.attr8,"Awesome Attribute 1",name\n',
    shows: ["Line #2: invalid entity-type 'hive_database'"],
    // The recorded answer fails its one row: an import with a failed row exits 1.
    exitCode: 1,
  },
];
