/**
 * The default operation registry: every operation govcat ships, registered from one list.
 *
 * @example
 * ```ts
 * import { createOperationRegistry } from "./mod.ts";
 * const registry = createOperationRegistry();
 * registry.get("entity.get")?.summary;
 * ```
 *
 * @module
 */
import { createEntity, deleteEntity, getEntity, getEntityByUniqueAttribute } from "./entity_operations.ts";
import { OperationRegistry } from "./registry.ts";
import { searchQuery } from "./search_operations.ts";

export { OperationRegistry } from "./registry.ts";
export { OPERATION_GROUPS, type OperationGroup } from "./groups.ts";
export { type InputField, inputFields, inputJsonSchema, toKebab } from "./fields.ts";
export * from "./types.ts";

/** A registry holding every shipped operation. */
export function createOperationRegistry(): OperationRegistry {
  return new OperationRegistry().register(
    getEntity,
    getEntityByUniqueAttribute,
    createEntity,
    deleteEntity,
    searchQuery,
  );
}
