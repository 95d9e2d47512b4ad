/**
 * The operations of one command group, loaded alone: a CLI command runs one operation, and loading the
 * modules of all ~190 (each with its input schema, its API client and its helpers) cost it about 5 MB of
 * resident memory and their start-up time. The sources are listed in the order `mod.ts` registers them,
 * so a group's commands come in the same order as in the full registry (its help lists them so); a test
 * checks every group against `createOperationRegistry`.
 *
 * @example
 * ```ts
 * import { createGroupRegistry } from "./group_registry.ts";
 * const registry = await createGroupRegistry("entity");
 * console.log(registry.find("entity", "bulk-import")?.id); // "entity.bulk-import"
 * ```
 *
 * @module
 */
import { OperationRegistry } from "./registry.ts";
import type { Operation } from "./types.ts";

/** A module's operations registered in `mod.ts`, all of one group. */
interface OperationSource {
  group: string;
  load(): Promise<Operation[]>;
}

/** Every source of `createOperationRegistry`, in its order. */
const SOURCES: ReadonlyArray<OperationSource> = [
  {
    group: "entity",
    load: async () => {
      const m = await import("./entity_operations.ts");
      return [
        m.getEntity,
        m.getEntityByUniqueAttribute,
        m.createEntity,
        m.deleteEntity,
        m.getEntityHeader,
        m.getManyEntities,
        m.listEntitiesByUniqueAttributes,
        m.updateEntityAttribute,
        m.updateEntityByUniqueAttribute,
        m.deleteEntityByUniqueAttribute,
        m.deleteManyEntities,
        m.moveEntitiesToCollection,
      ];
    },
  },
  {
    group: "entity",
    load: async () => (await import("./entity_batch_operations.ts")).ENTITY_BATCH_OPERATIONS,
  },
  { group: "entity", load: async () => (await import("./entity_bulk_operations.ts")).ENTITY_BULK_OPERATIONS },
  { group: "entity", load: async () => [(await import("./entity_export_operations.ts")).exportEntities] },
  {
    group: "entity",
    load: async () => [(await import("./entity_mapped_operations.ts")).importMappedEntities],
  },
  {
    group: "entity",
    load: async () => (await import("./business_metadata_operations.ts")).BUSINESS_METADATA_OPERATIONS,
  },
  {
    group: "types",
    load: async () =>
      (await import("./business_metadata_assignments.ts")).BUSINESS_METADATA_ASSIGNMENT_OPERATIONS,
  },
  { group: "entity", load: async () => (await import("./entity_label_operations.ts")).LABEL_OPERATIONS },
  {
    group: "entity",
    load: async () => (await import("./classification_operations.ts")).CLASSIFICATION_OPERATIONS,
  },
  {
    group: "entity",
    load: async () => (await import("./relationship_operations.ts")).RELATIONSHIP_OPERATIONS,
  },
  { group: "types", load: async () => (await import("./types_operations.ts")).TYPES_OPERATIONS },
  {
    group: "search",
    load: async () => {
      const m = await import("./search_operations.ts");
      return [m.searchQuery, ...m.SEARCH_OPERATIONS];
    },
  },
  { group: "glossary", load: async () => (await import("./glossary_operations.ts")).GLOSSARY_OPERATIONS },
  {
    group: "glossary",
    load: async () => (await import("./glossary_bulk_operations.ts")).GLOSSARY_BULK_OPERATIONS,
  },
  { group: "lineage", load: async () => (await import("./lineage_operations.ts")).LINEAGE_OPERATIONS },
  {
    group: "lineage_csv",
    load: async () => (await import("./lineage_csv_group_operations.ts")).LINEAGE_CSV_OPERATIONS,
  },
  {
    group: "collections",
    load: async () => (await import("./collections_operations.ts")).COLLECTIONS_OPERATIONS,
  },
  {
    group: "collections",
    load: async () => (await import("./collections_entity_operations.ts")).COLLECTIONS_ENTITY_OPERATIONS,
  },
  { group: "account", load: async () => (await import("./account_operations.ts")).ACCOUNT_OPERATIONS },
  {
    group: "account",
    load: async () => (await import("./account_contact_operations.ts")).ACCOUNT_CONTACT_OPERATIONS,
  },
  { group: "policy", load: async () => (await import("./policy_operations.ts")).POLICY_OPERATIONS },
  { group: "domain", load: async () => (await import("./domain_operations.ts")).DOMAIN_OPERATIONS },
  { group: "uc", load: async () => (await import("./unified_operations.ts")).UNIFIED_OPERATIONS },
  { group: "scan", load: async () => (await import("./scan_operations.ts")).SCAN_OPERATIONS },
  { group: "workflow", load: async () => (await import("./workflow_operations.ts")).WORKFLOW_OPERATIONS },
  { group: "quality", load: async () => (await import("./quality_operations.ts")).QUALITY_OPERATIONS },
  { group: "validate", load: async () => (await import("./validate_operations.ts")).VALIDATE_OPERATIONS },
  { group: "templates", load: async () => (await import("./template_operations.ts")).TEMPLATE_OPERATIONS },
  { group: "profile", load: async () => (await import("./profile_operations.ts")).PROFILE_OPERATIONS },
  { group: "config", load: async () => (await import("./config_operations.ts")).CONFIG_OPERATIONS },
];

/** Whether `name` is a group some source registers operations in. */
export function hasGroupSources(name: string): boolean {
  return SOURCES.some((source) => source.group === name);
}

/** A registry of every group, holding the operations of `group` alone (none for an unknown group). */
export async function createGroupRegistry(group: string): Promise<OperationRegistry> {
  const lists = await Promise.all(SOURCES.filter((source) => source.group === group).map((s) => s.load()));
  return new OperationRegistry().register(...lists.flat());
}
