/**
 * The one GUID form of the catalog APIs: 8-4-4-4-12 hexadecimal digits, in either letter case, and
 * nothing before or after them. Purview names entities, relationships, type definitions, glossaries,
 * terms and unified catalog objects this way, and Entra ID object IDs look the same.
 *
 * @example
 * ```ts
 * import { isGuid } from "./guid.ts";
 * isGuid("9b2c4e6f-1a3d-4f5b-8c7e-0d2f4a6b8c1e"); // true
 * isGuid("9b2c4e6f-1a3d-4f5b-8c7e-0d2f4a6b8c1e/.."); // false
 * ```
 *
 * @module
 */

/**
 * A whole GUID. Written without the `i` flag so the pattern means the same in the JSON Schema the MCP
 * tools publish.
 */
export const GUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** How a GUID looks, for messages. */
export const GUID_FORM = "8-4-4-4-12 hexadecimal digits, e.g. 9b2c4e6f-1a3d-4f5b-8c7e-0d2f4a6b8c1e";

/** True when `value` is a string holding one GUID and nothing else. */
export function isGuid(value: unknown): value is string {
  return typeof value === "string" && GUID_PATTERN.test(value);
}
