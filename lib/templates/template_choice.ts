/**
 * Which template a CSV file follows: the one `--template` names (among those a command accepts), or the one
 * its header matches best; and reading just the header of a file. When no template fits, the error names
 * the closest one and the columns it misses, and says how the header was read (its field separator).
 *
 * @example
 * ```ts
 * import { chooseTemplate } from "./template_choice.ts";
 * const template = await chooseTemplate("entities.csv", "entities.csv", undefined, ["entity-bulk-import", "entity-table"]);
 * console.log(template.name);
 * ```
 *
 * @module
 */
import { UsageError } from "../core/errors.ts";
import { type CsvDelimiter, describeDelimiter } from "../csv/delimiter.ts";
import { columnKey } from "../csv/problems.ts";
import { readCsvFile } from "../csv/reader.ts";
import { csvTemplate, rankCsvTemplates, type TemplateFit } from "./csv/mod.ts";
import type { CsvTemplate } from "../csv/types.ts";

/** How a header is read: the separator given, or none to detect it. */
export interface HeaderOptions {
  delimiter?: CsvDelimiter;
  signal?: AbortSignal;
}

/** A file's header cells, and how they were separated. */
export interface CsvHeader {
  cells: string[];
  delimiter: CsvDelimiter;
  /** The separator was detected rather than given. */
  detected: boolean;
}

/** The template `name`, which must be one of `allowed`; a usage error listing them otherwise. */
export function templateNamed(name: string, allowed: readonly string[]): CsvTemplate {
  const template = allowed.includes(name) ? csvTemplate(name) : undefined;
  if (!template) {
    throw new UsageError(
      `--template: "${name}" is not a template of this command.`,
      `Use one of: ${allowed.join(", ")}; \`govcat templates show <name>\` prints one.`,
    );
  }
  return template;
}

/** The header of a CSV file (its first row) with its separator; undefined when the file has no rows. */
export async function readCsvHeader(
  path: string,
  display: string,
  options: HeaderOptions = {},
): Promise<CsvHeader | undefined> {
  let delimiter: CsvDelimiter = options.delimiter ?? ",";
  const rows = readCsvFile(path, {
    displayName: display,
    signal: options.signal,
    delimiter: options.delimiter,
    onDelimiter: (found) => delimiter = found,
  });
  for await (const row of rows) {
    return { cells: row.cells, delimiter, detected: options.delimiter === undefined };
  }
  return undefined;
}

/**
 * Where each header name of a CSV file is (0-based), by its {@link columnKey}; the first of two names with
 * one key wins. Empty for a file without rows.
 */
export async function readCsvHeaderPositions(
  path: string,
  display: string,
  options: HeaderOptions = {},
): Promise<Map<string, number>> {
  const positions = new Map<string, number>();
  const header = await readCsvHeader(path, display, options);
  header?.cells.forEach((cell, index) => {
    if (!positions.has(columnKey(cell))) positions.set(columnKey(cell), index);
  });
  return positions;
}

/** The header of a CSV file (its first row). */
export async function readHeader(
  path: string,
  display: string,
  options: HeaderOptions = {},
): Promise<string[]> {
  const header = await readCsvHeader(path, display, options);
  if (header) return header.cells;
  throw new UsageError(`${display} is empty: a header line and at least one row are needed.`);
}

/**
 * What a header that fits no template is closest to: ` The closest is <name>, which needs <columns>` (and
 * the header columns it does not know); empty when there is no candidate.
 */
export function closestTemplateText(best: TemplateFit | undefined): string {
  if (!best) return "";
  const missing = best.missingRequired;
  const needs = missing.length === 0
    ? ""
    : `, which needs the column${missing.length === 1 ? "" : "s"} ${missing.join(", ")}`;
  const unknown = best.unknown.length > 0 ? ` and does not know ${best.unknown.join(", ")}` : "";
  return ` The closest is ${best.template.name}${needs}${unknown}.`;
}

/** `The header was read with semicolons (;) between fields, detected from the header.` for messages. */
export function readWithText(header: CsvHeader): string {
  return ` The header was read with ${describeDelimiter(header.delimiter, header.detected)}.`;
}

/** The template named by `--template`, or the one of `allowed` the file's header matches. */
export async function chooseTemplate(
  path: string,
  display: string,
  given: string | undefined,
  allowed: readonly string[],
  options: HeaderOptions = {},
): Promise<CsvTemplate> {
  if (given) return templateNamed(given, allowed);
  const header = await readCsvHeader(path, display, options);
  if (!header) throw new UsageError(`${display} is empty: a header line and at least one row are needed.`);
  const candidates = allowed.map((name) => csvTemplate(name)).filter((t): t is CsvTemplate => !!t);
  const [best] = rankCsvTemplates(header.cells, candidates);
  if (best && best.missingRequired.length === 0) return best.template;
  throw new UsageError(
    `${display}:1: the header (${header.cells.join(", ")}) matches none of the templates ${
      allowed.join(", ")
    }.${closestTemplateText(best)}${readWithText(header)}`,
    "Add the missing columns, or name the template with --template " +
      `(\`govcat templates show ${best?.template.name ?? "<name>"}\` prints its header and sample rows).`,
  );
}
