/**
 * Scanning API calls (2023-09-01): data sources, their scans, scan runs (start, status, cancel, history),
 * scan triggers (create or replace, read, delete, enable, disable) and classification rules (create or
 * replace, read, list, delete). Paths are under `/scan`. `client.scan` also has the calls of the modules it
 * extends: key vault connections, credentials, scan rulesets, scan filters and classification rule versions
 * (scan_admin_api.ts), integration runtimes and the managed virtual network with its private endpoints
 * (scan_runtime_api.ts), on the shared base of scan_base_api.ts.
 *
 * Lists follow `nextLink` only when it points at the configured catalog endpoint: a `nextLink` naming
 * another host never receives the bearer token.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * async function registerSalesLake(): Promise<void> {
 *   await client.scan.putDataSource("sales-lake", {
 *     kind: "AdlsGen2",
 *     properties: {
 *       endpoint: "https://saleslake.dfs.core.windows.net/",
 *       collection: { referenceName: "sales" },
 *     },
 *   });
 *   for await (const source of client.scan.listDataSources()) console.log(source.name, source.kind);
 * }
 * ```
 *
 * @module
 */
import type { PutResult } from "./scan_base_api.ts";
import { ScanRuntimeApi } from "./scan_runtime_api.ts";
import type {
  ClassificationRule,
  DataSource,
  Scan,
  ScanLevel,
  ScanOperationResponse,
  ScanRun,
  ScanTrigger,
} from "./scan_types.ts";

const DATA_SOURCES = "/scan/datasources";
const RULES = "/scan/classificationrules";
export type { PutResult };

/** The scanning calls of one account (`client.scan`). */
export class ScanApi extends ScanRuntimeApi {
  /** Creates or replaces a data source (201 when new, 200 when replaced). */
  async putDataSource(name: string, body: DataSource, signal?: AbortSignal): Promise<PutResult<DataSource>> {
    return await this.put(dataSourcePath(name), body, signal);
  }

  /** One data source by name (404 NotFoundError when it does not exist). */
  getDataSource(name: string, signal?: AbortSignal): Promise<DataSource> {
    return this.http.request({ method: "GET", area: "scan", path: dataSourcePath(name), signal });
  }

  /** Every data source of the account, page after page. */
  listDataSources(options: { signal?: AbortSignal } = {}): AsyncGenerator<DataSource> {
    return this.list<DataSource>(DATA_SOURCES, options.signal);
  }

  /** Deletes a data source, with its scans; answers the deleted data source (undefined on an empty 204). */
  deleteDataSource(name: string, signal?: AbortSignal): Promise<DataSource | undefined> {
    return this.remove(dataSourcePath(name), signal);
  }

  /** Creates or replaces a scan of a data source. */
  async putScan(
    dataSource: string,
    scan: string,
    body: Scan,
    signal?: AbortSignal,
  ): Promise<PutResult<Scan>> {
    return await this.put(scanPath(dataSource, scan), body, signal);
  }

  /** One scan of a data source. */
  getScan(dataSource: string, scan: string, signal?: AbortSignal): Promise<Scan> {
    return this.http.request({ method: "GET", area: "scan", path: scanPath(dataSource, scan), signal });
  }

  /** Every scan of a data source. */
  listScans(dataSource: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<Scan> {
    return this.list<Scan>(`${dataSourcePath(dataSource)}/scans`, options.signal);
  }

  /** Deletes a scan, with its runs and trigger; answers the deleted scan (undefined on an empty 204). */
  deleteScan(dataSource: string, scan: string, signal?: AbortSignal): Promise<Scan | undefined> {
    return this.remove(scanPath(dataSource, scan), signal);
  }

  /**
   * Starts a run of a scan (`POST …:run`); the service answers at once with the accepted run, or with the
   * start request's state (`scanResultId`): {@link startedRunId} reads the run id from either. `runId`
   * defaults to a new GUID, so a retried request cannot start a second run.
   */
  runScan(
    dataSource: string,
    scan: string,
    options: { runId?: string; scanLevel?: ScanLevel; signal?: AbortSignal } = {},
  ): Promise<ScanRun> {
    return this.http.request({
      method: "POST",
      area: "scan",
      path: `${scanPath(dataSource, scan)}:run`,
      query: { runId: options.runId ?? crypto.randomUUID(), scanLevel: options.scanLevel },
      idempotent: true,
      signal: options.signal,
    });
  }

  /** One run of a scan, with its current status (ScanResult_GetScanStatus). */
  getScanRun(dataSource: string, scan: string, runId: string, signal?: AbortSignal): Promise<ScanRun> {
    return this.http.request({ method: "GET", area: "scan", path: runPath(dataSource, scan, runId), signal });
  }

  /**
   * Asks the service to cancel a run (`POST …/runs/{runId}:cancel`). It answers 202 with the state of the
   * cancel request; the run itself shows Canceled once the service has stopped it. A cancel names its run,
   * so sending it again changes nothing more: the request is retried like a GET.
   */
  cancelScan(
    dataSource: string,
    scan: string,
    runId: string,
    signal?: AbortSignal,
  ): Promise<ScanOperationResponse> {
    return this.http.request({
      method: "POST",
      area: "scan",
      path: `${runPath(dataSource, scan, runId)}:cancel`,
      idempotent: true,
      signal,
    });
  }

  /** The run history of a scan, newest first. */
  listScanRuns(
    dataSource: string,
    scan: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<ScanRun> {
    return this.list<ScanRun>(`${scanPath(dataSource, scan)}/runs`, options.signal);
  }

  /** Creates or replaces the scan trigger (schedule) of a scan. */
  async putTrigger(
    dataSource: string,
    scan: string,
    body: ScanTrigger,
    signal?: AbortSignal,
  ): Promise<PutResult<ScanTrigger>> {
    return await this.put(triggerPath(dataSource, scan), body, signal);
  }

  /** The scan trigger of a scan (404 NotFoundError when the scan has none). */
  getTrigger(dataSource: string, scan: string, signal?: AbortSignal): Promise<ScanTrigger> {
    return this.http.request({ method: "GET", area: "scan", path: triggerPath(dataSource, scan), signal });
  }

  /**
   * Deletes the scan trigger of a scan: the scan runs only when started by hand afterwards. Answers the
   * deleted trigger (undefined on an empty 204).
   */
  deleteTrigger(dataSource: string, scan: string, signal?: AbortSignal): Promise<ScanTrigger | undefined> {
    return this.remove(triggerPath(dataSource, scan), signal);
  }

  /** Turns the scan trigger of a scan on (`POST …/triggers/default:enable`); answers the trigger. */
  enableTrigger(dataSource: string, scan: string, signal?: AbortSignal): Promise<ScanTrigger> {
    return this.#triggerAction(dataSource, scan, "enable", signal);
  }

  /** Turns the scan trigger of a scan off, keeping its schedule (`…/triggers/default:disable`). */
  disableTrigger(dataSource: string, scan: string, signal?: AbortSignal): Promise<ScanTrigger> {
    return this.#triggerAction(dataSource, scan, "disable", signal);
  }

  /** Creates or replaces a classification rule. */
  async putClassificationRule(
    name: string,
    body: ClassificationRule,
    signal?: AbortSignal,
  ): Promise<PutResult<ClassificationRule>> {
    return await this.put(rulePath(name), body, signal);
  }

  /** One classification rule by name (404 NotFoundError when it does not exist). */
  getClassificationRule(name: string, signal?: AbortSignal): Promise<ClassificationRule> {
    return this.http.request({ method: "GET", area: "scan", path: rulePath(name), signal });
  }

  /** Every classification rule of the account, page after page. */
  listClassificationRules(options: { signal?: AbortSignal } = {}): AsyncGenerator<ClassificationRule> {
    return this.list<ClassificationRule>(RULES, options.signal);
  }

  /** Deletes a classification rule; answers the deleted rule (undefined on an empty 204). */
  deleteClassificationRule(name: string, signal?: AbortSignal): Promise<ClassificationRule | undefined> {
    return this.remove(rulePath(name), signal);
  }

  /** Enabling or disabling sets the trigger's state, so a repeat changes nothing: retried like a GET. */
  #triggerAction(
    dataSource: string,
    scan: string,
    action: "enable" | "disable",
    signal?: AbortSignal,
  ): Promise<ScanTrigger> {
    return this.http.request({
      method: "POST",
      area: "scan",
      path: `${triggerPath(dataSource, scan)}:${action}`,
      idempotent: true,
      signal,
    });
  }
}

/**
 * The run id of a start's answer: `scanResultId` (the start request's state, as the service was recorded
 * answering) or `id` (the run itself, as the 2023-09-01 contract's example answers); undefined with neither.
 */
export function startedRunId(answer: ScanRun | undefined): string | undefined {
  for (const id of [answer?.scanResultId, answer?.id]) {
    if (typeof id === "string" && id !== "") return id;
  }
  return undefined;
}

function dataSourcePath(name: string): string {
  return `${DATA_SOURCES}/${encodeURIComponent(name)}`;
}

function scanPath(dataSource: string, scan: string): string {
  return `${dataSourcePath(dataSource)}/scans/${encodeURIComponent(scan)}`;
}

function runPath(dataSource: string, scan: string, runId: string): string {
  return `${scanPath(dataSource, scan)}/runs/${encodeURIComponent(runId)}`;
}

/** A scan has one trigger, always named `default`. */
function triggerPath(dataSource: string, scan: string): string {
  return `${scanPath(dataSource, scan)}/triggers/default`;
}

function rulePath(name: string): string {
  return `${RULES}/${encodeURIComponent(name)}`;
}
