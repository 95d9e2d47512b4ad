/**
 * End to end: the `scan` commands run as a real govcat subprocess against the emulator — data sources,
 * scans, runs and history, templates — with the service's refusals (exit 1) and refusals before anything
 * is sent (exit 2, no request received).
 */
import assert from "node:assert/strict";
import { assertNotFound, assertRefusedLocally, type CliSetup, withCliSetup } from "../support/cli_harness.ts";

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

    const deleted = await s.govcat("scan", "deleteDataSource", "--data-source-name", "sales-lake");
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(deleted.json, { deleted: "sales-lake" });
    await assertNotFound(s, ["scan", "getDataSource", "--data-source-name", "sales-lake"]);
    await assertNotFound(s, ["scan", "deleteDataSource", "--data-source-name", "sales-lake"]);
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
    const runs = await s.govcat("scan", "runs", ...base);
    assert.equal(runs.json.count, 1);
    assert.equal(runs.json.value[0].id, run.json.id);
    assert.ok(["InProgress", "Succeeded"].includes(runs.json.value[0].status));

    await assertNotFound(s, ["scan", "getScan", "--data-source-name", "sales-lake", "--scan-name", "weekly"]);
    const deleted = await s.govcat("scan", "deleteScan", ...base);
    assert.equal(deleted.code, 0, deleted.stderr);
    await assertNotFound(s, ["scan", "deleteScan", ...base]);
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
