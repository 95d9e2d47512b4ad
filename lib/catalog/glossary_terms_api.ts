/**
 * Term calls of the classic glossary (`/atlas/v2/glossary/term…`), part of `client.glossary`: terms one or
 * many at a time, their lists and related terms, and their assignments to entities. {@link GlossaryApi}
 * extends this class, so each is called as `client.glossary.createTerm(…)` and so on.
 *
 * Creates are not retried after the request was sent (names are unique, so a repeat would fail with 409);
 * full updates and assignments are safe to repeat and are retried.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { HttpClient } from "../http/client.ts";
 * const client = new CatalogClient(new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" } }));
 * // const term = await client.glossary.createTerm({ name: "Revenue", anchor: { glossaryGuid } });
 * // await client.glossary.assignTermToEntities(term.guid!, [{ guid: tableGuid }]);
 * ```
 *
 * @module
 */
import type { QueryValue } from "../http/request_url.ts";
import type {
  AtlasGlossaryTerm,
  AtlasRelatedObjectId,
  AtlasRelatedTermHeader,
  AtlasRelatedTerms,
  GlossaryPageOptions,
  ListTermsOptions,
  TermOptions,
  TermRemoval,
} from "./glossary_types.ts";
import { termHierarchyQuery } from "./glossary_types.ts";
import { ATLAS_GLOSSARY, segment } from "./paths.ts";
import { GlossaryImportApi } from "./glossary_import_api.ts";

/** The term calls; see the module. */
export class GlossaryTermsApi extends GlossaryImportApi {
  /** Creates a term in the glossary of `term.anchor.glossaryGuid`; its name must be new there. */
  createTerm(term: AtlasGlossaryTerm, options: TermOptions = {}): Promise<AtlasGlossaryTerm> {
    return this.http.request({
      method: "POST",
      path: `${ATLAS_GLOSSARY}/term`,
      query: termHierarchyQuery(options),
      body: term,
      signal: options.signal,
    });
  }

  /** Creates many terms in one call (all or none). */
  createTerms(terms: AtlasGlossaryTerm[], options: TermOptions = {}): Promise<AtlasGlossaryTerm[]> {
    return this.http.request({
      method: "POST",
      path: `${ATLAS_GLOSSARY}/terms`,
      query: termHierarchyQuery(options),
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
      path: `${ATLAS_GLOSSARY}/term/${segment(guid)}`,
      query: {
        ...termHierarchyQuery(opts),
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
      path: `${ATLAS_GLOSSARY}/term/${segment(guid)}`,
      query: termHierarchyQuery(options),
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
      path: `${ATLAS_GLOSSARY}/term/${segment(guid)}/partial`,
      query: termHierarchyQuery(options),
      body: updates,
      signal: options.signal,
    });
  }

  /**
   * Deletes a term; refused (400, ATLAS-400-00-086) while it is assigned to entities: remove those first
   * with {@link removeTermFromEntities}.
   */
  async deleteTerm(guid: string, signal?: AbortSignal): Promise<void> {
    await this.http.request({ method: "DELETE", path: `${ATLAS_GLOSSARY}/term/${segment(guid)}`, signal });
  }

  /** The terms of a glossary, in full. */
  listTerms(glossaryGuid: string, options: ListTermsOptions = {}): Promise<AtlasGlossaryTerm[]> {
    return this.getPage(`${ATLAS_GLOSSARY}/${segment(glossaryGuid)}/terms`, options, {
      ...termHierarchyQuery(options),
      extInfo: options.extInfo || undefined,
    });
  }

  /** The terms of a glossary as headers (guid and name): much smaller than {@link listTerms}. */
  listTermHeaders(
    glossaryGuid: string,
    options: GlossaryPageOptions = {},
  ): Promise<AtlasRelatedTermHeader[]> {
    return this.getPage(`${ATLAS_GLOSSARY}/${segment(glossaryGuid)}/terms/headers`, options);
  }

  /** The entities a term is assigned to, with each assignment's relationship GUID. */
  getTermAssignedEntities(
    termGuid: string,
    options: GlossaryPageOptions = {},
  ): Promise<AtlasRelatedObjectId[]> {
    return this.getPage(`${ATLAS_GLOSSARY}/terms/${segment(termGuid)}/assignedEntities`, options);
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
      path: `${ATLAS_GLOSSARY}/terms/${segment(termGuid)}/assignedEntities`,
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
        path: `${ATLAS_GLOSSARY}/terms/${segment(termGuid)}/assignedEntities`,
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
    return this.getPage(`${ATLAS_GLOSSARY}/terms/${segment(termGuid)}/related`, options);
  }

  /** A GET with paging parameters and any others; the glossary and category lists use it too. */
  protected getPage<T>(
    path: string,
    options: GlossaryPageOptions,
    query: Record<string, QueryValue> = {},
  ): Promise<T> {
    return this.http.request({
      method: "GET",
      path,
      query: { limit: options.limit, offset: options.offset, sort: options.sort, ...query },
      signal: options.signal,
    });
  }
}
