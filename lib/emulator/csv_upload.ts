/**
 * Whether the file part of a multipart upload (glossary term import, business metadata import) is CSV.
 * A part named `*.csv` is; so is a part named without any extension (`file`, `upload`, as several clients
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
