/**
 * The scan ruleset operations of the `scan` group against the emulator: a custom ruleset is put (its
 * version raised by a replace), read, listed, named by a scan of a data source of its kind and deleted; a
 * scan naming a custom ruleset that does not exist, or one of another kind, is refused by the service; the
 * system rulesets are listed, read by data source type, by version and latest, and an unknown version or
 * a type without one is a 404 with the hint that lists them.
 */
import assert from "node:assert/strict";
import { BadRequestError, NotFoundError } from "../../../lib/core/errors.ts";
import {
  CUSTOM_RULESET_OPERATIONS,
  getLatestSystemScanRuleset,
  getSystemScanRuleset,
  getSystemScanRulesetVersion,
  listSystemScanRulesets,
  listSystemScanRulesetVersions,
} from "../../../lib/operations/scan_ruleset_operations.ts";
import { rejection, SCAN, SOURCE, withScanSetup } from "./scan_harness.ts";

const [putRuleset, getRuleset, listRulesets, deleteRuleset] = CUSTOM_RULESET_OPERATIONS;

Deno.test("scan operations: a custom scan ruleset is put, replaced, read, listed, used by a scan and deleted", async () => {
  await withScanSetup({}, async ({ run, file, catalog }) => {
    const payloadFile = await file("rules.json", {
      kind: "AdlsGen2",
      properties: { scanningRule: { fileExtensions: ["CSV", "PARQUET"] } },
    });
    const created = await run(putRuleset, { scanRulesetName: "lake-rules", payloadFile });
    assert.equal(created.created, true);
    assert.equal(created.scanRuleset.version, 1);
    assert.equal(created.scanRuleset.scanRulesetType, "Custom");
    const replaced = await run(putRuleset, { scanRulesetName: "lake-rules", payloadFile });
    assert.equal(replaced.created, false);
    assert.equal(replaced.scanRuleset.version, 2);
    const got = await run(getRuleset, { scanRulesetName: "lake-rules" });
    // customFileExtensions null when not sent, as the service answers (ScanRulesOperations.json recording).
    assert.deepEqual(got.properties.scanningRule, {
      fileExtensions: ["CSV", "PARQUET"],
      customFileExtensions: null,
    });
    assert.equal((await run(listRulesets, {})).count, 1);

    // The scan of the AdlsGen2 data source uses it; a missing ruleset or one of another kind is refused.
    const scan = await catalog.scan.putScan(SOURCE, SCAN, {
      kind: "AdlsGen2Msi",
      properties: { scanRulesetName: "lake-rules", scanRulesetType: "Custom" },
    });
    assert.equal(scan.value.properties?.scanRulesetName, "lake-rules");
    assert.equal(scan.value.properties?.scanRulesetType, "Custom");
    const missing = await rejection(() =>
      catalog.scan.putScan(SOURCE, "other", {
        kind: "AdlsGen2Msi",
        properties: { scanRulesetName: "no-such-rules", scanRulesetType: "Custom" },
      })
    );
    assert.ok(missing instanceof BadRequestError, String(missing));
    assert.match(missing.message, /Scan ruleset 'no-such-rules' does not exist/);
    await catalog.scan.putScanRuleset("blob-rules", { kind: "AzureStorage" });
    const misfit = await rejection(() =>
      catalog.scan.putScan(SOURCE, "other", {
        kind: "AdlsGen2Msi",
        properties: { scanRulesetName: "blob-rules", scanRulesetType: "Custom" },
      })
    );
    assert.ok(misfit instanceof BadRequestError, String(misfit));
    assert.match(misfit.message, /is for AzureStorage data sources, not AdlsGen2/);

    const deleted = await run(deleteRuleset, { scanRulesetName: "lake-rules" });
    assert.equal(deleted.deleted, "lake-rules");
    assert.equal(deleted.scanRuleset.version, 2, "the deleted ruleset, as answered");
    const gone = await rejection(() => run(getRuleset, { scanRulesetName: "lake-rules" }));
    assert.ok(gone instanceof NotFoundError);
    assert.match(gone.hint ?? "", /govcat scan listScanRulesets/);
  });
});

Deno.test("scan operations: system scan rulesets by data source type, version and latest", async () => {
  await withScanSetup({}, async ({ run }) => {
    const all = await run(listSystemScanRulesets, {});
    assert.ok(all.count >= 25, String(all.count));
    assert.ok(all.value.every((r: { scanRulesetType: string }) => r.scanRulesetType === "System"));
    const storage = await run(getSystemScanRuleset, { dataSourceType: "AzureStorage" });
    assert.equal(storage.kind, "AzureStorage");
    const versions = await run(listSystemScanRulesetVersions, { dataSourceType: "AzureStorage" });
    assert.deepEqual(versions.value.map((r: { version: number }) => r.version), [2, 1]);
    const latest = await run(getLatestSystemScanRuleset, { dataSourceType: "AzureStorage" });
    assert.equal(latest.version, storage.version);
    const first = await run(getSystemScanRulesetVersion, { dataSourceType: "AzureStorage", version: 1 });
    assert.equal(first.version, 1);
    for (
      const [operation, input] of [
        [getSystemScanRulesetVersion, { dataSourceType: "AzureStorage", version: 99 }],
        [getSystemScanRuleset, { dataSourceType: "Databricks" }],
      ] as const
    ) {
      const error = await rejection(() => run(operation, input));
      assert.ok(error instanceof NotFoundError, String(error));
      assert.match(error.hint ?? "", /govcat scan listSystemScanRulesets/);
    }
  });
});
