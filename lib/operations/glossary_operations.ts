/**
 * Operations of the `glossary` group, classic glossary: this file holds the glossary commands
 * (`create`, `read`/`list`, `put`, `delete`, `read-detailed`) and gathers the group's other commands:
 * categories (`glossary_category_operations.ts`), terms (`glossary_term_operations.ts`), and CSV import and
 * term assignment (`glossary_import_operations.ts`); `unassign-term` undoes an assignment. Every command
 * prints JSON. The hints of refusals (an unknown GUID, a term still assigned) come from the hint table,
 * `lib/core/error_hints.ts`.
 *
 * @module
 */
import type { AtlasGlossary } from "../catalog/glossary_types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { GLOSSARY_CATEGORY_OPERATIONS } from "./glossary_category_operations.ts";
import { GLOSSARY_IMPORT_OPERATIONS } from "./glossary_import_operations.ts";
import {
  deleted,
  describedFields,
  glossaryGuid,
  paging,
  payloadFile,
  readObjectPayload,
  withOptions,
} from "./glossary_inputs.ts";
import { assignTerm, GLOSSARY_TERM_OPERATIONS, unassignTerm } from "./glossary_term_operations.ts";
import { CREATE, defineOperation, DELETE, type Operation, READ, UPSERT } from "./types.ts";

const glossaryFields = {
  ...describedFields,
  description: z.string().optional().describe("Description of the glossary (its long description)"),
  language: z.string().optional().describe("Language of the glossary, e.g. en"),
  usage: z.string().optional().describe("What the glossary is for"),
};

/** The command-line fields in the service's names. */
function glossaryOptions(input: {
  name?: string;
  shortDescription?: string;
  description?: string;
  language?: string;
  usage?: string;
}): Record<string, unknown> {
  return {
    name: input.name,
    shortDescription: input.shortDescription,
    longDescription: input.description,
    language: input.language,
    usage: input.usage,
  };
}

export const createGlossary = defineOperation({
  id: "glossary.create",
  group: "glossary",
  command: "create",
  summary: "Create a glossary",
  description: "Give --name (and optional --description, --short-description, --language, --usage), or a " +
    "--payload-file with an AtlasGlossary; options override the file. Glossary names are unique.",
  input: z.object({
    ...glossaryFields,
    payloadFile: payloadFile.describe("JSON file holding an AtlasGlossary"),
  }),
  annotations: CREATE,
  run: async (ctx, input) => {
    const base = input.payloadFile ? await readObjectPayload(ctx, input.payloadFile, "an AtlasGlossary") : {};
    const glossary = withOptions(base, glossaryOptions(input)) as AtlasGlossary;
    if (!(typeof glossary.name === "string" && glossary.name.trim())) {
      throw new UsageError(
        `glossary create needs --name${input.payloadFile ? ` (not found in ${input.payloadFile})` : ""}.`,
      );
    }
    return ctx.catalog().glossary.create(glossary, ctx.signal);
  },
});

export const readGlossary = defineOperation({
  id: "glossary.read",
  group: "glossary",
  command: "read",
  aliases: ["list"],
  summary: "Read one glossary (--glossary-guid), or list every glossary",
  description: "With --glossary-guid, the glossary with the headers of its terms and categories; without " +
    "it, every glossary (--limit, --offset and --sort page the list).",
  input: z.object({
    glossaryGuid: glossaryGuid.optional(),
    ...paging,
    ignoreTermsAndCategories: z.boolean().optional().describe("Leave out the term and category headers"),
  }),
  annotations: READ,
  run: (ctx, input) => {
    const glossary = ctx.catalog().glossary;
    if (input.glossaryGuid) return glossary.get(input.glossaryGuid, ctx.signal);
    return glossary.list({
      limit: input.limit,
      offset: input.offset,
      sort: input.sort,
      ignoreTermsAndCategories: input.ignoreTermsAndCategories,
      signal: ctx.signal,
    });
  },
});

export const putGlossary = defineOperation({
  id: "glossary.put",
  group: "glossary",
  command: "put",
  aliases: ["update"],
  summary: "Update a glossary (full update)",
  description: "The glossary's fields become those of --payload-file with the options laid over it; " +
    "without a file, the current glossary is read and the options are laid over it.",
  input: z.object({
    glossaryGuid,
    ...glossaryFields,
    payloadFile: payloadFile.describe("JSON file holding the AtlasGlossary to store"),
  }),
  // A full update: fields left out of the payload are cleared.
  annotations: { ...UPSERT, destructive: true },
  run: async (ctx, input) => {
    const glossary = ctx.catalog().glossary;
    const options = glossaryOptions(input);
    if (!input.payloadFile && Object.values(options).every((v) => v === undefined)) {
      throw new UsageError(
        "glossary put needs --payload-file or at least one of --name, --description, --short-description, " +
          "--language, --usage.",
      );
    }
    const base = input.payloadFile
      ? await readObjectPayload(ctx, input.payloadFile, "an AtlasGlossary")
      : await glossary.get(input.glossaryGuid, ctx.signal);
    return glossary.update(input.glossaryGuid, withOptions(base, options) as AtlasGlossary, ctx.signal);
  },
});

export const deleteGlossary = defineOperation({
  id: "glossary.delete",
  group: "glossary",
  command: "delete",
  summary: "Delete a glossary with its terms and categories",
  description: "Refused while one of its terms is assigned to an entity; remove those assignments first " +
    "(unassign-term).",
  input: z.object({ glossaryGuid }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await ctx.catalog().glossary.delete(input.glossaryGuid, ctx.signal);
    return deleted("glossary", input.glossaryGuid);
  },
});

export const readGlossaryDetailed = defineOperation({
  id: "glossary.read-detailed",
  group: "glossary",
  command: "read-detailed",
  summary: "Read a glossary with every term and category in full",
  input: z.object({ glossaryGuid }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().glossary.getDetailed(input.glossaryGuid, ctx.signal),
});

/** Every operation of the glossary group, in the order `govcat glossary --help` lists them. */
export const GLOSSARY_OPERATIONS: Operation[] = [
  createGlossary,
  readGlossary,
  putGlossary,
  deleteGlossary,
  readGlossaryDetailed,
  ...GLOSSARY_CATEGORY_OPERATIONS,
  ...GLOSSARY_TERM_OPERATIONS,
  ...GLOSSARY_IMPORT_OPERATIONS,
  assignTerm,
  unassignTerm,
];
