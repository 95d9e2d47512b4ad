/**
 * Large entity CSV files for bulk import tests and benchmarks, in the `entity-bulk-import` template:
 * `typeName,qualifiedName,displayName,description,attr.owner,attr.colour`. Rows are written in chunks, so a
 * million-row file never sits in memory. Chosen rows fill `attr.colour`, an attribute `DataSet` does not
 * define, so the service refuses exactly those rows.
 *
 * @example
 * ```ts
 * import { writeEntityCsv } from "./entity_csv.ts";
 * const file = await writeEntityCsv("/tmp/e.csv", 1000, { refused: (i) => i % 400 === 7 });
 * console.log(file.refusedLines); // [9, 409, 809]
 * ```
 *
 * @module
 */

/** What {@link writeEntityCsv} wrote. */
export interface EntityCsvFile {
  path: string;
  rows: number;
  /** Physical lines (1-based; the header is line 1) of the rows the service refuses. */
  refusedLines: number[];
}

export interface EntityCsvOptions {
  /** Rows that carry `attr.colour` (refused by the service). */
  refused?: (index: number) => boolean;
  /** Start of every qualified name (default `ds://bulk/`). */
  prefix?: string;
}

export const ENTITY_CSV_HEADER = "typeName,qualifiedName,displayName,description,attr.owner,attr.colour";

/** The qualified name of row `index` (0-based). */
export function entityQualifiedName(index: number, prefix = "ds://bulk/"): string {
  return `${prefix}${index}`;
}

/** The physical line of row `index` (0-based): the header is line 1. */
export const lineOfRow = (index: number): number => index + 2;

const ROWS_PER_WRITE = 5_000;

/** Writes `rows` DataSet rows to `path` (CRLF line ends, a quoted cell with a comma in every row). */
export async function writeEntityCsv(
  path: string,
  rows: number,
  options: EntityCsvOptions = {},
): Promise<EntityCsvFile> {
  const prefix = options.prefix ?? "ds://bulk/";
  const refusedLines: number[] = [];
  const encoder = new TextEncoder();
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  let chunk = ENTITY_CSV_HEADER + "\r\n";
  for (let i = 0; i < rows; i++) {
    const refused = options.refused?.(i) ?? false;
    if (refused) refusedLines.push(lineOfRow(i));
    chunk += `DataSet,${entityQualifiedName(i, prefix)},Set ${i},"Row ${i}, described",team-${i % 7},` +
      `${refused ? "red" : ""}\r\n`;
    if ((i + 1) % ROWS_PER_WRITE === 0) {
      await writeAll(file, encoder.encode(chunk));
      chunk = "";
    }
  }
  if (chunk !== "") await writeAll(file, encoder.encode(chunk));
  return { path, rows, refusedLines };
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
}
