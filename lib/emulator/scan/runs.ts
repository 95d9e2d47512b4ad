/**
 * Scan runs of the emulator's scanning API: `POST …/scans/{scanName}:run?runId=&scanLevel=` starts one
 * (202 with the run and an `Operation-Location` header), `GET …/runs/{runId}` reads it, `GET …/runs` is the
 * history (newest first, paged) and `POST …/runs/{runId}:cancel` cancels one still running (202 with the
 * cancel request's own state, Accepted, and an `Operation-Location` header naming the run; a run that has
 * already ended is a 409). The older `PUT …/runs/{runId}` form starts a run too, and answers as the
 * service did, with the start request's state (`{scanResultId, startTime, endTime, status, error}`).
 *
 * A run is Accepted when it starts, InProgress afterwards and Succeeded once the area's run duration has
 * passed. No timer runs: the status advances when the run is next read, and is stored once it is final.
 *
 * @module
 */
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import type { ScanContext } from "./area.ts";
import { RUN_ID, SCAN_LEVELS } from "./kinds.ts";
import { childParent, type StoredScanResource } from "./store.ts";
import { iso, scanBadRequest, scanConflict, scanNotFound, scanPage } from "./support.ts";

const FINAL = new Set(["Succeeded", "Failed", "Canceled"]);
/**
 * The status of a run's discovery and ingestion phases, for the run's own status. The contract gives the
 * two phases different words: discovery is Running and Cancelled, ingestion InProgress and Canceled.
 */
const DISCOVERY_PHASE: Record<string, string> = {
  Accepted: "Queued",
  InProgress: "Running",
  Succeeded: "Succeeded",
  Failed: "Failed",
  Canceled: "Cancelled",
};
const INGESTION_PHASE: Record<string, string> = {
  Accepted: "Queued",
  InProgress: "InProgress",
  Succeeded: "Succeeded",
  Failed: "Failed",
  Canceled: "Canceled",
};

const SCAN = "/scan/datasources/{dataSourceName}/scans/{scanName}";

const runsOf = (ds: string, name: string) => childParent(childParent("", ds), name);

export function runRoutes(c: ScanContext): RouteDefinition[] {
  return [
    {
      method: "POST",
      path: "/scan/datasources/{dataSourceName}/scans/{scanAction}",
      handler: (ctx) => {
        const match = /^(.+):run$/.exec(ctx.params.scanAction);
        if (!match) throw EmulatorError.routeNotFound("POST", ctx.url.pathname);
        const { run, ds, scan } = startRun(c, ctx, match[1], ctx.url.searchParams.get("runId"));
        return jsonResponse(runWire(run, run.createdAt, c.runDurationMs), 202, {
          "operation-location": runLocation(ctx, ds, scan, run.name),
        });
      },
    },
    {
      method: "PUT",
      path: `${SCAN}/runs/{runId}`,
      handler: (ctx) => {
        const { run } = startRun(c, ctx, ctx.params.scanName, ctx.params.runId);
        // The older form answers the state of the start request, not the run (recorded: Azure/
        // azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/ScanClientTest/
        // ScanRunOperations.json: 202 {scanResultId, startTime, endTime: null, status: "Accepted", error}).
        return jsonResponse(
          {
            scanResultId: run.name,
            startTime: iso(run.createdAt),
            endTime: null,
            status: "Accepted",
            error: null,
          },
          202,
        );
      },
    },
    {
      method: "GET",
      path: `${SCAN}/runs/{runId}`,
      handler: (ctx) =>
        jsonResponse(runWire(existingRun(c, ctx, ctx.params.runId).run, c.deps.now(), c.runDurationMs)),
    },
    {
      method: "POST",
      path: `${SCAN}/runs/{runAction}`,
      handler: (ctx) => {
        const match = /^(.+):cancel$/.exec(ctx.params.runAction);
        if (!match) throw EmulatorError.routeNotFound("POST", ctx.url.pathname);
        return cancelRun(c, ctx, match[1]);
      },
    },
    {
      // The form of api-version 2018-12-01-preview, `…/runs/{runId}/:cancel`, which Microsoft's SDK sent and
      // the service answered 202 (recorded: Azure/azure-sdk-for-net sdk/purview/
      // Azure.Analytics.Purview.Scanning/tests/SessionRecords/ScanClientTest/ScanRunOperations.json).
      method: "POST",
      path: `${SCAN}/runs/{runId}/{runAction}`,
      handler: (ctx) => {
        if (ctx.params.runAction !== ":cancel") throw EmulatorError.routeNotFound("POST", ctx.url.pathname);
        return cancelRun(c, ctx, ctx.params.runId);
      },
    },
    {
      method: "GET",
      path: `${SCAN}/runs`,
      handler: (ctx) => {
        const stored = c.scan(ctx.params.dataSourceName, ctx.params.scanName);
        const parent = runsOf(ctx.params.dataSourceName, stored.name);
        const now = c.deps.now();
        const runs = c.store.list("run", parent).map((run) =>
          runWire(settle(c, parent, run), now, c.runDurationMs)
        )
          .reverse();
        return jsonResponse(scanPage(ctx.url, runs, c.pageSize));
      },
    },
  ];
}

/** Starts run `runId` of a scan, Accepted; answers the stored run and the names of its scan. */
function startRun(
  c: ScanContext,
  ctx: RouteContext,
  scanName: string,
  runId: string | null,
): { run: StoredScanResource; ds: string; scan: string } {
  const ds = c.dataSource(ctx.params.dataSourceName);
  const stored = c.scan(ds.name, scanName);
  if (runId === null || runId === "") {
    throw scanBadRequest("The runId query parameter is required.", "runId");
  }
  if (!RUN_ID.test(runId)) throw scanBadRequest(`runId '${runId}' is not a GUID.`, "runId");
  const scanLevel = ctx.url.searchParams.get("scanLevel") || "Incremental";
  if (!SCAN_LEVELS.includes(scanLevel)) {
    throw scanBadRequest(`scanLevel '${scanLevel}' is not one of ${SCAN_LEVELS.join(", ")}.`, "scanLevel");
  }
  const parent = runsOf(ds.name, stored.name);
  if (c.store.get("run", parent, runId)) {
    throw scanConflict(`Scan run '${runId}' already exists.`, "ScanRunAlreadyExists", "runId");
  }
  const properties = stored.body.properties as Record<string, unknown>;
  const dsProperties = ds.body.properties as Record<string, unknown>;
  const run = c.store.put("run", parent, runId, {
    status: "Accepted",
    scanLevelType: scanLevel,
    scanRulesetType: properties.scanRulesetType ?? "System",
    dataSourceType: ds.body.kind,
    resourceId: typeof dsProperties.resourceId === "string" ? dsProperties.resourceId : null,
  }, c.deps.now());
  return { run, ds: ds.name, scan: stored.name };
}

/** A run of the route's scan, its status brought up to date, or 404. */
function existingRun(c: ScanContext, ctx: RouteContext, runId: string) {
  const ds = c.dataSource(ctx.params.dataSourceName);
  const stored = c.scan(ctx.params.dataSourceName, ctx.params.scanName);
  if (!RUN_ID.test(runId)) throw scanBadRequest(`runId '${runId}' is not a GUID.`, "runId");
  const parent = runsOf(ds.name, stored.name);
  const run = c.store.get("run", parent, runId) ?? fail(scanNotFound("Scan run", runId, "ScanRunNotFound"));
  return { run: settle(c, parent, run), parent, ds: ds.name, scan: stored.name };
}

/** Cancels a run still going (409 once it has ended). */
function cancelRun(c: ScanContext, ctx: RouteContext, runId: string): Response {
  const { run, parent, ds, scan } = existingRun(c, ctx, runId);
  if (FINAL.has(String(run.body.status))) {
    throw scanConflict(
      `Scan run '${run.name}' has already ended (${run.body.status}).`,
      "ScanRunAlreadyEnded",
      "runId",
    );
  }
  const now = c.deps.now();
  c.store.put("run", parent, run.name, { ...run.body, status: "Canceled", endedAt: now }, now);
  // The answer is the state of the cancel request, accepted and not yet ended, as the contract's
  // example shows; the run itself reads Canceled from now on.
  return jsonResponse(
    { scanResultId: run.name, startTime: iso(now), endTime: null, status: "Accepted", error: null },
    202,
    { "operation-location": runLocation(ctx, ds, scan, run.name) },
  );
}

/** The URL of a run, where the status of a run or of its cancel is read. */
function runLocation(ctx: RouteContext, ds: string, scan: string, runId: string): string {
  const location = new URL(
    `/scan/datasources/${encodeURIComponent(ds)}/scans/${encodeURIComponent(scan)}/runs/${runId}`,
    ctx.url.origin,
  );
  const apiVersion = ctx.url.searchParams.get("api-version");
  if (apiVersion) location.searchParams.set("api-version", apiVersion);
  return location.toString();
}

/** Stores a run's final status once its duration has passed, so it reads the same ever after. */
function settle(c: ScanContext, parent: string, run: StoredScanResource): StoredScanResource {
  if (FINAL.has(String(run.body.status))) return run;
  const endedAt = run.createdAt + c.runDurationMs;
  if (c.deps.now() < endedAt) return run;
  const body = { ...run.body, status: "Succeeded", endedAt };
  return c.store.put("run", parent, run.name, body, endedAt);
}

/** A run in the contract's shape (ScanResultWithIngestion), as of `now`. */
function runWire(run: StoredScanResource, now: number, duration: number): Record<string, unknown> {
  const body = run.body;
  let status = String(body.status);
  if (!FINAL.has(status) && now > run.createdAt) status = "InProgress";
  const ended = typeof body.endedAt === "number" ? body.endedAt : undefined;
  const discovery = DISCOVERY_PHASE[status] ?? status;
  const ingestion = INGESTION_PHASE[status] ?? status;
  const started = run.createdAt;
  return {
    parentId: null,
    id: run.name,
    ingestionJobId: run.name,
    resourceId: body.resourceId ?? null,
    status,
    // Counts and times of the service's runs (recorded: Azure/azure-sdk-for-net sdk/purview/
    // Azure.Analytics.Purview.Scanning/tests/SessionRecords/ScanClientTest/ScanRunOperations.json, the runs
    // list); the emulator discovers nothing, and its pipeline starts when the run leaves Accepted.
    assetsDiscovered: 0,
    assetsClassified: 0,
    webScanResults: null,
    diagnostics: { notifications: [], exceptionCountMap: {} },
    startTime: iso(started),
    queuedTime: iso(started),
    pipelineStartTime: status === "Accepted" ? null : iso(started),
    endTime: ended === undefined ? null : iso(ended),
    scanRulesetVersion: 1,
    scanRulesetType: body.scanRulesetType,
    scanLevelType: body.scanLevelType,
    errorMessage: null,
    error: null,
    runType: "Manual",
    dataSourceType: body.dataSourceType,
    discoveryExecutionDetails: {
      discoveryStartTime: iso(started),
      discoveryEndTime: ended === undefined ? null : iso(ended),
      status: discovery,
      statistics: { assets: { discovered: 0, classified: 0, failed: 0 } },
      isErrorLogAvailable: false,
    },
    ingestionExecutionDetails: {
      ingestionStartTime: iso(started),
      ingestionEndTime: ended === undefined ? null : iso(ended),
      status: ingestion,
      statistics: {
        assets: { succeeded: 0, failed: 0, processing: 0 },
        relationships: { succeeded: 0, failed: 0, processing: 0 },
      },
      estimatedTimeRemainingInSeconds: ended === undefined
        ? Math.max(0, Math.ceil((started + duration - now) / 1000))
        : 0,
      isErrorLogAvailable: false,
    },
  };
}

function fail(error: EmulatorError): never {
  throw error;
}
