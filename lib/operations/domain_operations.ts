/**
 * Operations of the `domain` group. The catalog's public API has no create, read, update or
 * delete for domains, and collections are the recommended alternative, so `create`, `list`, `get`,
 * `update` and `delete` work on collections: a domain is a collection whose friendly name is the domain's
 * name. Each of them says so on stderr. `search` searches the catalog, `check-attributes` reports which
 * fields such a domain has (the collection's), and `create-using-collections` creates the collection for a
 * domain or prints examples.
 *
 * @module
 */
import type { Collection } from "../catalog/collections_types.ts";
import { MAX_SEARCH_LIMIT } from "../catalog/atlas_model.ts";
import { z } from "../deps/zod.ts";
import { NotFoundError, UsageError } from "../core/errors.ts";
import { readCollectionPayload } from "./collections_operations.ts";
import {
  CLI_COLLECTION_HINTS,
  collectionNameProblem,
  getCollectionIfExists,
  upsertCollection,
  withCollectionHints,
} from "../catalog/collections_support.ts";
import { defineOperation, DELETE, type Operation, type OperationContext, READ, UPSERT } from "./types.ts";

/** Said in every mapped command's summary: the public API has no domain CRUD. */
const MAPPED = " (mapped to collections)";
const domainName = z.string().min(1).describe("Domain: its collection's name or friendly name");
const friendlyName = z.string().min(1).optional().describe("Name people see; defaults to the domain name");
const description = z.string().optional().describe("What the domain covers");
const payloadFile = z.string().optional().describe(
  'JSON file with {"friendlyName", "description"}; options win over the file',
);

/** Writes the notice every mapped command gives, so no one mistakes a collection for a domain. */
function notice(ctx: OperationContext, what: string): void {
  ctx.logger.warn(
    `domain ${what}: the catalog's public API has no domain CRUD; domains map to collections ` +
      "(the account's own domains, read only: `govcat account list-domains`).",
  );
}

/**
 * A collection name for a domain name: the name itself when it is a valid collection name, else its
 * letters and digits joined by hyphens, cut to 36 characters.
 */
export function collectionNameForDomain(domain: string): string {
  if (!collectionNameProblem(domain)) return domain;
  let slug = domain.normalize("NFKD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase();
  slug = slug.slice(0, 36).replace(/-+$/, "");
  return slug.length >= 3 ? slug : `domain-${slug || "new"}`.slice(0, 36);
}

/** The collection of a domain: by collection name first, else by a unique friendly name. */
async function resolveDomain(ctx: OperationContext, domain: string): Promise<Collection> {
  const catalog = ctx.catalog();
  if (!collectionNameProblem(domain)) {
    const byName = await getCollectionIfExists(catalog, domain, ctx.signal);
    if (byName) return byName;
  }
  const matches = (await catalog.collections.listAll({ signal: ctx.signal }))
    .filter((c) => c.friendlyName?.toLowerCase() === domain.toLowerCase());
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    throw new UsageError(
      `${matches.length} collections have the friendly name "${domain}": ` +
        `${matches.map((c) => c.name).join(", ")}.`,
      "Give the collection name instead with --domain-name.",
    );
  }
  throw new NotFoundError({
    status: 404,
    code: "CollectionNotFound",
    message: `No collection is named "${domain}" or has it as friendly name, so there is no such domain.`,
    hint: "List the domains with `govcat domain list`, or create one with `govcat domain create --name=…`.",
  });
}

async function createDomain(
  ctx: OperationContext,
  domain: string,
  fields: { friendlyName?: string; description?: string },
): Promise<{ domain: string; collectionName: string; created: boolean; collection: Collection }> {
  const name = collectionNameForDomain(domain);
  const outcome = await withCollectionHints(
    CLI_COLLECTION_HINTS,
    () =>
      upsertCollection(ctx.catalog(), name, {
        friendlyName: fields.friendlyName ?? domain,
        description: fields.description,
      }, { accountName: ctx.config().accountName, signal: ctx.signal }),
  );
  return {
    domain,
    collectionName: outcome.collection.name ?? name,
    created: outcome.created,
    collection: outcome.collection,
  };
}

export const createDomainOperation = defineOperation({
  id: "domain.create",
  group: "domain",
  command: "create",
  summary: `Create a domain as a collection under the root${MAPPED}`,
  description: "The collection is named after --name (letters, digits and hyphens; other characters " +
    "become hyphens) and its friendly name is --friendly-name or --name. Repeating it updates it.",
  input: z.object({
    name: z.string().min(1).describe("Name of the domain"),
    friendlyName,
    description,
    payloadFile,
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    notice(ctx, "create");
    const file = input.payloadFile ? await readCollectionPayload(ctx, input) : {};
    return createDomain(ctx, input.name, {
      friendlyName: input.friendlyName ?? file.friendlyName,
      description: input.description ?? file.description,
    });
  },
});

export const listDomainsOperation = defineOperation({
  id: "domain.list",
  group: "domain",
  command: "list",
  summary: `List domains: every collection of the account${MAPPED}`,
  input: z.object({}),
  annotations: READ,
  run: async (ctx) => {
    notice(ctx, "list");
    const value = await ctx.catalog().collections.listAll({ signal: ctx.signal });
    return { count: value.length, value };
  },
});

export const getDomainOperation = defineOperation({
  id: "domain.get",
  group: "domain",
  command: "get",
  summary: `Get a domain: the collection with this name or friendly name${MAPPED}`,
  input: z.object({ domainName }),
  annotations: READ,
  run: (ctx, input) => {
    notice(ctx, "get");
    return resolveDomain(ctx, input.domainName);
  },
});

export const updateDomainOperation = defineOperation({
  id: "domain.update",
  group: "domain",
  command: "update",
  summary: `Update a domain's friendly name or description${MAPPED}`,
  input: z.object({ domainName, friendlyName, description, payloadFile }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    notice(ctx, "update");
    const file = input.payloadFile ? await readCollectionPayload(ctx, input) : {};
    const changes = {
      friendlyName: input.friendlyName ?? file.friendlyName,
      description: input.description ?? file.description,
    };
    if (changes.friendlyName === undefined && changes.description === undefined) {
      throw new UsageError(
        "domain update needs --friendly-name, --description or a --payload-file with either.",
      );
    }
    const current = await resolveDomain(ctx, input.domainName);
    return withCollectionHints(
      CLI_COLLECTION_HINTS,
      () => ctx.catalog().collections.createOrUpdate(current.name!, changes, ctx.signal),
    );
  },
});

export const deleteDomainOperation = defineOperation({
  id: "domain.delete",
  group: "domain",
  command: "delete",
  summary: `Delete a domain's collection; refused while it has children or assets${MAPPED}`,
  input: z.object({ domainName }),
  annotations: DELETE,
  run: async (ctx, input) => {
    notice(ctx, "delete");
    const current = await resolveDomain(ctx, input.domainName);
    await withCollectionHints(
      CLI_COLLECTION_HINTS,
      () => ctx.catalog().collections.delete(current.name!, ctx.signal),
    );
    return { domain: input.domainName, collectionName: current.name, deleted: true };
  },
});

export const searchDomainOperation = defineOperation({
  id: "domain.search",
  group: "domain",
  command: "search",
  summary: "Search the catalog's assets by keywords and entity types",
  input: z.object({
    keywords: z.string().default("*").describe("Keywords; * matches everything"),
    entityTypes: z.array(z.string().min(1)).optional().describe(
      "Entity types to keep, e.g. azure_sql_table; several may also be separated with commas",
    ),
    limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(50).describe("Results, at most 1000"),
  }),
  annotations: READ,
  run: (ctx, input) => {
    const types = (input.entityTypes ?? []).flatMap((t) => t.split(",")).map((t) => t.trim()).filter(Boolean);
    const filter = types.length === 0
      ? undefined
      : types.length === 1
      ? { entityType: types[0] }
      : { or: types.map((entityType) => ({ entityType })) };
    return ctx.catalog().search.query({ keywords: input.keywords, limit: input.limit, filter }, ctx.signal);
  },
});

/** The fields a collection, and so a domain, has: the account contract's Collection. */
const COLLECTION_FIELDS = [
  { field: "name", writable: false, note: "unique in the account; set once, by the path" },
  { field: "friendlyName", writable: true, note: "the domain's display name" },
  { field: "description", writable: true, note: "free text" },
  { field: "parentCollection", writable: true, note: "{referenceName}: nests domains" },
  { field: "collectionProvisioningState", writable: false, note: "set by the service" },
  { field: "systemData", writable: false, note: "created/last modified at and by" },
] as const;

export const checkDomainAttributesOperation = defineOperation({
  id: "domain.check-attributes",
  group: "domain",
  command: "check-attributes",
  summary: "Report which domain attributes the account supports: those of its collections",
  description: "Reads the first page of collections to confirm the account answers, and lists the fields " +
    "a domain has when it is a collection, with those seen on the account's collections.",
  input: z.object({}),
  annotations: READ,
  run: async (ctx) => {
    const page = await ctx.catalog().collections.listPage(undefined, ctx.signal);
    const seen = new Set(page.value.flatMap((c) => Object.keys(c)));
    return {
      domainCrudAvailable: false,
      mappedTo: "collections",
      reason: "The catalog's public API has no domain create, read, update or delete; collections are the " +
        "recommended alternative. Governance domains of the unified catalog are a separate API (uc).",
      collectionsOnAccount: page.count ?? page.value.length,
      attributes: COLLECTION_FIELDS.map((f) => ({ ...f, seenOnAccount: seen.has(f.field) })),
      // The account API's collections carry none of these; unified catalog domains are another API.
      notOnCollections: ["owners", "experts", "status", "custom attributes"],
    };
  },
});

const EXAMPLES = [
  'govcat domain create-using-collections --domain-name="Sales Analytics"',
  'govcat collections create --collection-name=sales-analytics --friendly-name="Sales Analytics"',
  "govcat collections create --collection-name=sales-emea --parent-collection=sales-analytics",
  "govcat entity move-to-collection --collection-id=sales-analytics --guid=<asset guid>",
  "govcat collections path --collection-name=sales-emea",
];

export const createDomainUsingCollectionsOperation = defineOperation({
  id: "domain.create-using-collections",
  group: "domain",
  command: "create-using-collections",
  summary: "Create the collection that stands for a domain, or print examples of doing so",
  description:
    "With --domain-name, creates (or updates) a collection under the root whose friendly name is " +
    "the domain name. Without it, or with --show-examples, prints example commands.",
  input: z.object({
    domainName: z.string().min(1).optional().describe("Domain to create a collection for"),
    showExamples: z.boolean().optional().describe("Print example commands"),
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    const examples = input.showExamples || !input.domainName ? { examples: EXAMPLES } : {};
    if (!input.domainName) {
      return { ...examples, note: "Give --domain-name to create a domain's collection." };
    }
    notice(ctx, "create-using-collections");
    return { ...(await createDomain(ctx, input.domainName, {})), ...examples };
  },
});

/** Every operation of the `domain` group. */
export const DOMAIN_OPERATIONS: Operation[] = [
  createDomainOperation,
  listDomainsOperation,
  getDomainOperation,
  updateDomainOperation,
  deleteDomainOperation,
  searchDomainOperation,
  checkDomainAttributesOperation,
  createDomainUsingCollectionsOperation,
];
