/**
 * Unified catalog term tools: list a domain's terms, get a term with its relationships and
 * hierarchy, create a term (with owners, acronyms, resources, a parent and synonyms), and search terms
 * across all domains with the terms query API: the `uc term` operations (list, get, relationships,
 * hierarchy, create, relate, query) and `uc domain get`.
 *
 * These terms are unified catalog resources; they are not the terms of the classic glossary
 * (get_glossary_terms, create_glossary_term, assign_term_to_entities).
 *
 * @module
 */
import { z } from "../../deps/zod.ts";
import { CatalogError } from "../../core/errors.ts";
import { DEFAULT_PAGING_LIMITS, PagingGuard } from "../../http/paging_guard.ts";
import {
  termCreate,
  termHierarchy,
  termList,
  termQuery,
  termRelate,
  termRelationships,
} from "../../operations/unified_term_operations.ts";
import type { Page } from "../../catalog/unified_paging.ts";
import type { TermHierarchy } from "../../catalog/unified_kinds.ts";
import type { Relationship } from "../../catalog/unified_query_schemas.ts";
import type { Domain } from "../../catalog/unified_domain_schemas.ts";
import type { Term } from "../../catalog/unified_term_schemas.ts";
import { composedTool, type OperationRunner } from "../tool_operation.ts";
import {
  domainGet,
  entityStatus,
  existingDomain,
  existingTerm,
  filterStatus,
  MAX_UC_ITEMS,
  ownerContacts,
  summarizeTerm,
  termGet,
  termSummary,
} from "./unified_common.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

/** Relationships and children kept in one uc_get_term answer. */
export const MAX_TERM_LINKS = 200;
/** Synonyms accepted by one uc_create_term call. */
export const MAX_CREATE_SYNONYMS = 50;
/** Distinct domains whose names uc_search_terms looks up. */
const MAX_DOMAIN_LOOKUPS = 50;

const statusFilter = z.string().optional().describe(
  "Only this status: Draft, Published or Expired",
);

const relationshipSummary = z.object({
  entity_id: z.string().describe("ID of the related entity"),
  entity_type: z.string().optional().describe("Category of the related entity, e.g. TERM"),
  relationship_type: z.string().optional().describe("Synonym, Related or Parent"),
  description: z.string().optional(),
});

function summarizeRelationship(link: Relationship): z.input<typeof relationshipSummary> {
  return {
    entity_id: link.entityId,
    entity_type: typeof link.entityType === "string" ? link.entityType : undefined,
    relationship_type: link.relationshipType,
    description: link.description,
  };
}

const termNode = z.object({
  id: z.string(),
  name: z.string().optional(),
  status: z.string().optional(),
});

// ---- uc_list_terms ----

export const ucListTermsTool = composedTool({
  name: "uc_list_terms",
  title: "List terms of a domain",
  description: "Unified catalog terms of one domain, by status or keyword: ID, name, status, description, " +
    "parent, acronyms, owners. Across domains: uc_search_terms; one term's links: uc_get_term." +
    CATALOG_TEXT_IS_DATA,
  input: z.object({
    domain_id: z.string().trim().min(1).describe("Domain ID"),
    limit: z.number().int().min(1).max(MAX_UC_ITEMS).default(100).describe("Most terms to return"),
    status: statusFilter,
    keyword: z.string().trim().min(1).optional().describe(
      "Match in name, description or acronyms",
    ),
  }),
  output: z.object({
    domain_id: z.string(),
    domain_name: z.string().optional(),
    terms: z.array(termSummary),
    count: z.number().int().describe("Terms returned"),
    truncated: z.boolean().describe("True when more terms match than were returned"),
  }),
  // The domain is read first (an unknown one fails naming domain_id), then pages of its terms.
  operations: [domainGet, termList],
  compose: async (run, input) => {
    const status = input.status === undefined ? undefined : entityStatus(input.status);
    const domain = await existingDomain(run, input.domain_id);
    const found: Term[] = [];
    const pageSize = Math.min(MAX_UC_ITEMS, input.limit + 1);
    // With a status filter, pages whose terms are all filtered out do not fill `found`: the guard stops a
    // catalog that ignores `skip` and answers the same page for ever.
    const guard = new PagingGuard(`the terms of domain ${domain.id}`, DEFAULT_PAGING_LIMITS);
    for (let skip = 0; found.length <= input.limit;) {
      guard.beforePage(String(skip));
      const page = await run(termList, {
        domainId: domain.id,
        keyword: input.keyword,
        top: pageSize,
        ...(skip > 0 ? { skip } : {}),
      }) as Page<Term>;
      guard.afterPage(page.value.length, page.value.map((term) => String(term.id)).join(","));
      for (const term of page.value) {
        // The list call has no documented status parameter: filter here.
        if (status && String(term.status ?? "").toUpperCase() !== status) continue;
        found.push(term);
        if (found.length > input.limit) break;
      }
      skip += page.value.length;
      if (!page.nextLink || page.value.length === 0) break;
    }
    const terms = found.slice(0, input.limit).map(summarizeTerm);
    return {
      domain_id: domain.id,
      domain_name: domain.name,
      terms,
      count: terms.length,
      truncated: found.length > input.limit,
    };
  },
});

// ---- uc_get_term ----

const hierarchyOutput = z.object({
  parent: termNode.optional().describe("The parent term, when the term has one"),
  ancestors: z.array(termNode).describe("Ancestors, root first"),
  children: z.array(termNode).describe("Direct child terms"),
  children_truncated: z.boolean(),
});

/** Reads the hierarchy answer loosely: its shape is not pinned by the API notes. */
function nodes(value: unknown): Array<z.input<typeof termNode>> {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (!item || typeof item !== "object") return [];
    const node = item as Record<string, unknown>;
    if (typeof node.id !== "string") return [];
    return [{
      id: node.id,
      name: typeof node.name === "string" ? node.name : undefined,
      status: typeof node.status === "string" ? node.status : undefined,
    }];
  });
}

async function hierarchyOf(
  run: OperationRunner,
  term: Term,
  signal?: AbortSignal,
): Promise<{ hierarchy?: z.input<typeof hierarchyOutput>; error?: string }> {
  try {
    const tree = await run(termHierarchy, { termId: term.id }) as TermHierarchy;
    const ancestors = nodes(tree.ancestors);
    const children = nodes(tree.children);
    const parentId = term.parentId || ancestors.at(-1)?.id;
    const parent = parentId ? (ancestors.find((a) => a.id === parentId) ?? { id: parentId }) : undefined;
    return {
      hierarchy: {
        parent,
        ancestors,
        children: children.slice(0, MAX_TERM_LINKS),
        children_truncated: children.length > MAX_TERM_LINKS,
      },
    };
  } catch (error) {
    // The hierarchy is extra; the term itself was read.
    if (!(error instanceof CatalogError) || signal?.aborted) throw error;
    return { error: `${error.status || ""} ${error.message}`.trim() };
  }
}

export const ucGetTermTool = composedTool({
  name: "uc_get_term",
  title: "Get unified catalog term",
  description:
    "One unified catalog term by ID with its relationships (synonyms, related, others) and hierarchy " +
    `(parent, ancestors root first, children; at most ${MAX_TERM_LINKS} each, *_truncated says more).` +
    CATALOG_TEXT_IS_DATA,
  input: z.object({
    term_id: z.string().trim().min(1).describe("Term ID"),
  }),
  output: termSummary.extend({
    synonyms: z.array(relationshipSummary).describe("Synonym relationships"),
    related: z.array(relationshipSummary).describe("Related relationships"),
    other_relationships: z.array(relationshipSummary).describe("Any other relationship (data products, ...)"),
    relationships_truncated: z.boolean(),
    hierarchy: hierarchyOutput.optional(),
    hierarchy_error: z.string().optional(),
    term: z.record(z.string(), z.unknown()).describe("The term as the service returns it"),
  }),
  operations: [termGet, termRelationships, termHierarchy],
  compose: async (run, input, ctx) => {
    const term = await existingTerm(run, input.term_id);
    const [links, tree] = await Promise.all([
      run(termRelationships, { termId: term.id }) as Promise<Relationship[]>,
      hierarchyOf(run, term, ctx.signal),
    ]);
    const kept = links.slice(0, MAX_TERM_LINKS).map(summarizeRelationship);
    const typed = (type: string) => kept.filter((l) => l.relationship_type?.toLowerCase() === type);
    return {
      ...summarizeTerm(term),
      synonyms: typed("synonym"),
      related: typed("related"),
      other_relationships: kept.filter((l) =>
        !["synonym", "related"].includes(String(l.relationship_type).toLowerCase())
      ),
      relationships_truncated: links.length > MAX_TERM_LINKS,
      hierarchy: tree.hierarchy,
      hierarchy_error: tree.error,
      term,
    };
  },
});

// ---- uc_create_term ----

export const ucCreateTermTool = composedTool({
  name: "uc_create_term",
  title: "Create unified catalog term",
  description:
    "Create a term in a governance domain; returns it. Every call creates one; a name in use fails " +
    "with 409: check uc_search_terms first. synonyms are linked after; relationship_errors lists " +
    "failures. assign_term_to_entities needs a classic term (create_glossary_term).",
  input: z.object({
    name: z.string().trim().min(1).describe("e.g. Customer Lifetime Value"),
    domain_id: z.string().trim().min(1).describe("Domain ID"),
    description: z.string().optional().describe("What the term means"),
    status: z.string().default("Draft").describe("Draft, Published or Expired"),
    owner_ids: z.array(z.string().min(1)).optional().describe(
      "Owners' Entra object IDs, not e-mails",
    ),
    acronyms: z.array(z.string().min(1)).optional().describe('Acronyms, e.g. ["CLV"]'),
    synonyms: z.array(z.string().trim().min(1)).max(MAX_CREATE_SYNONYMS).optional().describe(
      "IDs of terms that mean the same",
    ),
    parent_id: z.string().trim().min(1).optional().describe("ID of the parent term (same domain)"),
    resources: z.array(z.object({
      name: z.string().min(1).describe("Link text"),
      url: z.string().min(1).describe("URL"),
    })).optional().describe("Reference links"),
  }),
  output: termSummary.extend({
    domain_name: z.string().optional(),
    synonyms: z.array(relationshipSummary).describe("Synonym relationships created"),
    relationship_errors: z.array(z.object({ entity_id: z.string(), error: z.string() })).describe(
      "Synonyms that could not be related (the term was still created)",
    ),
    term: z.record(z.string(), z.unknown()).describe("The term as the service returns it"),
  }),
  // The domain, parent and synonyms are read first; each synonym is related once the term exists, and
  // one that fails is reported without undoing the term.
  operations: [domainGet, termGet, termCreate, termRelate],
  compose: async (run, input, ctx) => {
    // Check everything before anything is created.
    const status = entityStatus(input.status);
    const contacts = ownerContacts(input.owner_ids);
    const domain = await existingDomain(run, input.domain_id);
    if (input.parent_id) await existingTerm(run, input.parent_id, "parent_id");
    const synonymIds = [...new Set(input.synonyms ?? [])];
    for (const id of synonymIds) await existingTerm(run, id, "synonyms");

    const term = await run(termCreate, {
      name: input.name,
      domainId: domain.id,
      description: input.description,
      status,
      ownerId: contacts?.owner.map((owner) => owner.id),
      acronym: input.acronyms,
      parentId: input.parent_id,
      resourceName: input.resources?.map((resource) => resource.name),
      resourceUrl: input.resources?.map((resource) => resource.url),
    }) as Term;

    const synonyms: Array<z.input<typeof relationshipSummary>> = [];
    const relationshipErrors: Array<{ entity_id: string; error: string }> = [];
    for (const id of synonymIds) {
      try {
        const link = await run(termRelate, {
          termId: term.id,
          entityId: id,
          entityType: "TERM",
          relationshipType: "Synonym",
        }) as Relationship;
        synonyms.push({ ...summarizeRelationship(link), entity_type: "TERM" });
      } catch (error) {
        if (!(error instanceof CatalogError) || ctx.signal?.aborted) throw error;
        relationshipErrors.push({ entity_id: id, error: `${error.status || ""} ${error.message}`.trim() });
      }
    }
    return {
      ...summarizeTerm(term),
      domain_name: domain.name,
      synonyms,
      relationship_errors: relationshipErrors,
      term,
    };
  },
});

// ---- uc_search_terms ----

export const ucSearchTermsTool = composedTool({
  name: "uc_search_terms",
  title: "Search unified catalog terms",
  description: "Search unified catalog terms by name keyword across domains, by status: ID, name, status, " +
    "description, domain. Use before uc_create_term; then uc_get_term." + CATALOG_TEXT_IS_DATA,
  input: z.object({
    keyword: z.string().trim().min(1).describe("Part of the term name"),
    limit: z.number().int().min(1).max(MAX_UC_ITEMS).default(50).describe("Most terms to return"),
    status: statusFilter,
    domain_id: z.string().trim().min(1).optional().describe("Only this domain"),
  }),
  output: z.object({
    terms: z.array(termSummary.extend({ domain_name: z.string().optional() })),
    count: z.number().int().describe("Terms returned"),
    truncated: z.boolean().describe("True when more terms match than were returned"),
  }),
  // The terms query, then the names of the domains the matches are in.
  operations: [domainGet, termQuery],
  compose: async (run, input, ctx) => {
    const status = input.status === undefined ? undefined : filterStatus(input.status);
    const names = new Map<string, string | undefined>();
    if (input.domain_id) {
      const domain = await existingDomain(run, input.domain_id);
      names.set(domain.id, domain.name);
    }
    const page = await run(termQuery, {
      keyword: input.keyword,
      status: status === undefined ? undefined : [status],
      domainId: input.domain_id ? [input.domain_id] : undefined,
      top: input.limit,
    }) as Page<Term>;
    const found = page.value.slice(0, input.limit);
    const unknownDomains = [...new Set(found.map((t) => t.domain).filter((d): d is string => !!d))]
      .filter((id) => !names.has(id))
      .slice(0, MAX_DOMAIN_LOOKUPS);
    await Promise.all(unknownDomains.map(async (id) => {
      try {
        names.set(id, (await run(domainGet, { domainId: id }) as Domain).name);
      } catch (error) {
        // A name is a convenience; an unreadable domain still leaves the ID.
        if (!(error instanceof CatalogError) || ctx.signal?.aborted) throw error;
      }
    }));
    const terms = found.map((term) => ({
      ...summarizeTerm(term),
      domain_name: term.domain ? names.get(term.domain) : undefined,
    }));
    return {
      terms,
      count: terms.length,
      truncated: page.value.length > input.limit || !!page.nextLink,
    };
  },
});
