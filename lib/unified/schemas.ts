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
export function caseInsensitiveEnum<T extends string>(values: readonly T[]) {
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

// ---- Shared shapes ----

/** Server-kept audit fields; read only. */
export const systemDataSchema = z.looseObject({
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
export const contactSchema = z.looseObject({
  id: z.string({ error: "is required (an Entra ID object ID)" }).trim().refine((id) => GUID.test(id), {
    error: (issue) =>
      String(issue.input).includes("@")
        ? "must be an identity-provider (Entra ID) object ID (a GUID), not an e-mail address"
        : "must be an identity-provider (Entra ID) object ID (a GUID)",
  }),
  description: z.string().optional(),
});

/** Contacts by role (`owner`, `expert`, `databaseAdmin`, ...). */
export const contactsMapSchema = z.record(z.string(), z.array(contactSchema));

export const managedAttributeSchema = z.looseObject({
  name: z.string(),
  value: z.unknown().optional(),
  isRequired: z.boolean().optional(),
});

// ---- Entities as returned (loose: only the id is promised) ----

const entityBase = {
  id: z.string(),
  name: z.string().optional(),
  status: z.string().optional(),
  description: z.string().optional(),
  contacts: z.record(z.string(), z.array(z.looseObject({ id: z.string() }))).optional(),
  managedAttributes: z.array(managedAttributeSchema).optional(),
  systemData: systemDataSchema.optional(),
};

export const termSchema = z.looseObject({
  ...entityBase,
  domain: z.string().optional(),
  parentId: z.string().optional(),
  acronyms: z.array(z.string()).optional(),
  resources: z.array(z.looseObject({ name: z.string().optional(), url: z.string().optional() })).optional(),
  isLeaf: z.boolean().optional(),
});
export const domainSchema = z.looseObject({
  ...entityBase,
  type: z.string().optional(),
  parentId: z.string().optional(),
  isRestricted: z.boolean().optional(),
  thumbnail: z.looseObject({ color: z.string().optional() }).optional(),
  domains: z.array(z.looseObject({})).optional(),
});
export const dataProductSchema = z.looseObject({
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
export const criticalDataElementSchema = z.looseObject({
  ...entityBase,
  dataType: z.string().optional(),
  domain: z.string().optional(),
});
export const objectiveSchema = z.looseObject({
  ...entityBase,
  definition: z.string().optional(),
  domain: z.string().optional(),
  targetDate: z.string().optional(),
  additionalProperties: z.looseObject({}).optional(),
});
export const keyResultSchema = z.looseObject({
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
export const policySchema = z.looseObject({ id: z.string(), name: z.string().optional() });
export const relationshipSchema = z.looseObject({
  entityId: z.string(),
  relationshipType: z.string().optional(),
  description: z.string().optional(),
  systemData: systemDataSchema.optional(),
});

export type SystemData = z.infer<typeof systemDataSchema>;
export type ContactsMap = z.infer<typeof contactsMapSchema>;
export type Term = z.infer<typeof termSchema>;
export type Domain = z.infer<typeof domainSchema>;
export type DataProduct = z.infer<typeof dataProductSchema>;
export type CriticalDataElement = z.infer<typeof criticalDataElementSchema>;
export type Objective = z.infer<typeof objectiveSchema>;
export type KeyResult = z.infer<typeof keyResultSchema>;
export type Policy = z.infer<typeof policySchema>;
export type Relationship = z.infer<typeof relationshipSchema>;

// ---- Inputs (what govcat sends) ----

const commonInput = {
  description: z.string().optional(),
  contacts: contactsMapSchema.optional(),
  managedAttributes: z.array(managedAttributeSchema).optional(),
};

export const termInputSchema = z.looseObject({
  ...commonInput,
  name: requiredString,
  status: caseInsensitiveEnum(ENTITY_STATUSES),
  domain: requiredString,
  parentId: z.string().optional(),
  acronyms: z.array(z.string()).optional(),
  resources: z.array(z.looseObject({ name: z.string(), url: z.string() })).optional(),
});
export const domainInputSchema = z.looseObject({
  ...commonInput,
  name: requiredString,
  type: caseInsensitiveEnum(DOMAIN_TYPES).optional(),
  status: caseInsensitiveEnum(ENTITY_STATUSES).optional(),
  parentId: z.string().optional(),
});
export const dataProductInputSchema = z.looseObject({
  ...commonInput,
  name: requiredString,
  type: caseInsensitiveEnum(DATA_PRODUCT_TYPES).optional(),
  status: caseInsensitiveEnum(ENTITY_STATUSES).optional(),
  domain: z.string().optional(),
  updateFrequency: caseInsensitiveEnum(UPDATE_FREQUENCIES).optional(),
  audience: z.array(caseInsensitiveEnum(AUDIENCES)).optional(),
});
export const criticalDataElementInputSchema = z.looseObject({
  ...commonInput,
  name: requiredString,
  status: caseInsensitiveEnum(ENTITY_STATUSES).optional(),
  dataType: caseInsensitiveEnum(CDE_DATA_TYPES).optional(),
  domain: z.string().optional(),
});
export const objectiveInputSchema = z.looseObject({
  contacts: contactsMapSchema.optional(),
  definition: requiredString,
  status: caseInsensitiveEnum(OBJECTIVE_STATUSES).optional(),
  domain: z.string().optional(),
  targetDate: z.string().optional(),
});
export const keyResultInputSchema = z.looseObject({
  definition: z.string().optional(),
  domainId: requiredString,
  status: caseInsensitiveEnum(KEY_RESULT_STATUSES),
  progress: optionalNumber,
  goal: optionalNumber,
  max: optionalNumber,
});
export const policyInputSchema = z.looseObject({});
export const relationshipInputSchema = z.object({
  entityId: requiredString,
  relationshipType: caseInsensitiveEnum(TERM_RELATIONSHIP_TYPES).optional(),
  description: z.string().optional(),
});
export const entityCategorySchema = caseInsensitiveEnum(ENTITY_CATEGORIES);

/** A query, facet or count body; `status`/`multiStatus` are sent in the filter spelling. */
export function queryBodySchema(statuses: readonly string[] = FILTER_STATUSES) {
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

export type TermInput = z.input<typeof termInputSchema>;
export type DomainInput = z.input<typeof domainInputSchema>;
export type DataProductInput = z.input<typeof dataProductInputSchema>;
export type CriticalDataElementInput = z.input<typeof criticalDataElementInputSchema>;
export type ObjectiveInput = z.input<typeof objectiveInputSchema>;
export type KeyResultInput = z.input<typeof keyResultInputSchema>;
export type PolicyInput = z.input<typeof policyInputSchema>;
export type RelationshipInput = z.input<typeof relationshipInputSchema>;
export type QueryBody = z.input<ReturnType<typeof queryBodySchema>>;

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
