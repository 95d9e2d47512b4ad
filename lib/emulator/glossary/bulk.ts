/**
 * The catalog contract's (2023-02-01-preview) bulk term routes, beside the term import:
 *
 * - `GET /glossary/terms?guid=…` (Glossary_ListTermsByGuids): the terms with those guids, in the order
 *   asked; a guid that names no term is skipped (the contract answers "an array of glossary terms or an
 *   empty list"). `excludeRelationshipTypes=AtlasGlossarySemanticAssignment` leaves assignments out.
 * - `PUT /glossary/terms` (Glossary_BulkUpdateTerms): full updates of many terms, each naming its guid;
 *   every guid is checked (400 without one, 404 for an unknown one) before any term is written.
 * - `POST /glossary/terms:delete` (Glossary_BulkDeleteTermsByGuids): accepted with 202 and an
 *   `Operation-Location` naming `GET /glossary/terms/bulkDeletion/{operationGuid}`
 *   (Glossary_GetBulkDeleteOperationStatus, a BulkDeleteOperation). `forceDeleteChild=true` deletes the
 *   terms below each term too; `forceDeleteEntityAssignment=true` deletes terms still assigned to entities
 *   (their assignments go). The job runs at once: its status is Succeeded when every term went, else Failed
 *   with each refusal in its error; `deletedTerms` and `totalTermsDetected` count children deleted too.
 * - `POST /glossary/{glossaryGuid}/terms/export` (Glossary_ExportGlossaryTermsAsCsv): the terms whose
 *   guids the body lists, as CSV in the import template's columns (so the file imports back); with
 *   `includeTermHierarchy=true` a Parent Term Name column too. `includeMultiTemplates` and
 *   `includeRichTextFlag` are accepted and change nothing (the emulator keeps plain text, one template).
 *
 * Operations are kept in the shared database (table `glossary_bulk_deletions`).
 *
 * @example
 * ```ts
 * import { EXPORT_COLUMNS } from "./bulk.ts";
 * console.log(EXPORT_COLUMNS[0]); // "Name"
 * ```
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { stringifyCsv } from "../../deps/csv.ts";
import { readArrayBody } from "../entity/lookup.ts";
import { isObject, type JsonObject } from "../entity/model.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { StoredTerm } from "./model.ts";
import type { GlossaryViews } from "./views.ts";
import type { GlossaryWriter } from "./writes.ts";
import { queryFlag, queryValues, type RouteContext, type RouteDefinition } from "../router.ts";

const CATALOG_API_VERSION = "2023-02-01-preview";

/** The export's columns: the import template's, which the import reads back. */
export const EXPORT_COLUMNS = [
  "Name",
  "Nick Name",
  "Status",
  "Definition",
  "Acronym",
  "Resources",
  "Related Terms",
  "Synonyms",
  "Stewards",
  "Experts",
  "Term Template Names",
] as const;

/** The bulk term routes, relative to the API prefix. */
export function bulkTermRoutes(
  views: GlossaryViews,
  writer: GlossaryWriter,
  deps: { db: DatabaseSync; now(): number },
): RouteDefinition[] {
  const deletions = new BulkDeletions(deps.db, deps.now);
  const termView = (term: StoredTerm, ctx: RouteContext) =>
    views.termView(term, {
      hierarchy: true,
      withoutAssignments: queryValues(ctx.url, "excludeRelationshipTypes").includes(
        "AtlasGlossarySemanticAssignment",
      ),
    });
  return [
    {
      method: "GET",
      path: "/glossary/terms",
      handler: (ctx) => {
        const guids = queryValues(ctx.url, "guid");
        if (guids.length === 0) {
          throw EmulatorError.invalidParameters("at least one guid query parameter is required", "guid");
        }
        const terms = [...new Set(guids)].flatMap((guid) => views.glossaries.term(guid) ?? []);
        return jsonResponse(terms.map((term) => termView(term, ctx)));
      },
    },
    {
      method: "PUT",
      path: "/glossary/terms",
      handler: async (ctx) => {
        const updated = await updateTerms(ctx, views, writer);
        return jsonResponse(updated.map((term) => termView(term, ctx)));
      },
    },
    {
      method: "POST",
      path: "/glossary/terms:delete",
      handler: (ctx) => startDeletion(ctx, deletions, writer),
    },
    {
      method: "GET",
      path: "/glossary/terms/bulkDeletion/{operationGuid}",
      handler: (ctx) => {
        const operation = deletions.get(ctx.params.operationGuid);
        if (!operation) throw EmulatorError.guidNotFound(ctx.params.operationGuid);
        return jsonResponse(operation);
      },
    },
    {
      method: "POST",
      path: "/glossary/{glossaryGuid}/terms/export",
      handler: (ctx) => exportTerms(ctx, views),
    },
  ];
}

/** `PUT /glossary/terms`: each term of the body (with its guid) updated, after every guid was found. */
async function updateTerms(
  ctx: RouteContext,
  views: GlossaryViews,
  writer: GlossaryWriter,
): Promise<StoredTerm[]> {
  const bodies = await readArrayBody(ctx, "AtlasGlossaryTerm objects, each with its guid");
  const guids = bodies.map((body, i) => {
    const guid = isObject(body) ? body.guid : undefined;
    if (typeof guid !== "string" || guid === "") {
      throw EmulatorError.invalidParameters(`terms[${i}].guid is required to update a term`, "guid");
    }
    views.term(guid);
    return guid;
  });
  return guids.map((guid, i) => writer.updateTerm(guid, bodies[i]));
}

/** `POST /glossary/terms:delete`: a bulk deletion started, 202 with its `operation-location`. */
async function startDeletion(
  ctx: RouteContext,
  deletions: BulkDeletions,
  writer: GlossaryWriter,
): Promise<Response> {
  const guids = await termGuids(ctx);
  const operation = deletions.run(guids, writer, {
    children: queryFlag(ctx.url, "forceDeleteChild"),
    assignments: queryFlag(ctx.url, "forceDeleteEntityAssignment"),
  });
  const prefix = ctx.url.pathname.replace(/\/glossary\/terms:delete$/, "");
  const location = `${ctx.url.origin}${prefix}/glossary/terms/bulkDeletion/${operation.id}` +
    `?api-version=${ctx.url.searchParams.get("api-version") ?? CATALOG_API_VERSION}`;
  return new Response(null, { status: 202, headers: { "operation-location": location } });
}

/** `POST /glossary/{glossaryGuid}/terms/export`: the named terms of the glossary as the service's CSV. */
async function exportTerms(ctx: RouteContext, views: GlossaryViews): Promise<Response> {
  const glossary = views.glossaries.glossary(ctx.params.glossaryGuid);
  if (!glossary) {
    await ctx.request.body?.cancel();
    throw EmulatorError.guidNotFound(ctx.params.glossaryGuid);
  }
  const terms = (await termGuids(ctx)).map((guid) => {
    const term = views.term(guid);
    if (term.glossaryGuid !== glossary.guid) {
      throw EmulatorError.invalidParameters(
        `term ${guid} is not in glossary ${glossary.guid} (${glossary.name})`,
        "termGuids",
      );
    }
    return term;
  });
  const csv = exportCsv(views, terms, queryFlag(ctx.url, "includeTermHierarchy"));
  return new Response(csv, { status: 200, headers: { "content-type": "text/csv; charset=utf-8" } });
}

/** A body that is a non-empty array of term guids (strings), without repeats. */
async function termGuids(ctx: RouteContext): Promise<string[]> {
  const body = await readArrayBody(ctx, "term guids");
  if (body.length === 0 || !body.every((g) => typeof g === "string" && g !== "")) {
    throw EmulatorError.invalidParameters("the body must be a non-empty array of term guids", "termGuids");
  }
  return [...new Set(body as string[])];
}

/** The terms as CSV, one row each, in the import template's columns. */
export function exportCsv(views: GlossaryViews, terms: StoredTerm[], hierarchy: boolean): string {
  const columns: string[] = [...EXPORT_COLUMNS];
  if (hierarchy) columns.splice(columns.length - 1, 0, "Parent Term Name");
  const rows = terms.map((term) => {
    const related = views.relatedTerms(term);
    const names = (attribute: string) =>
      (related[attribute] ?? []).map((h) => String(h.displayText)).join(";");
    const contacts = isObject(term.contacts) ? term.contacts : {};
    const people = (role: string) =>
      (Array.isArray(contacts[role]) ? contacts[role] as JsonObject[] : [])
        .map((c) => (c.info ? `${c.id}:${c.info}` : String(c.id ?? ""))).join(";");
    const resources = (Array.isArray(term.resources) ? term.resources as JsonObject[] : [])
      .map((r) => `${r.displayName ?? r.url}:${r.url ?? ""}`).join(";");
    const parent = term.parentTermGuid ? views.glossaries.term(term.parentTermGuid)?.name ?? "" : "";
    const cells: Record<string, string> = {
      "Name": term.name,
      "Nick Name": String(term.nickName ?? ""),
      "Status": String(term.status ?? ""),
      "Definition": String(term.longDescription ?? ""),
      "Acronym": String(term.abbreviation ?? ""),
      "Resources": resources,
      "Related Terms": names("seeAlso"),
      "Synonyms": names("synonyms"),
      "Stewards": people("Steward"),
      "Experts": people("Expert"),
      "Parent Term Name": parent,
      "Term Template Names": Array.isArray(term.templateName) ? term.templateName.join(";") : "",
    };
    return columns.map((column) => cells[column]);
  });
  return stringifyCsv([columns, ...rows]);
}

/** A bulk delete job as the contract's BulkDeleteOperation. */
interface BulkDeleteOperation extends JsonObject {
  id: string;
  status: "NotStarted" | "Running" | "Succeeded" | "Failed";
}

/** The bulk delete jobs of one emulator. */
class BulkDeletions {
  readonly #get;
  readonly #put;
  readonly #now: () => number;

  constructor(db: DatabaseSync, now: () => number) {
    this.#now = now;
    db.exec("CREATE TABLE IF NOT EXISTS glossary_bulk_deletions (id TEXT PRIMARY KEY, json TEXT NOT NULL)");
    this.#get = db.prepare("SELECT json FROM glossary_bulk_deletions WHERE id = ?");
    this.#put = db.prepare("INSERT INTO glossary_bulk_deletions (id, json) VALUES (?, ?)");
  }

  get(id: string): BulkDeleteOperation | undefined {
    const row = this.#get.get(id) as { json: string } | undefined;
    return row ? JSON.parse(row.json) : undefined;
  }

  /** Deletes each term in turn (see the module) and records the job. */
  run(
    guids: string[],
    writer: GlossaryWriter,
    options: { children: boolean; assignments: boolean },
  ): BulkDeleteOperation {
    const created = timestamp(this.#now());
    let deleted = 0;
    const failures: string[] = [];
    for (const guid of guids) {
      try {
        deleted += writer.deleteTermWith(guid, options);
      } catch (error) {
        if (!(error instanceof EmulatorError)) throw error;
        failures.push(`${guid}: ${error.message}`);
      }
    }
    const operation: BulkDeleteOperation = {
      id: crypto.randomUUID(),
      status: failures.length === 0 ? "Succeeded" : "Failed",
      createTime: created,
      lastUpdateTime: timestamp(this.#now()),
      properties: { deletedTerms: String(deleted), totalTermsDetected: String(deleted + failures.length) },
      error: failures.length === 0 ? { code: "", message: "" } : {
        code: "ATLAS-400-00-001",
        message: `${failures.length} of ${guids.length} terms could not be deleted: ${failures.join("; ")}`,
      },
    };
    this.#put.run(operation.id, JSON.stringify(operation));
    return operation;
  }
}

function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+0000");
}
