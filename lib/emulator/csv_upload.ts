/**
 * Reading the file part of a multipart upload (glossary term import, business metadata import): the form
 * itself ({@link uploadedForm}) and whether the part is CSV ({@link isCsvUpload}).
 *
 * A part named `*.csv` is CSV; so is a part named without any extension (`file`, `upload`, as several clients
 * name it) whose content is CSV text, since the service accepts those uploads. A name with another
 * extension (`terms.xlsx`, `values.txt`) is still refused, as Atlas picks the reader by the extension, and
 * so is binary content (anything with NUL bytes or invalid UTF-8).
 *
 * @example
 * ```ts
 * import { isCsvUpload } from "./csv_upload.ts";
 * const file = new File(["Name,Status\nRevenue,Approved\n"], "file", { type: "application/octet-stream" });
 * console.log(await isCsvUpload(file)); // true
 * ```
 *
 * @module
 */
import { EmulatorError } from "./errors.ts";

/**
 * True when the part is CSV: named `*.csv`, or named without an extension and holding UTF-8 text without
 * control characters other than tab and line breaks.
 */
export async function isCsvUpload(file: File): Promise<boolean> {
  if (file.name.toLowerCase().endsWith(".csv")) return true;
  if (file.name.slice(file.name.lastIndexOf("/") + 1).includes(".")) return false;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    return false;
  }
  // deno-lint-ignore no-control-regex
  return text.trim() !== "" && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(text);
}

/**
 * The multipart form of an upload. A request without a Content-Type whose body starts with a multipart
 * boundary line is read as multipart with that boundary: Microsoft's JS SDK test sent the term import that
 * way and the service accepted it (202; Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/node/purview_catalog_glossary_test/recording_should_work_with_lro_helper.json,
 * whose request carries only a stray `contentType` header). Any other body is refused with 400.
 */
export async function uploadedForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  let source = request;
  if (type === "") {
    const body = new Uint8Array(await request.arrayBuffer());
    const firstLine = new TextDecoder().decode(body.subarray(0, 200)).split(/\r?\n/, 1)[0];
    const boundary = /^--([!-~]{1,70})$/.exec(firstLine)?.[1];
    if (!boundary) throw notMultipart();
    source = new Request(request.url, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
  } else if (!type.toLowerCase().startsWith("multipart/form-data")) {
    await request.body?.cancel();
    throw notMultipart();
  }
  try {
    return await source.formData();
  } catch (error) {
    throw EmulatorError.badRequest(
      `Request body is not valid multipart/form-data: ${(error as Error).message}`,
    );
  }
}

function notMultipart(): EmulatorError {
  return EmulatorError.badRequest("Request body must be multipart/form-data with a file part");
}
