/**
 * zod schemas of the unified catalog: the entities the service returns (loose, so fields this version
 * does not know survive a read-modify-write) and the inputs govcat sends, checked before sending with
 * enumerations normalised to the service's spelling. {@link validateInput} turns zod issues into one
 * {@link UsageError} naming each bad field.
 *
 * @example
 * ```ts
 * import { termInputSchema, validateInput } from "./schemas.ts";
 * const body = validateInput(termInputSchema, { name: "Revenue", status: "draft", domain: "d-1" });
 * body.status; // "DRAFT"
 * ```
 *
 * @module
 */
import { z, type ZodType } from "../deps/zod.ts";
import { UsageError } from "../errors.ts";
import {
  AUDIENCES,
  canonicalEnumValue,
  CDE_DATA_TYPES,
  DATA_PRODUCT_TYPES,
  describeEnum,
  DOMAIN_TYPES,
  ENTITY_CATEGORIES,
  ENTITY_STATUSES,
  FILTER_STATUSES,
  KEY_RESULT_STATUSES,
  OBJECTIVE_STATUSES,
  TERM_RELATIONSHIP_TYPES,
  UPDATE_FREQUENCIES,
} from "./enums.ts";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A string matched to one of `values` ignoring case, sent in the canonical spelling. */
export function caseInsensitiveEnum<T extends string>(values: readonly T[]): z.ZodType<T, string> {
  return z.string({ error: "must be a string" }).transform((input, context): T => {
    const value = canonicalEnumValue(values, input);
    if (value === undefined) {
      context.addIssue({ code: "custom", message: `must be ${describeEnum(values)}, not "${input}"` });
      return z.NEVER;
    }
    return value;
  });
}

const requiredString = z.string({ error: "is required (a string)" }).trim().min(1, {
  error: "must not be empty",
});
const optionalNumber = z.number({ error: "must be a number" }).optional();

/** Fields a loose object keeps beyond the ones it names. */
export interface Loose {
  [key: string]: unknown;
}

// ---- Shared shapes ----

/** Server-kept audit fields; read only. */
export interface SystemData extends Loose {
  provisioningState?: string;
  createdAt?: string;
  createdBy?: string;
  lastModifiedAt?: string;
  lastModifiedBy?: string;
  expiredAt?: string;
  expiredBy?: string;
  closedAt?: string;
  closedBy?: string;
}
/** One contact: an Entra ID object ID and an optional note. */
export interface Contact extends Loose {
  id: string;
  description?: string;
}
/** Contacts by role (`owner`, `expert`, `databaseAdmin`, ...). */
export type ContactsMap = Record<string, Contact[]>;
/** One managed attribute of an entity. */
export interface ManagedAttribute extends Loose {
  name: string;
  value?: unknown;
  isRequired?: boolean;
}

/** Server-kept audit fields; read only. */
export const systemDataSchema: z.ZodType<SystemData, SystemData> = z.looseObject({
  provisioningState: z.string().optional(),
  createdAt: z.string().optional(),
  createdBy: z.string().optional(),
  lastModifiedAt: z.string().optional(),
  lastModifiedBy: z.string().optional(),
  expiredAt: z.string().optional(),
  expiredBy: z.string().optional(),
  closedAt: z.string().optional(),
  closedBy: z.string().optional(),
});

/** One contact: an Entra ID object ID, never an e-mail address (the service cannot resolve those). */
export const contactSchema: z.ZodType<Contact, Contact> = z.looseObject({
  id: z.string({ error: "is required (an Entra ID object ID)" }).trim().refine((id) => GUID.test(id), {
    error: (issue) =>
      String(issue.input).includes("@")
        ? "must be an identity-provider (Entra ID) object ID (a GUID), not an e-mail address"
        : "must be an identity-provider (Entra ID) object ID (a GUID)",
  }),
  description: z.string().optional(),
});

/** Contacts by role (`owner`, `expert`, `databaseAdmin`, ...). */
export const contactsMapSchema: z.ZodType<ContactsMap, ContactsMap> = z.record(
  z.string(),
  z.array(contactSchema),
);

/** One managed attribute of an entity. */
export const managedAttributeSchema: z.ZodType<ManagedAttribute, ManagedAttribute> = z.looseObject({
  name: z.string(),
  value: z.unknown().optional(),
  isRequired: z.boolean().optional(),
});

// ---- Entities as returned (loose: only the id is promised) ----

/** The fields every catalog entity may carry. */
export interface EntityBase extends Loose {
  id: string;
  name?: string;
  status?: string;
  description?: string;
  contacts?: Record<string, Array<{ id: string; [key: string]: unknown }>>;
  managedAttributes?: ManagedAttribute[];
  systemData?: SystemData;
}
/** A glossary term as returned. */
export interface Term extends EntityBase {
  domain?: string;
  parentId?: string;
  acronyms?: string[];
  resources?: Array<{ name?: string; url?: string; [key: string]: unknown }>;
  isLeaf?: boolean;
}
/** A governance domain as returned. */
export interface Domain extends EntityBase {
  type?: string;
  parentId?: string;
  isRestricted?: boolean;
  thumbnail?: { color?: string; [key: string]: unknown };
  domains?: Loose[];
}
/** A data product as returned. */
export interface DataProduct extends EntityBase {
  type?: string;
  domain?: string;
  businessUse?: string;
  termsOfUse?: Loose[];
  documentation?: Loose[];
  updateFrequency?: string;
  sensitivityLabel?: string;
  endorsed?: boolean;
  activeSubscriberCount?: number;
  audience?: string[];
  additionalProperties?: { assetCount?: number; [key: string]: unknown };
}
/** A critical data element as returned. */
export interface CriticalDataElement extends EntityBase {
  dataType?: string;
  domain?: string;
}
/** An objective (OKR) as returned. */
export interface Objective extends EntityBase {
  definition?: string;
  domain?: string;
  targetDate?: string;
  additionalProperties?: Loose;
}
/** A key result of an objective as returned. */
export interface KeyResult extends Loose {
  id: string;
  definition?: string;
  domainId?: string;
  status?: string;
  progress?: number;
  goal?: number;
  max?: number;
  systemData?: SystemData;
}
/** A policy as returned. */
export interface Policy extends Loose {
  id: string;
  name?: string;
}
/** A relationship of an entity as returned. */
export interface Relationship extends Loose {
  entityId: string;
  relationshipType?: string;
  description?: string;
  systemData?: SystemData;
}

const entityBase = {
  id: z.string(),
  name: z.string().optional(),
  status: z.string().optional(),
  description: z.string().optional(),
  contacts: z.record(z.string(), z.array(z.looseObject({ id: z.string() }))).optional(),
  managedAttributes: z.array(managedAttributeSchema).optional(),
  systemData: systemDataSchema.optional(),
};

export const termSchema: z.ZodType<Term, Term> = z.looseObject({
  ...entityBase,
  domain: z.string().optional(),
  parentId: z.string().optional(),
  acronyms: z.array(z.string()).optional(),
  resources: z.array(z.looseObject({ name: z.string().optional(), url: z.string().optional() })).optional(),
  isLeaf: z.boolean().optional(),
});
export const domainSchema: z.ZodType<Domain, Domain> = z.looseObject({
  ...entityBase,
  type: z.string().optional(),
  parentId: z.string().optional(),
  isRestricted: z.boolean().optional(),
  thumbnail: z.looseObject({ color: z.string().optional() }).optional(),
  domains: z.array(z.looseObject({})).optional(),
});
export const dataProductSchema: z.ZodType<DataProduct, DataProduct> = z.looseObject({
  ...entityBase,
  type: z.string().optional(),
  domain: z.string().optional(),
  businessUse: z.string().optional(),
  termsOfUse: z.array(z.looseObject({})).optional(),
  documentation: z.array(z.looseObject({})).optional(),
  updateFrequency: z.string().optional(),
  sensitivityLabel: z.string().optional(),
  endorsed: z.boolean().optional(),
  activeSubscriberCount: z.number().optional(),
  audience: z.array(z.string()).optional(),
  additionalProperties: z.looseObject({ assetCount: z.number().optional() }).optional(),
});
export const criticalDataElementSchema: z.ZodType<CriticalDataElement, CriticalDataElement> = z.looseObject({
  ...entityBase,
  dataType: z.string().optional(),
  domain: z.string().optional(),
});
export const objectiveSchema: z.ZodType<Objective, Objective> = z.looseObject({
  ...entityBase,
  definition: z.string().optional(),
  domain: z.string().optional(),
  targetDate: z.string().optional(),
  additionalProperties: z.looseObject({}).optional(),
});
export const keyResultSchema: z.ZodType<KeyResult, KeyResult> = z.looseObject({
  id: z.string(),
  definition: z.string().optional(),
  domainId: z.string().optional(),
  status: z.string().optional(),
  progress: z.number().optional(),
  goal: z.number().optional(),
  max: z.number().optional(),
  systemData: systemDataSchema.optional(),
});
/** Policies are only loosely described by the notes; everything is kept. */
export const policySchema: z.ZodType<Policy, Policy> = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
});
export const relationshipSchema: z.ZodType<Relationship, Relationship> = z.looseObject({
  entityId: z.string(),
  relationshipType: z.string().optional(),
  description: z.string().optional(),
  systemData: systemDataSchema.optional(),
});

// ---- Inputs (what govcat sends) ----

/** Fields most inputs may carry. */
export interface CommonInput extends Loose {
  description?: string;
  contacts?: ContactsMap;
  managedAttributes?: ManagedAttribute[];
}
/** A term to create or update; `status` is matched ignoring case. */
export interface TermInput extends CommonInput {
  name: string;
  status: string;
  domain: string;
  parentId?: string;
  acronyms?: string[];
  resources?: Array<{ name: string; url: string; [key: string]: unknown }>;
}
/** A domain to create or update. */
export interface DomainInput extends CommonInput {
  name: string;
  type?: string;
  status?: string;
  parentId?: string;
}
/** A data product to create or update. */
export interface DataProductInput extends CommonInput {
  name: string;
  type?: string;
  status?: string;
  domain?: string;
  updateFrequency?: string;
  audience?: string[];
}
/** A critical data element to create or update. */
export interface CriticalDataElementInput extends CommonInput {
  name: string;
  status?: string;
  dataType?: string;
  domain?: string;
}
/** An objective to create or update. */
export interface ObjectiveInput extends Loose {
  contacts?: ContactsMap;
  definition: string;
  status?: string;
  domain?: string;
  targetDate?: string;
}
/** A key result to create or update. */
export interface KeyResultInput extends Loose {
  definition?: string;
  domainId: string;
  status: string;
  progress?: number;
  goal?: number;
  max?: number;
}
/** A policy to update; sent as given. */
export type PolicyInput = Loose;
/** A relationship to create (no other fields are allowed through). */
export interface RelationshipInput {
  entityId: string;
  relationshipType?: string;
  description?: string;
}
/** A query, facet or count body. */
export interface QueryBody extends Loose {
  skip?: number;
  top?: number;
  ids?: string[];
  domainIds?: string[];
  nameKeyword?: string;
  status?: string;
  multiStatus?: string[];
  type?: string;
  types?: string[];
}

const commonInput = {
  description: z.string().optional(),
  contacts: contactsMapSchema.optional(),
  managedAttributes: z.array(managedAttributeSchema).optional(),
};

export const termInputSchema: z.ZodType<TermInput, TermInput> = z.looseObject({
  ...commonInput,
  name: requiredString,
  status: caseInsensitiveEnum(ENTITY_STATUSES),
  domain: requiredString,
  parentId: z.string().optional(),
  acronyms: z.array(z.string()).optional(),
  resources: z.array(z.looseObject({ name: z.string(), url: z.string() })).optional(),
});
export const domainInputSchema: z.ZodType<DomainInput, DomainInput> = z.looseObject({
  ...commonInput,
  name: requiredString,
  type: caseInsensitiveEnum(DOMAIN_TYPES).optional(),
  status: caseInsensitiveEnum(ENTITY_STATUSES).optional(),
  parentId: z.string().optional(),
});
export const dataProductInputSchema: z.ZodType<DataProductInput, DataProductInput> = z.looseObject({
  ...commonInput,
  name: requiredString,
  type: caseInsensitiveEnum(DATA_PRODUCT_TYPES).optional(),
  status: caseInsensitiveEnum(ENTITY_STATUSES).optional(),
  domain: z.string().optional(),
  updateFrequency: caseInsensitiveEnum(UPDATE_FREQUENCIES).optional(),
  audience: z.array(caseInsensitiveEnum(AUDIENCES)).optional(),
});
export const criticalDataElementInputSchema: z.ZodType<CriticalDataElementInput, CriticalDataElementInput> = z
  .looseObject({
    ...commonInput,
    name: requiredString,
    status: caseInsensitiveEnum(ENTITY_STATUSES).optional(),
    dataType: caseInsensitiveEnum(CDE_DATA_TYPES).optional(),
    domain: z.string().optional(),
  });
export const objectiveInputSchema: z.ZodType<ObjectiveInput, ObjectiveInput> = z.looseObject({
  contacts: contactsMapSchema.optional(),
  definition: requiredString,
  status: caseInsensitiveEnum(OBJECTIVE_STATUSES).optional(),
  domain: z.string().optional(),
  targetDate: z.string().optional(),
});
export const keyResultInputSchema: z.ZodType<KeyResultInput, KeyResultInput> = z.looseObject({
  definition: z.string().optional(),
  domainId: requiredString,
  status: caseInsensitiveEnum(KEY_RESULT_STATUSES),
  progress: optionalNumber,
  goal: optionalNumber,
  max: optionalNumber,
});
export const policyInputSchema: z.ZodType<PolicyInput, PolicyInput> = z.looseObject({});
export const relationshipInputSchema: z.ZodType<RelationshipInput, RelationshipInput> = z.object({
  entityId: requiredString,
  relationshipType: caseInsensitiveEnum(TERM_RELATIONSHIP_TYPES).optional(),
  description: z.string().optional(),
});
export const entityCategorySchema: z.ZodType<(typeof ENTITY_CATEGORIES)[number], string> =
  caseInsensitiveEnum(ENTITY_CATEGORIES);

/** A query, facet or count body; `status`/`multiStatus` are sent in the filter spelling. */
export function queryBodySchema(
  statuses: readonly string[] = FILTER_STATUSES,
): z.ZodType<QueryBody, QueryBody> {
  return z.looseObject({
    skip: optionalNumber,
    top: optionalNumber,
    ids: z.array(z.string()).optional(),
    domainIds: z.array(z.string()).optional(),
    nameKeyword: z.string().optional(),
    status: caseInsensitiveEnum(statuses).optional(),
    multiStatus: z.array(caseInsensitiveEnum(statuses)).optional(),
    type: caseInsensitiveEnum(DATA_PRODUCT_TYPES).optional(),
    types: z.array(caseInsensitiveEnum(DATA_PRODUCT_TYPES)).optional(),
  });
}

/** `contacts.owner[0].id` from a zod issue path. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let text = "";
  for (const key of path) {
    text += typeof key === "number" ? `[${key}]` : `${text ? "." : ""}${String(key)}`;
  }
  return text || "(body)";
}

/**
 * Parses `input` with `schema`, or throws one {@link UsageError} naming every bad field. An owner id
 * is also named by its CSV column (`owner_id`), where people meet it first.
 */
export function validateInput<S extends ZodType>(schema: S, input: unknown, what = "input"): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const field = fieldPath(issue.path);
    const named = /^contacts\.owner\[\d+\]\.id$/.test(field) ? `owner_id/${field}` : field;
    return `${named} ${issue.message}`;
  });
  throw new UsageError(
    `Invalid ${what}: ${problems.join("; ")}.`,
    "Fix the named fields; enumerations accept any letter case.",
  );
}
