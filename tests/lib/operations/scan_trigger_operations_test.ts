/**
 * The trigger operations of the `scan` group against the emulator: `putTrigger` from the shipped template
 * file (created, then replaced), `getTrigger`, `disableTrigger` and `enableTrigger` (schedule kept),
 * `deleteTrigger`, 404s with the hint that fits; and payload files refused before anything is sent — a
 * missing file, invalid JSON, no properties, a placeholder, a bad name, and (confined as the MCP server
 * confines file arguments) a file outside the file root.
 */
import assert from "node:assert/strict";
import { NotFoundError, UsageError } from "../../../lib/core/errors.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import {
  deleteTrigger,
  disableTrigger,
  enableTrigger,
  getTrigger,
  putTrigger,
} from "../../../lib/operations/scan_trigger_operations.ts";
import { scanTemplate } from "../../../lib/templates/scan_templates.ts";
import { rejection, SCAN, SOURCE, withScanSetup } from "./scan_harness.ts";
import { answeredRecurrence } from "../../support/scan_answers.ts";

const names = { dataSourceName: SOURCE, scanName: SCAN };

Deno.test("scan operations: a trigger from the template is put, read, disabled, enabled, deleted", async () => {
  await withScanSetup({}, async ({ run, file }) => {
    const template = scanTemplate("scan-trigger")!.payload;
    const payloadFile = await file("trigger.json", template);
    const created = await run(putTrigger, { ...names, payloadFile });
    assert.equal(created.created, true);
    assert.equal(created.trigger.id, "datasources/lake/scans/daily/triggers/default");
    assert.equal(created.trigger.properties.state, "Enabled");
    const replaced = await run(putTrigger, { ...names, payloadFile });
    assert.equal(replaced.created, false);

    const got = await run(getTrigger, names);
    const recurrence = answeredRecurrence((template.properties as { recurrence: unknown }).recurrence);
    assert.deepEqual(got.properties.recurrence, recurrence);
    const disabled = await run(disableTrigger, names);
    assert.equal(disabled.properties.state, "Disabled");
    assert.deepEqual(disabled.properties.recurrence, recurrence, "the schedule is kept");
    assert.equal((await run(getTrigger, names)).properties.state, "Disabled");
    assert.equal((await run(enableTrigger, names)).properties.state, "Enabled");

    const deleted = await run(deleteTrigger, names);
    assert.deepEqual({ ...deleted, trigger: undefined }, {
      deleted: "trigger",
      dataSourceName: SOURCE,
      scanName: SCAN,
      trigger: undefined,
    });
    assert.equal(deleted.trigger.name, "default", "the deleted trigger, as answered");
    for (const operation of [getTrigger, deleteTrigger, enableTrigger, disableTrigger]) {
      const error = await rejection(() => run(operation, names));
      assert.ok(error instanceof NotFoundError, operation.command);
      assert.match(error.hint ?? "", /govcat scan putTrigger/, operation.command);
    }
    const noScan = await rejection(() => run(putTrigger, { ...names, scanName: "weekly", payloadFile }));
    assert.ok(noScan instanceof NotFoundError);
    assert.match(noScan.hint ?? "", /govcat scan listScans/);
  });
});

Deno.test("scan operations: bad trigger payloads and names are refused before anything is sent", async () => {
  await withScanSetup({}, async ({ run, file, dir, requests }) => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ payloadFile: `${dir}/missing.json` }, /--payload-file: file not found: .*missing\.json/],
      [{ payloadFile: await file("broken.json", "{nope") }, /broken\.json is not valid JSON/],
      [
        { payloadFile: await file("list.json", []) },
        /list\.json has the wrong shape: expected a scan trigger/,
      ],
      [
        { payloadFile: await file("bare.json", { id: "x" }) },
        /bare\.json has the wrong shape: .*found no properties/,
      ],
      [
        { payloadFile: await file("flat.json", { properties: "weekly" }) },
        /flat\.json has the wrong shape: expected properties to be an object/,
      ],
      [
        { payloadFile: await file("hole.json", { properties: { recurrence: { timeZone: "<time-zone>" } } }) },
        /hole\.json still has the template placeholder <time-zone> at properties\.recurrence\.timeZone/,
      ],
      [
        { payloadFile: await file("ok.json", { properties: {} }), scanName: "x" },
        /--scan-name "x" is not a valid name/,
      ],
    ];
    for (const [input, pattern] of cases) {
      const error = await rejection(() => run(putTrigger, { ...names, ...input }));
      assert.ok(error instanceof UsageError, `${JSON.stringify(input)}: ${error}`);
      assert.equal(error.exitCode, 2);
      assert.match(error.message, pattern);
    }
    assert.equal(requests(), 0, "nothing was sent");
  });
});

Deno.test("scan operations: confined as the MCP server confines files, putTrigger reads only inside the root", async () => {
  await withScanSetup({ fileRoot: true }, async ({ run, file, requests }) => {
    const outside = await Deno.makeTempFile({ prefix: "govcat-scan-outside-", suffix: ".json" });
    try {
      await Deno.writeTextFile(outside, JSON.stringify(scanTemplate("scan-trigger")!.payload));
      const error = await rejection(() => run(putTrigger, { ...names, payloadFile: outside }));
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /--payload-file: .* is outside the directory this server may use/);
      assert.equal(requests(), 0);
    } finally {
      await Deno.remove(outside);
    }
    await file("inside.json", scanTemplate("scan-trigger")!.payload);
    const created = await run(putTrigger, { ...names, payloadFile: "inside.json" });
    assert.equal(created.created, true, "a path relative to the root is read");
  });
});

Deno.test("scan operations: trigger commands, aliases and annotations", () => {
  const registry = createOperationRegistry();
  const spellings: [string, { id: string }][] = [
    ["putTrigger", putTrigger],
    ["put-trigger", putTrigger],
    ["getTrigger", getTrigger],
    ["readTrigger", getTrigger],
    ["delete-trigger", deleteTrigger],
    ["enableTrigger", enableTrigger],
    ["disable-trigger", disableTrigger],
  ];
  // By id: the registry holds a destructive operation with its confirmation, another value.
  for (const [name, operation] of spellings) {
    assert.equal(registry.find("scan", name)?.id, operation.id, name);
  }
  assert.equal(getTrigger.annotations.readOnly, true);
  for (const operation of [putTrigger, enableTrigger, disableTrigger]) {
    assert.deepEqual(operation.annotations, {
      readOnly: false,
      destructive: false,
      idempotent: true,
      openWorld: true,
    }, operation.command);
  }
  assert.equal(deleteTrigger.annotations.destructive, true);
});
