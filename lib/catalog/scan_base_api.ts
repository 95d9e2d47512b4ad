/**
 * What every scanning client module shares (`client.scan` is built from them): the HTTP client, a
 * create-or-replace that tells a new resource (201) from a replaced one (200), deletes that answer the
 * deleted resource when the service sends it, and lists that follow
 * `nextLink` only when it points at the configured catalog endpoint, so a `nextLink` naming another host
 * never receives the bearer token.
 *
 * @module
 */
import { CatalogError } from "../core/errors.ts";
import type { HttpClient } from "../http/client.ts";
import { pageSignature } from "../http/paging_guard.ts";
import { linkedPage } from "./next_link.ts";
import type { ScanPage } from "./scan_types.ts";

/** A resource written by a create-or-replace, and whether it was new (201) or replaced (200). */
export interface PutResult<T> {
  /** The resource as the service stored it. */
  value: T;
  /** True when the resource was new (201), false when an existing one was replaced (200). */
  created: boolean;
}

/** The base of the scanning calls: requests, create-or-replace and paged lists under `/scan`. */
export class ScanApiBase {
  /** The HTTP core every call goes through (`area: "scan"`). */
  protected readonly http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds the whole scanning client as `client.scan`. */
  constructor(http: HttpClient) {
    this.http = http;
  }

  /** A GET of one resource. */
  protected get<T>(path: string, signal?: AbortSignal): Promise<T> {
    return this.http.request<T>({ method: "GET", area: "scan", path, signal });
  }

  /** A DELETE; see {@link deletedResource} for what it answers. */
  protected async remove<T>(path: string, signal?: AbortSignal): Promise<T | undefined> {
    return deletedResource<T>(await this.http.request({ method: "DELETE", area: "scan", path, signal }));
  }

  /** A PUT that creates or replaces a resource. */
  protected async put<T>(path: string, body: unknown, signal?: AbortSignal): Promise<PutResult<T>> {
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

  /** Every item of a paged list, page after page. */
  protected async *list<T>(
    path: string,
    signal?: AbortSignal,
    query: Record<string, string> = {},
  ): AsyncGenerator<T> {
    const guard = this.http.pagingGuard(`the scanning list ${path}`);
    let next: { path: string; query: Record<string, string> } = { path, query };
    for (;;) {
      guard.beforePage(pageKey(next));
      const page: ScanPage<T> = await this.http.request<ScanPage<T>>({
        method: "GET",
        area: "scan",
        path: next.path,
        query: next.query,
        signal,
      });
      const items = Array.isArray(page?.value) ? page.value : [];
      guard.afterPage(items.length, pageSignature(items, (item) => (item as { name?: unknown }).name));
      yield* items;
      if (!page?.nextLink) return;
      next = this.#follow(page.nextLink);
    }
  }

  /** The path and query of a nextLink, refused unless it is on the configured endpoint. */
  #follow(nextLink: string): { path: string; query: Record<string, string> } {
    const page = linkedPage(this.http.baseUrl("scan"), nextLink, brokenPaging);
    // A scanning list's query takes one value a parameter: a repeated one keeps its last.
    const query = Object.fromEntries(
      Object.entries(page.query).map(([key, values]) => [key, values.at(-1)!]),
    );
    return { path: page.path, query };
  }
}

/** A page request as one text (path, then its query sorted), so two spellings of one link compare equal. */
function pageKey(request: { path: string; query: Record<string, string> }): string {
  const query = new URLSearchParams(Object.entries(request.query).sort(([a], [b]) => a.localeCompare(b)));
  return `${request.path}?${query}`;
}

/**
 * What a scanning DELETE answered: the deleted resource, or undefined for an empty answer. The service
 * answers 200 with the resource it deleted (recorded: Azure/azure-sdk-for-net sdk/purview/
 * Azure.Analytics.Purview.Scanning/tests/SessionRecords/DataSourceClientTest/DataSourceOperations.json and
 * the other scanning session records); the contract says 204, which some service may answer.
 */
export function deletedResource<T>(answer: unknown): T | undefined {
  return answer !== null && typeof answer === "object" && !Array.isArray(answer) ? answer as T : undefined;
}

/** A path segment, encoded. */
export function segment(name: string | number): string {
  return encodeURIComponent(String(name));
}

function brokenPaging(detail: string): CatalogError {
  return new CatalogError({
    message: `The scanning list could not be paged: ${detail}.`,
    hint: "Retry; if it persists, report the account's paging problem.",
  });
}
