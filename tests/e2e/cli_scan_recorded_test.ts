/**
 * End to end, govcat's `scan` commands as real subprocesses given what the real service answered (issue
 * 25): recorded answers served from a loopback server on 127.0.0.1 — a delete's 200 with the deleted
 * resource is shown, an empty 204 still prints the name; a run start answered `{scanResultId, …}` prints
 * that id as `runId` — and, against the emulator, a classification rule named with underscores is created
 * while a name that would split the URL path is refused before anything is sent (exit 2).
 *
 * Recordings: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/
 * DataSourceClientTest/DataSourceOperations.json (the DELETE answer), ScanClientTest/ScanRunOperations.json
 * (the start answer), ClassificationRuleClientTest/ClassificationRuleOperations.json (the rule name).
 */
import assert from "node:assert/strict";
import { assertRefusedLocally, withCliSetup } from "../support/cli_harness.ts";
import { runGovcat } from "../support/govcat_process.ts";
import { json, type RecordedRequest, withLocalServer } from "../support/local_server.ts";

/** The data source the service answered its DELETE with (DataSourceOperations.json, trimmed of nothing). */
const RECORDED_DELETED_SOURCE = {
  properties: {
    serviceUrl: "s3://testpurview",
    roleARN: null,
    createdAt: "2021-10-14T08:48:22.706377Z",
    lastModifiedAt: "2021-10-14T08:48:22.706377Z",
    parentCollection: null,
    collection: {
      lastModifiedAt: "2021-10-14T08:48:22.706377Z",
      referenceName: "dotnetllcpurviewaccount",
      type: "CollectionReference",
    },
  },
  kind: "AmazonS3",
  id: "datasources/test-datasources3",
  name: "test-datasources3",
};

/** The start answer of ScanRunOperations.json. */
const RECORDED_RUN_START = {
  scanResultId: "32767c50-ccd7-c3fd-5aea-94abe54044de",
  startTime: "2021-10-14T09:48:29.6480276Z",
  endTime: null,
  status: "Accepted",
  error: null,
};

/** Answers as the recorded service, and 204 (the contract's delete) for classification rules. */
function recordedService(request: RecordedRequest): Response {
  const route = `${request.method} ${request.path}`;
  if (route === "DELETE /scan/datasources/test-datasources3") {
    return json(200, RECORDED_DELETED_SOURCE, { "content-type": "application/json; charset=utf-8" });
  }
  if (route === "DELETE /scan/classificationrules/test_classificationrule1009") {
    return new Response(null, { status: 204 });
  }
  if (route === "POST /scan/datasources/test-datasource1014/scans/test-scan1014:run") {
    return json(202, RECORDED_RUN_START);
  }
  return json(404, { error: { code: "NotFound", message: `no recording for ${route}` } });
}

async function govcatAgainst(url: string, ...args: string[]) {
  const result = await runGovcat(args, { CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: url });
  assert.equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

Deno.test("cli scan recorded: a delete shows the resource the service answered, or the name alone on a 204", async () => {
  await withLocalServer(recordedService, async (server) => {
    const source = await govcatAgainst(
      server.url,
      "scan",
      "deleteDataSource",
      "--confirm",
      "--data-source-name",
      "test-datasources3",
    );
    assert.deepEqual(source, { deleted: "test-datasources3", dataSource: RECORDED_DELETED_SOURCE });
    const rule = await govcatAgainst(
      server.url,
      "scan",
      "deleteClassificationRule",
      "--confirm",
      "--classification-rule-name",
      "test_classificationrule1009",
    );
    assert.deepEqual(rule, { deleted: "test_classificationrule1009" });
    assert.deepEqual(server.requests.map((r) => r.method), ["DELETE", "DELETE"]);
  });
});

Deno.test("cli scan recorded: `scan run` prints the run id of a {scanResultId, …} answer as runId", async () => {
  await withLocalServer(recordedService, async (server) => {
    const run = await govcatAgainst(
      server.url,
      "scan",
      "run",
      "--data-source-name",
      "test-datasource1014",
      "--scan-name",
      "test-scan1014",
    );
    assert.equal(run.runId, RECORDED_RUN_START.scanResultId);
    assert.equal(run.scanResultId, RECORDED_RUN_START.scanResultId, "the answer itself is shown too");
    assert.equal(run.status, "Accepted");
    const sent = new URLSearchParams(server.requests[0].search).get("runId");
    assert.match(sent ?? "", /^[0-9a-f-]{36}$/, "a run id was sent");
  });
});

Deno.test("cli scan recorded: putClassificationRule creates test_classificationrule1009; a slash is refused locally", async () => {
  await withCliSetup({ seed: false, prefix: "govcat-scan-recorded-" }, async (s) => {
    // The request body of ClassificationRuleOperations.json.
    const payload = await s.file("rule.json", {
      name: "test_classificationrule1009",
      kind: "Custom",
      properties: {
        description: "test-description1009",
        classificationName: "test_classification1009",
        columnPatterns: [{ pattern: "classid", kind: "Regex" }, { pattern: "part_name", kind: "Regex" }],
      },
      ruleStatus: "Enabled",
    });
    const name = ["--classification-rule-name", "test_classificationrule1009"];
    const put = await s.govcat("scan", "putClassificationRule", ...name, "--payload-file", payload);
    assert.equal(put.code, 0, put.stderr);
    assert.equal(put.json.created, true);
    assert.equal(put.json.classificationRule.name, "test_classificationrule1009");
    const got = await s.govcat("scan", "getClassificationRule", ...name);
    assert.equal(got.json.properties.classificationName, "test_classification1009");
    const deleted = await s.govcat("scan", "deleteClassificationRule", "--confirm", ...name);
    assert.equal(deleted.json.classificationRule.name, "test_classificationrule1009");

    await assertRefusedLocally(
      s,
      /--classification-rule-name "rules\/pii" is not a valid classification rule name: it holds a \//,
      ["scan", "putClassificationRule", "--classification-rule-name", "rules/pii", "--payload-file", payload],
    );
    await assertRefusedLocally(
      s,
      /--classification-rule-name "\.\." is not a valid classification rule name: a name of dots only/,
      ["scan", "getClassificationRule", "--classification-rule-name", ".."],
    );
  });
});
