/**
 * GUID options. Purview names entities, relationships, type definitions, glossaries, categories and terms
 * by GUID, and the unified catalog names its domains, terms, data products, critical data elements,
 * objectives, key results and policies the same way: 8-4-4-4-12 hexadecimal digits. An option that takes
 * one refuses anything else before a request is sent (exit 2 on the command line), naming the option and
 * the form, instead of a 404 that could mean a typo or a deleted object.
 *
 * Only options are checked: Atlas's negative placeholder guids ("-1") live inside JSON payloads.
 *
 * @example
 * ```ts
 * import { z } from "../deps/zod.ts";
 * import { guidField } from "./guid_fields.ts";
 * const input = z.object({ guid: guidField("GUID of the entity") });
 * input.safeParse({ guid: "not-a-guid" }).success; // false
 * input.parse({ guid: " CA7A1000-0000-4000-8000-000000000001 " }).guid; // trimmed, case kept
 * ```
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { GUID_FORM, GUID_PATTERN } from "../core/guid.ts";

export { GUID_FORM, GUID_PATTERN, isGuid } from "../core/guid.ts";

/** The schemas {@link guidField} made, so a front end can tell a GUID option from another string. */
const guidFields = new WeakSet<z.ZodType>();

/** A string option that must be a GUID (surrounding spaces are dropped). */
export function guidField(description: string) {
  const field = z.string().trim().regex(GUID_PATTERN, {
    error: (issue) => `must be a GUID (${GUID_FORM}), not ${JSON.stringify(issue.input)}`,
  }).describe(description);
  guidFields.add(field);
  return field;
}

/** Whether `schema` is a {@link guidField} (as declared: an optional one is not, its inner schema is). */
export function isGuidField(schema: z.ZodType): boolean {
  return guidFields.has(schema);
}

/** A repeatable option whose every value must be a GUID. */
export function guidListField(description: string) {
  return z.array(guidField(description)).describe(description);
}
