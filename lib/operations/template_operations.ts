/**
 * The `templates` group: list the CSV and JSON templates govcat ships, print one, or write it
 * to a file to fill in. A CSV template is printed as its sample file (header and sample rows, raw CSV); a
 * JSON template as its payload.
 *
 * @example
 * ```ts
 * import { TEMPLATE_OPERATIONS, TEMPLATES_GROUP } from "./template_operations.ts";
 * console.log(TEMPLATES_GROUP.name, TEMPLATE_OPERATIONS.map((op) => op.command)); // templates ["list", "show", "write"]
 * ```
 *
 * @module
 */
import type { CsvTemplate } from "../csv/types.ts";
import { CSV_TEMPLATES, csvTemplate, sampleCsvLines } from "../templates/csv/mod.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { didYouMean } from "../core/suggest.ts";
import { JSON_TEMPLATES, type JsonTemplate, jsonTemplate } from "../templates/json_templates.ts";
import type { OperationGroup } from "./groups.ts";
import { writeOutputFile } from "../files/output_files.ts";
import { defineOperation, type Operation, type OperationAnnotations } from "./types.ts";

/** The group entry the registry needs for these operations. */
export const TEMPLATES_GROUP: OperationGroup = {
  name: "templates",
  summary: "CSV and JSON templates for bulk files and payloads: list, show, write",
};

/** Templates are built into govcat: nothing is read from or written to the catalog. */
const LOCAL: OperationAnnotations = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
};

/** Writes a local file only; the catalog is not touched. */
const LOCAL_WRITE: OperationAnnotations = {
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: false,
  writesLocalFile: ["outputFile"],
};

/** One template of either kind. */
export type AnyTemplate = { kind: "csv"; template: CsvTemplate } | { kind: "json"; template: JsonTemplate };

/** Every template name, CSV ones first. */
export function allTemplateNames(): string[] {
  return [...CSV_TEMPLATES.map((t) => t.name), ...JSON_TEMPLATES.map((t) => t.name)];
}

/** The template with this name (any letter case), or a usage error suggesting the nearest name. */
export function findTemplate(name: string): AnyTemplate {
  const csv = csvTemplate(name);
  if (csv) return { kind: "csv", template: csv };
  const json = jsonTemplate(name);
  if (json) return { kind: "json", template: json };
  throw new UsageError(
    `unknown template "${name}".${didYouMean(name, allTemplateNames())}`,
    'Run "govcat templates list" for every template.',
  );
}

/** What `templates show` prints and `templates write` writes, with the given line end. */
export function templateText(found: AnyTemplate, lineEnd: string): string {
  if (found.kind === "csv") return sampleCsvLines(found.template).join(lineEnd);
  return JSON.stringify(found.template.payload, null, 2).replaceAll("\n", lineEnd);
}

const templateName = z.string().trim().min(1).describe("Name of the template (see `govcat templates list`)");

export const listTemplates = defineOperation({
  id: "templates.list",
  group: "templates",
  command: "list",
  summary: "List the CSV and JSON templates: name, kind, summary and the command each is for",
  input: z.object({
    kind: z.enum(["csv", "json"]).optional().describe("Only CSV templates or only JSON templates"),
  }),
  annotations: LOCAL,
  run: (_ctx, input) => {
    const rows = [
      ...CSV_TEMPLATES.map((t) => ({ name: t.name, kind: "csv", summary: t.summary, usage: t.usage })),
      ...JSON_TEMPLATES.map((t) => ({ name: t.name, kind: "json", summary: t.summary, usage: t.usage })),
    ].filter((row) => input.kind === undefined || row.kind === input.kind);
    return Promise.resolve(rows);
  },
});

export const showTemplate = defineOperation({
  id: "templates.show",
  group: "templates",
  command: "show",
  summary: "Print a template: a CSV template as its sample file, a JSON template as its payload",
  description: "A CSV template prints as CSV text (the header, then sample rows that pass the template); " +
    "a JSON template prints its payload, whose values in angle brackets are placeholders to replace. " +
    "`govcat templates write` saves either to a file.",
  input: z.object({ name: templateName }),
  positionals: ["name"],
  annotations: LOCAL,
  run: (_ctx, input) => {
    try {
      const found = findTemplate(input.name);
      // CSV is returned as text, printed as it is; a payload as an object, printed as JSON.
      return Promise.resolve(found.kind === "csv" ? templateText(found, "\n") : found.template.payload);
    } catch (error) {
      return Promise.reject(error);
    }
  },
});

export const writeTemplate = defineOperation({
  id: "templates.write",
  group: "templates",
  command: "write",
  summary: "Write a template to a file to fill in: a CSV sample file or a JSON payload",
  description: "Refuses to replace an existing file unless --overwrite is given. The file is written " +
    "whole or not at all (through a temporary file renamed into place). CSV files use CRLF line ends.",
  input: z.object({
    name: templateName,
    outputFile: z.string().min(1).describe("File to write"),
    overwrite: z.boolean().optional().describe("Replace the file when it exists"),
  }),
  positionals: ["name"],
  annotations: LOCAL_WRITE,
  run: async (ctx, input) => {
    const found = findTemplate(input.name);
    const text = found.kind === "csv"
      ? templateText(found, "\r\n") + "\r\n"
      : templateText(found, "\n") + "\n";
    const written = await writeOutputFile(
      ctx,
      input.outputFile,
      "--output-file",
      (write) => write(text),
      { overwrite: input.overwrite === true },
    );
    return {
      name: found.template.name,
      kind: found.kind,
      outputFile: written.path,
      bytes: written.bytes,
      ...(found.kind === "csv" ? { rows: found.template.sample.length } : {}),
      usage: found.template.usage,
    };
  },
});

/** Every operation of the `templates` group. */
export const TEMPLATE_OPERATIONS: Operation[] = [listTemplates, showTemplate, writeTemplate];
