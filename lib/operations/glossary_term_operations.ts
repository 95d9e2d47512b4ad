/**
 * Term commands of the `glossary` group: create one or many, list a glossary's terms (in full or as the
 * faster headers), read one with its related terms and assigned entities, full update and delete.
 *
 * @module
 */
import type { AtlasGlossaryTerm } from "../catalog/glossary_types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import {
  anchorOf,
  deleted,
  type Fields,
  glossaryGuid,
  includeTermHierarchy,
  paging,
  payloadFile,
  readArrayPayload,
  readObjectPayload,
  requireNameAndAnchor,
  termFields,
  termGuid,
  withOptions,
} from "./glossary_inputs.ts";
import { CREATE, defineOperation, DELETE, type Operation, READ, UPSERT } from "./types.ts";
import { guidListField } from "./guid_fields.ts";

function termOptions(input: {
  name?: string;
  shortDescription?: string;
  definition?: string;
  status?: string;
  abbreviation?: string;
  examples?: string[];
}): Fields {
  return {
    name: input.name,
    shortDescription: input.shortDescription,
    longDescription: input.definition,
    status: input.status,
    abbreviation: input.abbreviation,
    examples: input.examples,
  };
}

const pageOf = (input: { limit?: number; offset?: number; sort?: "ASC" | "DESC" }, signal?: AbortSignal) => ({
  limit: input.limit,
  offset: input.offset,
  sort: input.sort,
  signal,
});

export const createTerm = defineOperation({
  id: "glossary.create-term",
  group: "glossary",
  command: "create-term",
  summary: "Create a term in a glossary",
  description: "Give --glossary-guid and --name (optional --definition, --short-description, --status, " +
    "--abbreviation, --examples, --category-guid), or a --payload-file with an AtlasGlossaryTerm; options " +
    "override the file. Term names are unique within their glossary.",
  input: z.object({
    glossaryGuid: glossaryGuid.optional(),
    ...termFields,
    categoryGuid: guidListField("GUID of a category to put it in").optional(),
    synonymGuid: guidListField("GUID of a term of the same glossary that means the same").optional(),
    payloadFile: payloadFile.describe("JSON file holding an AtlasGlossaryTerm"),
    includeTermHierarchy,
  }),
  annotations: CREATE,
  run: async (ctx, input) => {
    const base = input.payloadFile
      ? await readObjectPayload(ctx, input.payloadFile, "an AtlasGlossaryTerm")
      : {};
    const categories = input.categoryGuid?.map((guid) => ({ categoryGuid: guid }));
    const synonyms = input.synonymGuid?.length
      ? [...new Set(input.synonymGuid)].map((guid) => ({ termGuid: guid }))
      : undefined;
    const term = withOptions(base, {
      ...termOptions(input),
      categories,
      synonyms,
      ...anchorOf(input.glossaryGuid),
    });
    requireNameAndAnchor(term, "create-term", input.payloadFile);
    return ctx.catalog().glossary.createTerm(term as AtlasGlossaryTerm, {
      includeTermHierarchy: input.includeTermHierarchy,
      signal: ctx.signal,
    });
  },
});

export const createTerms = defineOperation({
  id: "glossary.create-terms",
  group: "glossary",
  command: "create-terms",
  summary: "Create many terms in one call",
  description: "The payload file holds a JSON array of AtlasGlossaryTerm; --glossary-guid is the glossary " +
    "of those that name none. All are created, or none.",
  input: z.object({
    payloadFile: z.string().min(1).describe("JSON file holding an array of AtlasGlossaryTerm"),
    glossaryGuid: glossaryGuid.optional(),
    includeTermHierarchy,
  }),
  annotations: CREATE,
  run: async (ctx, input) => {
    const items = await readArrayPayload(ctx, input.payloadFile, "AtlasGlossaryTerm objects");
    const terms = items.map((item) => (item.anchor ? item : withOptions(item, anchorOf(input.glossaryGuid))));
    terms.forEach((term) => requireNameAndAnchor(term, "create-terms", input.payloadFile));
    return ctx.catalog().glossary.createTerms(terms as AtlasGlossaryTerm[], {
      includeTermHierarchy: input.includeTermHierarchy,
      signal: ctx.signal,
    });
  },
});

export const listTerms = defineOperation({
  id: "glossary.list-terms",
  group: "glossary",
  command: "list-terms",
  aliases: ["read-terms"],
  summary: "List the terms of a glossary, in full",
  description: "Each term with its status, definition, categories, related terms and assigned entities. " +
    "Page with --limit and --offset; read-terms-headers is faster when names are enough.",
  input: z.object({
    glossaryGuid,
    ...paging,
    includeTermHierarchy,
    extInfo: z.boolean().optional().describe(
      "Ask for extended information (contact names, attribute values)",
    ),
  }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().glossary.listTerms(input.glossaryGuid, {
      ...pageOf(input, ctx.signal),
      includeTermHierarchy: input.includeTermHierarchy,
      extInfo: input.extInfo,
    }),
});

export const readTermsHeaders = defineOperation({
  id: "glossary.read-terms-headers",
  group: "glossary",
  command: "read-terms-headers",
  summary: "List the terms of a glossary as headers (GUID and name): the fast form of list-terms",
  input: z.object({ glossaryGuid, ...paging }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().glossary.listTermHeaders(input.glossaryGuid, pageOf(input, ctx.signal)),
});

export const readTerm = defineOperation({
  id: "glossary.read-term",
  group: "glossary",
  command: "read-term",
  summary: "Read a term with its categories, related terms and assigned entities",
  input: z.object({ termGuid, includeTermHierarchy }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().glossary.getTerm(input.termGuid, {
      includeTermHierarchy: input.includeTermHierarchy,
      signal: ctx.signal,
    }),
});

export const readTermsAssignedEntities = defineOperation({
  id: "glossary.read-terms-assigned-entities",
  group: "glossary",
  command: "read-terms-assigned-entities",
  summary: "List the entities a term is assigned to",
  input: z.object({ termGuid, ...paging }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().glossary.getTermAssignedEntities(input.termGuid, pageOf(input, ctx.signal)),
});

export const readTermsRelated = defineOperation({
  id: "glossary.read-terms-related",
  group: "glossary",
  command: "read-terms-related",
  summary: "List a term's related terms by relationship (seeAlso, synonyms, antonyms, isA…)",
  input: z.object({ termGuid, ...paging }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().glossary.getRelatedTerms(input.termGuid, pageOf(input, ctx.signal)),
});

export const putTerm = defineOperation({
  id: "glossary.put-term",
  group: "glossary",
  command: "put-term",
  aliases: ["update-term"],
  summary: "Update a term (full update: fields, categories and related terms)",
  description: "The term becomes --payload-file with the options laid over it; without a file, the current " +
    "term is read and the options are laid over it, so its relations stay.",
  input: z.object({
    termGuid,
    ...termFields,
    payloadFile: payloadFile.describe("JSON file holding the AtlasGlossaryTerm to store"),
    includeTermHierarchy,
  }),
  // A full update: categories or related terms left out of the payload are removed.
  annotations: { ...UPSERT, destructive: true },
  run: async (ctx, input) => {
    const glossary = ctx.catalog().glossary;
    const options = termOptions(input);
    if (!input.payloadFile && Object.values(options).every((v) => v === undefined)) {
      throw new UsageError(
        "glossary put-term needs --payload-file or at least one of --name, --definition, " +
          "--short-description, --status, --abbreviation, --examples.",
      );
    }
    const base = input.payloadFile
      ? await readObjectPayload(ctx, input.payloadFile, "an AtlasGlossaryTerm")
      : await glossary.getTerm(input.termGuid, { signal: ctx.signal });
    return glossary.updateTerm(input.termGuid, withOptions(base, options) as AtlasGlossaryTerm, {
      includeTermHierarchy: input.includeTermHierarchy,
      signal: ctx.signal,
    });
  },
});

export const deleteTerm = defineOperation({
  id: "glossary.delete-term",
  group: "glossary",
  command: "delete-term",
  summary: "Delete a term (refused while it is assigned to entities)",
  description: "Refused while entities carry the term: unassign-term removes the assignments first " +
    "(read-terms-assigned-entities lists them).",
  input: z.object({ termGuid }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await ctx.catalog().glossary.deleteTerm(input.termGuid, ctx.signal);
    return deleted("term", input.termGuid);
  },
});

/** Entity GUIDs one `unassign-term` takes at most. */
export const MAX_UNASSIGNED_ENTITIES = 1000;
const ENTITY_GUIDS = "GUID of an entity to remove the term from";

export const unassignTerm = defineOperation({
  id: "glossary.unassign-term",
  group: "glossary",
  command: "unassign-term",
  aliases: ["delete-term-assignment", "remove-term-assignment"],
  summary: "Remove a term from entities (undo an assignment), by entity GUID",
  description: "Give --term-guid and the entities with --entity-guids (once per entity). The " +
    "assignments are looked up in the term's assigned entities (read-terms-assigned-entities) for their " +
    "relationship GUIDs, which the service needs, and removed in one call " +
    "(DELETE /glossary/terms/{termGuid}/assignedEntities). Entities that do not carry the term are listed " +
    "in notAssigned and nothing is sent for them, so repeating the command is harmless. A term can be " +
    "deleted once no entity carries it.",
  input: z.object({
    termGuid,
    entityGuids: guidListField(ENTITY_GUIDS).min(1).max(MAX_UNASSIGNED_ENTITIES).describe(ENTITY_GUIDS),
  }),
  // It removes links between a term and entities (the entities and the term stay).
  annotations: DELETE,
  run: async (ctx, input) => {
    const guids = [...new Set(input.entityGuids)];
    const removal = await ctx.catalog().glossary.removeTermFromEntities(
      input.termGuid,
      guids.map((guid) => ({ guid })),
      ctx.signal,
    );
    return {
      termGuid: input.termGuid,
      removed: removal.removed.map((r) => String(r.guid)),
      notAssigned: removal.notAssigned,
    };
  },
});

/** Entity GUIDs one `assign-term` takes at most. */
export const MAX_ASSIGNED_ENTITIES = 1000;
const ASSIGNED_GUIDS = "GUID of an entity to give the term";

export const assignTerm = defineOperation({
  id: "glossary.assign-term",
  group: "glossary",
  command: "assign-term",
  aliases: ["assign-term-to-entities", "assignTermToEntities"],
  summary: "Assign a term to entities, by entity GUID, in one call",
  description: "Give --term-guid and the entities with --entity-guids (once per entity): POST " +
    "/glossary/terms/{termGuid}/assignedEntities. The service refuses the whole call when one entity is " +
    "unknown; the MCP tool assign_term_to_entities sends a refused call again entity by entity. For many " +
    "pairs from a CSV file, use assign-terms.",
  input: z.object({
    termGuid,
    entityGuids: guidListField(ASSIGNED_GUIDS).min(1).max(MAX_ASSIGNED_ENTITIES).describe(ASSIGNED_GUIDS),
  }),
  // Adds links between a term and entities; an entity that has the term keeps it once.
  annotations: UPSERT,
  run: async (ctx, input) => {
    const guids = [...new Set(input.entityGuids)];
    await ctx.catalog().glossary.assignTermToEntities(
      input.termGuid,
      guids.map((guid) => ({ guid })),
      ctx.signal,
    );
    return { termGuid: input.termGuid, assigned: guids };
  },
});

/** The term commands, in the order `govcat glossary --help` lists them. */
export const GLOSSARY_TERM_OPERATIONS: Operation[] = [
  createTerm,
  createTerms,
  listTerms,
  readTermsHeaders,
  readTerm,
  readTermsAssignedEntities,
  readTermsRelated,
  putTerm,
  deleteTerm,
];
