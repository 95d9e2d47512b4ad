/**
 * `uc term import-csv`: the operation over the unified catalog term import of `lib/imports/unified_term_import.ts`
 * (what a row does, how synonyms link, why a file with links is sent in order: see there).
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import {
  synonymLinks,
  UNIFIED_TERM_IMPORT_TEMPLATES,
  unifiedTermImport,
} from "../imports/unified_term_import.ts";
import { bulkImportFields, engineOptions } from "./bulk_options.ts";
import { guidField } from "./guid_fields.ts";
import { checkFileFirst } from "../imports/csv_prechecks.ts";
import { chooseTemplate } from "../templates/template_choice.ts";
import { checkPlanInput, planFields, runImportOrPlan } from "./plan_options.ts";
import { defineOperation, type Operation, UPSERT } from "./types.ts";

const importInput = z.object({
  csvFile: z.string().min(1).describe("CSV file of terms (a uc-term template)"),
  domainId: guidField("Id of the governance domain the terms go into"),
  template: z.enum(UNIFIED_TERM_IMPORT_TEMPLATES).optional().describe(
    "Template of the file (default: detected)",
  ),
  ...bulkImportFields,
  ...planFields,
});

export const termImportCsv = defineOperation({
  id: "uc.term-import-csv",
  group: "uc",
  command: "term import-csv",
  summary: "Create or update the terms of a CSV file in a governance domain, in resumable batches",
  description: "Columns: name, description, status (DRAFT, PUBLISHED, EXPIRED in any case; DRAFT when " +
    "empty), acronym, owner_id, resource_name, resource_url (several values separated by ';'); also " +
    "synonyms (names of terms of the domain or of the file, made Synonym relationships), contacts " +
    "(experts) and term_id (the row changes that term, only the fields it gives). owner_id and contacts " +
    "are Entra ID object IDs (GUIDs), not e-mail addresses. Every row is checked first, with every " +
    "problem listed as file:line:column, and nothing is sent while one remains; --dry-run reports what " +
    "would be created, updated or skipped; --plan shows each row's changes (old → new) and --apply-plan applies exactly that plan. A term the domain has by name is updated (skipped when " +
    "unchanged, left alone with --skip-existing), so an import can be run again; rows the service refuses " +
    "go to the errors file with its answer.",
  input: importInput,
  annotations: UPSERT,
  run: async (ctx, input) => {
    checkPlanInput("uc term import-csv", input);
    const options = await engineOptions(ctx, input, input.csvFile, "--csv-file");
    const template = await chooseTemplate(
      options.file,
      input.csvFile,
      input.template,
      UNIFIED_TERM_IMPORT_TEMPLATES,
      { delimiter: options.delimiter, signal: ctx.signal },
    );
    options.settings = { domainId: input.domainId, template: template.name };
    const report = await checkFileFirst(options.file, template, {
      displayName: input.csvFile,
      signal: ctx.signal,
      delimiter: options.delimiter,
    });
    const unified = ctx.unified();
    // An unknown domain fails once, here, instead of once per row.
    await unified.domains.get(input.domainId, { signal: ctx.signal });
    const links = await synonymLinks(
      unified,
      options.file,
      input.csvFile,
      template,
      input.domainId,
      ctx.signal,
      // Read as the check read it.
      report.delimiter,
    );
    const plugin = unifiedTermImport(unified, {
      domainId: input.domainId,
      template,
      links,
      skipExisting: input.skipExisting,
    });
    const result = await runImportOrPlan(ctx, plugin, options, input, {
      skipExisting: input.skipExisting === true,
    });
    return { ...result, domainId: input.domainId };
  },
});

export const TERM_IMPORT_OPERATIONS: Operation[] = [termImportCsv];
