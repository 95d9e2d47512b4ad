/**
 * Entity tools: get, create, update, delete, and the batch forms; each is the entity group's operation of
 * the same action (`entity get`, `create`, `update`, `delete`, `create-many`, `update-many`) under a
 * model's argument names, with a lean view of its answer.
 *
 * @module
 */
import type { AtlasEntityWithExtInfo, EntityMutationResult } from "../../catalog/types.ts";
import { z } from "../../deps/zod.ts";
import { UsageError } from "../../errors.ts";
import {
  type BatchOutcome,
  createManyEntities,
  MAX_BATCH_ENTITIES,
  updateEntity,
  updateManyEntities,
} from "../../operations/entity_batch_operations.ts";
import { createEntity, deleteEntity, getEntity } from "../../operations/entity_operations.ts";
import { operationTool } from "../tool_operation.ts";
import { batchDetailField, batchSummaryOutput, batchView } from "./batch_upsert.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";
import { entitySummary, RELATED_PAGE_SIZE } from "./entity_summary.ts";
import { ifExistsField } from "./if_exists.ts";

export { MAX_BATCH_ENTITIES };

/** Referred entities kept in one get_entity answer; more would flood a model's context. */
export const MAX_REFERRED_ENTITIES = 100;

const guid = z.string().min(1).describe("GUID of the entity, as returned by search_entities");
const entityRecord = z.record(z.string(), z.unknown());
const attributes = z.record(z.string(), z.unknown()).describe(
  'Attribute names and values, e.g. {"owner": "finance-data", "description": "…"}',
);

const mutationOutput = z.object({
  guid: z.string().optional().describe("GUID of the entity created or updated (the first one in a batch)"),
  created: z.array(z.string()).describe("GUIDs of entities created"),
  updated: z.array(z.string()).describe("GUIDs of entities updated"),
  deleted: z.array(z.string()).describe("GUIDs of entities deleted"),
  guid_assignments: z.record(z.string(), z.string()).optional(),
});

/** Summarises an EntityMutationResult as GUID lists a model can use directly. */
export function summarizeMutation(result: EntityMutationResult): z.input<typeof mutationOutput> {
  const guids = (kind: "CREATE" | "UPDATE" | "PARTIAL_UPDATE" | "DELETE" | "PURGE") =>
    (result.mutatedEntities?.[kind] ?? []).map((h) => h.guid).filter((g): g is string => !!g);
  const created = guids("CREATE");
  const updated = [...guids("UPDATE"), ...guids("PARTIAL_UPDATE")];
  const deleted = [...guids("DELETE"), ...guids("PURGE")];
  return {
    guid: created[0] ?? updated[0] ?? deleted[0],
    created,
    updated,
    deleted,
    guid_assignments: result.guidAssignments,
  };
}

const newEntity = z.object({
  type_name: z.string().min(1).describe(
    "Type of the asset, e.g. azure_sql_table, DataSet; see list_typedefs",
  ),
  qualified_name: z.string().min(1).describe(
    "Unique name within the type, e.g. mssql://server.database.windows.net/db/dbo/table",
  ),
  name: z.string().min(1).describe("Display name"),
  description: z.string().optional().describe("Description of the asset"),
  attributes: attributes.optional(),
  collection_id: z.string().optional().describe("Collection to register the asset in"),
});

/** The operations' fields for one entity as a tool takes it. */
function entityFields(input: z.output<typeof newEntity>) {
  return {
    typeName: input.type_name,
    qualifiedName: input.qualified_name,
    name: input.name,
    description: input.description,
    attributes: input.attributes,
    collectionId: input.collection_id || undefined,
  };
}

export { ENTITY_SUMMARY_BOUND_BYTES } from "./entity_summary.ts";

export const getEntityTool = operationTool({
  name: "get_entity",
  title: "Get entity",
  description: "Retrieve one catalog entity (a data asset such as a table, file or dataset) by GUID. " +
    "By default a summary: guid, typeName, name, qualifiedName, description, owner, owners and experts, " +
    "classification names, labels, glossary terms, collection, status, times, up to 15 other attributes " +
    `and ${RELATED_PAGE_SIZE} related entities (columns, parents) from related_offset, with related_counts ` +
    "per relation and has_more/next_related_offset to page through the rest; texts cut to 200 characters; " +
    'under 16 KB, with truncated true when something was left out. view "full" returns the raw record with every ' +
    `attribute and relationship, and referred entities up to ${MAX_REFERRED_ENTITIES} ` +
    "(referred_entities_truncated says when more exist). Find GUIDs with search_entities." +
    CATALOG_TEXT_IS_DATA,
  input: z.object({
    guid,
    view: z.enum(["summary", "full"]).optional().describe(
      "summary (default): the curated view, under 16 KB; full: the raw catalog record",
    ),
    related_offset: z.number().int().min(0).optional().describe(
      "Summary: related entities to skip, for paging (next_related_offset of the previous answer)",
    ),
    min_ext_info: z.boolean().optional().describe("Only minimal information about referred entities"),
    ignore_relationships: z.boolean().optional().describe("Leave out relationship attributes"),
  }),
  output: z.object({
    entity: entityRecord,
    view: z.enum(["summary", "full"]).describe("Which view entity is"),
    truncated: z.boolean().describe('Something was left out: view "full" has everything'),
    referredEntities: z.record(z.string(), entityRecord).optional(),
    referred_entities_truncated: z.boolean().optional().describe(
      `View full: more than ${MAX_REFERRED_ENTITIES} referred entities, the rest left out`,
    ),
    related_counts: z.record(z.string(), z.number().int()).optional().describe(
      "Summary: related entities per relation in all (the first 20 relations)",
    ),
    has_more: z.boolean().optional().describe("Summary: related entities follow this page"),
    next_related_offset: z.number().int().optional().describe("Summary: related_offset of the next page"),
  }),
  operation: getEntity,
  arguments: (input) => {
    if (input.view === "full" && input.related_offset !== undefined) {
      throw new UsageError(
        'get_entity: related_offset pages the summary\'s related entities; view "full" returns all of ' +
          "them at once; nothing was sent.",
        'Leave out related_offset with view "full", or leave out view to page the summary.',
      );
    }
    return {
      guid: input.guid,
      minExtInfo: input.min_ext_info,
      ignoreRelationships: input.ignore_relationships,
    };
  },
  view: (answer, input) => {
    const result = answer as AtlasEntityWithExtInfo;
    if (input.view !== "full") {
      const summary = entitySummary(result.entity, result.referredEntities ?? {}, input.related_offset);
      return {
        entity: summary.entity,
        view: "summary" as const,
        truncated: summary.truncated,
        ...summary.paging,
      };
    }
    const referred = Object.entries(result.referredEntities ?? {});
    const referredTruncated = referred.length > MAX_REFERRED_ENTITIES;
    return {
      entity: result.entity,
      view: "full" as const,
      truncated: referredTruncated,
      referredEntities: Object.fromEntries(referred.slice(0, MAX_REFERRED_ENTITIES)),
      referred_entities_truncated: referredTruncated,
    };
  },
});

export const createEntityTool = operationTool({
  name: "create_entity",
  title: "Create entity",
  description: "Register a data asset in the catalog. If an entity with the same type_name and " +
    "qualified_name exists, nothing is changed and the call fails naming its GUID (use update_entity), " +
    'unless if_exists is "update": then its attributes given are overwritten (needs "confirm": true). ' +
    "Returns the GUID; then use get_entity, create_glossary_term or create_lineage.",
  input: newEntity.extend({ if_exists: ifExistsField }),
  output: mutationOutput,
  operation: createEntity,
  arguments: (input) => ({ ...entityFields(input), ifExists: input.if_exists }),
  view: (result) => summarizeMutation(result as EntityMutationResult),
});

export const updateEntityTool = operationTool({
  name: "update_entity",
  title: "Update entity attributes",
  description: "Set attributes of an existing entity, found by GUID. Only the attributes given change; " +
    "their previous values are overwritten. Read the entity with get_entity first.",
  input: z.object({ guid, attributes }),
  output: mutationOutput,
  operation: updateEntity,
  arguments: (input) => ({ guid: input.guid, attributes: input.attributes }),
  view: (result) => summarizeMutation(result as EntityMutationResult),
});

export const deleteEntityTool = operationTool({
  name: "delete_entity",
  title: "Delete entity",
  description: "Remove an entity from the catalog by GUID. This cannot be undone; confirm with the user " +
    "first and check the GUID with get_entity.",
  input: z.object({ guid }),
  output: mutationOutput,
  operation: deleteEntity,
  arguments: (input) => ({ guid: input.guid }),
  view: (result) => summarizeMutation(result as EntityMutationResult),
});

export const batchCreateEntitiesTool = operationTool({
  name: "batch_create_entities",
  title: "Create entities in bulk",
  description: `Register up to ${MAX_BATCH_ENTITIES} data assets in one call, sent in batches of ` +
    "CATALOG_BATCH_SIZE. An entity whose type_name and qualified_name exist already fails, changing " +
    'nothing, unless if_exists is "update": then it is overwritten (needs "confirm": true). Each ' +
    "call answers the counts, each entity's GUID in request order and the failures with their reason (at " +
    'most 50; truncated says more failed, detail "full" lists every result), so fix and resend only the ' +
    "failed ones.",
  input: z.object({
    entities: z.array(newEntity).min(1).max(MAX_BATCH_ENTITIES).describe(
      `The assets to register, 1 to ${MAX_BATCH_ENTITIES}`,
    ),
    if_exists: ifExistsField,
    detail: batchDetailField,
  }),
  output: batchSummaryOutput,
  operation: createManyEntities,
  arguments: (input) => ({ entities: input.entities.map(entityFields), ifExists: input.if_exists }),
  view: (result, input) => batchView(result as BatchOutcome, input.entities.length, input.detail),
});

export const batchUpdateEntitiesTool = operationTool({
  name: "batch_update_entities",
  title: "Update entities in bulk",
  description: `Set attributes on up to ${MAX_BATCH_ENTITIES} existing entities, each found by GUID. ` +
    "Only the attributes given change; previous values are overwritten. An unknown GUID fails only that " +
    "entity. The call answers the counts, each entity's GUID in request order and the failures (at most 50; " +
    'truncated says more failed, detail "full" lists every result).',
  input: z.object({
    updates: z.array(z.object({ guid, attributes })).min(1).max(MAX_BATCH_ENTITIES).describe(
      `The entities to change (1 to ${MAX_BATCH_ENTITIES}), each a GUID with the attributes to set`,
    ),
    detail: batchDetailField,
  }),
  output: batchSummaryOutput,
  operation: updateManyEntities,
  arguments: (input) => ({ updates: input.updates }),
  view: (result, input) => batchView(result as BatchOutcome, input.updates.length, input.detail),
});
