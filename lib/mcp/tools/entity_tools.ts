/**
 * Entity tools: get, create, update, delete, and the batch forms. Classifications, labels and business
 * metadata arrive with the entity issue; CSV import with the bulk engine.
 *
 * @module
 */
import type { AtlasEntity, EntityMutationResult } from "../../catalog/types.ts";
import { z } from "../../deps/zod.ts";
import { UsageError } from "../../errors.ts";
import { defineTool, OVERWRITE, READ_ONLY, REMOVE, type ToolContext, UPSERT } from "../tool.ts";

/** Referred entities kept in one get_entity answer; more would flood a model's context. */
export const MAX_REFERRED_ENTITIES = 100;
/** Entities accepted by one batch tool call. */
export const MAX_BATCH_ENTITIES = 1000;

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
  guidAssignments: z.record(z.string(), z.string()).optional(),
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
    guidAssignments: result.guidAssignments,
  };
}

const newEntity = z.object({
  typeName: z.string().min(1).describe("Type of the asset, e.g. azure_sql_table, DataSet; see list_typedefs"),
  qualifiedName: z.string().min(1).describe(
    "Unique name within the type, e.g. mssql://server.database.windows.net/db/dbo/table",
  ),
  name: z.string().min(1).describe("Display name"),
  description: z.string().optional(),
  attributes: attributes.optional(),
  collectionId: z.string().optional().describe("Collection to register the asset in"),
});

function toAtlasEntity(input: z.output<typeof newEntity>): AtlasEntity {
  return {
    typeName: input.typeName,
    attributes: {
      ...input.attributes,
      qualifiedName: input.qualifiedName,
      name: input.name,
      ...(input.description === undefined ? {} : { description: input.description }),
    },
    ...(input.collectionId ? { collectionId: input.collectionId } : {}),
  };
}

export const getEntityTool = defineTool({
  name: "get_entity",
  title: "Get entity",
  description: "Retrieve one catalog entity (a data asset such as a table, file or dataset) by GUID with " +
    "all its attributes, classifications, labels and relationships. Find GUIDs with search_entities. " +
    `Referred entities (columns, parents) are included up to ${MAX_REFERRED_ENTITIES}; ` +
    "referredEntitiesTruncated says when more exist.",
  input: z.object({
    guid,
    minExtInfo: z.boolean().optional().describe("Only minimal information about referred entities"),
    ignoreRelationships: z.boolean().optional().describe("Leave out relationship attributes"),
  }),
  output: z.object({
    entity: entityRecord,
    referredEntities: z.record(z.string(), entityRecord).optional(),
    referredEntitiesTruncated: z.boolean(),
  }),
  annotations: READ_ONLY,
  handler: async (ctx, input) => {
    const result = await ctx.services.catalog().entity.get(input.guid, { ...input, signal: ctx.signal });
    const referred = Object.entries(result.referredEntities ?? {});
    return {
      entity: result.entity,
      referredEntities: Object.fromEntries(referred.slice(0, MAX_REFERRED_ENTITIES)),
      referredEntitiesTruncated: referred.length > MAX_REFERRED_ENTITIES,
    };
  },
});

export const createEntityTool = defineTool({
  name: "create_entity",
  title: "Create entity",
  description: "Register a data asset in the catalog. If an entity with the same typeName and " +
    "qualifiedName exists, it is updated instead (the call is an upsert), so repeating it is safe. " +
    "Returns the GUID; then use get_entity, create_glossary_term or create_lineage.",
  input: newEntity,
  output: mutationOutput,
  annotations: UPSERT,
  handler: async (ctx, input) =>
    summarizeMutation(await ctx.services.catalog().entity.createOrUpdate(toAtlasEntity(input), ctx.signal)),
});

export const updateEntityTool = defineTool({
  name: "update_entity",
  title: "Update entity attributes",
  description: "Set attributes of an existing entity, found by GUID. Only the attributes given change; " +
    "their previous values are overwritten. Read the entity with get_entity first.",
  input: z.object({ guid, attributes }),
  output: mutationOutput,
  annotations: OVERWRITE,
  handler: async (ctx, input) => {
    const entities = await mergedEntities(ctx, [input]);
    return summarizeMutation(await ctx.services.catalog().entity.createOrUpdate(entities[0], ctx.signal));
  },
});

export const deleteEntityTool = defineTool({
  name: "delete_entity",
  title: "Delete entity",
  description: "Remove an entity from the catalog by GUID. This cannot be undone; confirm with the user " +
    "first and check the GUID with get_entity.",
  input: z.object({ guid }),
  output: mutationOutput,
  annotations: REMOVE,
  handler: async (ctx, input) =>
    summarizeMutation(await ctx.services.catalog().entity.delete(input.guid, ctx.signal)),
});

export const batchCreateEntitiesTool = defineTool({
  name: "batch_create_entities",
  title: "Create entities in bulk",
  description: `Register up to ${MAX_BATCH_ENTITIES} data assets in one call (sent in batches of ` +
    "CATALOG_BATCH_SIZE). Existing entities with the same typeName and qualifiedName are updated.",
  input: z.object({ entities: z.array(newEntity).min(1).max(MAX_BATCH_ENTITIES) }),
  output: mutationOutput,
  annotations: UPSERT,
  handler: (ctx, input) => upsertInBatches(ctx, input.entities.map(toAtlasEntity)),
});

export const batchUpdateEntitiesTool = defineTool({
  name: "batch_update_entities",
  title: "Update entities in bulk",
  description: `Set attributes on up to ${MAX_BATCH_ENTITIES} existing entities, each found by GUID. ` +
    "Only the attributes given change; previous values are overwritten.",
  input: z.object({ updates: z.array(z.object({ guid, attributes })).min(1).max(MAX_BATCH_ENTITIES) }),
  output: mutationOutput,
  annotations: OVERWRITE,
  handler: async (ctx, input) => upsertInBatches(ctx, await mergedEntities(ctx, input.updates)),
});

/** Reads the entities and lays the new attributes over the current ones, so nothing else changes. */
async function mergedEntities(
  ctx: ToolContext,
  updates: Array<{ guid: string; attributes: Record<string, unknown> }>,
): Promise<AtlasEntity[]> {
  const catalog = ctx.services.catalog();
  const found = await catalog.entity.getMany(updates.map((u) => u.guid), {
    minExtInfo: true,
    signal: ctx.signal,
  });
  const byGuid = new Map((found.entities ?? []).map((e) => [e.guid, e]));
  const missing = updates.filter((u) => !byGuid.has(u.guid)).map((u) => u.guid);
  if (missing.length > 0) {
    throw new UsageError(
      `No entity has the GUID${missing.length > 1 ? "s" : ""} ${missing.join(", ")}; nothing was changed.`,
      "Find entities with search_entities.",
    );
  }
  return updates.map((u) => {
    const current = byGuid.get(u.guid)!;
    return {
      guid: current.guid,
      typeName: current.typeName,
      attributes: { ...current.attributes, ...u.attributes },
      ...(current.collectionId ? { collectionId: current.collectionId } : {}),
    };
  });
}

async function upsertInBatches(ctx: ToolContext, entities: AtlasEntity[]) {
  const catalog = ctx.services.catalog();
  const size = ctx.services.config().batchSize;
  const total = { created: [] as string[], updated: [] as string[], deleted: [] as string[] };
  const assignments: Record<string, string> = {};
  for (let start = 0; start < entities.length; start += size) {
    const result = summarizeMutation(
      await catalog.entity.createOrUpdateMany(entities.slice(start, start + size), ctx.signal),
    );
    total.created.push(...result.created);
    total.updated.push(...result.updated);
    Object.assign(assignments, result.guidAssignments);
  }
  return { guid: total.created[0] ?? total.updated[0], ...total, guidAssignments: assignments };
}
