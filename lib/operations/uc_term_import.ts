/**
 * `uc term import-csv`: terms of one governance domain from a CSV file with the columns name,
 * description, status, acronym, owner_id, resource_name and resource_url (multi-value cells separated by
 * `;`). Every row is checked first and every problem reported as `file:line:column: …`; nothing is sent
 * unless the whole file is valid. `--dry-run` stops there and shows the terms that would be created.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { UsageError } from "../errors.ts";
import { canonicalEnumValue, ENTITY_STATUSES } from "../unified/enums.ts";
import { type TermInput, termInputSchema } from "../unified/schemas.ts";
import { columnKey, readCsvRecords } from "./glossary_csv.ts";
import { CREATE, defineOperation, type Operation } from "./types.ts";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const TERM_CSV_COLUMNS = [
  "name",
  "description",
  "status",
  "acronym",
  "owner_id",
  "resource_name",
  "resource_url",
] as const;
const HINT = `Columns: ${TERM_CSV_COLUMNS.join(", ")} (name required; status DRAFT, PUBLISHED or ` +
  "EXPIRED in any case, DRAFT when empty; several acronyms, owners or resources separated by ';'; " +
  "owner_id is an Entra ID object ID (GUID), not an e-mail address).";
const MAX_LISTED = 30;

/** One checked row: its line and the term body it becomes. */
export interface TermRow {
  line: number;
  body: Record<string, unknown>;
}

const split = (cell: string | undefined) =>
  (cell ?? "").split(";").map((part) => part.trim()).filter((part) => part !== "");

/** Checks a term CSV file and returns the term bodies, or throws one error listing every problem. */
export async function checkTermImportCsv(text: string, file: string, domainId: string): Promise<TermRow[]> {
  const [header, ...rows] = await readCsvRecords(text, file);
  if (!header) throw new UsageError(`${file} is empty: a header line and at least one row are needed.`, HINT);
  const keys = header.cells.map(columnKey);
  const at = (column: string) => keys.indexOf(columnKey(column));
  const problems: string[] = [];
  keys.forEach((key, i) => {
    if (!TERM_CSV_COLUMNS.some((column) => columnKey(column) === key)) {
      problems.push(`${file}:${header.line}:${i + 1}: unknown column "${header.cells[i].trim()}"`);
    }
  });
  if (at("name") < 0) {
    problems.push(
      `${file}:${header.line}:1: no name column (found: ${header.cells.join(", ") || "nothing"})`,
    );
  }
  if (rows.length === 0 && problems.length === 0) {
    problems.push(`${file}:${header.line}:1: a header but no rows to import`);
  }
  const result: TermRow[] = [];
  const seen = new Map<string, number>();
  for (const row of rows) {
    const where = (column: string) => `${file}:${row.line}:${at(column) + 1}: ${column}`;
    const cell = (column: string) => at(column) < 0 ? "" : (row.cells[at(column)] ?? "").trim();
    const before = problems.length;
    const name = cell("name");
    if (at("name") >= 0) {
      if (name === "") problems.push(`${where("name")}: the term name is empty`);
      else if (seen.has(name.toLowerCase())) {
        problems.push(`${where("name")}: "${name}" is also on line ${seen.get(name.toLowerCase())}`);
      } else seen.set(name.toLowerCase(), row.line);
    }
    const statusText = cell("status");
    const status = statusText === "" ? "DRAFT" : canonicalEnumValue(ENTITY_STATUSES, statusText);
    if (!status) {
      problems.push(
        `${where("status")}: "${statusText}" is not a status (${
          ENTITY_STATUSES.join(", ")
        }, any letter case)`,
      );
    }
    const owners = split(cell("owner_id"));
    for (const owner of owners) {
      if (owner.includes("@")) {
        problems.push(
          `${
            where("owner_id")
          }: "${owner}" is an e-mail address; owner_id wants an Entra ID object ID (a GUID)`,
        );
      } else if (!GUID.test(owner)) {
        problems.push(`${where("owner_id")}: "${owner}" is not an Entra ID object ID (a GUID)`);
      }
    }
    const names = split(cell("resource_name"));
    const urls = split(cell("resource_url"));
    if (names.length !== urls.length) {
      problems.push(
        `${
          where("resource_url")
        }: ${urls.length} URL(s) for ${names.length} resource_name(s); give them in pairs`,
      );
    }
    if (problems.length > before) continue;
    const body: Record<string, unknown> = { name, status, domain: domainId };
    if (cell("description")) body.description = cell("description");
    const acronyms = split(cell("acronym"));
    if (acronyms.length) body.acronyms = acronyms;
    if (owners.length) body.contacts = { owner: owners.map((id) => ({ id })) };
    if (names.length) body.resources = names.map((n, i) => ({ name: n, url: urls[i] }));
    const checked = termInputSchema.safeParse(body);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        problems.push(`${file}:${row.line}: ${issue.path.join(".") || "row"}: ${issue.message}`);
      }
      continue;
    }
    result.push({ line: row.line, body: checked.data as Record<string, unknown> });
  }
  if (problems.length > 0) {
    const listed = problems.slice(0, MAX_LISTED);
    const more = problems.length > MAX_LISTED ? [`… and ${problems.length - MAX_LISTED} more`] : [];
    throw new UsageError(
      [
        `${file} has ${problems.length} problem${problems.length > 1 ? "s" : ""}; nothing was sent:`,
        ...listed,
        ...more,
      ]
        .join("\n  "),
      HINT,
    );
  }
  return result;
}

export const termImportCsv = defineOperation({
  id: "uc.term-import-csv",
  group: "uc",
  command: "term import-csv",
  summary: "Create the terms of a CSV file in a governance domain (--dry-run only checks the file)",
  description:
    `${HINT} Every row is checked before anything is sent; with --dry-run nothing is sent at all ` +
    "and the terms that would be created are shown. Otherwise the domain is checked, then each row is " +
    "created and the summary lists each row's outcome.",
  input: z.object({
    csvFile: z.string().min(1).describe("CSV file of terms"),
    domainId: z.string().trim().min(1).describe("Id of the governance domain the terms go into"),
    dryRun: z.boolean().optional().describe("Check the file and show what would be created; send nothing"),
  }),
  annotations: CREATE,
  run: async (ctx, input) => {
    const text = await ctx.readTextFile(input.csvFile, "--csv-file");
    const rows = await checkTermImportCsv(text, input.csvFile, input.domainId);
    if (input.dryRun) {
      return {
        file: input.csvFile,
        domainId: input.domainId,
        dryRun: true,
        valid: true,
        wouldCreate: rows.length,
        rows: rows.map((row) => ({
          line: row.line,
          name: row.body.name,
          outcome: "would-create",
          term: row.body,
        })),
      };
    }
    const client = ctx.unified();
    // An unknown domain fails once, here, instead of once per row.
    await client.domains.get(input.domainId, { signal: ctx.signal });
    const outcomes: Array<Record<string, unknown>> = [];
    for (const row of rows) {
      try {
        const term = await client.terms.create(row.body as TermInput, { signal: ctx.signal });
        outcomes.push({ line: row.line, name: row.body.name, outcome: "created", id: term.id });
      } catch (error) {
        outcomes.push({
          line: row.line,
          name: row.body.name,
          outcome: "failed",
          error: (error as Error).message,
        });
      }
    }
    const failed = outcomes.filter((o) => o.outcome === "failed").length;
    return {
      file: input.csvFile,
      domainId: input.domainId,
      dryRun: false,
      created: outcomes.length - failed,
      failed,
      rows: outcomes,
    };
  },
});

export const TERM_IMPORT_OPERATIONS: Operation[] = [termImportCsv];
