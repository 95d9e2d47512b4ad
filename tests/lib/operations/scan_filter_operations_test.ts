/**
 * The scan filter and classification rule version operations of the `scan` group against the emulator: a
 * scan's custom filter is put, replaced and read, and goes with its scan; a payload without both prefix
 * lists is refused before anything is sent; a rule written three times has versions 3, 2, 1, tagging one
 * sets its classificationAction (the rule's own when it is the current version), an unknown version is a
 * 404; deleting the rule deletes its versions; tagging is destructive (it may delete classifications).
 */
import assert from "node:assert/strict";
import { NotFoundError, UsageError } from "../../../lib/core/errors.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import {
  getScanFilter,
  listClassificationRuleVersions,
  putScanFilter,
  tagClassificationRuleVersion,
} from "../../../lib/operations/scan_filter_operations.ts";
import { rejection, SCAN, SOURCE, withScanSetup } from "./scan_harness.ts";

const RULE = {
  kind: "Custom",
  properties: {
    classificationName: "CONTOSO.EMP",
    dataPatterns: [{ kind: "Regex", pattern: "^E[0-9]{6}$" }],
  },
};

Deno.test("scan operations: a scan's custom filter is put, replaced, read and deleted with its scan", async () => {
  await withScanSetup({}, async ({ run, file, catalog, requests }) => {
    const names = { dataSourceName: SOURCE, scanName: SCAN };
    const missing = await rejection(() => run(getScanFilter, names));
    assert.ok(missing instanceof NotFoundError);
    assert.match(missing.hint ?? "", /putScanFilter/);
    const payloadFile = await file("filter.json", {
      properties: { includeUriPrefixes: ["https://lake.dfs.core.windows.net/raw"], excludeUriPrefixes: [] },
    });
    const created = await run(putScanFilter, { ...names, payloadFile });
    assert.equal(created.created, true);
    assert.equal(created.filter.name, "custom");
    const replacement = await file("filter2.json", {
      properties: {
        includeUriPrefixes: ["https://lake.dfs.core.windows.net/raw"],
        excludeUriPrefixes: ["https://lake.dfs.core.windows.net/raw/tmp"],
        excludeRegexes: ["\\.bak$"],
      },
    });
    assert.equal((await run(putScanFilter, { ...names, payloadFile: replacement })).created, false);
    const got = await run(getScanFilter, names);
    assert.deepEqual(got.properties.excludeUriPrefixes, ["https://lake.dfs.core.windows.net/raw/tmp"]);
    assert.deepEqual(got.properties.excludeRegexes, ["\\.bak$"]);

    const before = requests();
    const incomplete = await file("incomplete.json", { properties: { includeUriPrefixes: [] } });
    const refused = await rejection(() => run(putScanFilter, { ...names, payloadFile: incomplete }));
    assert.ok(refused instanceof UsageError, String(refused));
    assert.equal(requests(), before, "nothing is sent");

    await catalog.scan.deleteScan(SOURCE, SCAN);
    await catalog.scan.putScan(SOURCE, SCAN, { kind: "AdlsGen2Msi" });
    assert.ok(await rejection(() => run(getScanFilter, names)) instanceof NotFoundError, "the filter went");
  });
});

Deno.test("scan operations: classification rule versions are listed and tagged, and go with the rule", async () => {
  await withScanSetup({}, async ({ run, catalog }) => {
    for (let i = 0; i < 3; i++) await catalog.scan.putClassificationRule("emp-id", RULE);
    const versions = await run(listClassificationRuleVersions, { classificationRuleName: "emp-id" });
    assert.deepEqual(versions.value.map((r: { properties: { version: number } }) => r.properties.version), [
      3,
      2,
      1,
    ]);

    const tagged = await run(tagClassificationRuleVersion, {
      classificationRuleName: "emp-id",
      version: 3,
      action: "Delete",
    });
    assert.equal(tagged.status, "Accepted");
    await run(tagClassificationRuleVersion, { classificationRuleName: "emp-id", version: 1, action: "Keep" });
    assert.equal(
      (await catalog.scan.getClassificationRule("emp-id")).properties?.classificationAction,
      "Delete",
    );
    const after = await run(listClassificationRuleVersions, { classificationRuleName: "emp-id" });
    assert.deepEqual(
      after.value.map((r: { properties: { classificationAction: string } }) =>
        r.properties.classificationAction
      ),
      ["Delete", "Keep", "Keep"],
    );

    const unknown = await rejection(() =>
      run(tagClassificationRuleVersion, { classificationRuleName: "emp-id", version: 9, action: "Keep" })
    );
    assert.ok(unknown instanceof NotFoundError, String(unknown));
    assert.match(unknown.hint ?? "", /listClassificationRuleVersions/);

    await catalog.scan.deleteClassificationRule("emp-id");
    await catalog.scan.putClassificationRule("emp-id", RULE);
    const fresh = await run(listClassificationRuleVersions, { classificationRuleName: "emp-id" });
    assert.deepEqual(fresh.value.map((r: { properties: { version: number } }) => r.properties.version), [1]);
  });
});

Deno.test("scan operations: tagging a rule version is destructive, listing versions read-only", () => {
  const registry = createOperationRegistry();
  assert.equal(registry.get("scan.tag-classification-rule-version")?.annotations.destructive, true);
  assert.equal(registry.get("scan.list-classification-rule-versions")?.annotations.readOnly, true);
  assert.equal(registry.get("scan.get-scan-filter")?.annotations.readOnly, true);
});
