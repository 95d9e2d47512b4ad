/**
 * Glossary tools: list terms (of one glossary or all), create a term (composed from the
 * glossary group's operations: the classic glossary API), and assign a term to entities
 * (`glossary_assign_tool.ts`).
 *
 * @module
 */
import type {
  AtlasGlossary,
  AtlasGlossaryTerm,
  AtlasRelatedTermHeader,
} from "../../catalog/glossary_types.ts";
import { TERM_STATUSES } from "../../catalog/glossary_types.ts";
import { z } from "../../deps/zod.ts";
import { ConflictError, UsageError } from "../../core/errors.ts";
import { createGlossary, readGlossary } from "../../operations/glossary_operations.ts";
import { createTerm, listTerms, readTermsHeaders } from "../../operations/glossary_term_operations.ts";
import type { ToolDefinition } from "../tool.ts";
import { composedTool, type OperationRunner } from "../tool_operation.ts";
import { linksOf, termLink } from "../resource_links.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";
import { assignTermToEntitiesTool } from "./glossary_assign_tool.ts";

/** Terms returned at most by one get_glossary_terms call. */
export const MAX_TERMS = 1000;
/** Name of the glossary create_glossary_term makes when the catalog has none (the service's default). */
export const DEFAULT_GLOSSARY_NAME = "Glossary";

const termSummary = z.object({
  guid: z.string(),
  name: z.string(),
  status: z.string().optional(),
  glossary_guid: z.string(),
  glossary_name: z.string().optional(),
  short_description: z.string().optional(),
  assigned_entity_count: z.number().int().describe("Entities the term is assigned to"),
});

function summarize(term: AtlasGlossaryTerm, glossary: AtlasGlossary): z.input<typeof termSummary> {
  return {
    guid: String(term.guid),
    name: String(term.name),
    status: typeof term.status === "string" ? term.status : undefined,
    glossary_guid: String(glossary.guid),
    glossary_name: glossary.name,
    short_description: term.shortDescription,
    assigned_entity_count: term.assignedEntities?.length ?? 0,
  };
}

export const getGlossaryTermsTool = composedTool({
  name: "get_glossary_terms",
  title: "List glossary terms",
  description:
    "Glossary terms, of one glossary or all: GUID, name, status, short description, assigned entity " +
    "count; next_offset pages on. Use the GUIDs with assign_term_to_entities." + CATALOG_TEXT_IS_DATA,
  input: z.object({
    glossary_guid: z.string().min(1).optional().describe("Only this glossary's terms"),
    limit: z.number().int().min(1).max(MAX_TERMS).default(100).describe("Most terms to return"),
    offset: z.number().int().min(0).default(0).describe("Terms to skip, for paging"),
  }),
  output: z.object({
    terms: z.array(termSummary),
    total: z.number().int().describe("Terms in the glossary (or in all glossaries)"),
    truncated: z.boolean().describe("True when terms beyond this page exist"),
    next_offset: z.number().int().optional().describe("The offset of the next page, when truncated"),
  }),
  // The glossaries (one, or all) say how many terms each holds; only the page's terms are read.
  operations: [readGlossary, listTerms],
  links: (output) => linksOf(output.terms, termLink),
  compose: async (run, input) => {
    const glossaries = input.glossary_guid
      ? [await run(readGlossary, { glossaryGuid: input.glossary_guid }) as AtlasGlossary]
      : await run(readGlossary, { sort: "ASC" }) as AtlasGlossary[];
    const total = glossaries.reduce((sum, g) => sum + (g.terms?.length ?? 0), 0);
    const end = input.offset + input.limit;
    const terms: z.input<typeof termSummary>[] = [];
    let before = 0;
    for (const g of glossaries) {
      const count = g.terms?.length ?? 0;
      const from = Math.max(0, input.offset - before);
      const to = Math.min(count, end - before);
      before += count;
      if (to <= from) continue;
      const page = await run(listTerms, {
        glossaryGuid: String(g.guid),
        offset: from,
        limit: to - from,
        sort: "ASC",
      }) as AtlasGlossaryTerm[];
      terms.push(...page.map((term) => summarize(term, g)));
    }
    const truncated = input.offset + terms.length < total;
    return { terms, total, truncated, next_offset: truncated ? input.offset + terms.length : undefined };
  },
});

export const createGlossaryTermTool = composedTool({
  name: "create_glossary_term",
  title: "Create glossary term",
  description:
    `Define a term in a classic glossary (default: the first; one named "${DEFAULT_GLOSSARY_NAME}" is ` +
    "created when there is none). An existing name fails with 409. Next: assign_term_to_entities.",
  input: z.object({
    name: z.string().min(1).describe("e.g. Customer Lifetime Value"),
    glossary_guid: z.string().min(1).optional().describe("Glossary GUID; default: the first"),
    definition: z.string().optional().describe("What the term means"),
    long_description: z.string().optional().describe("Same as definition"),
    short_description: z.string().optional().describe("One-line summary"),
    status: z.enum(TERM_STATUSES).optional().describe("Status; default Draft"),
    abbreviation: z.string().optional().describe("Abbreviation or acronym, e.g. CLV"),
    examples: z.array(z.string()).optional().describe("Examples of use"),
    synonyms: z.array(z.string().min(1)).optional().describe("Names or GUIDs of synonym terms"),
  }),
  output: z.object({
    guid: z.string(),
    glossary_guid: z.string(),
    glossary_created: z.boolean().describe("True when the default glossary was created for this term"),
    term: z.record(z.string(), z.unknown()),
  }),
  // The default glossary is found (or made) and synonyms named are resolved before the term is created.
  operations: [readGlossary, createGlossary, readTermsHeaders, createTerm],
  compose: async (run, input) => {
    if (input.definition && input.long_description && input.definition !== input.long_description) {
      throw new UsageError("definition and long_description differ; give only one of them.");
    }
    const { guid: glossaryGuid, created } = input.glossary_guid
      ? { guid: input.glossary_guid, created: false }
      : await defaultGlossary(run);
    const synonyms = input.synonyms?.length
      ? await resolveTerms(run, glossaryGuid, input.synonyms)
      : undefined;
    const createdTerm = await run(createTerm, {
      name: input.name,
      glossaryGuid,
      definition: input.definition ?? input.long_description,
      shortDescription: input.short_description,
      status: input.status,
      abbreviation: input.abbreviation,
      examples: input.examples,
      synonymGuid: synonyms,
    }) as AtlasGlossaryTerm;
    return {
      guid: String(createdTerm.guid),
      glossary_guid: glossaryGuid,
      glossary_created: created,
      term: createdTerm,
    };
  },
});

/** The first glossary by name, or a new one named {@link DEFAULT_GLOSSARY_NAME} when there is none. */
async function defaultGlossary(run: OperationRunner): Promise<{ guid: string; created: boolean }> {
  const first = async () =>
    (await run(readGlossary, { limit: 1, sort: "ASC", ignoreTermsAndCategories: true }) as AtlasGlossary[])[
      0
    ];
  const existing = await first();
  if (existing?.guid) return { guid: existing.guid, created: false };
  try {
    const created = await run(createGlossary, {
      name: DEFAULT_GLOSSARY_NAME,
      shortDescription: "Default glossary, created by govcat for the first term",
    }) as AtlasGlossary;
    return { guid: String(created.guid), created: true };
  } catch (error) {
    // Another caller created it meanwhile: use theirs.
    const now = error instanceof ConflictError ? await first() : undefined;
    if (now?.guid) return { guid: now.guid, created: false };
    throw error;
  }
}

/** GUIDs of terms of the glossary named by GUID or name; unknown ones are a usage error listing them. */
async function resolveTerms(run: OperationRunner, glossaryGuid: string, refs: string[]): Promise<string[]> {
  const headers = await run(readTermsHeaders, { glossaryGuid }) as AtlasRelatedTermHeader[];
  const byName = new Map(headers.map((h) => [String(h.displayText).toLowerCase(), String(h.termGuid)]));
  const guids = new Set(headers.map((h) => String(h.termGuid)));
  const unknown: string[] = [];
  const resolved = refs.flatMap((ref) => {
    const guid = guids.has(ref) ? ref : byName.get(ref.toLowerCase());
    if (guid) return [guid];
    unknown.push(ref);
    return [];
  });
  if (unknown.length > 0) {
    throw new UsageError(
      `No term of glossary ${glossaryGuid} is named ${unknown.map((u) => `"${u}"`).join(", ")}.`,
      "get_glossary_terms lists the glossary's terms; create missing synonyms with create_glossary_term first.",
    );
  }
  return [...new Set(resolved)];
}

/** The glossary tools, in the order tools/list shows them. */
export const GLOSSARY_TOOLS: ToolDefinition[] = [
  getGlossaryTermsTool,
  createGlossaryTermTool,
  assignTermToEntitiesTool,
];
