/**
 * zod schemas of the unified catalog: the entities the service returns (loose, so fields this version
 * does not know survive a read-modify-write) and the inputs govcat sends, checked before sending with
 * enumerations normalised to the service's spelling. {@link validateInput} turns zod issues into one
 * {@link UsageError} naming each bad field.
 *
 * @example
 * ```ts
 * import { termInputSchema, validateInput } from "./unified_schemas.ts";
 * const body = validateInput(termInputSchema, { name: "Revenue", status: "draft", domain: "d-1" });
 * body.status; // "DRAFT"
 * ```
 *
 * @module
 */
import { z, type ZodType } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
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
} from "./unified_enums.ts";
import { GUID_PATTERN } from "../core/guid.ts";

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

/**
 * The open part of every unified catalog shape: fields the service sends that this version does not
 * name are kept as read, so a read-modify-write passes them back unchanged.
 */
export interface Loose {
  /** Any field, with whatever value the service gave it. */
  [key: string]: unknown;
}

// ---- Shared shapes ----

/** Server-kept audit fields; read only. */
export interface SystemData extends Loose {
  /** State of the entity in the service: `Succeeded`, `SoftDeleted` or `Unknown`. */
  provisioningState?: string;
  /** When the entity was created (an ISO 8601 date and time). */
  createdAt?: string;
  /** Identity that created the entity, as the service records it. */
  createdBy?: string;
  /** When the entity last changed (an ISO 8601 date and time). */
  lastModifiedAt?: string;
  /** Identity that last changed the entity. */
  lastModifiedBy?: string;
  /** When the entity's status became `EXPIRED`, if it did. */
  expiredAt?: string;
  /** Identity that expired the entity. */
  expiredBy?: string;
  /** For an objective: when it was closed. */
  closedAt?: string;
  /** For an objective: the identity that closed it. */
  closedBy?: string;
}
/** One contact: an Entra ID object ID and an optional note. */
export interface Contact extends Loose {
  /** Entra ID object ID (a GUID) of the person or group; an e-mail address is refused by the service. */
  id: string;
  /** Free text about the contact's role. */
  description?: string;
}
/** Contacts by role (`owner`, `expert`, `databaseAdmin`, ...). */
export type ContactsMap = Record<string, Contact[]>;
/** One managed attribute of an entity. */
export interface ManagedAttribute extends Loose {
  /** Name of the managed attribute, as defined in the catalog's managed attribute groups. */
  name: string;
  /** Value of the attribute; its JSON type follows the attribute's definition. */
  value?: unknown;
  /** Whether the attribute's definition makes it required. */
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
  id: z.string({ error: "is required (an Entra ID object ID)" }).trim().refine(
    (id) => GUID_PATTERN.test(id),
    {
      error: (issue) =>
        String(issue.input).includes("@")
          ? "must be an identity-provider (Entra ID) object ID (a GUID), not an e-mail address"
          : "must be an identity-provider (Entra ID) object ID (a GUID)",
    },
  ),
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
  /** GUID of the entity; the service uses the one sent at creation. */
  id: string;
  /** Display name of the entity. */
  name?: string;
  /** Lifecycle status: `DRAFT`, `PUBLISHED` or `EXPIRED` (objectives: `Draft`, `Published`, `Closed`). */
  status?: string;
  /** Description of the entity; may contain HTML. */
  description?: string;
  /** Contacts by role (`owner`, `expert`, ...), each with an Entra ID object ID. */
  contacts?: Record<string, Array<{ id: string; [key: string]: unknown }>>;
  /** Values of managed attributes attached to the entity. */
  managedAttributes?: ManagedAttribute[];
  /** Audit fields kept by the service; ignored when sent. */
  systemData?: SystemData;
}
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
/** A data product as returned. */
export interface DataProduct extends EntityBase {
  /** Kind of data product (`Analytical`, `Reference`, `MasterDataAndReferenceData`, ...). */
  type?: string;
  /** GUID of the governance domain that owns the data product. */
  domain?: string;
  /** What the business uses the data product for. */
  businessUse?: string;
  /** Links to the terms of use, each with a name, URL and optionally a data asset id. */
  termsOfUse?: Loose[];
  /** Links to documentation of the data product. */
  documentation?: Loose[];
  /** How often the data is refreshed: `Hourly`, `Daily`, `Weekly`, `Monthly`, `Quarterly`, `Yearly`. */
  updateFrequency?: string;
  /** Sensitivity label of the data product. */
  sensitivityLabel?: string;
  /** Whether the data product is endorsed for use. */
  endorsed?: boolean;
  /** Number of active subscriptions to the data product; set by the service. */
  activeSubscriberCount?: number;
  /** Who the data product is for (`DataAnalyst`, `BusinessUser`, `Executive`, ...). */
  audience?: string[];
  /** Figures the service adds, such as `assetCount` (data assets in the product). */
  additionalProperties?: { assetCount?: number; [key: string]: unknown };
}
/** A critical data element as returned. */
export interface CriticalDataElement extends EntityBase {
  /** Data type of the element: `TEXT`, `NUMBER`, `DATETIME` or `BOOLEAN`. */
  dataType?: string;
  /** GUID of the governance domain that owns the element. */
  domain?: string;
}
/** An objective (OKR) as returned. */
export interface Objective extends EntityBase {
  /** What the objective aims at; objectives have no name, this text stands for it. */
  definition?: string;
  /** GUID of the governance domain the objective belongs to. */
  domain?: string;
  /** When the objective should be met (an ISO 8601 date and time). */
  targetDate?: string;
  /**
   * Roll-up the service computes from the key results: `overallStatus`, `overallProgress`, `overallGoal`,
   * `overallMax`, `keyResultsCount`.
   */
  additionalProperties?: Loose;
}
/** A key result of an objective as returned. */
export interface KeyResult extends Loose {
  /** GUID of the key result. */
  id: string;
  /** What the key result measures. */
  definition?: string;
  /** GUID of the governance domain of its objective. */
  domainId?: string;
  /** Progress status: `NotTracked`, `OnTrack`, `Behind` or `AtRisk`. */
  status?: string;
  /** Value reached so far, in the unit of `goal`. */
  progress?: number;
  /** Value to reach. */
  goal?: number;
  /** Largest value the measure can take. */
  max?: number;
  /** Audit fields kept by the service. */
  systemData?: SystemData;
}
/** A policy as returned. */
export interface Policy extends Loose {
  /** Id of the policy. */
  id: string;
  /** Name of the policy. */
  name?: string;
}
/** A relationship of an entity as returned. */
export interface Relationship extends Loose {
  /** Id of the related entity. */
  entityId: string;
  /** For terms: `Related`, `Synonym` or `Parent`. */
  relationshipType?: string;
  /** Why the entities are related. */
  description?: string;
  /** Audit fields kept by the service. */
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

/** Checks a term the service returned; unknown fields pass through. */
export const termSchema: z.ZodType<Term, Term> = z.looseObject({
  ...entityBase,
  domain: z.string().optional(),
  parentId: z.string().optional(),
  acronyms: z.array(z.string()).optional(),
  resources: z.array(z.looseObject({ name: z.string().optional(), url: z.string().optional() })).optional(),
  isLeaf: z.boolean().optional(),
});
/** Checks a governance domain the service returned; unknown fields pass through. */
export const domainSchema: z.ZodType<Domain, Domain> = z.looseObject({
  ...entityBase,
  type: z.string().optional(),
  parentId: z.string().optional(),
  isRestricted: z.boolean().optional(),
  thumbnail: z.looseObject({ color: z.string().optional() }).optional(),
  domains: z.array(z.looseObject({})).optional(),
});
/** Checks a data product the service returned; unknown fields pass through. */
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
/** Checks a critical data element the service returned; unknown fields pass through. */
export const criticalDataElementSchema: z.ZodType<CriticalDataElement, CriticalDataElement> = z.looseObject({
  ...entityBase,
  dataType: z.string().optional(),
  domain: z.string().optional(),
});
/** Checks an objective the service returned; unknown fields pass through. */
export const objectiveSchema: z.ZodType<Objective, Objective> = z.looseObject({
  ...entityBase,
  definition: z.string().optional(),
  domain: z.string().optional(),
  targetDate: z.string().optional(),
  additionalProperties: z.looseObject({}).optional(),
});
/** Checks a key result the service returned; unknown fields pass through. */
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
/** Checks a relationship the service returned; unknown fields pass through. */
export const relationshipSchema: z.ZodType<Relationship, Relationship> = z.looseObject({
  entityId: z.string(),
  relationshipType: z.string().optional(),
  description: z.string().optional(),
  systemData: systemDataSchema.optional(),
});

// ---- Inputs (what govcat sends) ----

/** Fields most inputs may carry. */
export interface CommonInput extends Loose {
  /** Description of the entity; may contain HTML. */
  description?: string;
  /** Contacts by role (`owner`, `expert`, ...); each id must be an Entra ID object ID. */
  contacts?: ContactsMap;
  /** Values of managed attributes. */
  managedAttributes?: ManagedAttribute[];
}
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
/** A data product to create or update. */
export interface DataProductInput extends CommonInput {
  /** Name of the data product. */
  name: string;
  /** Kind of data product (`Analytical`, `Reference`, ...), any letter case. */
  type?: string;
  /** `DRAFT`, `PUBLISHED` or `EXPIRED`, in any letter case. */
  status?: string;
  /** GUID of the governance domain that owns the data product. */
  domain?: string;
  /** `Hourly`, `Daily`, `Weekly`, `Monthly`, `Quarterly` or `Yearly`, any letter case. */
  updateFrequency?: string;
  /** Who the data product is for (`DataAnalyst`, `BusinessUser`, ...), any letter case. */
  audience?: string[];
}
/** A critical data element to create or update. */
export interface CriticalDataElementInput extends CommonInput {
  /** Name of the critical data element. */
  name: string;
  /** `DRAFT`, `PUBLISHED` or `EXPIRED`, in any letter case. */
  status?: string;
  /** `TEXT`, `NUMBER`, `DATETIME` or `BOOLEAN`, any letter case. */
  dataType?: string;
  /** GUID of the governance domain that owns the element. */
  domain?: string;
}
/** An objective to create or update. */
export interface ObjectiveInput extends Loose {
  /** Contacts by role (`owner`, ...); each id must be an Entra ID object ID. */
  contacts?: ContactsMap;
  /** What the objective aims at. */
  definition: string;
  /** `Draft`, `Published` or `Closed`, in any letter case. */
  status?: string;
  /** GUID of the governance domain the objective belongs to. */
  domain?: string;
  /** When the objective should be met (an ISO 8601 date and time). */
  targetDate?: string;
}
/** A key result to create or update. */
export interface KeyResultInput extends Loose {
  /** What the key result measures. */
  definition?: string;
  /** GUID of the governance domain of the objective. */
  domainId: string;
  /** `NotTracked`, `OnTrack`, `Behind` or `AtRisk`, in any letter case. */
  status: string;
  /** Value reached so far. */
  progress?: number;
  /** Value to reach. */
  goal?: number;
  /** Largest value the measure can take. */
  max?: number;
}
/** A policy to update; sent as given. */
export type PolicyInput = Loose;
/** A relationship to create (no other fields are allowed through). */
export interface RelationshipInput {
  /** Id of the entity to relate to. */
  entityId: string;
  /** For terms: `Related`, `Synonym` or `Parent`, in any letter case. */
  relationshipType?: string;
  /** Why the entities are related. */
  description?: string;
}
/** A query, facet or count body. */
export interface QueryBody extends Loose {
  /** Results to skip before the first one returned. */
  skip?: number;
  /** Most results to return. */
  top?: number;
  /** Only these entity ids. */
  ids?: string[];
  /** Only entities of these governance domains. */
  domainIds?: string[];
  /** Only entities whose name contains this text (objectives: use `definition`). */
  nameKeyword?: string;
  /** Only entities with this status (`Draft`, `Published`, `Expired`; objectives `Closed`), any case. */
  status?: string;
  /** Only entities with one of these statuses. */
  multiStatus?: string[];
  /** For data products: only this type. */
  type?: string;
  /** For data products: only these types. */
  types?: string[];
}

const commonInput = {
  description: z.string().optional(),
  contacts: contactsMapSchema.optional(),
  managedAttributes: z.array(managedAttributeSchema).optional(),
};

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
/** Checks a governance domain before it is sent, with `type` and `status` normalised. */
export const domainInputSchema: z.ZodType<DomainInput, DomainInput> = z.looseObject({
  ...commonInput,
  name: requiredString,
  type: caseInsensitiveEnum(DOMAIN_TYPES).optional(),
  status: caseInsensitiveEnum(ENTITY_STATUSES).optional(),
  parentId: z.string().optional(),
});
/** Checks a data product before it is sent, with its enumerations normalised. */
export const dataProductInputSchema: z.ZodType<DataProductInput, DataProductInput> = z.looseObject({
  ...commonInput,
  name: requiredString,
  type: caseInsensitiveEnum(DATA_PRODUCT_TYPES).optional(),
  status: caseInsensitiveEnum(ENTITY_STATUSES).optional(),
  domain: z.string().optional(),
  updateFrequency: caseInsensitiveEnum(UPDATE_FREQUENCIES).optional(),
  audience: z.array(caseInsensitiveEnum(AUDIENCES)).optional(),
});
/** Checks a critical data element before it is sent, with `status` and `dataType` normalised. */
export const criticalDataElementInputSchema: z.ZodType<CriticalDataElementInput, CriticalDataElementInput> = z
  .looseObject({
    ...commonInput,
    name: requiredString,
    status: caseInsensitiveEnum(ENTITY_STATUSES).optional(),
    dataType: caseInsensitiveEnum(CDE_DATA_TYPES).optional(),
    domain: z.string().optional(),
  });
/** Checks an objective before it is sent; `status` is sent as `Draft`, `Published`, `Closed`. */
export const objectiveInputSchema: z.ZodType<ObjectiveInput, ObjectiveInput> = z.looseObject({
  contacts: contactsMapSchema.optional(),
  definition: requiredString,
  status: caseInsensitiveEnum(OBJECTIVE_STATUSES).optional(),
  domain: z.string().optional(),
  targetDate: z.string().optional(),
});
/** Checks a key result before it is sent; `status` is sent as `OnTrack`, `AtRisk`, ... */
export const keyResultInputSchema: z.ZodType<KeyResultInput, KeyResultInput> = z.looseObject({
  definition: z.string().optional(),
  domainId: requiredString,
  status: caseInsensitiveEnum(KEY_RESULT_STATUSES),
  progress: optionalNumber,
  goal: optionalNumber,
  max: optionalNumber,
});
/** A policy update is sent as given; the service checks it. */
export const policyInputSchema: z.ZodType<PolicyInput, PolicyInput> = z.looseObject({});
/** Checks a relationship before it is sent; fields other than the three named are refused. */
export const relationshipInputSchema: z.ZodType<RelationshipInput, RelationshipInput> = z.object({
  entityId: requiredString,
  relationshipType: caseInsensitiveEnum(TERM_RELATIONSHIP_TYPES).optional(),
  description: z.string().optional(),
});
/** An entity category (`TERM`, `DATAPRODUCT`, ...) in any letter case, sent upper case. */
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
