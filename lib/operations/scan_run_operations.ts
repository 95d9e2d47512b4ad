/**
 * Operations on the runs of a scan, in the `scan` group: start one (`run`), read the history (`runs`),
 * read one run's status (`scanStatus`, ScanResult_GetScanStatus) and cancel a run still going
 * (`cancelScan`, ScanResult_CancelScan).
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { type CatalogError, ConflictError } from "../core/errors.ts";
import { withHint } from "../catalog/collections_support.ts";
import { startedRunId } from "../catalog/scan_api.ts";
import { collect, dataSourceName, hinted, NOT_FOUND_HINT, runId, scanName } from "./scan_inputs.ts";
import { defineOperation, DELETE, type Operation, type OperationAnnotations, READ } from "./types.ts";

/** A run starts work in the catalog; repeating it starts another. */
const RUN: OperationAnnotations = { readOnly: false, destructive: false, idempotent: false, openWorld: true };

/**
 * Cancelling ends a run for good, its remaining work lost (destructive), and names the run, so a repeat
 * changes nothing more (idempotent): the hints of the DELETE preset.
 */
const CANCEL: OperationAnnotations = DELETE;

export const runScan = defineOperation({
  id: "scan.run",
  group: "scan",
  command: "run",
  aliases: ["run-scan", "runScan"],
  summary: "Start a run of a scan; prints the accepted run (see `scan scanStatus` for its progress)",
  description: "The answer starts with `runId`, the run's id for `scan scanStatus` and `scan cancelScan`, " +
    "whether the service answered the run (`id`) or the state of the start request (`scanResultId`).",
  input: z.object({
    dataSourceName,
    scanName,
    scanLevel: z.enum(["Full", "Incremental"]).optional().describe("Full or Incremental (the default)"),
    runId: runId.optional().describe("GUID of the run; a new one when left out"),
  }),
  annotations: RUN,
  run: async (ctx, input) => {
    const runId = input.runId ?? crypto.randomUUID();
    const answer = await hinted(
      NOT_FOUND_HINT.scan,
      () =>
        ctx.catalog().scan.runScan(input.dataSourceName, input.scanName, {
          scanLevel: input.scanLevel,
          runId,
          signal: ctx.signal,
        }),
    );
    return { runId: startedRunId(answer) ?? runId, ...answer };
  },
});

export const scanRuns = defineOperation({
  id: "scan.runs",
  group: "scan",
  command: "runs",
  aliases: ["history", "listScanHistory"],
  summary: "The run history of a scan, newest first, with each run's status",
  input: z.object({ dataSourceName, scanName }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      NOT_FOUND_HINT.scan,
      () =>
        collect(
          ctx.catalog().scan.listScanRuns(input.dataSourceName, input.scanName, { signal: ctx.signal }),
        ),
    ),
});

export const scanStatus = defineOperation({
  id: "scan.scan-status",
  group: "scan",
  command: "scanStatus",
  aliases: ["scan-status", "getScanStatus"],
  summary: "The status of one run of a scan: Accepted, InProgress, Succeeded, Failed or Canceled, " +
    "with its discovery and ingestion details",
  description:
    "The run id is the `runId` that `scan run` printed (or an `id` from `scan runs`). The status is " +
    "read once; call again to follow a run until it is Succeeded, Failed or Canceled.",
  input: z.object({ dataSourceName, scanName, runId }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      NOT_FOUND_HINT.run,
      () => ctx.catalog().scan.getScanRun(input.dataSourceName, input.scanName, input.runId, ctx.signal),
    ),
});

export const cancelScan = defineOperation({
  id: "scan.cancel-scan",
  group: "scan",
  command: "cancelScan",
  aliases: ["cancel-scan", "cancel"],
  summary: "Cancel a run of a scan that has not ended; prints the service's answer to the request",
  description: "The service accepts the request (status Accepted) and stops the run; `scan scanStatus` " +
    "then shows it Canceled. A run that has already ended cannot be cancelled (409).",
  input: z.object({ dataSourceName, scanName, runId }),
  annotations: CANCEL,
  run: async (ctx, input) => {
    try {
      return await hinted(
        NOT_FOUND_HINT.run,
        () => ctx.catalog().scan.cancelScan(input.dataSourceName, input.scanName, input.runId, ctx.signal),
      );
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      throw withHint(
        error as CatalogError,
        "The run has most likely ended already; see how with `govcat scan scanStatus --data-source-name " +
          `${input.dataSourceName} --scan-name ${input.scanName} --run-id ${input.runId}\`.`,
      );
    }
  },
});

/** The run operations, in the order `scan --help` lists them. */
export const SCAN_RUN_OPERATIONS: Operation[] = [runScan, scanRuns, scanStatus, cancelScan];
