/**
 * The `uc term` commands: create and update (with synonyms and related terms, the way term relationships
 * are made), get, delete, list, query, count, facets, the term hierarchy, a term's relationships and the
 * removal of one. The CSV import is in `uc_term_import.ts`.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import type { TermInput } from "../catalog/unified_term_schemas.ts";
import { termInputSchema } from "../catalog/unified_term_schemas.ts";
import { UNIFIED_PREFIX } from "../catalog/unified_resource.ts";
import {
  canonicalEnumValue,
  describeEnum,
  ENTITY_CATEGORIES,
  TERM_RELATIONSHIP_TYPES,
} from "../catalog/unified_enums.ts";
import { facetsOperation, listEntities, searchBody, searchFields } from "./unified_kind_operations.ts";
import { guidField, guidListField } from "./guid_fields.ts";
import {
  deletedResult,
  idOption,
  overlay,
  ownerIdOption,
  pagingOptions,
  payloadObject,
  precheck,
  requireField,
  requireSomething,
  unifiedPayloadFile,
} from "./unified_inputs.ts";
import {
  CREATE,
  defineOperation,
  DELETE,
  type Operation,
  type OperationContext,
  READ,
  UPSERT,
} from "./types.ts";

const termId = idOption("Id of the term");
const TERM_FLAGS = "--name, --description, --status, --domain-id, --parent-id, --owner-id, --acronym, " +
  "--resource-name/--resource-url, --synonym, --related";

const termFields = {
  name: z.string().optional().describe("Name of the term, unique in its domain"),
  description: z.string().optional().describe("Definition of the term"),
  status: z.string().optional().describe("DRAFT, PUBLISHED or EXPIRED (any letter case); new terms: DRAFT"),
  domainId: guidField("Id of the governance domain the term is in").optional(),
  parentId: guidField("Id of the parent term").optional(),
  ownerId: ownerIdOption,
  acronym: z.array(z.string()).optional().describe("An acronym of the term"),
  resourceName: z.array(z.string()).optional().describe("Name of a resource link; pairs with --resource-url"),
  resourceUrl: z.array(z.string()).optional().describe("URL of a resource link; pairs with --resource-name"),
  synonym: guidListField("Id of a term that is a synonym").optional(),
  related: guidListField("Id of a related term").optional(),
  payloadFile: unifiedPayloadFile.describe("JSON file holding the term (options override its fields)"),
};
type TermOptions = {
  name?: string;
  description?: string;
  status?: string;
  domainId?: string;
  parentId?: string;
  ownerId?: string[];
  acronym?: string[];
  resourceName?: string[];
  resourceUrl?: string[];
  synonym?: string[];
  related?: string[];
  payloadFile?: string;
};

function resources(input: TermOptions): Array<{ name: string; url: string }> | undefined {
  const names = input.resourceName ?? [];
  const urls = input.resourceUrl ?? [];
  if (names.length !== urls.length) {
    throw new UsageError(
      `--resource-name is given ${names.length} times and --resource-url ${urls.length} times; give them in pairs.`,
    );
  }
  return names.length ? names.map((name, i) => ({ name, url: urls[i] })) : undefined;
}

async function termBody(ctx: OperationContext, input: TermOptions): Promise<Record<string, unknown>> {
  const payload = await payloadObject(ctx, input.payloadFile, "a term as a JSON object");
  return overlay(payload, {
    name: input.name,
    description: input.description,
    status: input.status,
    domain: input.domainId,
    parentId: input.parentId,
    acronyms: input.acronym?.length ? input.acronym : undefined,
    resources: resources(input),
  }, input.ownerId);
}

/** The relationships `--synonym` and `--related` ask for, checked before anything is sent. */
function wantedRelationships(input: TermOptions): Array<{ entityId: string; relationshipType: string }> {
  const links = [
    ...(input.synonym ?? []).map((id) => ({ entityId: id.trim(), relationshipType: "Synonym" })),
    ...(input.related ?? []).map((id) => ({ entityId: id.trim(), relationshipType: "Related" })),
  ];
  for (const link of links) {
    if (!link.entityId) throw new UsageError("--synonym and --related take the id of a term, not nothing.");
  }
  return links;
}

async function addRelationships(
  ctx: OperationContext,
  id: string,
  links: Array<{ entityId: string; relationshipType: string }>,
): Promise<unknown[]> {
  const made: unknown[] = [];
  for (const link of links) {
    made.push(
      await ctx.unified().terms.createRelationship(id, link, { entityType: "TERM", signal: ctx.signal }),
    );
  }
  return made;
}

export const termCreate = defineOperation({
  id: "uc.term-create",
  group: "uc",
  command: "term create",
  summary: "Create a term in a governance domain, with its synonyms and related terms",
  description: `Give --name and --domain-id (options: ${TERM_FLAGS}) and/or a --payload-file with the ` +
    "term as JSON; options override the file. Owners are Entra ID object IDs, never e-mail addresses. " +
    "--synonym and --related add relationships to existing terms once the term exists.",
  input: z.object(termFields),
  annotations: CREATE,
  run: async (ctx, input) => {
    const body = await termBody(ctx, input);
    requireField(body, "name", "--name", "uc term create");
    requireField(body, "domain", "--domain-id", "uc term create");
    body.status ??= "DRAFT";
    const links = wantedRelationships(input);
    precheck(termInputSchema, body, "term");
    const term = await ctx.unified().terms.create(body as TermInput, { signal: ctx.signal });
    if (links.length === 0) return term;
    return { ...term, relationships: await addRelationships(ctx, term.id, links) };
  },
});

export const termUpdate = defineOperation({
  id: "uc.term-update",
  group: "uc",
  command: "term update",
  summary: "Update a term and/or add synonyms and related terms to it",
  description: `Without --payload-file the term is read and the options given (${TERM_FLAGS}) are laid ` +
    "over it, so other fields stay; with it, the file (options over it) replaces the term. With only " +
    "--synonym/--related the term is left as is and the relationships are added.",
  input: z.object({ termId, ...termFields }),
  annotations: { ...UPSERT, destructive: true },
  run: async (ctx, input) => {
    const body = await termBody(ctx, input);
    const links = wantedRelationships(input);
    if (links.length === 0) requireSomething(body, "uc term update", TERM_FLAGS);
    precheck(termInputSchema, body, "term update");
    const terms = ctx.unified().terms;
    const term = Object.keys(body).length > 0
      ? await terms.update(input.termId, body, { merge: !input.payloadFile, signal: ctx.signal })
      : await terms.get(input.termId, { signal: ctx.signal });
    if (links.length === 0) return term;
    return { ...term, relationships: await addRelationships(ctx, term.id, links) };
  },
});

export const termGet = defineOperation({
  id: "uc.term-get",
  group: "uc",
  command: "term get",
  summary: "Read a term by id",
  input: z.object({ termId }),
  annotations: READ,
  run: async (ctx, input) => await ctx.unified().terms.get(input.termId, { signal: ctx.signal }),
});

const termDelete = defineOperation({
  id: "uc.term-delete",
  group: "uc",
  command: "term delete",
  summary: "Delete a term",
  input: z.object({ termId }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await ctx.unified().terms.delete(input.termId, { signal: ctx.signal });
    return deletedResult("term", input.termId);
  },
});

export const termList = defineOperation({
  id: "uc.term-list",
  group: "uc",
  command: "term list",
  summary: "List terms, of a domain or under a parent term (every page unless --top or --skip)",
  input: z.object({
    domainId: guidField("Only the terms of this governance domain").optional(),
    parentId: guidField("Only the children of this term").optional(),
    keyword: z.string().optional().describe("Only terms whose name contains this"),
    ...pagingOptions,
  }),
  annotations: READ,
  run: async (ctx, input) => await listEntities(ctx.unified().terms, input, ctx.signal),
});

const searchInput = z.object({
  ...searchFields,
  acronym: z.array(z.string()).optional().describe("Only terms with this acronym"),
  ...pagingOptions,
  payloadFile: unifiedPayloadFile.describe("JSON file with a query body (ids, domainIds, orderby, ...)"),
});
const acronyms = (input: { acronym?: string[] }) => ({
  acronyms: input.acronym?.length ? input.acronym : undefined,
});

export const termQuery = defineOperation({
  id: "uc.term-query",
  group: "uc",
  command: "term query",
  summary: "Find terms by filters (domain, keyword, status, owner, acronym)",
  description: "Filters as options and/or a --payload-file with the JSON query body " +
    "({ids, domainIds, nameKeyword, owners, status, multiStatus, acronyms, orderby, skip, top}); options win.",
  input: searchInput,
  annotations: READ,
  run: async (ctx, input) =>
    await ctx.unified().terms.query(await searchBody(ctx, input, acronyms(input)), { signal: ctx.signal }),
});

const termCount = defineOperation({
  id: "uc.term-count",
  group: "uc",
  command: "term count",
  summary: "Count the terms matching filters",
  input: searchInput,
  annotations: READ,
  run: async (ctx, input) =>
    await ctx.unified().terms.count(await searchBody(ctx, input, acronyms(input)), { signal: ctx.signal }),
});

export const termHierarchy = defineOperation({
  id: "uc.term-hierarchy",
  group: "uc",
  command: "term hierarchy",
  summary: "The term tree of a domain, or with --term-id the parents and children of one term",
  input: z.object({
    domainId: guidField("Governance domain whose term tree to show").optional(),
    termId: termId.optional().describe("Show this term's own hierarchy instead"),
    maxDepth: z.number().int().min(0).optional().describe("How many levels below the roots to show"),
    includeDraft: z.boolean().optional().describe("Include DRAFT terms (left out unless given)"),
  }),
  annotations: READ,
  run: async (ctx, input) => {
    if (!input.termId && !input.domainId) {
      throw new UsageError(
        "uc term hierarchy needs --domain-id (the domain's term tree) or --term-id (one term's hierarchy).",
      );
    }
    const http = ctx.unified().http;
    if (input.termId) {
      return await http.request({
        method: "GET",
        area: "unified",
        path: `${UNIFIED_PREFIX}/terms/${encodeURIComponent(input.termId)}/hierarchies`,
        query: { maxDepth: input.maxDepth },
        signal: ctx.signal,
      }) ?? {};
    }
    return await http.request({
      method: "GET",
      area: "unified",
      path: `${UNIFIED_PREFIX}/terms/hierarchy`,
      query: {
        domainId: input.domainId,
        maxDepth: input.maxDepth,
        includeDraft: input.includeDraft ?? false,
      },
      signal: ctx.signal,
    });
  },
});

function checkEnum(values: readonly string[], value: string | undefined, option: string): void {
  if (value !== undefined && !canonicalEnumValue(values, value)) {
    throw new UsageError(`${option} must be ${describeEnum(values)}, not "${value}".`);
  }
}

export const termRelationships = defineOperation({
  id: "uc.term-relationships",
  group: "uc",
  command: "term relationships",
  summary: "The entities a term is related to (synonyms, related terms, data products, ...)",
  input: z.object({
    termId,
    relationshipType: z.string().optional().describe("Only Synonym, Related or Parent (any case)"),
    entityType: z.string().optional().describe("Only entities of this category: TERM, DATAPRODUCT, ..."),
  }),
  annotations: READ,
  run: async (ctx, input) => {
    checkEnum(TERM_RELATIONSHIP_TYPES, input.relationshipType, "--relationship-type");
    checkEnum(ENTITY_CATEGORIES, input.entityType, "--entity-type");
    return await ctx.unified().terms.listRelationships(input.termId, {
      relationshipType: input.relationshipType,
      entityType: input.entityType,
      signal: ctx.signal,
    });
  },
});

const termDeleteRelationship = defineOperation({
  id: "uc.term-delete-relationship",
  group: "uc",
  command: "term delete-relationship",
  summary: "Remove a term's relationship to an entity",
  input: z.object({
    termId,
    entityId: idOption("Id of the related entity"),
    entityType: z.string().optional().describe("Category of the related entity (TERM by default)"),
    relationshipType: z.string().optional().describe(
      "Only this relationship type (Synonym, Related, Parent)",
    ),
  }),
  annotations: DELETE,
  run: async (ctx, input) => {
    const terms = ctx.unified().terms;
    // Checked before anything is sent.
    checkEnum(TERM_RELATIONSHIP_TYPES, input.relationshipType, "--relationship-type");
    checkEnum(ENTITY_CATEGORIES, input.entityType, "--entity-type");
    const target = {
      entityId: input.entityId,
      entityType: input.entityType ?? "TERM",
      relationshipType: input.relationshipType,
      signal: ctx.signal,
    };
    await terms.deleteRelationship(input.termId, target);
    return deletedResult("relationship", input.entityId, { termId: input.termId });
  },
});

export const termRelate = defineOperation({
  id: "uc.term-relate",
  group: "uc",
  command: "term relate",
  summary: "Relate a term to an entity: a data asset, a data product, another term, ...",
  description: "--entity-type is the entity's category (TERM by default; DATAASSET for a catalog asset, " +
    "by its GUID) and --relationship-type is Synonym, Related (default) or Parent. The relationship is " +
    "added; relating the same pair again keeps one.",
  input: z.object({
    termId,
    entityId: idOption("Id of the entity to relate the term to"),
    entityType: z.string().optional().describe("Category of the entity: TERM (default), DATAASSET, ..."),
    relationshipType: z.string().optional().describe("Synonym, Related (default) or Parent (any case)"),
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    checkEnum(TERM_RELATIONSHIP_TYPES, input.relationshipType, "--relationship-type");
    checkEnum(ENTITY_CATEGORIES, input.entityType, "--entity-type");
    const entityType = canonicalEnumValue(ENTITY_CATEGORIES, input.entityType ?? "TERM") ?? "TERM";
    const relationshipType =
      canonicalEnumValue(TERM_RELATIONSHIP_TYPES, input.relationshipType ?? "Related") ?? "Related";
    return await ctx.unified().terms.createRelationship(
      input.termId,
      { entityId: input.entityId, relationshipType },
      { entityType, signal: ctx.signal },
    );
  },
});

export const TERM_OPERATIONS: Operation[] = [
  termCreate,
  termGet,
  termUpdate,
  termDelete,
  termList,
  termQuery,
  termCount,
  facetsOperation("term", "term", (ctx) => ctx.unified().terms),
  termHierarchy,
  termRelationships,
  termRelate,
  termDeleteRelationship,
];
