/**
 * The catalog API's (2023-02-01-preview, under `/catalog/api`) bulk term calls, part of `client.glossary`:
 * terms by guids, a full update of many terms, a bulk delete (an asynchronous job, followed to its status)
 * and the CSV export of chosen terms. {@link GlossaryApi} extends this class, so each is called as
 * `client.glossary.listTermsByGuids(…)` and so on.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * // const csv = await client.glossary.exportTermsCsv(glossaryGuid, [termGuid]);
 * ```
 *
 * @module
 */
import { CatalogError } from "../core/errors.ts";
import type { HttpClient } from "../http/client.ts";
import type { AtlasGlossaryTerm } from "./glossary_types.ts";
import { segment } from "./paths.ts";

/** The bulk term calls and the term import live in the older catalog API, with its own api-version. */
export const CATALOG_GLOSSARY = "/catalog/api/glossary";
/** The api-version of the catalog API's glossary calls. */
export const CATALOG_API_VERSION = "2023-02-01-preview";

/** A bulk delete job (the contract's BulkDeleteOperation). */
export interface BulkDeleteOperation {
  /** Operation id, to read the job's status with. */
  id: string;
  /** Where the job stands; `Succeeded` and `Failed` are final. */
  status: "NotStarted" | "Running" | "Succeeded" | "Failed" | string;
  /** When the job was accepted (an ISO 8601 date and time). */
  createTime?: string;
  /** When its status last changed. */
  lastUpdateTime?: string;
  /** Progress: terms deleted so far and terms to delete, both as decimal strings. */
  properties?: { deletedTerms?: string; totalTermsDetected?: string };
  /** Why the job failed, when `status` is `Failed`. */
  error?: { code?: string; message?: string };
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** How a bulk delete treats what hangs on the terms. */
export interface BulkDeleteOptions {
  /** Delete the terms below each term too (default: they stay, without a parent). */
  forceDeleteChild?: boolean;
  /** Delete terms still assigned to entities, removing the assignments (default: such terms are kept). */
  forceDeleteEntityAssignment?: boolean;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** What a CSV export includes. */
export interface TermsExportOptions {
  /** Add each term's parent term (a Parent Term Name column). */
  includeTermHierarchy?: boolean;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** The bulk term calls; see the module. */
export class GlossaryBulkApi {
  /** The HTTP core every call goes through. */
  protected readonly http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds one as `client.glossary`. */
  constructor(http: HttpClient) {
    this.http = http;
  }

  /**
   * The terms with these guids (a guid naming no term is left out). `excludeAssignments` leaves the
   * assigned entities out (`excludeRelationshipTypes=AtlasGlossarySemanticAssignment`).
   */
  listTermsByGuids(
    guids: string[],
    options: { excludeAssignments?: boolean; signal?: AbortSignal } = {},
  ): Promise<AtlasGlossaryTerm[]> {
    return this.http.request({
      method: "GET",
      path: `${CATALOG_GLOSSARY}/terms`,
      apiVersion: CATALOG_API_VERSION,
      query: {
        guid: guids,
        excludeRelationshipTypes: options.excludeAssignments
          ? ["AtlasGlossarySemanticAssignment"]
          : undefined,
      },
      signal: options.signal,
    });
  }

  /** Replaces many terms at once, each named by its `guid` (a full update: fields left out are cleared). */
  bulkUpdateTerms(terms: AtlasGlossaryTerm[], signal?: AbortSignal): Promise<AtlasGlossaryTerm[]> {
    return this.http.request({
      method: "PUT",
      path: `${CATALOG_GLOSSARY}/terms`,
      apiVersion: CATALOG_API_VERSION,
      body: terms,
      signal,
    });
  }

  /**
   * Starts a bulk delete of the terms and returns its job as the status call first answers it (poll
   * {@link getBulkDeleteStatus} while it is NotStarted or Running). Not retried once sent.
   */
  async deleteTermsInBulk(guids: string[], options: BulkDeleteOptions = {}): Promise<BulkDeleteOperation> {
    let location: string | null = null;
    await this.http.request({
      method: "POST",
      path: `${CATALOG_GLOSSARY}/terms:delete`,
      apiVersion: CATALOG_API_VERSION,
      query: {
        forceDeleteChild: options.forceDeleteChild || undefined,
        forceDeleteEntityAssignment: options.forceDeleteEntityAssignment || undefined,
      },
      body: guids,
      signal: options.signal,
      onResponse: (_status, headers) => location = headers.get("operation-location"),
    });
    const id = lastSegment(location);
    if (!id) {
      throw new CatalogError({
        status: 202,
        message: "The catalog accepted the bulk delete but named no job (no Operation-Location header).",
        hint: "Check the terms with glossary read-terms-by-guids; the delete may still have run.",
      });
    }
    return await this.getBulkDeleteStatus(id, options.signal);
  }

  /** The state of a bulk delete job. */
  getBulkDeleteStatus(operationId: string, signal?: AbortSignal): Promise<BulkDeleteOperation> {
    return this.http.request({
      method: "GET",
      path: `${CATALOG_GLOSSARY}/terms/bulkDeletion/${segment(operationId)}`,
      apiVersion: CATALOG_API_VERSION,
      signal,
    });
  }

  /** The terms (of this glossary) with these guids, as CSV in the import template's columns. */
  exportTermsCsv(
    glossaryGuid: string,
    termGuids: string[],
    options: TermsExportOptions = {},
  ): Promise<string> {
    return this.http.request({
      method: "POST",
      path: `${CATALOG_GLOSSARY}/${segment(glossaryGuid)}/terms/export`,
      apiVersion: CATALOG_API_VERSION,
      query: { includeTermHierarchy: options.includeTermHierarchy || undefined },
      body: termGuids,
      idempotent: true,
      responseType: "text",
      signal: options.signal,
    });
  }
}

/** The last path segment of an `Operation-Location` URL, or undefined. */
function lastSegment(location: string | null): string | undefined {
  if (!location) return undefined;
  try {
    const last = new URL(location).pathname.split("/").filter(Boolean).pop();
    return last ? decodeURIComponent(last) : undefined;
  } catch {
    return undefined;
  }
}
