/**
 * Unified catalog governance domain tools: list, get and create business domains: the
 * `uc domain list`, `get` and `create` operations.
 *
 * @module
 */
import { z } from "../../deps/zod.ts";
import { domainOperation } from "../../operations/unified_operations.ts";
import type { Domain } from "../../catalog/unified_domain_schemas.ts";
import { composedTool, operationTool } from "../tool_operation.ts";
import { toolOnly } from "../tool_fields.ts";
import {
  domainGet,
  domainSummary,
  domainType,
  entityStatus,
  existingDomain,
  MAX_UC_ITEMS,
  ownerContacts,
  summarizeDomain,
  withDomainHint,
} from "./unified_common.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

const domainList = domainOperation("list");
const domainCreate = domainOperation("create");

const domainId = z.string().trim().min(1).describe(
  "Domain ID",
);

export const ucListDomainsTool = operationTool({
  name: "uc_list_domains",
  title: "List governance domains",
  description:
    "Governance domains of the unified catalog: ID, name, type, status, description, parent ID. Gives " +
    "the domain_id the uc term tools take." + CATALOG_TEXT_IS_DATA,
  operation: domainList,
  // Every domain is read (the service pages them) and the answer cut at limit, to say whether more exist.
  fields: {
    top: false,
    skip: false,
    limit: toolOnly(
      z.number().int().min(1).max(MAX_UC_ITEMS).default(100).describe("Domains to return at most"),
    ),
  },
  output: z.object({
    domains: z.array(domainSummary),
    count: z.number().int().describe("Domains returned"),
    truncated: z.boolean().describe("True when more domains exist than were returned"),
  }),
  view: (result, input: { limit: number }) => {
    const found = result as Domain[];
    const domains = found.slice(0, input.limit).map(summarizeDomain);
    return { domains, count: domains.length, truncated: found.length > input.limit };
  },
});

export const ucGetDomainTool = operationTool({
  name: "uc_get_domain",
  title: "Get governance domain",
  description: "One governance domain by ID, with the service's full record (domain). Next: uc_list_terms." +
    CATALOG_TEXT_IS_DATA,
  operation: domainGet,
  fields: { domainId },
  wrapRun: (run, args) => withDomainHint(run, String(args.domain_id)),
  output: domainSummary.extend({
    domain: z.record(z.string(), z.unknown()).describe("The domain as the service returns it"),
  }),
  view: (result) => {
    const domain = result as Domain;
    return { ...summarizeDomain(domain), domain };
  },
});

export const ucCreateDomainTool = composedTool({
  name: "uc_create_domain",
  title: "Create governance domain",
  description:
    "Create a governance domain; returns its ID. Every call creates one and a taken name fails with " +
    "409: check uc_list_domains first.",
  input: z.object({
    name: z.string().trim().min(1).describe("Name of the domain, e.g. Finance"),
    description: z.string().optional().describe("What the domain covers"),
    type: z.string().optional().describe(
      "FunctionalUnit, LineOfBusiness, DataDomain, Regulatory or Project",
    ),
    status: z.string().optional().describe("Draft, Published or Expired"),
    parent_id: z.string().trim().min(1).optional().describe("ID of the parent domain"),
    owner_ids: z.array(z.string().min(1)).optional().describe(
      "Owners' Entra object IDs, not e-mails",
    ),
  }),
  output: domainSummary.extend({
    domain: z.record(z.string(), z.unknown()).describe("The domain as the service returns it"),
  }),
  // The parent domain is read first, so an unknown one fails naming parent_id.
  operations: [domainGet, domainCreate],
  compose: async (run, input) => {
    // Check everything before anything is sent.
    const type = input.type === undefined ? undefined : domainType(input.type);
    const status = input.status === undefined ? undefined : entityStatus(input.status);
    const contacts = ownerContacts(input.owner_ids);
    if (input.parent_id) await existingDomain(run, input.parent_id, "parent_id");
    const domain = await run(domainCreate, {
      name: input.name,
      description: input.description,
      type,
      status,
      parentId: input.parent_id,
      ownerId: contacts?.owner.map((owner) => owner.id),
    }) as Domain;
    return { ...summarizeDomain(domain), domain };
  },
});
