/**
 * Classic glossary calls of the data map API (`/atlas/v2/glossary…`): glossaries, categories, terms,
 * term assignments to entities, and the catalog API's asynchronous CSV term import with its status and
 * its bulk term calls (`glossary_bulk_api.ts`).
 *
 * Creates are not retried after the request was sent (names are unique, so a repeat would fail with 409);
 * full updates, assignments and imports (an upsert by term name) are safe to repeat and are retried.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { HttpClient } from "../http/client.ts";
 * const client = new CatalogClient(new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" } }));
 * // const glossary = await client.glossary.create({ name: "Finance" });
 * // const term = await client.glossary.createTerm({ name: "Revenue", anchor: { glossaryGuid: glossary.guid } });
 * // await client.glossary.assignTermToEntities(term.guid!, [{ guid: tableGuid }]);
 * ```
 *
 * @module
 */
import { CatalogError, TimeoutError } from "../core/errors.ts";
import type { QueryValue } from "../http/request_url.ts";
import { sleep } from "../http/retry.ts";
import type {
  AtlasGlossary,
  AtlasGlossaryCategory,
  AtlasGlossaryExtInfo,
  AtlasGlossaryTerm,
  AtlasRelatedCategories,
  AtlasRelatedCategoryHeader,
  AtlasRelatedObjectId,
  AtlasRelatedTermHeader,
  AtlasRelatedTerms,
  GlossaryPageOptions,
  ImportCsvOperation,
  ImportWaitOptions,
  ListTermsOptions,
  TermOptions,
  TermRemoval,
} from "./glossary_types.ts";
import { isFinished } from "./glossary_types.ts";
import { ATLAS_V2, segment } from "./paths.ts";
import { GlossaryBulkApi } from "./glossary_bulk_api.ts";

export type * from "./glossary_types.ts";
export type { BulkDeleteOperation, BulkDeleteOptions, TermsExportOptions } from "./glossary_bulk_api.ts";

const GLOSSARY = `${ATLAS_V2}/glossary`;
/** The term import lives in the older catalog API, with its own api-version. */
const CATALOG_GLOSSARY = "/catalog/api/glossary";
const CATALOG_API_VERSION = "2023-02-01-preview";

/**
 * Glossary calls; `client.glossary.…`. The catalog API's bulk term calls (terms by guids, bulk update,
 * bulk delete, CSV export) come from {@link GlossaryBulkApi}.
 */
export class GlossaryApi extends GlossaryBulkApi {
  // ---- Glossaries ---------------------------------------------------------------------------------------

  /** Every glossary with the headers of its terms and categories. */
  list(options: GlossaryPageOptions & { ignoreTermsAndCategories?: boolean } = {}): Promise<AtlasGlossary[]> {
    return this.#get(GLOSSARY, options, { ignoreTermsAndCategories: options.ignoreTermsAndCategories });
  }

  /** Creates a glossary; its name must be new (409 otherwise). */
  create(glossary: AtlasGlossary, signal?: AbortSignal): Promise<AtlasGlossary> {
    return this.http.request({ method: "POST", path: GLOSSARY, body: glossary, signal });
  }

  /** The glossary with this GUID, with the headers of its terms and categories. */
  get(guid: string, signal?: AbortSignal): Promise<AtlasGlossary> {
    return this.http.request({ method: "GET", path: `${GLOSSARY}/${segment(guid)}`, signal });
  }

  /** The glossary with every term and category in full. */
  getDetailed(guid: string, signal?: AbortSignal): Promise<AtlasGlossaryExtInfo> {
    return this.http.request({ method: "GET", path: `${GLOSSARY}/${segment(guid)}/detailed`, signal });
  }

  /** Replaces the glossary's fields (name, descriptions, language, usage) with those given. */
  update(guid: string, glossary: AtlasGlossary, signal?: AbortSignal): Promise<AtlasGlossary> {
    return this.http.request({ method: "PUT", path: `${GLOSSARY}/${segment(guid)}`, body: glossary, signal });
  }

  /** Sets single attributes, e.g. `{ longDescription: "…" }`, leaving the others as they are. */
  partialUpdate(guid: string, updates: Record<string, string>, signal?: AbortSignal): Promise<AtlasGlossary> {
    return this.http.request({
      method: "PUT",
      path: `${GLOSSARY}/${segment(guid)}/partial`,
      body: updates,
      signal,
    });
  }

  /** Deletes the glossary with its terms and categories; refused while one of its terms is assigned. */
  async delete(guid: string, signal?: AbortSignal): Promise<void> {
    await this.http.request({ method: "DELETE", path: `${GLOSSARY}/${segment(guid)}`, signal });
  }

  // ---- Categories ---------------------------------------------------------------------------------------

  /** Creates a category in the glossary of `category.anchor.glossaryGuid`. */
  createCategory(category: AtlasGlossaryCategory, signal?: AbortSignal): Promise<AtlasGlossaryCategory> {
    return this.http.request({ method: "POST", path: `${GLOSSARY}/category`, body: category, signal });
  }

  /** Creates many categories in one call (all or none). */
  createCategories(
    categories: AtlasGlossaryCategory[],
    signal?: AbortSignal,
  ): Promise<AtlasGlossaryCategory[]> {
    return this.http.request({ method: "POST", path: `${GLOSSARY}/categories`, body: categories, signal });
  }

  /** The category with this GUID: its parent, children and the headers of its terms. */
  getCategory(guid: string, signal?: AbortSignal): Promise<AtlasGlossaryCategory> {
    return this.http.request({ method: "GET", path: `${GLOSSARY}/category/${segment(guid)}`, signal });
  }

  /** Replaces the category: fields, parent, children and terms are what `category` says. */
  updateCategory(
    guid: string,
    category: AtlasGlossaryCategory,
    signal?: AbortSignal,
  ): Promise<AtlasGlossaryCategory> {
    return this.http.request({
      method: "PUT",
      path: `${GLOSSARY}/category/${segment(guid)}`,
      body: category,
      signal,
    });
  }

  /** Sets single attributes of a category (name, shortDescription, longDescription). */
  partialUpdateCategory(
    guid: string,
    updates: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<AtlasGlossaryCategory> {
    return this.http.request({
      method: "PUT",
      path: `${GLOSSARY}/category/${segment(guid)}/partial`,
      body: updates,
      signal,
    });
  }

  /** Deletes the category with this GUID; its terms stay in the glossary. */
  async deleteCategory(guid: string, signal?: AbortSignal): Promise<void> {
    await this.http.request({ method: "DELETE", path: `${GLOSSARY}/category/${segment(guid)}`, signal });
  }

  /** The categories of a glossary, in full. */
  listCategories(glossaryGuid: string, options: GlossaryPageOptions = {}): Promise<AtlasGlossaryCategory[]> {
    return this.#get(`${GLOSSARY}/${segment(glossaryGuid)}/categories`, options);
  }

  /** The categories of a glossary as headers (guid, parent, name). */
  listCategoryHeaders(
    glossaryGuid: string,
    options: GlossaryPageOptions = {},
  ): Promise<AtlasRelatedCategoryHeader[]> {
    return this.#get(`${GLOSSARY}/${segment(glossaryGuid)}/categories/headers`, options);
  }

  /** The category's parent and children: `{ parent: […], children: […] }`. */
  getCategoryRelated(guid: string, options: GlossaryPageOptions = {}): Promise<AtlasRelatedCategories> {
    return this.#get(`${GLOSSARY}/category/${segment(guid)}/related`, options);
  }

  /** The terms of a category, as headers. */
  getCategoryTerms(
    categoryGuid: string,
    options: GlossaryPageOptions = {},
  ): Promise<AtlasRelatedTermHeader[]> {
    return this.#get(`${GLOSSARY}/category/${segment(categoryGuid)}/terms`, options);
  }

  // ---- Terms --------------------------------------------------------------------------------------------

  /** Creates a term in the glossary of `term.anchor.glossaryGuid`; its name must be new there. */
  createTerm(term: AtlasGlossaryTerm, options: TermOptions = {}): Promise<AtlasGlossaryTerm> {
    return this.http.request({
      method: "POST",
      path: `${GLOSSARY}/term`,
      query: hierarchy(options),
      body: term,
      signal: options.signal,
    });
  }

  /** Creates many terms in one call (all or none). */
  createTerms(terms: AtlasGlossaryTerm[], options: TermOptions = {}): Promise<AtlasGlossaryTerm[]> {
    return this.http.request({
      method: "POST",
      path: `${GLOSSARY}/terms`,
      query: hierarchy(options),
      body: terms,
      signal: options.signal,
    });
  }

  /** A term with its categories, related terms and assigned entities. */
  getTerm(
    guid: string,
    options: TermOptions & { excludeAssignedEntities?: boolean } | AbortSignal = {},
  ): Promise<AtlasGlossaryTerm> {
    const opts = options instanceof AbortSignal ? { signal: options } : options;
    return this.http.request({
      method: "GET",
      path: `${GLOSSARY}/term/${segment(guid)}`,
      query: {
        ...hierarchy(opts),
        excludeRelationshipTypes: opts.excludeAssignedEntities
          ? "AtlasGlossarySemanticAssignment"
          : undefined,
      },
      signal: opts.signal,
    });
  }

  /** Replaces the term: fields, categories and related terms are what `term` says. */
  updateTerm(guid: string, term: AtlasGlossaryTerm, options: TermOptions = {}): Promise<AtlasGlossaryTerm> {
    return this.http.request({
      method: "PUT",
      path: `${GLOSSARY}/term/${segment(guid)}`,
      query: hierarchy(options),
      body: term,
      signal: options.signal,
    });
  }

  /** Sets single attributes of a term (name, descriptions, abbreviation, status…), as strings. */
  partialUpdateTerm(
    guid: string,
    updates: Record<string, string>,
    options: TermOptions = {},
  ): Promise<AtlasGlossaryTerm> {
    return this.http.request({
      method: "PUT",
      path: `${GLOSSARY}/term/${segment(guid)}/partial`,
      query: hierarchy(options),
      body: updates,
      signal: options.signal,
    });
  }

  /**
   * Deletes a term; refused (400, ATLAS-400-00-086) while it is assigned to entities: remove those first
   * with {@link removeTermFromEntities}.
   */
  async deleteTerm(guid: string, signal?: AbortSignal): Promise<void> {
    await this.http.request({ method: "DELETE", path: `${GLOSSARY}/term/${segment(guid)}`, signal });
  }

  /** The terms of a glossary, in full. */
  listTerms(glossaryGuid: string, options: ListTermsOptions = {}): Promise<AtlasGlossaryTerm[]> {
    return this.#get(`${GLOSSARY}/${segment(glossaryGuid)}/terms`, options, {
      ...hierarchy(options),
      extInfo: options.extInfo || undefined,
    });
  }

  /** The terms of a glossary as headers (guid and name): much smaller than {@link listTerms}. */
  listTermHeaders(
    glossaryGuid: string,
    options: GlossaryPageOptions = {},
  ): Promise<AtlasRelatedTermHeader[]> {
    return this.#get(`${GLOSSARY}/${segment(glossaryGuid)}/terms/headers`, options);
  }

  /** The entities a term is assigned to, with each assignment's relationship GUID. */
  getTermAssignedEntities(
    termGuid: string,
    options: GlossaryPageOptions = {},
  ): Promise<AtlasRelatedObjectId[]> {
    return this.#get(`${GLOSSARY}/terms/${segment(termGuid)}/assignedEntities`, options);
  }

  /**
   * Assigns the term to entities given by GUID (all or none: one unknown entity fails the call). Entities
   * that already carry the term are left as they are, so repeating the call is harmless.
   */
  async assignTermToEntities(
    termGuid: string,
    relatedObjects: AtlasRelatedObjectId[],
    signal?: AbortSignal,
  ): Promise<void> {
    await this.http.request({
      method: "POST",
      path: `${GLOSSARY}/terms/${segment(termGuid)}/assignedEntities`,
      body: relatedObjects,
      idempotent: true,
      signal,
    });
  }

  /**
   * Removes the term from entities (`Glossary_DeleteTermAssignmentFromEntities`). The service needs each
   * assignment's `relationshipGuid`; objects without one get it from the term's assigned entities (GUIDs
   * compared in any letter case), and entities that do not carry the term are reported in `notAssigned`
   * instead of being sent, so removing an assignment twice is harmless.
   */
  async removeTermFromEntities(
    termGuid: string,
    relatedObjects: AtlasRelatedObjectId[],
    signal?: AbortSignal,
  ): Promise<TermRemoval> {
    let objects = relatedObjects;
    const notAssigned: string[] = [];
    if (objects.some((o) => !o.relationshipGuid)) {
      const assigned = await this.getTermAssignedEntities(termGuid, { signal });
      const byGuid = new Map(assigned.map((a) => [String(a.guid).toLowerCase(), a]));
      objects = objects.flatMap((o) => {
        if (o.relationshipGuid) return [o];
        const found = byGuid.get(String(o.guid).toLowerCase());
        if (found?.relationshipGuid) {
          return [{ ...o, guid: found.guid, relationshipGuid: found.relationshipGuid }];
        }
        notAssigned.push(String(o.guid));
        return [];
      });
    }
    if (objects.length > 0) {
      await this.http.request({
        method: "DELETE",
        path: `${GLOSSARY}/terms/${segment(termGuid)}/assignedEntities`,
        body: objects,
        // A repeat after the first one landed is refused: the assignment is gone.
        idempotent: false,
        signal,
      });
    }
    return { removed: objects, notAssigned };
  }

  /** The term's related terms by relationship (seeAlso, synonyms, antonyms, isA…). */
  getRelatedTerms(termGuid: string, options: GlossaryPageOptions = {}): Promise<AtlasRelatedTerms> {
    return this.#get(`${GLOSSARY}/terms/${segment(termGuid)}/related`, options);
  }

  // ---- CSV import ---------------------------------------------------------------------------------------

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
      query: hierarchy(options),
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

  /** A GET with paging parameters and any others. */
  #get<T>(path: string, options: GlossaryPageOptions, query: Record<string, QueryValue> = {}): Promise<T> {
    return this.http.request({
      method: "GET",
      path,
      query: { limit: options.limit, offset: options.offset, sort: options.sort, ...query },
      signal: options.signal,
    });
  }
}

function hierarchy(options: TermOptions): Record<string, QueryValue> {
  return { includeTermHierarchy: options.includeTermHierarchy || undefined };
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
