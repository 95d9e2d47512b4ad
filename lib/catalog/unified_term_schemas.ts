/**
 * zod schemas of the unified catalog's glossary terms: a term as the service returns it (unknown fields
 * kept) and a term as govcat sends it, with `status` sent upper case.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { ENTITY_STATUSES } from "./unified_enums.ts";
import {
  caseInsensitiveEnum,
  type CommonInput,
  commonInput,
  type EntityBase,
  entityBase,
  requiredString,
} from "./unified_schemas.ts";

/** A glossary term as returned. */
export interface Term extends EntityBase {
  /** GUID of the governance domain that owns the term. */
  domain?: string;
  /** GUID of the parent term, for a term nested under another. */
  parentId?: string;
  /** Acronyms of the term. */
  acronyms?: string[];
  /** Links to material about the term, each with a name and URL. */
  resources?: Array<{ name?: string; url?: string; [key: string]: unknown }>;
  /** True when no term is nested under this one. */
  isLeaf?: boolean;
}

/** Checks a term the service returned; unknown fields pass through. */
export const termSchema: z.ZodType<Term, Term> = z.looseObject({
  ...entityBase,
  domain: z.string().optional(),
  parentId: z.string().optional(),
  acronyms: z.array(z.string()).optional(),
  resources: z.array(z.looseObject({ name: z.string().optional(), url: z.string().optional() })).optional(),
  isLeaf: z.boolean().optional(),
});

/** A term to create or update; `status` is matched ignoring case. */
export interface TermInput extends CommonInput {
  /** Name of the term, unique within its domain. */
  name: string;
  /** `DRAFT`, `PUBLISHED` or `EXPIRED`, in any letter case. */
  status: string;
  /** GUID of the governance domain that owns the term. */
  domain: string;
  /** GUID of the parent term, to nest the term under it. */
  parentId?: string;
  /** Acronyms of the term. */
  acronyms?: string[];
  /** Links to material about the term, each with a name and URL. */
  resources?: Array<{ name: string; url: string; [key: string]: unknown }>;
}

/** Checks a term before it is sent; `status` is sent upper case (`DRAFT`). */
export const termInputSchema: z.ZodType<TermInput, TermInput> = z.looseObject({
  ...commonInput,
  name: requiredString,
  status: caseInsensitiveEnum(ENTITY_STATUSES),
  domain: requiredString,
  parentId: z.string().optional(),
  acronyms: z.array(z.string()).optional(),
  resources: z.array(z.looseObject({ name: z.string(), url: z.string() })).optional(),
});
