/**
 * The catalog API's asynchronous CSV term import (`/catalog/api/glossary/…/terms/import`), part of
 * `client.glossary`: the upload, the state of its operation, and an import polled until it ends.
 * {@link GlossaryApi} extends this class, so each is called as `client.glossary.importTerms(…)` and so on.
 *
 * An import is an upsert by term name, so the upload is safe to repeat and is retried.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { HttpClient } from "../http/client.ts";
 * const client = new CatalogClient(new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" } }));
 * // const done = await client.glossary.importTermsAndWait(glossaryGuid, "Name\nRevenue\n", "terms.csv");
 * ```
 *
 * @module
 */
import { CatalogError, TimeoutError } from "../core/errors.ts";
import { sleep } from "../http/retry.ts";
import type { ImportCsvOperation, ImportWaitOptions, TermOptions } from "./glossary_types.ts";
import { isFinished, termHierarchyQuery } from "./glossary_types.ts";
import { segment } from "./paths.ts";
import { CATALOG_API_VERSION, CATALOG_GLOSSARY, GlossaryBulkApi } from "./glossary_bulk_api.ts";

/** The CSV term import; see the module. */
export class GlossaryImportApi extends GlossaryBulkApi {
  /**
   * Uploads a CSV file of terms into a glossary and returns the import operation, which runs after the
   * upload: poll {@link getImportStatus}, or use {@link importTermsAndWait}. Terms are matched by name, so
   * importing the same file again changes nothing more.
   */
  async importTerms(
    glossaryGuid: string,
    csv: string | Uint8Array,
    fileName: string,
    options: TermOptions = {},
  ): Promise<ImportCsvOperation> {
    const form = new FormData();
    form.append("file", new Blob([csv as BlobPart], { type: "text/csv" }), fileName);
    let location: string | null = null;
    const accepted = await this.http.request<ImportCsvOperation | undefined>({
      method: "POST",
      path: `${CATALOG_GLOSSARY}/${segment(glossaryGuid)}/terms/import`,
      query: termHierarchyQuery(options),
      apiVersion: CATALOG_API_VERSION,
      body: form,
      idempotent: true,
      signal: options.signal,
      onResponse: (_status, headers) => {
        location = headers.get("operation-location");
      },
    });
    // The service's 202 carries the operation (Azure/azure-sdk-for-js
    // sdk/purview/purview-catalog-rest/recordings/browsers/purview_catalog_glossary_test/recording_should_work_with_lro_helper.json);
    // the 2023-02-01-preview contract's example names it only by the Operation-Location header.
    if (accepted && typeof accepted === "object" && typeof accepted.id === "string") return accepted;
    const operationId = operationIdFrom(location);
    if (!operationId) {
      throw new CatalogError({
        status: 202,
        message:
          "The catalog accepted the term import but named no operation (no Operation-Location header).",
        hint: "Check the glossary's terms with glossary list-terms; the import may still have run.",
      });
    }
    return await this.getImportStatus(operationId, options.signal);
  }

  /** The state of an import operation. */
  getImportStatus(operationId: string, signal?: AbortSignal): Promise<ImportCsvOperation> {
    return this.http.request({
      method: "GET",
      path: `${CATALOG_GLOSSARY}/terms/import/${segment(operationId)}`,
      apiVersion: CATALOG_API_VERSION,
      signal,
    });
  }

  /**
   * Imports a CSV file and polls the operation until it succeeds or fails; returns the last state (a
   * Failed one included, with the service's error). Throws TimeoutError when it runs past `timeoutMs`.
   */
  async importTermsAndWait(
    glossaryGuid: string,
    csv: string | Uint8Array,
    fileName: string,
    options: ImportWaitOptions = {},
  ): Promise<ImportCsvOperation> {
    const timeoutMs = options.timeoutMs ?? 600_000;
    const deadline = Date.now() + timeoutMs;
    let operation = await this.importTerms(glossaryGuid, csv, fileName, options);
    options.onProgress?.(operation);
    while (!isFinished(operation)) {
      if (Date.now() >= deadline) {
        throw new TimeoutError({
          message:
            `The term import ${operation.id} has not finished after ${Math.round(timeoutMs / 1000)} s ` +
            `(status ${operation.status}).`,
          hint:
            `It may still finish; check it with "govcat glossary read-terms-import --operation-id=${operation.id}".`,
        });
      }
      await sleep(options.pollMs ?? 1000, options.signal);
      operation = await this.getImportStatus(operation.id, options.signal);
      options.onProgress?.(operation);
    }
    return operation;
  }
}

/**
 * The operation id at the end of an `Operation-Location` URL (`…/terms/import/{operationId}?api-version=…`).
 * The service has also sent the query escaped into the path (`…/{operationId}%3Fapi-version=…`, Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/node/purview_catalog_glossary_test/recording_should_work_with_lro_helper.json):
 * the id ends before it.
 */
export function operationIdFrom(location: string | null): string | undefined {
  if (!location) return undefined;
  try {
    const last = new URL(location).pathname.split("/").filter(Boolean).pop();
    return last ? decodeURIComponent(last).split("?")[0] || undefined : undefined;
  } catch {
    return undefined;
  }
}
