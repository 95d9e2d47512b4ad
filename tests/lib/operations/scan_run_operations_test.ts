/**
 * The run operations of the `scan` group against the emulator: `scanStatus` reads a run, `cancelScan`
 * cancels one (the run then reads Canceled), an ended run's cancel is a 409 with a hint to read its status,
 * unknown runs are 404s with the hint that lists runs, a run id that is not a GUID is refused by the input
 * schema, and the annotations say what each operation does.
 */
import assert from "node:assert/strict";
import { ConflictError, NotFoundError } from "../../../lib/core/errors.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import { cancelScan, runScan, scanStatus } from "../../../lib/operations/scan_run_operations.ts";
import { rejection, SCAN, SOURCE, withScanSetup } from "./scan_harness.ts";

const names = { dataSourceName: SOURCE, scanName: SCAN };

Deno.test("scan operations: scanStatus reads a run; cancelScan cancels it and a repeat is a 409", async () => {
  await withScanSetup({}, async ({ run }) => {
    const started = await run(runScan, { ...names, scanLevel: "Full" });
    const status = await run(scanStatus, { ...names, runId: started.id });
    assert.equal(status.id, started.id);
    assert.ok(["Accepted", "InProgress"].includes(status.status), status.status);
    assert.equal(status.scanLevelType, "Full");
    assert.ok(status.ingestionExecutionDetails.estimatedTimeRemainingInSeconds > 0);

    const cancel = await run(cancelScan, { ...names, runId: started.id });
    assert.equal(cancel.scanResultId, started.id);
    assert.equal(cancel.status, "Accepted");
    assert.equal((await run(scanStatus, { ...names, runId: started.id })).status, "Canceled");

    const again = await rejection(() => run(cancelScan, { ...names, runId: started.id }));
    assert.ok(again instanceof ConflictError);
    assert.equal(again.exitCode, 1);
    assert.match(again.message, /already ended \(Canceled\)/);
    assert.match(
      again.hint ?? "",
      new RegExp(`govcat scan scanStatus --data-source-name lake --scan-name daily --run-id ${started.id}`),
    );
  });
});

Deno.test("scan operations: unknown runs and scans are 404s whose hint lists the runs", async () => {
  await withScanSetup({}, async ({ run }) => {
    const unknown = crypto.randomUUID();
    for (const operation of [scanStatus, cancelScan]) {
      const error = await rejection(() => run(operation, { ...names, runId: unknown }));
      assert.ok(error instanceof NotFoundError, operation.command);
      assert.equal(error.status, 404);
      assert.match(error.hint ?? "", /govcat scan runs --data-source-name <name> --scan-name <scan>/);
    }
    const noScan = await rejection(() => run(scanStatus, { ...names, scanName: "weekly", runId: unknown }));
    assert.ok(noScan instanceof NotFoundError);
    assert.match(noScan.message, /weekly/);
  });
});

Deno.test("scan operations: a run id must be a GUID, checked by the input schema", () => {
  for (const operation of [scanStatus, cancelScan]) {
    const parsed = operation.input.safeParse({ ...names, runId: "last" });
    assert.equal(parsed.success, false);
    assert.match(parsed.error!.issues[0].message, /run id is the GUID `scan run` printed/);
    assert.equal(operation.input.safeParse({ ...names }).success, false, "the run id is required");
    assert.ok(operation.input.safeParse({ ...names, runId: "138301E4-F4F9-4AB5-B734-BAC446B236E7" }).success);
  }
});

Deno.test("scan operations: run commands, aliases and annotations", () => {
  const registry = createOperationRegistry();
  for (const name of ["scanStatus", "scan-status", "getScanStatus", "get_scan_status"]) {
    assert.equal(registry.find("scan", name), scanStatus, name);
  }
  for (const name of ["cancelScan", "cancel-scan", "cancel"]) {
    // By id: the registry holds a destructive operation with its confirmation, another value.
    assert.equal(registry.find("scan", name)?.id, cancelScan.id, name);
  }
  assert.deepEqual(scanStatus.annotations, {
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: true,
  });
  assert.deepEqual(cancelScan.annotations, {
    readOnly: false,
    destructive: true,
    idempotent: true,
    openWorld: true,
  }, "a cancelled run cannot be resumed; cancelling it again changes nothing more");
  assert.equal(runScan.annotations.idempotent, false, "each run starts another");
});
