/**
 * What the zod schemas of the unified catalog share: the open {@link Loose} shape (fields the service sends
 * that this version does not know survive a read-modify-write), the audit, contact and managed attribute
 * shapes, the fields every entity and most inputs carry, enumerations matched ignoring case, and
 * {@link validateInput}, which turns zod issues into one {@link UsageError} naming each bad field. Each kind's
 * schemas sit in their own module (`unified_term_schemas.ts`, `unified_domain_schemas.ts`, ...).
 *
 * @example
 * ```ts
 * import { validateInput } from "./unified_schemas.ts";
 * import { termInputSchema } from "./unified_term_schemas.ts";
 * const body = validateInput(termInputSchema, { name: "Revenue", status: "draft", domain: "d-1" });
 * body.status; // "DRAFT"
 * ```
 *
 * @module
 */
import { z, type ZodType } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { canonicalEnumValue, describeEnum } from "./unified_enums.ts";
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

/** A string that must be given and not blank (trimmed before it is sent). */
export const requiredString: z.ZodString = z.string({ error: "is required (a string)" }).trim().min(1, {
  error: "must not be empty",
});

/** A number that may be left out. */
export const optionalNumber: z.ZodOptional<z.ZodNumber> = z.number({ error: "must be a number" }).optional();

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

// ---- What every entity and most inputs carry ----

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

/** The zod shape of {@link EntityBase}'s fields. */
export interface EntityBaseShape {
  id: z.ZodString;
  name: z.ZodOptional<z.ZodString>;
  status: z.ZodOptional<z.ZodString>;
  description: z.ZodOptional<z.ZodString>;
  contacts: z.ZodOptional<
    z.ZodRecord<z.ZodString, z.ZodArray<z.ZodObject<{ id: z.ZodString }, z.core.$loose>>>
  >;
  managedAttributes: z.ZodOptional<z.ZodArray<z.ZodType<ManagedAttribute, ManagedAttribute>>>;
  systemData: z.ZodOptional<z.ZodType<SystemData, SystemData>>;
}

/** The fields of {@link EntityBase}, spread into the schema of each kind as returned. */
export const entityBase: EntityBaseShape = {
  id: z.string(),
  name: z.string().optional(),
  status: z.string().optional(),
  description: z.string().optional(),
  contacts: z.record(z.string(), z.array(z.looseObject({ id: z.string() }))).optional(),
  managedAttributes: z.array(managedAttributeSchema).optional(),
  systemData: systemDataSchema.optional(),
};

/** Fields most inputs may carry. */
export interface CommonInput extends Loose {
  /** Description of the entity; may contain HTML. */
  description?: string;
  /** Contacts by role (`owner`, `expert`, ...); each id must be an Entra ID object ID. */
  contacts?: ContactsMap;
  /** Values of managed attributes. */
  managedAttributes?: ManagedAttribute[];
}

/** The zod shape of {@link CommonInput}'s fields. */
export interface CommonInputShape {
  description: z.ZodOptional<z.ZodString>;
  contacts: z.ZodOptional<z.ZodType<ContactsMap, ContactsMap>>;
  managedAttributes: z.ZodOptional<z.ZodArray<z.ZodType<ManagedAttribute, ManagedAttribute>>>;
}

/** The fields of {@link CommonInput}, spread into the schema of each kind's input. */
export const commonInput: CommonInputShape = {
  description: z.string().optional(),
  contacts: contactsMapSchema.optional(),
  managedAttributes: z.array(managedAttributeSchema).optional(),
};

// ---- Checking an input ----

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
