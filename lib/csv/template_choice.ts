/**
 * Which template a CSV file follows: the one `--template` names (among those a command accepts), or the one
 * its header matches best; and reading just the header of a file.
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
import { UsageError } from "../errors.ts";
import { readCsvFile } from "./reader.ts";
import { csvTemplate, detectCsvTemplate } from "./templates/mod.ts";
import type { CsvTemplate } from "./types.ts";

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

/** The header of a CSV file (its first row). */
export async function readHeader(path: string, display: string): Promise<string[]> {
  for await (const row of readCsvFile(path, { displayName: display })) return row.cells;
  throw new UsageError(`${display} is empty: a header line and at least one row are needed.`);
}

/** The template named by `--template`, or the one of `allowed` the file's header matches. */
export async function chooseTemplate(
  path: string,
  display: string,
  given: string | undefined,
  allowed: readonly string[],
): Promise<CsvTemplate> {
  if (given) return templateNamed(given, allowed);
  const header = await readHeader(path, display);
  const candidates = allowed.map((name) => csvTemplate(name)).filter((t): t is CsvTemplate => !!t);
  const detected = detectCsvTemplate(header, candidates);
  if (!detected) {
    throw new UsageError(
      `${display}:1: the header (${header.join(", ")}) matches none of the templates ${allowed.join(", ")}.`,
      "Name the template with --template, or fix the column names (`govcat templates show <name>`).",
    );
  }
  return detected;
}
