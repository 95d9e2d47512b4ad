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
import { ACCOUNT_CONTACT_OPERATIONS } from "./account_contact_operations.ts";
import { ACCOUNT_OPERATIONS } from "./account_operations.ts";
import { POLICY_OPERATIONS } from "./policy_operations.ts";
import { COLLECTIONS_OPERATIONS } from "./collections_operations.ts";
import { COLLECTIONS_ENTITY_OPERATIONS } from "./collections_entity_operations.ts";
import { DOMAIN_OPERATIONS } from "./domain_operations.ts";
import { UNIFIED_OPERATIONS } from "./unified_operations.ts";
import { CONFIG_OPERATIONS } from "./config_operations.ts";
import { PROFILE_OPERATIONS } from "./profile_operations.ts";
import { SCAN_OPERATIONS } from "./scan_operations.ts";
import { QUALITY_OPERATIONS } from "./quality_operations.ts";
import { GLOSSARY_OPERATIONS } from "./glossary_operations.ts";
import { GLOSSARY_BULK_OPERATIONS } from "./glossary_bulk_operations.ts";
import { LINEAGE_OPERATIONS } from "./lineage_operations.ts";
import { LINEAGE_CSV_OPERATIONS } from "./lineage_csv_group_operations.ts";
import { BUSINESS_METADATA_OPERATIONS } from "./business_metadata_operations.ts";
import { BUSINESS_METADATA_ASSIGNMENT_OPERATIONS } from "./business_metadata_assignments.ts";
import { CLASSIFICATION_OPERATIONS } from "./classification_operations.ts";
import { LABEL_OPERATIONS } from "./entity_label_operations.ts";
import { ENTITY_BULK_OPERATIONS } from "./entity_bulk_operations.ts";
import { exportEntities } from "./entity_export_operations.ts";
import { ENTITY_BATCH_OPERATIONS } from "./entity_batch_operations.ts";
import { importMappedEntities } from "./entity_mapped_operations.ts";
import {
  createEntity,
  deleteEntity,
  deleteEntityByUniqueAttribute,
  deleteManyEntities,
  getEntity,
  getEntityByUniqueAttribute,
  getEntityHeader,
  getManyEntities,
  listEntitiesByUniqueAttributes,
  moveEntitiesToCollection,
  updateEntityAttribute,
  updateEntityByUniqueAttribute,
} from "./entity_operations.ts";
import { OperationRegistry } from "./registry.ts";
import { TEMPLATE_OPERATIONS } from "./template_operations.ts";
import { VALIDATE_OPERATIONS } from "./validate_operations.ts";
import { RELATIONSHIP_OPERATIONS } from "./relationship_operations.ts";
import { SEARCH_OPERATIONS, searchQuery } from "./search_operations.ts";
import { TYPES_OPERATIONS } from "./types_operations.ts";
import { WORKFLOW_OPERATIONS } from "./workflow_operations.ts";

export { OperationRegistry } from "./registry.ts";
export { OPERATION_GROUPS, type OperationGroup } from "./groups.ts";
export { type FieldKind, type InputField, inputFields, inputJsonSchema, toKebab } from "./fields.ts";
export type { Confirmation } from "./confirmation.ts";
export * from "./types.ts";

/** A registry holding every shipped operation. */
export function createOperationRegistry(): OperationRegistry {
  return new OperationRegistry().register(
    getEntity,
    getEntityByUniqueAttribute,
    createEntity,
    deleteEntity,
    getEntityHeader,
    getManyEntities,
    listEntitiesByUniqueAttributes,
    updateEntityAttribute,
    updateEntityByUniqueAttribute,
    deleteEntityByUniqueAttribute,
    deleteManyEntities,
    moveEntitiesToCollection,
    ...ENTITY_BATCH_OPERATIONS,
    ...ENTITY_BULK_OPERATIONS,
    exportEntities,
    importMappedEntities,
    ...BUSINESS_METADATA_OPERATIONS,
    ...BUSINESS_METADATA_ASSIGNMENT_OPERATIONS,
    ...LABEL_OPERATIONS,
    ...CLASSIFICATION_OPERATIONS,
    ...RELATIONSHIP_OPERATIONS,
    ...TYPES_OPERATIONS,
    searchQuery,
    ...SEARCH_OPERATIONS,
    ...GLOSSARY_OPERATIONS,
    ...GLOSSARY_BULK_OPERATIONS,
    ...LINEAGE_OPERATIONS,
    ...LINEAGE_CSV_OPERATIONS,
    ...COLLECTIONS_OPERATIONS,
    ...COLLECTIONS_ENTITY_OPERATIONS,
    ...ACCOUNT_OPERATIONS,
    ...ACCOUNT_CONTACT_OPERATIONS,
    ...POLICY_OPERATIONS,
    ...DOMAIN_OPERATIONS,
    ...UNIFIED_OPERATIONS,
    ...SCAN_OPERATIONS,
    ...WORKFLOW_OPERATIONS,
    ...QUALITY_OPERATIONS,
    ...VALIDATE_OPERATIONS,
    ...TEMPLATE_OPERATIONS,
    ...PROFILE_OPERATIONS,
    ...CONFIG_OPERATIONS,
  );
}
