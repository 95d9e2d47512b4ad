/**
 * `entity import-business-metadata --bm-file`: the service's bulk business metadata import, with the file
 * checked first against the business-metadata template (streamed, every problem as file:line:column,
 * columns in the order the service reads them) so nothing is uploaded while a row is wrong; `--dry-run`
 * stops after the check.
 *
 * The service's own template ends with the optional EntityUniqueAttributeName column, and rows often leave
 * that last field out altogether (four fields under a five-column header), which the service reads as
 * empty. Such a file is checked as if each short row had the empty field: a padded copy is checked (line
 * numbers kept, written with the file's own field separator, so a file the service would misread is refused
 * as the file itself would be), and the file itself is uploaded.
 *
 * `--delimiter` says how the file is read, else its separator is detected from the header; either way a file
 * not separated by commas is refused, as the service would misread it.
 *
 * @module
 */
import { type CsvDelimiter } from "../csv/delimiter.ts";
import { columnKey } from "../csv/problems.ts";
import { csvLine, readCsvFile } from "../csv/reader.ts";
import { businessMetadata } from "../templates/csv/business_metadata_templates.ts";
import type { CsvProblem } from "../csv/types.ts";

/** The columns of the service's import file, in the order the service reads them (by position). */
export const BUSINESS_METADATA_IMPORT_COLUMNS: readonly string[] = businessMetadata.columns.map((c) =>
  c.name
);

const keysOf = (index: number) => {
  const column = businessMetadata.columns[index];
  return [column.name, ...column.aliases ?? []].map(columnKey);
};

/**
 * The header forms the service's import is known to take. It reads the columns by position and skips the
 * header line unread (apache/atlas repository/src/main/java/org/apache/atlas/util/FileUtils.java, readCSV):
 * its template's names (`GET …/businessmetadata/import/template`), and Apache Atlas's, which Microsoft's SDK
 * test uploads and the service parsed (Azure/azure-sdk-for-js
 * sdk/purview/purview-datamap-rest/recordings/node/purview_datamap_entity_test/recording_import_entity_business_metadata_.json).
 */
const HEADER_FORMS: ReadonlyArray<{ name: string; columns: readonly string[] }> = [
  { name: "the service's template header", columns: BUSINESS_METADATA_IMPORT_COLUMNS },
  {
    name: "Apache Atlas's header (as Microsoft's SDK tests write it)",
    columns: [
      "TypeName",
      "UniqueAttributeValue",
      "BusinessAttributeName",
      "BusinessAttributeValue",
      "UniqueAttributeName[optional]",
    ],
  },
];

/**
 * Which header form the file uses, said for a log line or a report: one of {@link HEADER_FORMS} by name
 * with its columns, or "a mix of …" when the cells come from both.
 */
export function headerForm(header: readonly string[]): string {
  const cells = header.slice(0, BUSINESS_METADATA_IMPORT_COLUMNS.length).map((cell) => cell.trim());
  const keys = cells.map(columnKey);
  const optionalKey = (name: string) => columnKey(name.replace("[optional]", ""));
  for (const form of HEADER_FORMS) {
    const matches = keys.every((key, i) =>
      form.columns[i] !== undefined &&
      (key === columnKey(form.columns[i]) || key === optionalKey(form.columns[i]))
    );
    if (matches) return `${form.name}: ${cells.join(",")}`;
  }
  return `a mix of the template's and Apache Atlas's column names: ${cells.join(",")}`;
}

/** The service reads the columns by position: each template column the header has must be in its place. */
export function columnOrderProblems(file: string, header: readonly string[]): CsvProblem[] {
  const problems: CsvProblem[] = [];
  businessMetadata.columns.forEach((column, i) => {
    const keys = keysOf(i);
    const at = header.findIndex((cell) => keys.includes(columnKey(cell)));
    if (at >= 0 && at !== i) {
      problems.push({
        file,
        line: 1,
        column: at + 1,
        columnName: header[at].trim(),
        message: `${column.name} must be field ${i + 1}: the service reads the columns by position, in ` +
          `the order ${BUSINESS_METADATA_IMPORT_COLUMNS.join(", ")}`,
      });
    }
  });
  return problems;
}

/**
 * A copy of the file in which rows that leave out the optional last field have it (empty), each row on
 * the line it has in the file; undefined when no row needs it. The caller removes the copy. The file is
 * read with `delimiter`, else with the separator detected; the copy is written with that separator, its
 * header cells quoted so that detection in the copy finds the same one.
 */
export async function paddedCopy(
  path: string,
  display: string,
  signal?: AbortSignal,
  delimiter?: CsvDelimiter,
): Promise<string | undefined> {
  const last = businessMetadata.columns.length - 1;
  let width = 0;
  let line = 1;
  let padded = false;
  let copy: { path: string; file: Deno.FsFile } | undefined;
  let separator: CsvDelimiter = delimiter ?? ",";
  const encoder = new TextEncoder();
  const read = {
    displayName: display,
    signal,
    delimiter,
    onDelimiter: (found: CsvDelimiter) => separator = found,
  };
  try {
    for await (const row of readCsvFile(path, read)) {
      const header = width === 0;
      if (header) {
        width = row.cells.length;
        // Only a header ending with the optional column makes short rows readable by the service.
        if (width !== last + 1 || !keysOf(last).includes(columnKey(row.cells[last] ?? ""))) return undefined;
        const target = await Deno.makeTempFile({ prefix: "govcat-bm-", suffix: ".csv" });
        copy = { path: target, file: await Deno.open(target, { write: true, truncate: true }) };
      }
      const cells = row.cells.length === width - 1 && width > 1 ? [...row.cells, ""] : row.cells;
      padded ||= cells !== row.cells;
      const text = header
        ? cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(separator)
        : csvLine(cells, separator);
      await copy!.file.write(encoder.encode("\n".repeat(Math.max(0, row.line - line)) + text + "\n"));
      line = row.line + (text.match(/\n/g)?.length ?? 0) + 1;
    }
  } catch (error) {
    // An unreadable file: the check of the file itself says why.
    if (copy) await Deno.remove(copy.path).catch(() => {});
    if (error instanceof Error && error.name === "AbortError") throw error;
    return undefined;
  } finally {
    copy?.file.close();
  }
  if (copy && !padded) {
    await Deno.remove(copy.path);
    return undefined;
  }
  return copy?.path;
}
