/**
 * Scanning API calls (2023-09-01): data sources, their scans, scan runs (start, status, cancel, history),
 * scan triggers (create or replace, read, delete, enable, disable) and classification rules (create or
 * replace, read, list, delete). Paths are under `/scan`.
 *
 * Lists follow `nextLink` only when it points at the configured catalog endpoint: a `nextLink` naming
 * another host never receives the bearer token.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * await client.scan.putDataSource("sales-lake", {
 *   kind: "AdlsGen2",
 *   properties: { endpoint: "https://saleslake.dfs.core.windows.net/", collection: { referenceName: "sales" } },
 * });
 * for await (const source of client.scan.listDataSources()) console.log(source.name, source.kind);
 * ```
 *
 * @module
 */
import { CatalogError } from "../errors.ts";
import type { HttpClient } from "../http.ts";
import type {
  ClassificationRule,
  DataSource,
  Scan,
  ScanLevel,
  ScanOperationResponse,
  ScanPage,
  ScanRun,
  ScanTrigger,
} from "./scan_types.ts";

const DATA_SOURCES = "/scan/datasources";
const RULES = "/scan/classificationrules";
/** More pages than any account has; a service that keeps answering nextLink is stopped here. */
const MAX_PAGES = 10_000;

/** A resource written by a create-or-replace, and whether it was new (201) or replaced (200). */
export interface PutResult<T> {
  value: T;
  created: boolean;
}

/** The scanning calls of one account (`client.scan`). */
export class ScanApi {
  protected readonly http: HttpClient;
  constructor(http: HttpClient) {
    this.http = http;
  }

  /** Creates or replaces a data source (201 when new, 200 when replaced). */
  async putDataSource(name: string, body: DataSource, signal?: AbortSignal): Promise<PutResult<DataSource>> {
    return await this.#put(dataSourcePath(name), body, signal);
  }

  /** One data source by name (404 NotFoundError when it does not exist). */
  getDataSource(name: string, signal?: AbortSignal): Promise<DataSource> {
    return this.http.request({ method: "GET", area: "scan", path: dataSourcePath(name), signal });
  }

  /** Every data source of the account, page after page. */
  listDataSources(options: { signal?: AbortSignal } = {}): AsyncGenerator<DataSource> {
    return this.#list<DataSource>(DATA_SOURCES, options.signal);
  }

  /** Deletes a data source, with its scans. */
  async deleteDataSource(name: string, signal?: AbortSignal): Promise<void> {
    await this.http.request({ method: "DELETE", area: "scan", path: dataSourcePath(name), signal });
  }

  /** Creates or replaces a scan of a data source. */
  async putScan(
    dataSource: string,
    scan: string,
    body: Scan,
    signal?: AbortSignal,
  ): Promise<PutResult<Scan>> {
    return await this.#put(scanPath(dataSource, scan), body, signal);
  }

  /** One scan of a data source. */
  getScan(dataSource: string, scan: string, signal?: AbortSignal): Promise<Scan> {
    return this.http.request({ method: "GET", area: "scan", path: scanPath(dataSource, scan), signal });
  }

  /** Every scan of a data source. */
  listScans(dataSource: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<Scan> {
    return this.#list<Scan>(`${dataSourcePath(dataSource)}/scans`, options.signal);
  }

  /** Deletes a scan, with its runs and trigger. */
  async deleteScan(dataSource: string, scan: string, signal?: AbortSignal): Promise<void> {
    await this.http.request({ method: "DELETE", area: "scan", path: scanPath(dataSource, scan), signal });
  }

  /**
   * Starts a run of a scan (`POST …:run`); the service answers at once with the accepted run. `runId`
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
    return this.#list<ScanRun>(`${scanPath(dataSource, scan)}/runs`, options.signal);
  }

  /** Creates or replaces the scan trigger (schedule) of a scan. */
  async putTrigger(
    dataSource: string,
    scan: string,
    body: ScanTrigger,
    signal?: AbortSignal,
  ): Promise<PutResult<ScanTrigger>> {
    return await this.#put(triggerPath(dataSource, scan), body, signal);
  }

  /** The scan trigger of a scan (404 NotFoundError when the scan has none). */
  getTrigger(dataSource: string, scan: string, signal?: AbortSignal): Promise<ScanTrigger> {
    return this.http.request({ method: "GET", area: "scan", path: triggerPath(dataSource, scan), signal });
  }

  /** Deletes the scan trigger of a scan: the scan runs only when started by hand afterwards. */
  async deleteTrigger(dataSource: string, scan: string, signal?: AbortSignal): Promise<void> {
    await this.http.request({ method: "DELETE", area: "scan", path: triggerPath(dataSource, scan), signal });
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
    return await this.#put(rulePath(name), body, signal);
  }

  /** One classification rule by name (404 NotFoundError when it does not exist). */
  getClassificationRule(name: string, signal?: AbortSignal): Promise<ClassificationRule> {
    return this.http.request({ method: "GET", area: "scan", path: rulePath(name), signal });
  }

  /** Every classification rule of the account, page after page. */
  listClassificationRules(options: { signal?: AbortSignal } = {}): AsyncGenerator<ClassificationRule> {
    return this.#list<ClassificationRule>(RULES, options.signal);
  }

  /** Deletes a classification rule. */
  async deleteClassificationRule(name: string, signal?: AbortSignal): Promise<void> {
    await this.http.request({ method: "DELETE", area: "scan", path: rulePath(name), signal });
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

  async #put<T>(path: string, body: unknown, signal?: AbortSignal): Promise<PutResult<T>> {
    let status = 0;
    const value = await this.http.request<T>({
      method: "PUT",
      area: "scan",
      path,
      body,
      signal,
      onResponse: (s) => status = s,
    });
    return { value, created: status === 201 };
  }

  async *#list<T>(path: string, signal?: AbortSignal): AsyncGenerator<T> {
    let next: { path: string; query: Record<string, string> } | undefined = { path, query: {} };
    const seen = new Set<string>();
    for (let pages = 0; pages < MAX_PAGES && next; pages++) {
      const page: ScanPage<T> = await this.http.request<ScanPage<T>>({
        method: "GET",
        area: "scan",
        path: next.path,
        query: next.query,
        signal,
      });
      yield* page?.value ?? [];
      if (!page?.nextLink) return;
      if (seen.has(page.nextLink)) throw brokenPaging(`nextLink repeats ${page.nextLink}`);
      seen.add(page.nextLink);
      next = this.#follow(page.nextLink);
    }
    if (next) throw brokenPaging(`more than ${MAX_PAGES} pages`);
  }

  /** The path and query of a nextLink, refused unless it is on the configured endpoint. */
  #follow(nextLink: string): { path: string; query: Record<string, string> } {
    const base = new URL(this.http.baseUrl("scan"));
    let url: URL;
    try {
      url = new URL(nextLink, base);
    } catch {
      throw brokenPaging(`nextLink is not a URL: ${nextLink}`);
    }
    const basePath = base.pathname.replace(/\/+$/, "");
    if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`)) {
      throw brokenPaging(
        `nextLink ${url.origin}${url.pathname} is not on the configured endpoint ${base.origin}`,
      );
    }
    const query: Record<string, string> = {};
    for (const [key, value] of url.searchParams) if (key !== "api-version") query[key] = value;
    return { path: url.pathname.slice(basePath.length), query };
  }
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

function brokenPaging(detail: string): CatalogError {
  return new CatalogError({
    message: `The scanning list could not be paged: ${detail}.`,
    hint: "Retry; if it persists, report the account's paging problem.",
  });
}
