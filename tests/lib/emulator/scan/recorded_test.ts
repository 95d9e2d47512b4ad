/**
 * Where the emulator's scanning API answers as Microsoft's recorded traffic shows the service answering,
 * over HTTP on 127.0.0.1: deletes answer 200 with the deleted resource; a classification rule
 * name with underscores is created; a key vault connection's `baseurl` is taken and answered as `baseUrl`;
 * the `PUT …/runs/{runId}` start answers the start request's state and run lists carry the service's counts
 * and times; system rulesets carry their scanning rule and temporary resource filters; data sources carry
 * `resourceId`, `dataUseGovernance`, `parentCollection` and a numeric `dataSourceCollectionMovingState`.
 *
 * The recordings (Azure/azure-sdk-for-net `sdk/purview/Azure.Analytics.Purview.Scanning/tests/
 * SessionRecords/…`, Azure/azure-sdk-for-js `sdk/purview/purview-scanning-rest/recordings/node/…`) are
 * named at each test.
 */
import assert from "node:assert/strict";
import { SCAN_V as V, type ScanServer, withScanServer } from "./test_server.ts";

const DS = "/scan/datasources";

/** A data source `lake` (AmazonS3, as recorded) and its scan `daily`. */
async function sourceAndScan(send: ScanServer["send"]): Promise<void> {
  const source = await send("PUT", `${DS}/lake?${V}`, {
    kind: "AmazonS3",
    properties: { serviceUrl: "s3://testpurview" },
  });
  assert.equal(source.status, 201, JSON.stringify(source.body));
  const scan = await send("PUT", `${DS}/lake/scans/daily?${V}`, { kind: "AmazonS3RoleARN", properties: {} });
  assert.equal(scan.status, 201, JSON.stringify(scan.body));
}

// Recorded: DataSourceClientTest/DataSourceOperations.json, ScanClientTest/ScanOperations.json,
// ScanClientTest/ScanTriggerOperations.json, ClassificationRuleClientTest/ClassificationRuleOperations.json,
// ScanningServiceClientTest/KeyVaultReferenceOperations.json, ScanningServiceClientTest/ScanRulesOperations.json.
Deno.test("scan recorded: every scanning delete answers 200 with the resource it deleted", async () => {
  await withScanServer(async ({ send }) => {
    await sourceAndScan(send);
    const trigger = `${DS}/lake/scans/daily/triggers/default`;
    await send("PUT", `${trigger}?${V}`, {
      properties: {
        scanLevel: "Incremental",
        recurrence: { frequency: "Month", interval: 1, schedule: { monthDays: [1] } },
      },
    });
    await send("PUT", `/scan/classificationrules/badge-id?${V}`, {
      kind: "Custom",
      properties: { classificationName: "BADGE", columnPatterns: [{ kind: "Regex", pattern: "^badge$" }] },
    });
    await send("PUT", `/scan/azureKeyVaults/default-keyvault?${V}`, {
      properties: { baseUrl: "https://contoso.vault.azure.net/" },
    });
    await send("PUT", `/scan/scanrulesets/lake-rules?${V}`, {
      kind: "AmazonS3",
      properties: { scanningRule: { fileExtensions: ["CSV"] } },
    });
    const deletes: [string, string, (body: Record<string, unknown>) => unknown][] = [
      [trigger, "default", (b) => (b.properties as { scanLevel: string }).scanLevel],
      [`${DS}/lake/scans/daily`, "daily", (b) => b.kind],
      [`${DS}/lake`, "lake", (b) => (b.properties as { serviceUrl: string }).serviceUrl],
      [
        "/scan/classificationrules/badge-id",
        "badge-id",
        (b) => (b.properties as { version: number }).version,
      ],
      [
        "/scan/azureKeyVaults/default-keyvault",
        "default-keyvault",
        (b) => (b.properties as { baseUrl: string }).baseUrl,
      ],
      ["/scan/scanrulesets/lake-rules", "lake-rules", (b) => b.kind],
    ];
    const expected = [
      "Incremental",
      "AmazonS3RoleARN",
      "s3://testpurview",
      1,
      "https://contoso.vault.azure.net/",
      "AmazonS3",
    ];
    for (const [i, [path, name, detail]] of deletes.entries()) {
      const deleted = await send("DELETE", `${path}?${V}`);
      assert.equal(deleted.status, 200, `DELETE ${path}: ${JSON.stringify(deleted.body)}`);
      assert.match(deleted.headers.get("content-type") ?? "", /^application\/json/);
      assert.equal(deleted.body.name, name, path);
      assert.equal(detail(deleted.body), expected[i], path);
      assert.equal((await send("GET", `${path}?${V}`)).status, 404, `${path} is gone`);
    }
  });
});

// Recorded: ClassificationRuleClientTest/ClassificationRuleOperations.json (PUT 201, then 200, then DELETE 200).
Deno.test("scan recorded: a classification rule named with underscores is created; names that split the path are refused", async () => {
  await withScanServer(async ({ send }) => {
    const path = `/scan/classificationrules/test_classificationrule1009?${V}`;
    const recordedBody = {
      name: "test_classificationrule1009",
      kind: "Custom",
      properties: {
        description: "test-description1009",
        classificationName: "test_classification1009",
        columnPatterns: [
          { pattern: "classid", kind: "Regex" },
          { pattern: "part_name", kind: "Regex" },
          { pattern: "price", kind: "Regex" },
        ],
      },
      ruleStatus: "Enabled",
    };
    const created = await send("PUT", path, recordedBody);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.name, "test_classificationrule1009");
    assert.equal(created.body.properties.ruleStatus, "Enabled");
    assert.equal(created.body.properties.classificationAction, "Keep");
    const replaced = await send("PUT", path, recordedBody);
    assert.equal(replaced.status, 200);
    assert.equal(replaced.body.properties.version, 2);

    // (A name of dots never arrives: URL parsers resolve `..` and `%2E%2E` before sending.)
    const refusals = [
      ["a%2Fb", /split the URL path/],
      ["a%5Cb", /split the URL path/],
      ["bad%01name", /control characters/],
    ] as const;
    for (const [name, problem] of refusals) {
      const refused = await send("PUT", `/scan/classificationrules/${name}?${V}`, recordedBody);
      assert.equal(refused.status, 400, name);
      assert.match(refused.body.error.message, /is not a valid classification rule name/, name);
      assert.match(refused.body.error.message, problem, name);
    }
    const otherNames = await send("PUT", `${DS}/test_source?${V}`, { kind: "AzureStorage" });
    assert.equal(otherNames.status, 400, "data sources keep their own naming rule");
  });
});

// Recorded: ScanningServiceClientTest/KeyVaultReferenceOperations.json (PUT with properties.baseurl, 200
// answering properties.baseUrl).
Deno.test("scan recorded: a key vault connection's baseurl (lower case) is taken and answered as baseUrl", async () => {
  await withScanServer(async ({ send }) => {
    const url = "https://test-keyvault0908.vault.azure.net/";
    const put = await send("PUT", `/scan/azureKeyVaults/default-keyvault?${V}`, {
      name: "test-keyvault0908",
      properties: { baseurl: url, description: "test" },
    });
    assert.equal(put.status, 201, JSON.stringify(put.body));
    assert.deepEqual(put.body.properties, { baseUrl: url, description: "test" });
    assert.equal(put.body.name, "default-keyvault");
    const got = await send("GET", `/scan/azureKeyVaults/default-keyvault?${V}`);
    assert.equal(got.body.properties.baseUrl, url);

    const clash = await send("PUT", `/scan/azureKeyVaults/other?${V}`, {
      properties: { baseurl: url, baseUrl: "https://another.vault.azure.net/" },
    });
    assert.equal(clash.status, 400);
    assert.match(clash.body.error.message, /baseUrl and properties\.baseurl name different URLs/);
    const notHttps = await send("PUT", `/scan/azureKeyVaults/other?${V}`, {
      properties: { baseurl: "http://x/" },
    });
    assert.equal(notHttps.status, 400, "the URL is still checked under either spelling");
  });
});

// Recorded: ScanClientTest/ScanRunOperations.json (PUT …/runs/{runId}: 202 with the start request's state;
// GET …/runs: the run with assetsDiscovered, assetsClassified, queuedTime, pipelineStartTime).
Deno.test("scan recorded: PUT …/runs/{runId} answers {scanResultId, startTime, endTime, status, error}; runs carry counts and times", async () => {
  await withScanServer(async ({ send }) => {
    await sourceAndScan(send);
    const runId = "32767c50-ccd7-c3fd-5aea-94abe54044de";
    const started = await send("PUT", `${DS}/lake/scans/daily/runs/${runId}?${V}`);
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.deepEqual(Object.keys(started.body).sort(), [
      "endTime",
      "error",
      "scanResultId",
      "startTime",
      "status",
    ]);
    assert.equal(started.body.scanResultId, runId);
    assert.equal(started.body.status, "Accepted");
    assert.equal(started.body.endTime, null);
    assert.equal(started.body.error, null);
    assert.equal(typeof started.body.startTime, "string");

    const runs = await send("GET", `${DS}/lake/scans/daily/runs?${V}`);
    const [run] = runs.body.value;
    assert.equal(run.id, runId);
    assert.equal(run.assetsDiscovered, 0);
    assert.equal(run.assetsClassified, 0);
    assert.equal(typeof run.queuedTime, "string");
    assert.ok("pipelineStartTime" in run);
    assert.equal(run.dataSourceType, "AmazonS3");
  });
});

// Recorded: ScanningServiceClientTest/GetSystemRulesets.json, SystemRulesetsDataSourceOperations.json.
Deno.test("scan recorded: system scan rulesets carry scanningRule.fileExtensions and temporaryResourceFilters", async () => {
  await withScanServer(async ({ send }) => {
    const storage = await send("GET", `/scan/systemScanRulesets/datasources/AzureStorage?${V}`);
    assert.ok(storage.body.properties.scanningRule.fileExtensions.includes("CSV"));
    assert.ok(storage.body.properties.scanningRule.fileExtensions.includes("GZ"));
    assert.equal(storage.body.properties.scanningRule.customFileExtensions, null);
    assert.deepEqual(storage.body.properties.temporaryResourceFilters, []);
    const s3 = await send("GET", `/scan/systemScanRulesets/versions/latest?dataSourceType=AmazonS3&${V}`);
    assert.ok(!s3.body.properties.scanningRule.fileExtensions.includes("GZ"));
    assert.deepEqual(s3.body.properties.temporaryResourceFilters, [{
      resourceFilterPattern: "(_SUCCESS|_started_\\d*|_committed_\\d*|_committed_vacuum\\d*)$",
      ingestTemporaryResource: true,
    }]);
    const sql = await send("GET", `/scan/systemScanRulesets/datasources/AzureSqlDatabase?${V}`);
    assert.equal(sql.body.properties.scanningRule, undefined, "a database has no file extensions");
    assert.equal(sql.body.properties.temporaryResourceFilters, null);
    let next: string | undefined = `/scan/systemScanRulesets?${V}`;
    while (next) {
      const page: { body: { value: { properties: Record<string, unknown> }[]; nextLink?: string } } =
        await send("GET", next);
      for (const ruleset of page.body.value) assert.ok("temporaryResourceFilters" in ruleset.properties);
      next = page.body.nextLink
        ? new URL(page.body.nextLink).pathname + new URL(page.body.nextLink).search
        : undefined;
    }
  });
});

// Recorded: Azure/azure-sdk-for-js …/recordings/node/list_data_sources/recording_should_list_all_available_data_sources.json
// (AzureStorage) and DataSourceClientTest/DataSourceOperations.json (AmazonS3).
Deno.test("scan recorded: data sources carry resourceId, dataUseGovernance, parentCollection and a numeric moving state", async () => {
  await withScanServer(async ({ send }) => {
    const blob = await send("PUT", `${DS}/AzureBlob-Fq7?${V}`, {
      kind: "AzureStorage",
      properties: {
        endpoint: "https://joheredistorage2.blob.core.windows.net/",
        resourceGroup: "joheredi-test",
        subscriptionId: "faa080af-c1d8-40ad-9cce-e1a450ca5b57",
        location: "westus",
        resourceName: "joheredistorage2",
        dataSourceCollectionMovingState: "Active",
      },
    });
    assert.equal(blob.status, 201, JSON.stringify(blob.body));
    const listed = (await send("GET", `${DS}?${V}`)).body.value[0].properties;
    for (const properties of [blob.body.properties, listed]) {
      assert.equal(properties.resourceId, null);
      assert.equal(properties.dataUseGovernance, "Disabled");
      assert.equal(properties.parentCollection, null);
      assert.equal(properties.dataSourceCollectionMovingState, 0, "a number, whatever was sent");
      assert.equal(properties.resourceGroup, "joheredi-test");
    }
    const s3 = await send("PUT", `${DS}/test-datasources3?${V}`, {
      kind: "AmazonS3",
      name: "test-datasources3",
      properties: { serviceUrl: "s3://testpurview" },
    });
    assert.equal(s3.body.properties.roleARN, null);
    assert.equal(s3.body.properties.dataSourceCollectionMovingState, 0);
    assert.equal(s3.body.properties.dataUseGovernance, undefined, "not an Azure resource");

    const governed = await send("PUT", `${DS}/governed?${V}`, {
      kind: "AdlsGen2",
      properties: { resourceId: "/subscriptions/x/storageAccounts/y", dataUseGovernance: "Enabled" },
    });
    assert.equal(governed.body.properties.resourceId, "/subscriptions/x/storageAccounts/y");
    assert.equal(governed.body.properties.dataUseGovernance, "Enabled");
    const wrongType = await send("PUT", `${DS}/governed?${V}`, {
      kind: "AdlsGen2",
      properties: { resourceId: 7 },
    });
    assert.equal(wrongType.status, 400, "types are still checked");
    const wrongValue = await send("PUT", `${DS}/governed?${V}`, {
      kind: "AdlsGen2",
      properties: { dataUseGovernance: "Sometimes" },
    });
    assert.equal(wrongValue.status, 400);
  });
});

// Recorded: ClassificationRuleClientTest/ClassificationRuleOperations.json (POST …/versions/2/:tag?action=Keep,
// 202 {scanResultId: null, startTime: null, endTime: null, status: "Accepted", error: null}).
Deno.test("scan recorded: a rule version is tagged by …/versions/2/:tag, answered with the whole OperationResponse", async () => {
  await withScanServer(async ({ send }) => {
    const rule = {
      kind: "Custom",
      properties: { classificationName: "PART", columnPatterns: [{ kind: "Regex", pattern: "part_name" }] },
    };
    await send("PUT", `/scan/classificationrules/test_rule?${V}`, rule);
    await send("PUT", `/scan/classificationrules/test_rule?${V}`, rule);
    const tagged = await send("POST", `/scan/classificationrules/test_rule/versions/2/:tag?action=Keep&${V}`);
    assert.equal(tagged.status, 202, JSON.stringify(tagged.body));
    assert.deepEqual(tagged.body, {
      scanResultId: null,
      startTime: null,
      endTime: null,
      status: "Accepted",
      error: null,
    });
    const contractForm = await send(
      "POST",
      `/scan/classificationrules/test_rule/versions/1:tag?action=Delete&${V}`,
    );
    assert.equal(contractForm.status, 202, "the contract's form is still served");
    const versions = await send("GET", `/scan/classificationrules/test_rule/versions?${V}`);
    assert.deepEqual(
      versions.body.value.map((v: { properties: { classificationAction: string } }) =>
        v.properties.classificationAction
      ),
      ["Keep", "Delete"],
    );
    const otherAction = await send("POST", `/scan/classificationrules/test_rule/versions/2/:untag?${V}`);
    assert.equal(otherAction.status, 404);
  });
});

// Recorded: ClassificationRuleClientTest/ClassificationRuleOperations.json, ScanClientTest/ScanOperations.json.
Deno.test("scan recorded: a custom rule answers its unset fields as the service does; an AmazonS3 scan its roleARN and isMauiScan", async () => {
  await withScanServer(async ({ send }) => {
    const rule = await send("PUT", `/scan/classificationrules/test_classificationrule1009?${V}`, {
      kind: "Custom",
      properties: {
        classificationName: "test_classification1009",
        columnPatterns: [{ kind: "Regex", pattern: "price" }],
      },
    });
    const properties = rule.body.properties;
    for (
      const field of [
        "minimumDistinctMatchCount",
        "minimumPercentageMatch",
        "classificationRuleBloomFilter",
        "owner",
        "collection",
      ]
    ) {
      assert.equal(properties[field], null, field);
    }
    assert.deepEqual(properties.dataPatterns, []);
    assert.deepEqual(
      properties.columnPatterns,
      [{ kind: "Regex", pattern: "price" }],
      "what was sent is kept",
    );

    await sourceAndScan(send);
    const scan = await send("GET", `${DS}/lake/scans/daily?${V}`);
    assert.equal(scan.body.properties.roleARN, null);
    assert.equal(scan.body.properties.isMauiScan, false);
  });
});
