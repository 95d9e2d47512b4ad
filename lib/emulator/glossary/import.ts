/**
 * Glossary term import from CSV: `POST /glossary/{glossaryGuid}/terms/import` (also by glossary name, and
 * under `/atlas/v2` as the product spec writes it) takes a multipart/form-data `file` part;
 * `GET /glossary/terms/import/{operationGuid}` answers the operation (ImportCSVOperation).
 *
 * The 202 is answered as the service answers it, not as the 2023-02-01-preview contract's example writes
 * it (headers only): a body with the operation, `status: "Running"`, and both `Location` and
 * `Operation-Location` naming the status URL (Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/browsers/purview_catalog_glossary_test/recording_should_work_with_lro_helper.json).
 * The import runs after the upload: Running, then Succeeded (every row imported) or Failed (nothing
 * imported, every row error listed by line in `error.errorMessage`), so callers must poll. The emulator
 * advances operations by elapsed time whenever the glossary area is used, instead of with timers that could
 * outlive it. A file without data rows succeeds with no term, as the service's did; other problems with the
 * file itself (not multipart, not CSV, unreadable, rows without a Name column) are refused at once with 400.
 *
 * @example
 * ```ts
 * import { IMPORT_RUN_MS } from "./import.ts";
 * console.log(IMPORT_RUN_MS); // 400
 * ```
 *
 * @module
 */
import { parseCsv } from "../../deps/csv.ts";
import { isCsvUpload, uploadedForm } from "../csv_upload.ts";
import type { AreaDependencies } from "../area.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import { applyRows, checkRows, columnKey } from "./import_rows.ts";
import type { ImportOperation, ImportRecord, ImportRow } from "./model.ts";
import type { GlossaryViews } from "./views.ts";
import { queryFlag, type RouteContext, type RouteDefinition } from "../router.ts";

/** Milliseconds after the upload at which an import has finished. */
export const IMPORT_RUN_MS = 400;

const CATALOG_API_VERSION = "2023-02-01-preview";

/** The error of an import that has not failed, as the service writes it. */
const NO_ERROR = { errorCode: 0, errorMessage: "" };
/** The `errorCode` of a failed import: the rows were bad input (no recorded failure shows the service's). */
const IMPORT_FAILED_CODE = 400;

/** The import operations of one emulator. */
export class GlossaryImports {
  readonly #deps: AreaDependencies;
  readonly #views: GlossaryViews;

  constructor(deps: AreaDependencies, views: GlossaryViews) {
    this.#deps = deps;
    this.#views = views;
  }

  /** Accepts an upload for a glossary; the file is read now, its rows are imported later. */
  async start(ctx: RouteContext, glossaryGuid: string): Promise<ImportRecord> {
    const rows = await readImportFile(ctx.request);
    const now = this.#deps.now();
    const record: ImportRecord = {
      // The service's 202 body: Running at once, terms not yet counted ("-1"), counts as decimal
      // strings, `errorCode` a number (recording_should_work_with_lro_helper.json, cited above).
      operation: {
        id: crypto.randomUUID(),
        status: "Running",
        createTime: timestamp(now),
        taskPickUpTime: null,
        lastUpdateTime: timestamp(now),
        properties: { importedTerms: "0", totalTermsDetected: "-1" },
        error: NO_ERROR,
        progress: { status: null, statistics: null },
      },
      glossaryGuid,
      includeTermHierarchy: queryFlag(ctx.url, "includeTermHierarchy"),
      startedAt: now,
      rows,
    };
    this.#views.glossaries.putImport(record);
    return record;
  }

  /** The operation with this id, advanced to now; 404 when there is none. */
  operation(id: string): ImportOperation {
    this.advance();
    const record = this.#views.glossaries.importRecord(id);
    if (!record) throw EmulatorError.guidNotFound(id);
    return record.operation;
  }

  /** Moves every unfinished import on as far as the time since its upload says. */
  advance(): void {
    const now = this.#deps.now();
    for (const record of this.#views.glossaries.unfinishedImports()) {
      const elapsed = now - record.startedAt;
      if (elapsed >= IMPORT_RUN_MS) this.#finish(record, now);
    }
  }

  #finish(record: ImportRecord, now: number): void {
    const store = this.#views.glossaries;
    const glossary = store.glossary(record.glossaryGuid);
    const errors = glossary
      ? checkRows(
        record.rows,
        new Set(store.terms(glossary.guid).map((t) => t.name)),
        record.includeTermHierarchy,
      )
      : [{ line: 1, message: `glossary ${record.glossaryGuid} was deleted before the import ran` }];
    let imported = 0;
    let failure = errors.length > 0 ? `${errors.length} row error(s)` : "";
    if (errors.length === 0) {
      try {
        imported = this.#deps.store.transaction(() => applyRows(this.#views, record, now));
      } catch (error) {
        if (!(error instanceof EmulatorError)) throw error;
        failure = error.message;
      }
    }
    const details = errors.map((e) => ({ line: e.line, message: e.message }));
    record.operation = {
      ...record.operation,
      status: failure ? "Failed" : "Succeeded",
      lastUpdateTime: timestamp(now),
      properties: { importedTerms: String(imported), totalTermsDetected: String(record.rows.length) },
      error: failure
        ? {
          errorCode: IMPORT_FAILED_CODE,
          errorMessage: `Glossary import failed: ${failure}${
            details.map((d) => `; line ${d.line}: ${d.message}`).join("")
          }`,
        }
        : NO_ERROR,
    };
    // The rows are not needed once the import is done.
    store.putImport({ ...record, rows: [] });
  }
}

/** The import routes, relative to the API prefix. */
export function importRoutes(imports: GlossaryImports, views: GlossaryViews): RouteDefinition[] {
  const accepted = async (ctx: RouteContext, glossaryGuid: string) => {
    const record = await imports.start(ctx, glossaryGuid);
    const prefix = ctx.url.pathname.replace(/\/(atlas\/v2\/)?glossary\/.*$/, "");
    const location = `${ctx.url.origin}${prefix}/glossary/terms/import/${record.operation.id}` +
      `?api-version=${ctx.url.searchParams.get("api-version") ?? CATALOG_API_VERSION}`;
    // As the service answers (recording cited in the module doc): the operation in the body, its status
    // URL in both Location and Operation-Location. Retry-After is 1 s here (the service said 5) since the
    // emulator's imports finish within IMPORT_RUN_MS.
    return jsonResponse(record.operation, 202, {
      location,
      "operation-location": location,
      "retry-after": "1",
    });
  };
  const byGuid = async (ctx: RouteContext) => {
    const glossary = views.glossaries.glossary(ctx.params.glossaryGuid);
    if (!glossary) {
      await ctx.request.body?.cancel();
      throw EmulatorError.guidNotFound(ctx.params.glossaryGuid);
    }
    return accepted(ctx, glossary.guid);
  };
  return [
    { method: "POST", path: "/glossary/{glossaryGuid}/terms/import", handler: byGuid },
    { method: "POST", path: "/atlas/v2/glossary/{glossaryGuid}/terms/import", handler: byGuid },
    {
      method: "POST",
      path: "/glossary/name/{glossaryName}/terms/import",
      handler: async (ctx) => {
        const name = ctx.params.glossaryName;
        const glossary = views.glossaries.glossaries().find((g) => g.name === name);
        if (!glossary) {
          await ctx.request.body?.cancel();
          throw EmulatorError.uniqueAttributeNotFound("AtlasGlossary", { qualifiedName: name });
        }
        return accepted(ctx, glossary.guid);
      },
    },
    {
      method: "GET",
      path: "/glossary/terms/import/{operationGuid}",
      handler: (ctx) => jsonResponse(imports.operation(ctx.params.operationGuid)),
    },
  ];
}

/** The data rows of the uploaded `file` part, with their line numbers; file-level problems are 400s. */
async function readImportFile(request: Request): Promise<ImportRow[]> {
  const form = await uploadedForm(request);
  const part = form.get("file");
  if (part === null) throw EmulatorError.invalidParameters("the file part is required", "file");
  // A part without a filename arrives as text: the service read it as the file (202; the JS SDK test's
  // `Content-Disposition: form-data; name="file"` in recording_should_work_with_lro_helper.json).
  const file = typeof part === "string" ? new File([part], "file") : part;
  // A part named without `.csv` (`file`, as several clients send it) is read when its content is CSV text.
  if (!(await isCsvUpload(file))) {
    throw new EmulatorError(
      400,
      "ATLAS-400-00-098",
      `The provided file type: ${file.name} is not supported. Expected file format is .csv.`,
    );
  }
  const records = await csvRecords(await file.text());
  const [header, ...data] = records;
  // A file of one line (the JS SDK test's "random content") was imported by the service with no term:
  // Running, then Succeeded with totalTermsDetected "0" (the recording cited in the module doc).
  if (data.length === 0) return [];
  const keys = (header?.cells ?? []).map(columnKey);
  if (!keys.includes("name")) {
    throw EmulatorError.invalidParameters(
      "the CSV file has no Name column (the template's columns: Name, Nick Name, Status, Definition, …)",
      "file",
    );
  }
  return data.map(({ line, cells }) => {
    const byColumn: Record<string, string> = {};
    keys.forEach((key, i) => {
      if (key !== "" && byColumn[key] === undefined) byColumn[key] = cells[i] ?? "";
    });
    return { line, cells: byColumn };
  });
}

/** Records of CSV text, each with the line it starts on (quoted fields may span lines). */
function csvRecords(text: string): Promise<Array<{ line: number; cells: string[] }>> {
  return new Promise((resolve, reject) => {
    parseCsv(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      record_delimiter: ["\r\n", "\n", "\r"],
    }, (error: Error | undefined, records: unknown) => {
      if (error) {
        reject(new EmulatorError(400, "ATLAS-400-00-09C", `Invalid CSV file: ${error.message}`));
        return;
      }
      // With `info: true` every record comes with its position.
      const located = records as Array<{ record: string[]; info: { lines: number } }>;
      resolve(located.map(({ record, info }) => ({
        // info.lines is where the record ends; line breaks inside its fields move the start up.
        line: info.lines - record.join("").split("\n").length + 1,
        cells: record,
      })));
    });
  });
}

/** How the catalog API writes times: `2020-07-22T13:48:21.688+0000`. */
function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+0000");
}
