/**
 * Bulk business metadata: `GET /atlas/v2/entity/businessmetadata/import/template` answers the CSV header
 * line the import reads, and `POST /atlas/v2/entity/businessmetadata/import` takes a multipart/form-data
 * `file` part in that format and answers a `BulkImportResult`.
 *
 * The header line is skipped unread and the columns are read by position, as Atlas reads them (apache/atlas
 * repository/src/main/java/org/apache/atlas/util/FileUtils.java): the template's names and Apache Atlas's
 * (`TypeName,UniqueAttributeValue,…`, as Microsoft's SDK test uploads it) alike.
 *
 * Each CSV row (after the header) names an entity by type and unique attribute value (the qualifiedName,
 * or the guid when the optional last column says `guid`), a business metadata attribute as
 * `<group>.<attribute>` and its value. As in Apache Atlas's `bulkCreateOrUpdateBusinessAttributes`, rows
 * that cannot be read fail one by one (`Line #N: ...`), the rows of one entity are applied together on top
 * of the metadata it has, and an entity whose values the type system refuses fails alone; the rest is
 * applied. A value is a string in the file: it is written as the first of number, boolean, date (epoch
 * milliseconds), string or `|`-separated list that the type system accepts, as the service converts it to
 * the attribute's type.
 *
 * @example
 * ```ts
 * import { parseCsv } from "./business_metadata_import.ts";
 * console.log(parseCsv('a,"b,c"\n1,2')); // [["a", "b,c"], ["1", "2"]]
 * ```
 *
 * @module
 */
import { isCsvUpload } from "../csv_upload.ts";
import type { AreaDependencies } from "../area.ts";
import { applyBusinessMetadata } from "./business_metadata.ts";
import { unknownTypeError } from "./lookup.ts";
import type { AtlasEntity, BusinessAttributes } from "./model.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";

/** The template the service hands out: the header line of the import file. */
export const BUSINESS_METADATA_TEMPLATE =
  "EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue,EntityUniqueAttributeName[optional]";

/** One line of a `BulkImportResult`. */
export interface ImportInfo {
  parentObjectName?: string;
  childObjectName?: string;
  importStatus: "SUCCESS" | "FAILED";
  remarks: string;
}

/** The import routes, relative to the API prefix. */
export function businessMetadataImportRoutes(deps: AreaDependencies): RouteDefinition[] {
  return [
    { method: "GET", path: "/atlas/v2/entity/businessmetadata/import/template", handler: template },
    {
      method: "POST",
      path: "/atlas/v2/entity/businessmetadata/import",
      handler: (ctx) => importFile(deps, ctx),
    },
  ];
}

// Atlas's EntityREST.produceTemplate: an octet stream offered as an attachment.
function template(): Response {
  return new Response(BUSINESS_METADATA_TEMPLATE, {
    status: 200,
    headers: {
      "content-type": "application/octet-stream",
      "content-disposition": 'attachment; filename="template_business_metadata"',
    },
  });
}

async function importFile(deps: AreaDependencies, ctx: RouteContext): Promise<Response> {
  const text = await readFilePart(ctx.request);
  const records = parseCsv(text).slice(1).filter((record) => record.some((cell) => cell.trim() !== ""));
  if (records.length === 0) {
    throw new EmulatorError(400, "ATLAS-400-00-09B", "No data found in the uploaded file");
  }
  return jsonResponse(importRecords(deps, records));
}

/** The text of the `file` part; its name must say CSV, as Atlas picks the reader by extension. */
async function readFilePart(request: Request): Promise<string> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    await request.body?.cancel();
    throw EmulatorError.badRequest("Request body must be multipart/form-data with a file part");
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch (error) {
    throw EmulatorError.badRequest(
      `Request body is not valid multipart/form-data: ${(error as Error).message}`,
    );
  }
  const file = form.get("file");
  if (file === null) throw EmulatorError.invalidParameters("the file part is required", "file");
  // Atlas needs the file name to know the format (FILE_NAME_NOT_FOUND, INVALID_FILE_TYPE).
  const name = typeof file === "string" ? "" : file.name;
  if (name.trim() === "") throw new EmulatorError(404, "ATLAS-404-00-014", "File name should not be blank");
  const extension = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  // A part named without `.csv` (`file`, as several clients send it) is read when its content is CSV text.
  if (extension !== "csv" && !(await isCsvUpload(file as File))) {
    const note = extension === "xls" || extension === "xlsx" ? " (the emulator reads .csv only)" : "";
    throw new EmulatorError(
      400,
      "ATLAS-400-00-098",
      `The provided file type: ${name} is not supported. Expected file formats are .csv and .xls.${note}`,
    );
  }
  return await (file as File).text();
}

const UNIQUE_ATTRIBUTES = new Set(["qualifiedName", "guid"]);

/** One row of an import file read: the entity it names and the business metadata value it sets. */
interface ImportRecord {
  entity: AtlasEntity;
  group: string;
  attribute: string;
  value: unknown;
}

/**
 * Applies the data rows of an import file; returns the service's BulkImportResult, in the shape the
 * service answered Microsoft's SDK test file (Azure/azure-sdk-for-js
 * sdk/purview/purview-datamap-rest/recordings/node/purview_datamap_entity_test/recording_import_entity_business_metadata_.json):
 * only the lists that have entries.
 */
export function importRecords(
  deps: AreaDependencies,
  records: string[][],
): { failedImportInfoList?: ImportInfo[]; successImportInfoList?: ImportInfo[] } {
  const failed: ImportInfo[] = [];
  const succeeded: ImportInfo[] = [];
  const pending = new Map<string, { entity: AtlasEntity; bm: BusinessAttributes }>();
  records.forEach((raw, index) => {
    // The header is line 1.
    const read = readRecord(deps, raw, index + 2);
    if (typeof read === "string") {
      // A row that names no entity: both names empty, as the service answers it (recording cited at
      // importRecords).
      failed.push({ parentObjectName: "", childObjectName: "", importStatus: "FAILED", remarks: read });
      return;
    }
    let target = pending.get(read.entity.guid);
    if (!target) {
      const stored = structuredClone(read.entity.businessAttributes ?? {}) as BusinessAttributes;
      target = { entity: read.entity, bm: stored };
      pending.set(read.entity.guid, target);
    }
    target.bm[read.group] = { ...target.bm[read.group], [read.attribute]: read.value };
  });

  for (const { entity, bm } of pending.values()) {
    const childObjectName = javaString(bm);
    try {
      // Like Atlas: the entity's metadata plus the file's, written with isOverwrite=true.
      applyBusinessMetadata(deps, entity, bm, true);
      succeeded.push({
        parentObjectName: entity.guid,
        childObjectName,
        importStatus: "SUCCESS",
        remarks: "",
      });
    } catch (error) {
      if (!(error instanceof EmulatorError)) throw error;
      failed.push({
        parentObjectName: entity.guid,
        childObjectName,
        importStatus: "FAILED",
        remarks: error.message,
      });
    }
  }
  // An empty list is left out, as the service left out successImportInfoList (recording cited above).
  const result: { failedImportInfoList?: ImportInfo[]; successImportInfoList?: ImportInfo[] } = {};
  if (failed.length > 0) result.failedImportInfoList = failed;
  if (succeeded.length > 0) result.successImportInfoList = succeeded;
  return result;
}

/** One data row at `line` of the file, read and checked; a string is the service's remark on a bad row. */
function readRecord(deps: AreaDependencies, raw: string[], line: number): ImportRecord | string {
  const record = raw.map((cell) => cell.trim());
  const [typeName, uniqueValue, bmAttribute, value, uniqueName = ""] = record;
  if (record.length < 4 || !typeName || !uniqueValue || !bmAttribute || !value) {
    return `Line #${line}: missing fields. [${raw.join(", ")}]`;
  }
  if (unknownTypeError(deps.types, typeName)) return `Line #${line}: invalid entity-type '${typeName}'`;
  const attributeName = uniqueName || "qualifiedName";
  if (!UNIQUE_ATTRIBUTES.has(attributeName)) {
    return `Line #${line}: attribute '${attributeName}' is not an unique attribute in entity-type '${typeName}'`;
  }
  const byGuid = attributeName === "guid" ? deps.store.get(uniqueValue) : undefined;
  const entity = attributeName === "guid"
    ? (byGuid?.typeName === typeName && byGuid.status === "ACTIVE" ? byGuid : undefined)
    : deps.store.findByQualifiedName(typeName, uniqueValue);
  if (!entity) return `Line #${line}: no ${typeName} entity found with ${attributeName}=${uniqueValue}`;
  const dot = bmAttribute.indexOf(".");
  if (dot <= 0 || dot === bmAttribute.length - 1) {
    return `Line #${line}: invalid business-metadata '${bmAttribute}' for entity type '${typeName}'`;
  }
  const group = bmAttribute.slice(0, dot);
  const attribute = bmAttribute.slice(dot + 1);
  const converted = convertValue(deps, group, attribute, value);
  if (converted instanceof EmulatorError) {
    return `Line #${line}: invalid business-metadata '${bmAttribute}' for entity type '${typeName}': ${converted.message}`;
  }
  return { entity, group, attribute, value: converted };
}

/** The first reading of a CSV value that the type system accepts, or the error for the plain string. */
function convertValue(deps: AreaDependencies, group: string, attribute: string, text: string): unknown {
  const readers: Array<(part: string) => unknown> = [
    (part) => /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(part) ? Number(part) : undefined,
    (part) => /^(true|false)$/i.test(part) ? part.toLowerCase() === "true" : undefined,
    (part) =>
      /^\d{4}-\d{2}-\d{2}/.test(part) && Number.isFinite(Date.parse(part)) ? Date.parse(part) : undefined,
  ];
  const parts = text.split("|").map((part) => part.trim());
  // Typed readings first: the type system also accepts numeric or boolean text, and the service stores
  // the converted value, not the text.
  const candidates: unknown[] = [...readers.map((read) => read(text)), text, parts];
  for (const read of readers) candidates.push(parts.map(read));
  let first: EmulatorError | undefined;
  for (
    const candidate of candidates.filter((c) =>
      c !== undefined && !(Array.isArray(c) && c.includes(undefined))
    )
  ) {
    const error = deps.types.validateBusinessMetadata({ [group]: { [attribute]: candidate } });
    if (!error) return candidate;
    first ??= error;
  }
  return first;
}

/** How Java prints a map or list (`{group={attribute=value}}`), as the service names imported values. */
function javaString(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(javaString).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${k}=${javaString(v)}`).join(", ")}}`;
  }
  return String(value);
}

/** Parses CSV text (RFC 4180: quoted fields, doubled quotes, CRLF or LF line ends) into records. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"' && field === "") {
      quoted = true;
    } else if (char === ",") {
      record.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && source[i + 1] === "\n") i++;
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else {
      field += char;
    }
  }
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
