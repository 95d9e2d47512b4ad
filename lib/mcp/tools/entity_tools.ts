/**
 * Entity tools: get, create, update, delete, and the batch forms; each is the entity group's operation of
 * the same action (`entity get`, `create`, `update`, `delete`, `create-many`, `update-many`) under a
 * model's argument names, with a lean view of its answer.
 *
 * @module
 */
import type { AtlasEntityWithExtInfo, EntityMutationResult } from "../../catalog/atlas_model.ts";
import { z } from "../../deps/zod.ts";
import { UsageError } from "../../core/errors.ts";
import {
  createManyEntities,
  MAX_BATCH_ENTITIES,
  updateEntity,
  updateManyEntities,
} from "../../operations/entity_batch_operations.ts";
import { type BatchOutcome } from "../../catalog/entity_batch.ts";
import { createEntity, deleteEntity, getEntity } from "../../operations/entity_operations.ts";
import { composedTool, operationTool } from "../tool_operation.ts";
import { toolOnly } from "../tool_fields.ts";
import type { ToolContext } from "../tool.ts";
import { planCreateMany, planUpdateMany } from "../../operations/entity_batch_plan.ts";
import { batchDetailField, batchView } from "./batch_upsert.ts";
import { batchPlanField, batchPlanOutput, planAnswer } from "./batch_plan.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";
import { entitySummary, RELATED_PAGE_SIZE } from "./entity_summary.ts";
import { ifExistsField } from "./if_exists.ts";

export { MAX_BATCH_ENTITIES };

/** Referred entities kept in one get_entity answer; more would flood a model's context. */
export const MAX_REFERRED_ENTITIES = 100;

const guid = z.string().min(1).describe("Entity GUID");
const entityRecord = z.record(z.string(), z.unknown());
const attributes = z.record(z.string(), z.unknown()).describe(
  'Attributes to set, e.g. {"owner": "finance-data"}',
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
    "Type, e.g. azure_sql_table or DataSet (list_typedefs)",
  ),
  qualified_name: z.string().min(1).describe(
    "Unique within the type, e.g. mssql://srv/db/dbo/table",
  ),
  name: z.string().min(1).describe("Display name"),
  description: z.string().optional().describe("Description"),
  attributes: attributes.optional(),
  collection_id: z.string().optional().describe("Collection to register it in"),
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
  description:
    'One entity (table, file, dataset…) by GUID. view "summary": main fields, 15 other attributes, ' +
    `${RELATED_PAGE_SIZE} ` +
    "related entities (columns, parents) from related_offset (related_counts, has_more, " +
    'next_related_offset page on); truncated says what was cut. view "full": the ' +
    `raw record, up to ${MAX_REFERRED_ENTITIES} referred entities.` + CATALOG_TEXT_IS_DATA,
  operation: getEntity,
  fields: {
    guid: "Entity GUID",
    view: toolOnly(
      z.enum(["summary", "full"]).optional().describe("summary: curated, under 16 KB; full: the raw record"),
    ),
    relatedOffset: toolOnly(
      z.number().int().min(0).optional().describe("Summary: related entities to skip (next_related_offset)"),
    ),
    minExtInfo: "Minimal referred entities",
  },
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
  check: (input) => {
    if (input.view === "full" && input.related_offset !== undefined) {
      throw new UsageError(
        'get_entity: related_offset pages the summary\'s related entities; view "full" returns all of ' +
          "them at once; nothing was sent.",
        'Leave out related_offset with view "full", or leave out view to page the summary.',
      );
    }
  },
  view: (answer, input: { view?: "summary" | "full"; related_offset?: number }) => {
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
  description:
    "Register a data asset; returns its GUID. An existing type_name + qualified_name fails naming its " +
    'GUID unless if_exists is "update". Next: get_entity, create_lineage.',
  operation: createEntity,
  // The tool takes one entity's fields, never a payload file: its type, qualified name and name are required.
  fields: {
    payloadFile: false,
    typeName: newEntity.shape.type_name,
    qualifiedName: newEntity.shape.qualified_name,
    name: newEntity.shape.name,
    description: "Description",
    attributes: newEntity.shape.attributes,
    collectionId: newEntity.shape.collection_id,
    ifExists: ifExistsField,
  },
  output: mutationOutput,
  view: (result) => summarizeMutation(result as EntityMutationResult),
});

export const updateEntityTool = operationTool({
  name: "update_entity",
  title: "Update entity attributes",
  description: "Set attributes of an entity by GUID; only those given change. Read it with get_entity first.",
  operation: updateEntity,
  fields: { guid: "Entity GUID", attributes },
  output: mutationOutput,
  view: (result) => summarizeMutation(result as EntityMutationResult),
});

export const deleteEntityTool = operationTool({
  name: "delete_entity",
  title: "Delete entity",
  description:
    "Remove an entity by GUID, for good. Check it with get_entity and confirm with the user first.",
  operation: deleteEntity,
  fields: { guid: "Entity GUID" },
  output: mutationOutput,
  view: (result) => summarizeMutation(result as EntityMutationResult),
});

/** The operation context a plan reads the catalog through, as the tool's operations would. */
const planContext = (context: ToolContext) =>
  context.services.operationContext(context.signal, context.progress);

export const batchCreateEntitiesTool = composedTool({
  name: "batch_create_entities",
  title: "Create entities in bulk",
  description:
    `Register up to ${MAX_BATCH_ENTITIES} data assets; an existing one fails unless if_exists is ` +
    '"update". Answers counts, GUIDs in order and up to 50 failures (truncated: more): resend ' +
    "those.",
  input: z.object({
    entities: z.array(newEntity).min(1).max(MAX_BATCH_ENTITIES).describe(
      "The assets to register",
    ),
    if_exists: ifExistsField,
    detail: batchDetailField,
    plan: batchPlanField,
  }),
  output: batchPlanOutput,
  operations: [createManyEntities],
  // A plan only reads: it needs no confirmation, whatever if_exists says.
  confirmWhen: (input) => !input.plan && input.if_exists === "update",
  compose: async (run, input, context) => {
    const entities = input.entities.map(entityFields);
    if (input.plan) {
      return planAnswer(await planCreateMany(planContext(context), entities, input.if_exists));
    }
    const result = await run(createManyEntities, { entities, ifExists: input.if_exists });
    return batchView(result as BatchOutcome, input.entities.length, input.detail);
  },
});

export const batchUpdateEntitiesTool = composedTool({
  name: "batch_update_entities",
  title: "Update entities in bulk",
  description:
    `Set attributes on up to ${MAX_BATCH_ENTITIES} entities by GUID; an unknown GUID fails alone. ` +
    "Answers counts, GUIDs in order and up to 50 failures (truncated: more).",
  input: z.object({
    updates: z.array(z.object({ guid, attributes })).min(1).max(MAX_BATCH_ENTITIES).describe(
      "Each a GUID with the attributes to set",
    ),
    detail: batchDetailField,
    plan: batchPlanField,
  }),
  output: batchPlanOutput,
  operations: [updateManyEntities],
  // A plan only reads: it needs no confirmation.
  confirmWhen: (input) => !input.plan,
  compose: async (run, input, context) => {
    if (input.plan) return planAnswer(await planUpdateMany(planContext(context), input.updates));
    const result = await run(updateManyEntities, { updates: input.updates });
    return batchView(result as BatchOutcome, input.updates.length, input.detail);
  },
});
