/**
 * The scan trigger and classification rule routes of the emulator over HTTP: a trigger created (201),
 * read, replaced (200), disabled and enabled (`POST …/triggers/default:disable` / `:enable`, 200 with the
 * trigger, its schedule kept), flagged with `validationErrorInfo` when it could never fire, deleted (200);
 * trigger payloads the contract does not allow refused with 400s naming the field; classification rules
 * created, versioned, read, listed and deleted, with the contract's ids.
 */
import assert from "node:assert/strict";
import { call, withEmulator } from "../emulator_test_helpers.ts";
import {
  assertAzureError,
  DATA_SOURCES as DS,
  SCAN_V as V,
  STORAGE_SOURCE as storage,
} from "./test_server.ts";
import { answeredRecurrence } from "../../../support/scan_answers.ts";

Deno.test("scan extras: a trigger is created, read, replaced, disabled, enabled and deleted", async () => {
  await withEmulator({ seed: false }, async (emulator) => {
    await call(emulator, "PUT", `${DS}/lake?${V}`, storage);
    await call(emulator, "PUT", `${DS}/lake/scans/Nightly?${V}`, { kind: "AzureStorageMsi" });
    const trigger = `${DS}/LAKE/scans/nightly/triggers/default`;
    const none = await call(emulator, "GET", `${trigger}?${V}`);
    assert.equal(none.status, 404);
    assertAzureError(none.body, "TriggerNotFound", /Nightly/);
    const weekly = {
      properties: {
        scanLevel: "Full",
        recurrence: {
          frequency: "Week",
          interval: 1,
          startTime: "2025-01-06T02:00:00Z",
          schedule: { weekDays: ["Monday"], hours: [2], minutes: [0] },
        },
        createdAt: "2000-01-01T00:00:00Z",
      },
    };
    const created = await call(emulator, "PUT", `${trigger}?${V}`, weekly);
    assert.equal(created.status, 201);
    assert.equal(
      created.body.id,
      "datasources/lake/scans/Nightly/triggers/default",
      "names as first written",
    );
    assert.equal(created.body.name, "default");
    assert.equal(created.body.properties.state, "Enabled", "the contract's default");
    assert.equal(created.body.properties.lastScheduled, null);
    assert.notEqual(
      created.body.properties.createdAt,
      "2000-01-01T00:00:00Z",
      "read-only, set by the service",
    );
    assert.equal(created.body.validationErrorInfo, undefined);
    const got = await call(emulator, "GET", `${trigger}?${V}`);
    const answered = answeredRecurrence(weekly.properties.recurrence);
    assert.deepEqual(got.body.properties.recurrence, answered);
    assert.equal(got.body.properties.recurrenceInterval, null);

    const disabled = await call(emulator, "POST", `${trigger}:disable?${V}`);
    assert.equal(disabled.status, 200);
    assert.equal(disabled.body.properties.state, "Disabled");
    assert.deepEqual(disabled.body.properties.recurrence, answered, "schedule kept");
    assert.equal((await call(emulator, "POST", `${trigger}:disable?${V}`)).body.properties.state, "Disabled");
    assert.equal((await call(emulator, "GET", `${trigger}?${V}`)).body.properties.state, "Disabled");
    const enabled = await call(emulator, "POST", `${trigger}:enable?${V}`);
    assert.equal(enabled.status, 200);
    assert.equal(enabled.body.properties.state, "Enabled");
    assert.equal((await call(emulator, "POST", `${trigger}:pause?${V}`)).status, 404);

    const monthly = await call(emulator, "PUT", `${trigger}?${V}`, {
      properties: { state: "Disabled", recurrence: { frequency: "Month", interval: 1 } },
    });
    assert.equal(monthly.status, 200);
    assert.equal(monthly.body.properties.state, "Disabled");
    assert.equal(
      monthly.body.validationErrorInfo,
      "Trigger is invalid: monthDays or monthlyOccurrences is required.",
      "stored, with the reason it cannot fire",
    );
    const second = await call(emulator, "PUT", `${trigger}?${V}`, {
      properties: {
        recurrence: {
          frequency: "Month",
          schedule: { monthlyOccurrences: [{ day: "Wednesday", occurrence: 2 }] },
        },
      },
    });
    assert.equal(second.body.validationErrorInfo, undefined);

    const deletedTrigger = await call(emulator, "DELETE", `${trigger}?${V}`);
    assert.equal(deletedTrigger.status, 200, "the service answers the deleted trigger");
    assert.equal(deletedTrigger.body.name, "default");
    assert.equal((await call(emulator, "GET", `${trigger}?${V}`)).status, 404);
    assert.equal((await call(emulator, "DELETE", `${trigger}?${V}`)).status, 404);
    const enableGone = await call(emulator, "POST", `${trigger}:enable?${V}`);
    assert.equal(enableGone.status, 404);
    assertAzureError(enableGone.body, "TriggerNotFound", /Nightly/);
    const noScan = await call(emulator, "PUT", `${DS}/lake/scans/weekly/triggers/default?${V}`, weekly);
    assertAzureError(noScan.body, "ScanNotFound", /weekly/);
  });
});

Deno.test("scan extras: trigger payloads the contract does not allow are 400s naming the field", async () => {
  await withEmulator({ seed: false }, async (emulator) => {
    await call(emulator, "PUT", `${DS}/lake?${V}`, storage);
    await call(emulator, "PUT", `${DS}/lake/scans/nightly?${V}`, { kind: "AzureStorageMsi" });
    const trigger = `${DS}/lake/scans/nightly/triggers/default`;
    const recurrence = (value: Record<string, unknown>) => ({ properties: { recurrence: value } });
    const cases: [unknown, RegExp, string][] = [
      [recurrence({ frequency: "Year" }), /frequency 'Year'/, "properties.recurrence.frequency"],
      [
        recurrence({ interval: 0 }),
        /interval must be a positive integer/,
        "properties.recurrence.interval",
      ],
      [
        recurrence({ startTime: "soon" }),
        /startTime must be a date-time/,
        "properties.recurrence.startTime",
      ],
      [{ properties: { state: "On" } }, /state 'On'/, "properties.state"],
      [{ properties: { scanLevel: "Deep" } }, /scanLevel 'Deep'/, "properties.scanLevel"],
      [
        { properties: { incrementalScanStartTime: 5 } },
        /incrementalScanStartTime must be a date-time/,
        "properties.incrementalScanStartTime",
      ],
      [
        recurrence({ schedule: { weekDays: ["Funday"] } }),
        /weekDays holds "Funday"/,
        "properties.recurrence.schedule.weekDays",
      ],
      [
        recurrence({ schedule: { hours: [24] } }),
        /hours holds 24, not a whole number from 0 to 23/,
        "properties.recurrence.schedule.hours",
      ],
      [
        recurrence({ schedule: { minutes: "0" } }),
        /minutes must be an array/,
        "properties.recurrence.schedule.minutes",
      ],
      [
        recurrence({ schedule: { monthlyOccurrences: [{ day: "Someday" }] } }),
        /monthlyOccurrences entries must be/,
        "properties.recurrence.schedule.monthlyOccurrences",
      ],
      [{ properties: "weekly" }, /properties must be an object/, "properties"],
    ];
    for (const [body, pattern, target] of cases) {
      const reply = await call(emulator, "PUT", `${trigger}?${V}`, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assertAzureError(reply.body, "BadRequest", pattern);
      assert.equal(reply.body.error.target, target, JSON.stringify(body));
    }
    assert.equal((await call(emulator, "GET", `${trigger}?${V}`)).status, 404, "nothing was stored");
  });
});

Deno.test("scan extras: classification rules are created, versioned, read, listed and deleted", async () => {
  await withEmulator({ seed: false }, async (emulator) => {
    const rules = "/scan/classificationrules";
    const noPattern = await call(emulator, "PUT", `${rules}/emp-id?${V}`, {
      kind: "Custom",
      properties: { classificationName: "EMP" },
    });
    assertAzureError(noPattern.body, "BadRequest", /at least one pattern/);
    const badRegex = await call(emulator, "PUT", `${rules}/emp-id?${V}`, {
      kind: "Custom",
      properties: { classificationName: "EMP", dataPatterns: [{ kind: "Regex", pattern: "([" }] },
    });
    assertAzureError(badRegex.body, "BadRequest", /not a valid regular expression/);
    const badKind = await call(emulator, "PUT", `${rules}/emp-id?${V}`, { kind: "Smart" });
    assertAzureError(badKind.body, "BadRequest", /"Smart" is not System or Custom/);
    const badName = await call(emulator, "PUT", `${rules}/emp%2Fid?${V}`, { kind: "Custom" });
    assertAzureError(badName.body, "BadRequest", /not a valid classification rule name.*split the URL path/);
    const rule = {
      kind: "Custom",
      properties: { classificationName: "EMP", columnPatterns: [{ kind: "Regex", pattern: "^id$" }] },
    };
    const first = await call(emulator, "PUT", `${rules}/emp-id?${V}`, rule);
    assert.equal(first.status, 201);
    assert.equal(first.body.id, "classificationRules/emp-id");
    assert.equal(first.body.name, "emp-id");
    assert.equal(first.body.properties.version, 1);
    assert.equal(first.body.properties.ruleStatus, "Enabled");
    assert.equal(first.body.properties.classificationAction, "Keep");
    const second = await call(emulator, "PUT", `${rules}/EMP-ID?${V}`, {
      ...rule,
      properties: { ...rule.properties, version: 40, ruleStatus: "Disabled" },
    });
    assert.equal(second.status, 200);
    assert.equal(second.body.name, "emp-id");
    assert.equal(second.body.properties.version, 2, "the version counts writes; a sent one is ignored");
    assert.equal(second.body.properties.ruleStatus, "Disabled");
    const got = await call(emulator, "GET", `${rules}/emp-id?${V}`);
    assert.deepEqual(got.body.properties.columnPatterns, rule.properties.columnPatterns);
    await call(emulator, "PUT", `${rules}/cost-center?${V}`, rule);
    const list = await call(emulator, "GET", `${rules}?${V}`);
    assert.equal(list.body.count, 2);
    assert.deepEqual(list.body.value.map((r: { name: string }) => r.name).sort(), ["cost-center", "emp-id"]);
    const deletedRule = await call(emulator, "DELETE", `${rules}/emp-id?${V}`);
    assert.equal(deletedRule.status, 200, "the service answers the deleted rule");
    assert.equal(deletedRule.body.properties.version, 2);
    const gone = await call(emulator, "GET", `${rules}/emp-id?${V}`);
    assert.equal(gone.status, 404);
    assertAzureError(gone.body, "ClassificationRuleNotFound", /emp-id/);
    assert.equal((await call(emulator, "DELETE", `${rules}/emp-id?${V}`)).status, 404);
    assert.equal((await call(emulator, "GET", `${rules}?${V}`)).body.count, 1);
  });
});
