/**
 * Classic glossary calls of the data map API (`/atlas/v2/glossary…`), `client.glossary`: glossaries and
 * their categories here; the class extends the term calls with their assignments to entities
 * (`glossary_terms_api.ts`), the catalog API's asynchronous CSV term import (`glossary_import_api.ts`) and
 * its bulk term calls (`glossary_bulk_api.ts`), so all are called on the one client.
 *
 * Creates are not retried after the request was sent (names are unique, so a repeat would fail with 409);
 * full updates are safe to repeat and are retried.
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
import type {
  AtlasGlossary,
  AtlasGlossaryCategory,
  AtlasGlossaryExtInfo,
  AtlasRelatedCategories,
  AtlasRelatedCategoryHeader,
  AtlasRelatedTermHeader,
  GlossaryPageOptions,
} from "./glossary_types.ts";
import { ATLAS_GLOSSARY, segment } from "./paths.ts";
import { GlossaryTermsApi } from "./glossary_terms_api.ts";

export type * from "./glossary_types.ts";
export type { BulkDeleteOperation, BulkDeleteOptions, TermsExportOptions } from "./glossary_bulk_api.ts";

/**
 * Glossary calls; `client.glossary.…`. The term calls come from {@link GlossaryTermsApi}, the CSV import
 * from {@link GlossaryImportApi} and the catalog API's bulk term calls (terms by guids, bulk update, bulk
 * delete, CSV export) from {@link GlossaryBulkApi}.
 */
export class GlossaryApi extends GlossaryTermsApi {
  // ---- Glossaries ---------------------------------------------------------------------------------------

  /** Every glossary with the headers of its terms and categories. */
  list(options: GlossaryPageOptions & { ignoreTermsAndCategories?: boolean } = {}): Promise<AtlasGlossary[]> {
    return this.getPage(ATLAS_GLOSSARY, options, {
      ignoreTermsAndCategories: options.ignoreTermsAndCategories,
    });
  }

  /** Creates a glossary; its name must be new (409 otherwise). */
  create(glossary: AtlasGlossary, signal?: AbortSignal): Promise<AtlasGlossary> {
    return this.http.request({ method: "POST", path: ATLAS_GLOSSARY, body: glossary, signal });
  }

  /** The glossary with this GUID, with the headers of its terms and categories. */
  get(guid: string, signal?: AbortSignal): Promise<AtlasGlossary> {
    return this.http.request({ method: "GET", path: `${ATLAS_GLOSSARY}/${segment(guid)}`, signal });
  }

  /** The glossary with every term and category in full. */
  getDetailed(guid: string, signal?: AbortSignal): Promise<AtlasGlossaryExtInfo> {
    return this.http.request({ method: "GET", path: `${ATLAS_GLOSSARY}/${segment(guid)}/detailed`, signal });
  }

  /** Replaces the glossary's fields (name, descriptions, language, usage) with those given. */
  update(guid: string, glossary: AtlasGlossary, signal?: AbortSignal): Promise<AtlasGlossary> {
    return this.http.request({
      method: "PUT",
      path: `${ATLAS_GLOSSARY}/${segment(guid)}`,
      body: glossary,
      signal,
    });
  }

  /** Sets single attributes, e.g. `{ longDescription: "…" }`, leaving the others as they are. */
  partialUpdate(guid: string, updates: Record<string, string>, signal?: AbortSignal): Promise<AtlasGlossary> {
    return this.http.request({
      method: "PUT",
      path: `${ATLAS_GLOSSARY}/${segment(guid)}/partial`,
      body: updates,
      signal,
    });
  }

  /** Deletes the glossary with its terms and categories; refused while one of its terms is assigned. */
  async delete(guid: string, signal?: AbortSignal): Promise<void> {
    await this.http.request({ method: "DELETE", path: `${ATLAS_GLOSSARY}/${segment(guid)}`, signal });
  }

  // ---- Categories ---------------------------------------------------------------------------------------

  /** Creates a category in the glossary of `category.anchor.glossaryGuid`. */
  createCategory(category: AtlasGlossaryCategory, signal?: AbortSignal): Promise<AtlasGlossaryCategory> {
    return this.http.request({ method: "POST", path: `${ATLAS_GLOSSARY}/category`, body: category, signal });
  }

  /** Creates many categories in one call (all or none). */
  createCategories(
    categories: AtlasGlossaryCategory[],
    signal?: AbortSignal,
  ): Promise<AtlasGlossaryCategory[]> {
    return this.http.request({
      method: "POST",
      path: `${ATLAS_GLOSSARY}/categories`,
      body: categories,
      signal,
    });
  }

  /** The category with this GUID: its parent, children and the headers of its terms. */
  getCategory(guid: string, signal?: AbortSignal): Promise<AtlasGlossaryCategory> {
    return this.http.request({ method: "GET", path: `${ATLAS_GLOSSARY}/category/${segment(guid)}`, signal });
  }

  /** Replaces the category: fields, parent, children and terms are what `category` says. */
  updateCategory(
    guid: string,
    category: AtlasGlossaryCategory,
    signal?: AbortSignal,
  ): Promise<AtlasGlossaryCategory> {
    return this.http.request({
      method: "PUT",
      path: `${ATLAS_GLOSSARY}/category/${segment(guid)}`,
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
      path: `${ATLAS_GLOSSARY}/category/${segment(guid)}/partial`,
      body: updates,
      signal,
    });
  }

  /** Deletes the category with this GUID; its terms stay in the glossary. */
  async deleteCategory(guid: string, signal?: AbortSignal): Promise<void> {
    await this.http.request({
      method: "DELETE",
      path: `${ATLAS_GLOSSARY}/category/${segment(guid)}`,
      signal,
    });
  }

  /** The categories of a glossary, in full. */
  listCategories(glossaryGuid: string, options: GlossaryPageOptions = {}): Promise<AtlasGlossaryCategory[]> {
    return this.getPage(`${ATLAS_GLOSSARY}/${segment(glossaryGuid)}/categories`, options);
  }

  /** The categories of a glossary as headers (guid, parent, name). */
  listCategoryHeaders(
    glossaryGuid: string,
    options: GlossaryPageOptions = {},
  ): Promise<AtlasRelatedCategoryHeader[]> {
    return this.getPage(`${ATLAS_GLOSSARY}/${segment(glossaryGuid)}/categories/headers`, options);
  }

  /** The category's parent and children: `{ parent: […], children: […] }`. */
  getCategoryRelated(guid: string, options: GlossaryPageOptions = {}): Promise<AtlasRelatedCategories> {
    return this.getPage(`${ATLAS_GLOSSARY}/category/${segment(guid)}/related`, options);
  }

  /** The terms of a category, as headers. */
  getCategoryTerms(
    categoryGuid: string,
    options: GlossaryPageOptions = {},
  ): Promise<AtlasRelatedTermHeader[]> {
    return this.getPage(`${ATLAS_GLOSSARY}/category/${segment(categoryGuid)}/terms`, options);
  }
}
