/**
 * Shared pieces of the unified catalog tools: output shapes of domains and terms, checks of statuses,
 * domain types and owner IDs made before anything is sent, and existence checks that name what is missing.
 *
 * @module
 */
import { z } from "../../deps/zod.ts";
import { NotFoundError, UsageError } from "../../core/errors.ts";
import {
  canonicalEnumValue,
  DOMAIN_TYPES,
  ENTITY_STATUSES,
  FILTER_STATUSES,
} from "../../catalog/unified_enums.ts";
import type { QueryValue } from "../../http/request_url.ts";
import type { ListParams } from "../../catalog/unified_resource.ts";
import { domainOperation } from "../../operations/unified_operations.ts";
import { termGet } from "../../operations/unified_term_operations.ts";
import type { Domain } from "../../catalog/unified_domain_schemas.ts";
import type { Term } from "../../catalog/unified_term_schemas.ts";
import type { OperationRunner } from "../tool_operation.ts";
import { GUID_PATTERN } from "../../core/guid.ts";

/** The operations the unified catalog tools read a domain and a term with. */
export const domainGet = domainOperation("get");
export { termGet };

/** Items one list or search call returns at most. */
export const MAX_UC_ITEMS = 1000;

export const domainSummary = z.object({
  id: z.string(),
  name: z.string().optional(),
  type: z.string().optional().describe("FunctionalUnit, LineOfBusiness, DataDomain, Regulatory or Project"),
  status: z.string().optional().describe("DRAFT, PUBLISHED or EXPIRED"),
  description: z.string().optional(),
  parent_id: z.string().optional().describe("ID of the parent domain, for a sub-domain"),
});

export const termSummary = z.object({
  id: z.string(),
  name: z.string().optional(),
  status: z.string().optional().describe("DRAFT, PUBLISHED or EXPIRED"),
  domain_id: z.string().optional(),
  description: z.string().optional(),
  parent_id: z.string().optional().describe("ID of the parent term"),
  acronyms: z.array(z.string()).optional(),
  owner_ids: z.array(z.string()).optional().describe("Entra ID object IDs of the owners"),
  resources: z.array(z.object({ name: z.string().optional(), url: z.string().optional() })).optional(),
  is_leaf: z.boolean().optional(),
});

export function summarizeDomain(domain: Domain): z.input<typeof domainSummary> {
  return {
    id: domain.id,
    name: domain.name,
    type: domain.type,
    status: domain.status,
    description: domain.description,
    parent_id: domain.parentId || undefined,
  };
}

export function summarizeTerm(term: Term): z.input<typeof termSummary> {
  const owners = term.contacts?.owner?.map((owner) => owner.id);
  return {
    id: term.id,
    name: term.name,
    status: term.status,
    domain_id: term.domain,
    description: term.description,
    parent_id: term.parentId || undefined,
    acronyms: term.acronyms?.length ? term.acronyms : undefined,
    owner_ids: owners?.length ? owners : undefined,
    resources: term.resources?.length ? term.resources.map((r) => ({ name: r.name, url: r.url })) : undefined,
    is_leaf: term.isLeaf,
  };
}

/** Query parameters of a list call with the abort signal (undefined parameters are not sent). */
export function listParams(query: Record<string, QueryValue>, signal?: AbortSignal): ListParams {
  return Object.assign({ ...query }, { signal });
}

/** Status of a body (DRAFT, PUBLISHED, EXPIRED) from any letter case, or a usage error listing them. */
export function entityStatus(value: string, field = "status"): (typeof ENTITY_STATUSES)[number] {
  return checkedEnum(ENTITY_STATUSES, value, field);
}

/** Status of a query filter (Draft, Published, Expired) from any letter case. */
export function filterStatus(value: string, field = "status"): (typeof FILTER_STATUSES)[number] {
  return checkedEnum(FILTER_STATUSES, value, field);
}

/** A domain type from any letter case. */
export function domainType(value: string): (typeof DOMAIN_TYPES)[number] {
  return checkedEnum(DOMAIN_TYPES, value, "type");
}

function checkedEnum<T extends string>(values: readonly T[], value: string, field: string): T {
  const found = canonicalEnumValue(values, value);
  if (found === undefined) {
    throw new UsageError(
      `${field} "${value}" is not allowed; allowed values: ${values.join(", ")} (any letter case).`,
      `Call the tool again with one of ${values.join(", ")}.`,
    );
  }
  return found;
}

/**
 * The owner IDs as a contacts map, refusing anything but GUIDs before a request is sent: the service
 * cannot resolve e-mail addresses or names.
 */
export function ownerContacts(ownerIds: string[] | undefined): { owner: Array<{ id: string }> } | undefined {
  if (!ownerIds?.length) return undefined;
  const bad = ownerIds.filter((id) => !GUID_PATTERN.test(id.trim()));
  if (bad.length > 0) {
    const email = bad.some((id) => id.includes("@"));
    throw new UsageError(
      `owner_ids must be identity-provider (Microsoft Entra ID) object IDs (GUIDs)${
        email ? ", not e-mail addresses" : ""
      }: ${bad.map((id) => `"${id}"`).join(", ")}. Nothing was created.`,
      "Look up the object ID of each person, e.g. `az ad user show --id someone@contoso.com --query id -o tsv`, " +
        "and call the tool again with those GUIDs.",
    );
  }
  return { owner: [...new Set(ownerIds.map((id) => id.trim().toLowerCase()))].map((id) => ({ id })) };
}

/** The domain, or a 404 naming the domain ID and how to find a valid one. */
export function existingDomain(
  run: OperationRunner,
  domainId: string,
  field = "domain_id",
): Promise<Domain> {
  return withDomainHint(() => run(domainGet, { domainId }), domainId, field) as Promise<Domain>;
}

/** `call` (a read of domain `domainId`), its not-found error naming the argument `field` and the tools. */
export async function withDomainHint(
  call: () => Promise<unknown>,
  domainId: string,
  field = "domain_id",
): Promise<unknown> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new NotFoundError({
        status: 404,
        code: error.code,
        requestId: error.requestId,
        message: `No governance domain has the ID "${domainId}" (${field}).`,
        hint: "uc_list_domains lists the domains with their IDs; uc_create_domain creates one.",
        cause: error,
      });
    }
    throw error;
  }
}

/** The term, or a 404 naming the term ID (`field` says which input gave it). */
export async function existingTerm(run: OperationRunner, termId: string, field = "term_id"): Promise<Term> {
  try {
    return await run(termGet, { termId }) as Term;
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new NotFoundError({
        status: 404,
        code: error.code,
        requestId: error.requestId,
        message: `No unified catalog term has the ID "${termId}" (${field}).`,
        hint:
          "uc_search_terms finds terms by name across all domains; uc_list_terms lists one domain's terms.",
        cause: error,
      });
    }
    throw error;
  }
}
