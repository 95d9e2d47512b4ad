/**
 * zod schemas of the unified catalog's governance domains: a domain as the service returns it (unknown
 * fields kept) and a domain as govcat sends it, with `type` and `status` in the service's spelling.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { DOMAIN_TYPES, ENTITY_STATUSES } from "./unified_enums.ts";
import {
  caseInsensitiveEnum,
  type CommonInput,
  commonInput,
  type EntityBase,
  entityBase,
  type Loose,
  requiredString,
} from "./unified_schemas.ts";

/** A governance domain as returned. */
export interface Domain extends EntityBase {
  /** Kind of domain: `FunctionalUnit`, `LineOfBusiness`, `DataDomain`, `Regulatory` or `Project`. */
  type?: string;
  /** GUID of the parent domain, for a subdomain. */
  parentId?: string;
  /** Whether the domain is restricted: only people granted access to it see its content. */
  isRestricted?: boolean;
  /** How the domain is shown in the portal: its `color`. */
  thumbnail?: { color?: string; [key: string]: unknown };
  /** Data map domains and collections linked to the governance domain. */
  domains?: Loose[];
}

/** Checks a governance domain the service returned; unknown fields pass through. */
export const domainSchema: z.ZodType<Domain, Domain> = z.looseObject({
  ...entityBase,
  type: z.string().optional(),
  parentId: z.string().optional(),
  isRestricted: z.boolean().optional(),
  thumbnail: z.looseObject({ color: z.string().optional() }).optional(),
  domains: z.array(z.looseObject({})).optional(),
});

/** A domain to create or update. */
export interface DomainInput extends CommonInput {
  /** Name of the domain. */
  name: string;
  /** `FunctionalUnit`, `LineOfBusiness`, `DataDomain`, `Regulatory` or `Project`, any letter case. */
  type?: string;
  /** `DRAFT`, `PUBLISHED` or `EXPIRED`, in any letter case. */
  status?: string;
  /** GUID of the parent domain, to make this one a subdomain. */
  parentId?: string;
}

/** Checks a governance domain before it is sent, with `type` and `status` normalised. */
export const domainInputSchema: z.ZodType<DomainInput, DomainInput> = z.looseObject({
  ...commonInput,
  name: requiredString,
  type: caseInsensitiveEnum(DOMAIN_TYPES).optional(),
  status: caseInsensitiveEnum(ENTITY_STATUSES).optional(),
  parentId: z.string().optional(),
});
