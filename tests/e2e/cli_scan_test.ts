/**
 * End to end: the `scan` commands run as a real govcat subprocess against the emulator — data sources,
 * scans, runs, their status, cancel and history, triggers (put from the template, read, disabled, enabled,
 * deleted), classification rules, templates — with the service's refusals (exit 1) and refusals before
 * anything is sent (exit 2, no request received).
 */
import assert from "node:assert/strict";
import { assertNotFound, assertRefusedLocally, type CliSetup, withCliSetup } from "../support/cli_harness.ts";
import { answeredRecurrence } from "../support/scan_answers.ts";

const SCAN_HINT = /hint: .*govcat scan listDataSources/;
const setup = (test: (s: CliSetup) => Promise<void>) =>
  withCliSetup({ seed: true, prefix: "govcat-scan-", notFoundHint: SCAN_HINT }, test);

const lake = {
  kind: "AdlsGen2",
  properties: { endpoint: "https://saleslake.dfs.core.windows.net/", collection: { referenceName: "sales" } },
};

Deno.test("cli scan: putDataSource, getDataSource, listDataSources, deleteDataSource", async () => {
  await setup(async (s) => {
    const payload = await s.file("lake.json", lake);
    const created = await s.govcat(
      "scan",
      "putDataSource",
      "--data-source-name",
      "sales-lake",
      "--payload-file",
      payload,
    );
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.json.created, true);
    assert.equal(created.json.dataSource.properties.collection.referenceName, "sales");
    const replaced = await s.govcat(
      "scan",
      "put-data-source",
      "--data-source-name=sales-lake",
      `--payload-file=${payload}`,
    );
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.equal(replaced.json.created, false);

    const got = await s.govcat("scan", "getDataSource", "--data-source-name", "sales-lake");
    assert.equal(got.json.kind, "AdlsGen2");
    const kebab = await s.govcat("scan", "get-data-source", "--data-source-name", "sales-lake");
    assert.equal(kebab.json.name, "sales-lake");
    const list = await s.govcat("scan", "listDataSources");
    assert.equal(list.json.count, 1);
    assert.equal(list.json.value[0].name, "sales-lake");

    const deleted = await s.govcat(
      "scan",
      "deleteDataSource",
      "--confirm",
      "--data-source-name",
      "sales-lake",
    );
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.json.deleted, "sales-lake");
    assert.equal(
      deleted.json.dataSource.kind,
      "AdlsGen2",
      "the deleted data source, as the service answered",
    );
    await assertNotFound(s, ["scan", "getDataSource", "--data-source-name", "sales-lake"]);
    await assertNotFound(s, ["scan", "deleteDataSource", "--confirm", "--data-source-name", "sales-lake"]);
  });
});

Deno.test("cli scan: bad payloads and names are refused before anything is sent", async () => {
  await setup(async (s) => {
    const put = (file: string, name = "sales-lake") =>
      ["scan", "putDataSource", "--data-source-name", name, "--payload-file", file] as const;
    await assertRefusedLocally(s, /missing\.json/, put(`${s.dir}/missing.json`));
    await assertRefusedLocally(
      s,
      /broken\.json is not valid JSON/,
      put(await s.file("broken.json", "{nope")),
    );
    await assertRefusedLocally(s, /array\.json has the wrong shape/, put(await s.file("array.json", [lake])));
    await assertRefusedLocally(
      s,
      /nokind\.json has no kind/,
      put(await s.file("nokind.json", { properties: {} })),
    );
    await assertRefusedLocally(
      s,
      /kind\.json has the unknown data source kind "AdlsGen3"/,
      put(await s.file("kind.json", { kind: "AdlsGen3" })),
    );
    await assertRefusedLocally(
      s,
      /props\.json has the wrong shape: expected properties to be an object/,
      put(await s.file("props.json", { kind: "AdlsGen2", properties: "x" })),
    );
    const template = await s.govcat("scan", "template", "--name=scan-source");
    await assertRefusedLocally(
      s,
      /template\.json still has the template placeholder <server-name> at properties\.serverEndpoint/,
      put(await s.file("template.json", template.json)),
    );
    await assertRefusedLocally(
      s,
      /--data-source-name "x" is not a valid name/,
      put(await s.file("ok.json", lake), "x"),
    );
    await assertRefusedLocally(s, /scan template "nope"/, ["scan", "template", "--name=nope"]);
    await assertRefusedLocally(
      s,
      /scanLevel|scan-level/i,
      ["scan", "run", "--data-source-name", "sales-lake", "--scan-name", "daily", "--scan-level", "Deep"],
    );
  });
});

Deno.test("cli scan: the service's refusals exit 1 with its status", async () => {
  await setup(async (s) => {
    const unknownCollection = await s.file("nocoll.json", {
      kind: "AdlsGen2",
      properties: { collection: { referenceName: "nowhere" } },
    });
    const refused = await s.govcat(
      "scan",
      "putDataSource",
      "--data-source-name",
      "lake",
      "--payload-file",
      unknownCollection,
    );
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /status: 400/);
    assert.match(refused.stderr, /Collection 'nowhere' does not exist/);

    const scanFile = await s.file("scan.json", { kind: "AdlsGen2Msi" });
    await assertNotFound(s, [
      "scan",
      "putScan",
      "--data-source-name",
      "nope",
      "--scan-name",
      "daily",
      "--payload-file",
      scanFile,
    ]);
    await assertNotFound(s, ["scan", "listScans", "--data-source-name", "nope"]);
    await assertNotFound(s, ["scan", "run", "--data-source-name", "nope", "--scan-name", "daily"]);
    await assertNotFound(s, ["scan", "runs", "--data-source-name", "nope", "--scan-name", "daily"]);
  });
});

Deno.test("cli scan: putScan, getScan, listScans, run, runs, deleteScan", async () => {
  await setup(async (s) => {
    await s.client.scan.putDataSource("sales-lake", lake);
    const scanFile = await s.file("scan.json", {
      kind: "AdlsGen2Msi",
      properties: { scanRulesetName: "AdlsGen2" },
    });
    const base = ["--data-source-name", "sales-lake", "--scan-name", "daily"];
    const created = await s.govcat("scan", "putScan", ...base, "--payload-file", scanFile);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.json.created, true);
    assert.equal(
      created.json.scan.properties.collection.referenceName,
      "sales",
      "the data source's collection",
    );

    const misfit = await s.file("misfit.json", { kind: "AzureSqlDatabaseMsi" });
    const refused = await s.govcat("scan", "put-scan", ...base, "--payload-file", misfit);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /status: 400/);
    assert.match(refused.stderr, /does not fit data source/);

    assert.equal((await s.govcat("scan", "getScan", ...base)).json.kind, "AdlsGen2Msi");
    const scans = await s.govcat("scan", "listScans", "--data-source-name", "sales-lake");
    assert.deepEqual(scans.json.value.map((x: { name: string }) => x.name), ["daily"]);

    const run = await s.govcat("scan", "run", ...base, "--scan-level", "Full");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.json.status, "Accepted");
    assert.equal(run.json.scanLevelType, "Full");
    assert.equal(run.json.runId, run.json.id, "runId is read from the run the emulator answers");
    const runs = await s.govcat("scan", "runs", ...base);
    assert.equal(runs.json.count, 1);
    assert.equal(runs.json.value[0].id, run.json.runId);
    assert.ok(["InProgress", "Succeeded"].includes(runs.json.value[0].status));

    await assertNotFound(s, ["scan", "getScan", "--data-source-name", "sales-lake", "--scan-name", "weekly"]);
    const deleted = await s.govcat("scan", "deleteScan", "--confirm", ...base);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual([deleted.json.deleted, deleted.json.dataSourceName], ["daily", "sales-lake"]);
    assert.equal(deleted.json.scan.kind, "AdlsGen2Msi", "the deleted scan, as the service answered");
    await assertNotFound(s, ["scan", "deleteScan", "--confirm", ...base]);
  });
});

Deno.test("cli scan: templates list and print; a filled-in template is accepted", async () => {
  await setup(async (s) => {
    const before = s.requests();
    const list = await s.govcat("scan", "templates");
    assert.deepEqual(
      list.json.map((t: { name: string }) => t.name),
      ["scan-source", "scan", "scan-trigger", "classification-rule"],
    );
    const source = await s.govcat("scan", "template", "--name=scan-source");
    assert.equal(source.json.kind, "AzureSqlDatabase");
    const scan = await s.govcat("scan", "template", "--name", "scan");
    assert.equal(scan.json.kind, "AzureSqlDatabaseMsi");
    assert.equal(s.requests(), before, "templates need no catalog");

    const fill = (value: unknown) =>
      JSON.stringify(value).replaceAll("<collection-name>", "finance").replaceAll("<server-name>", "fin")
        .replaceAll("<database-name>", "ledger");
    const sourceFile = await s.file("source.json", fill(source.json));
    const put = await s.govcat(
      "scan",
      "putDataSource",
      "--data-source-name",
      "fin-sql",
      "--payload-file",
      sourceFile,
    );
    assert.equal(put.code, 0, put.stderr);
    const scanFile = await s.file("scan.json", fill(scan.json));
    const putScan = await s.govcat(
      "scan",
      "putScan",
      "--data-source-name",
      "fin-sql",
      "--scan-name",
      "weekly",
      "--payload-file",
      scanFile,
    );
    assert.equal(putScan.code, 0, putScan.stderr);
  });
});

Deno.test("cli scan: trigger from the template, run, scanStatus, cancelScan, classification rules", async () => {
  await setup(async (s) => {
    const lakeFile = await s.file("lake.json", lake);
    const source = await s.govcat(
      "scan",
      "putDataSource",
      "--data-source-name",
      "sales-lake",
      "--payload-file",
      lakeFile,
    );
    assert.equal(source.code, 0, source.stderr);
    const scanFile = await s.file("scan.json", { kind: "AdlsGen2Msi" });
    const base = ["--data-source-name", "sales-lake", "--scan-name", "daily"];
    const scan = await s.govcat("scan", "putScan", ...base, "--payload-file", scanFile);
    assert.equal(scan.code, 0, scan.stderr);

    // The trigger: the template as `scan template` writes it, its placeholders (if any) replaced.
    const template = await s.govcat("scan", "template", "--name=scan-trigger");
    assert.equal(template.code, 0, template.stderr);
    const triggerFile = await s.file(
      "trigger.json",
      JSON.stringify(template.json).replace(/<[a-z][a-z0-9-]*>/gi, "filled"),
    );
    const trigger = await s.govcat("scan", "putTrigger", ...base, "--payload-file", triggerFile);
    assert.equal(trigger.code, 0, trigger.stderr);
    assert.equal(trigger.json.created, true);
    assert.equal(trigger.json.trigger.id, "datasources/sales-lake/scans/daily/triggers/default");
    assert.deepEqual(
      trigger.json.trigger.properties.recurrence,
      answeredRecurrence(template.json.properties.recurrence),
    );
    const got = await s.govcat("scan", "get-trigger", ...base);
    assert.equal(got.json.properties.scanLevel, "Incremental");
    const disabled = await s.govcat("scan", "disableTrigger", ...base);
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.equal(disabled.json.properties.state, "Disabled");
    assert.equal((await s.govcat("scan", "enable-trigger", ...base)).json.properties.state, "Enabled");

    // A run: started, its status read, cancelled, then read as Canceled.
    const run = await s.govcat("scan", "run", ...base);
    assert.equal(run.code, 0, run.stderr);
    const runId = run.json.runId;
    const status = await s.govcat("scan", "scanStatus", ...base, "--run-id", runId);
    assert.equal(status.code, 0, status.stderr);
    assert.equal(status.json.id, runId);
    assert.ok(["Accepted", "InProgress"].includes(status.json.status), status.json.status);
    const cancel = await s.govcat("scan", "cancelScan", "--confirm", ...base, `--run-id=${runId}`);
    assert.equal(cancel.code, 0, cancel.stderr);
    assert.equal(cancel.json.scanResultId, runId);
    assert.equal(cancel.json.status, "Accepted");
    const after = await s.govcat("scan", "scan-status", ...base, "--run-id", runId);
    assert.equal(after.json.status, "Canceled");
    assert.equal(after.json.ingestionExecutionDetails.status, "Canceled");
    const again = await s.govcat("scan", "cancel", "--confirm", ...base, "--run-id", runId);
    assert.equal(again.code, 1, again.stderr);
    assert.match(again.stderr, /status: 409/);
    assert.match(again.stderr, /already ended \(Canceled\)/);
    assert.match(again.stderr, /hint: .*govcat scan scanStatus/);

    // Classification rules: from the template, its placeholder replaced.
    const ruleTemplate = await s.govcat("scan", "template", "--name", "classification-rule");
    const ruleFile = await s.file(
      "rule.json",
      JSON.stringify(ruleTemplate.json).replaceAll("<classification-name>", "CONTOSO.EMPLOYEE_ID"),
    );
    const rule = ["--classification-rule-name", "employee-id"];
    const put = await s.govcat("scan", "putClassificationRule", ...rule, "--payload-file", ruleFile);
    assert.equal(put.code, 0, put.stderr);
    assert.equal(put.json.created, true);
    assert.equal(put.json.classificationRule.properties.version, 1);
    const readRule = await s.govcat("scan", "getClassificationRule", ...rule);
    assert.equal(readRule.json.properties.classificationName, "CONTOSO.EMPLOYEE_ID");
    const rules = await s.govcat("scan", "listClassificationRules");
    assert.equal(rules.json.count, 1);
    assert.equal(rules.json.value[0].name, "employee-id");
    const deletedRule = await s.govcat("scan", "delete-classification-rule", "--confirm", ...rule);
    assert.equal(deletedRule.code, 0, deletedRule.stderr);
    assert.equal(deletedRule.json.deleted, "employee-id");
    assert.equal(deletedRule.json.classificationRule.properties.classificationName, "CONTOSO.EMPLOYEE_ID");
    const goneRule = await s.govcat("scan", "readClassificationRule", ...rule);
    assert.equal(goneRule.code, 1);
    assert.match(goneRule.stderr, /status: 404/);
    assert.match(goneRule.stderr, /hint: .*govcat scan listClassificationRules/);

    const deletedTrigger = await s.govcat("scan", "deleteTrigger", "--confirm", ...base);
    assert.equal(deletedTrigger.code, 0, deletedTrigger.stderr);
    assert.equal(deletedTrigger.json.trigger.name, "default", "the deleted trigger, as the service answered");
    const goneTrigger = await s.govcat("scan", "getTrigger", ...base);
    assert.equal(goneTrigger.code, 1);
    assert.match(goneTrigger.stderr, /status: 404/);
    assert.match(goneTrigger.stderr, /hint: .*govcat scan putTrigger/);
  });
});

Deno.test("cli scan: bad trigger, rule and run input exits 2 before sending; an unknown run exits 1", async () => {
  await setup(async (s) => {
    await s.client.scan.putDataSource("sales-lake", lake);
    await s.client.scan.putScan("sales-lake", "daily", { kind: "AdlsGen2Msi" });
    const base = ["--data-source-name", "sales-lake", "--scan-name", "daily"];
    await assertRefusedLocally(
      s,
      /--payload-file: file not found: .*no-trigger\.json/,
      ["scan", "putTrigger", ...base, "--payload-file", `${s.dir}/no-trigger.json`],
    );
    await assertRefusedLocally(
      s,
      /--payload-file: file not found: .*no-rule\.json/,
      [
        "scan",
        "putClassificationRule",
        "--classification-rule-name",
        "emp-id",
        "--payload-file",
        `${s.dir}/no-rule.json`,
      ],
    );
    const template = await s.govcat("scan", "template", "--name=classification-rule");
    await assertRefusedLocally(
      s,
      /rule\.json still has the template placeholder <classification-name>/,
      [
        "scan",
        "putClassificationRule",
        "--classification-rule-name",
        "emp-id",
        "--payload-file",
        await s.file("rule.json", template.json),
      ],
    );
    await assertRefusedLocally(s, /--run-id: a run id is the GUID/, [
      "scan",
      "scanStatus",
      ...base,
      "--run-id",
      "latest",
    ]);
    await assertRefusedLocally(s, /missing required option --run-id/, [
      "scan",
      "cancelScan",
      "--confirm",
      ...base,
    ]);

    const unknown = crypto.randomUUID();
    for (const command of ["scanStatus", "cancelScan"]) {
      const confirm = command === "cancelScan" ? ["--confirm"] : [];
      const result = await s.govcat("scan", command, ...base, ...confirm, "--run-id", unknown);
      assert.equal(result.code, 1, `${command}: ${result.stderr}`);
      assert.match(result.stderr, /status: 404/);
      assert.match(result.stderr, new RegExp(`Scan run '${unknown}' does not exist`));
      assert.match(result.stderr, /hint: .*govcat scan runs --data-source-name/);
      assert.equal(result.stdout, "");
    }
  });
});
