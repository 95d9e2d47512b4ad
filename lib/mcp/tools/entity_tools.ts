/**
 * Entity tools: get, create, update, delete, and the batch forms. Classifications, labels and business
 * metadata arrive with the entity issue; CSV import with the bulk engine.
 *
 * @module
 */
import type { AtlasEntity, EntityMutationResult } from "../../catalog/types.ts";
import { z } from "../../deps/zod.ts";
import { BadRequestError, NotFoundError, UsageError } from "../../errors.ts";
import { existingKey, existingKeys } from "../../operations/entity_bulk_operations.ts";
import { defineTool, OVERWRITE, READ_ONLY, REMOVE, type ToolContext } from "../tool.ts";
import { batchOutput, type EntityResult, type IndexedEntity, upsertWithIsolation } from "./batch_upsert.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";
import { CREATE_OR_OVERWRITE, ifExistsField, overwrites } from "./if_exists.ts";

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

function toAtlasEntity(input: z.output<typeof newEntity>): AtlasEntity {
  return {
    typeName: input.type_name,
    attributes: {
      ...input.attributes,
      qualifiedName: input.qualified_name,
      name: input.name,
      ...(input.description === undefined ? {} : { description: input.description }),
    },
    ...(input.collection_id ? { collectionId: input.collection_id } : {}),
  };
}

export const getEntityTool = defineTool({
  name: "get_entity",
  title: "Get entity",
  description: "Retrieve one catalog entity (a data asset such as a table, file or dataset) by GUID with " +
    "all its attributes, classifications, labels and relationships. Find GUIDs with search_entities. " +
    `Referred entities (columns, parents) are included up to ${MAX_REFERRED_ENTITIES}; ` +
    "referred_entities_truncated says when more exist." + CATALOG_TEXT_IS_DATA,
  input: z.object({
    guid,
    min_ext_info: z.boolean().optional().describe("Only minimal information about referred entities"),
    ignore_relationships: z.boolean().optional().describe("Leave out relationship attributes"),
  }),
  output: z.object({
    entity: entityRecord,
    referredEntities: z.record(z.string(), entityRecord).optional(),
    referred_entities_truncated: z.boolean(),
  }),
  annotations: READ_ONLY,
  handler: async (ctx, input) => {
    const result = await ctx.services.catalog().entity.get(input.guid, {
      minExtInfo: input.min_ext_info,
      ignoreRelationships: input.ignore_relationships,
      signal: ctx.signal,
    });
    const referred = Object.entries(result.referredEntities ?? {});
    return {
      entity: result.entity,
      referredEntities: Object.fromEntries(referred.slice(0, MAX_REFERRED_ENTITIES)),
      referred_entities_truncated: referred.length > MAX_REFERRED_ENTITIES,
    };
  },
});

export const createEntityTool = defineTool({
  name: "create_entity",
  title: "Create entity",
  description: "Register a data asset in the catalog. If an entity with the same type_name and " +
    "qualified_name exists, nothing is changed and the call fails naming its GUID (use update_entity), " +
    'unless if_exists is "update": then its attributes given are overwritten (needs "confirm": true). ' +
    "Returns the GUID; then use get_entity, create_glossary_term or create_lineage.",
  input: newEntity.extend({ if_exists: ifExistsField }),
  output: mutationOutput,
  annotations: CREATE_OR_OVERWRITE,
  confirmWhen: overwrites,
  handler: async (ctx, input) => {
    const { if_exists: ifExists, ...fields } = input;
    if (ifExists === "fail") {
      const existing = await findExisting(ctx, [{
        typeName: fields.type_name,
        qualifiedName: fields.qualified_name,
      }]);
      const current = existing.get(existingKey(fields.type_name, fields.qualified_name));
      if (current) {
        throw new UsageError(
          `A ${fields.type_name} with qualified_name ${fields.qualified_name} exists already ` +
            `(guid ${current.guid}); nothing was changed.`,
          `Change it with update_entity (guid ${current.guid}), or call create_entity again with ` +
            '"if_exists": "update" and "confirm": true once the user agrees to overwrite it.',
        );
      }
    }
    return summarizeMutation(
      await ctx.services.catalog().entity.createOrUpdate(toAtlasEntity(fields), ctx.signal),
    );
  },
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
    const { found, missing } = await readCurrent(ctx, [input.guid]);
    const current = found.get(input.guid);
    if (!current) throw new UsageError(`Cannot update ${input.guid}: ${missing.get(input.guid)}.`);
    return summarizeMutation(
      await ctx.services.catalog().entity.createOrUpdate(
        mergeAttributes(current, input.attributes),
        ctx.signal,
      ),
    );
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
  description: `Register up to ${MAX_BATCH_ENTITIES} data assets in one call, sent in batches of ` +
    "CATALOG_BATCH_SIZE. An entity whose type_name and qualified_name exist already fails, changing " +
    'nothing, unless if_exists is "update": then it is overwritten (needs "confirm": true). Each ' +
    "entity gets its own result (created, updated or failed with the reason), so fix and resend only the " +
    "failed ones.",
  input: z.object({
    entities: z.array(newEntity).min(1).max(MAX_BATCH_ENTITIES).describe(
      `The assets to register, 1 to ${MAX_BATCH_ENTITIES}`,
    ),
    if_exists: ifExistsField,
  }),
  output: batchOutput,
  annotations: CREATE_OR_OVERWRITE,
  confirmWhen: overwrites,
  handler: async (ctx, input) => {
    const items = input.entities.map((entity, index) => ({ index, entity: toAtlasEntity(entity) }));
    if (input.if_exists === "update") return await upsertWithIsolation(ctx, items);
    const existing = await findExisting(
      ctx,
      input.entities.map((e) => ({ typeName: e.type_name, qualifiedName: e.qualified_name })),
    );
    const fresh: IndexedEntity[] = [];
    const failures: EntityResult[] = [];
    for (const item of items) {
      const source = input.entities[item.index];
      const current = existing.get(existingKey(source.type_name, source.qualified_name));
      if (!current) fresh.push(item);
      else {
        failures.push({
          index: item.index,
          type_name: source.type_name,
          qualified_name: source.qualified_name,
          guid: current.guid,
          status: "failed",
          error: 'exists already; nothing was sent for it (update_entity changes it, or if_exists "update")',
        });
      }
    }
    const result = fresh.length > 0
      ? await upsertWithIsolation(ctx, fresh)
      : { created: 0, updated: 0, failed: 0, skipped: 0, results: [] };
    const results = [...result.results, ...failures].sort((a, b) => a.index - b.index);
    return { ...result, failed: result.failed + failures.length, results };
  },
});

export const batchUpdateEntitiesTool = defineTool({
  name: "batch_update_entities",
  title: "Update entities in bulk",
  description: `Set attributes on up to ${MAX_BATCH_ENTITIES} existing entities, each found by GUID. ` +
    "Only the attributes given change; previous values are overwritten. Each entity gets its own result; " +
    "an unknown GUID fails only that entity.",
  input: z.object({
    updates: z.array(z.object({ guid, attributes })).min(1).max(MAX_BATCH_ENTITIES).describe(
      `The entities to change (1 to ${MAX_BATCH_ENTITIES}), each a GUID with the attributes to set`,
    ),
  }),
  output: batchOutput,
  annotations: OVERWRITE,
  handler: async (ctx, input) => {
    const { found, missing } = await readCurrent(ctx, input.updates.map((u) => u.guid));
    const items: IndexedEntity[] = [];
    const failures: EntityResult[] = [];
    input.updates.forEach((update, index) => {
      const current = found.get(update.guid);
      if (current) items.push({ index, entity: mergeAttributes(current, update.attributes) });
      else {
        failures.push({
          index,
          type_name: "",
          guid: update.guid,
          status: "failed",
          error: missing.get(update.guid) ?? "404 no entity has this GUID",
        });
      }
    });
    const result = await upsertWithIsolation(ctx, items);
    const results = [...result.results, ...failures].sort((a, b) => a.index - b.index);
    return { ...result, failed: result.failed + failures.length, results };
  },
});

/**
 * The entities of `pairs` that exist, read a type at a time: a type the catalog does not know is left
 * out (its entities are sent and fail with the catalog's own reason), so one bad entity fails alone.
 */
async function findExisting(
  ctx: ToolContext,
  pairs: Array<{ typeName: string; qualifiedName: string }>,
): Promise<Map<string, AtlasEntity>> {
  const found = new Map<string, AtlasEntity>();
  for (const typeName of new Set(pairs.map((p) => p.typeName))) {
    try {
      const some = await existingKeys(
        ctx.services.catalog(),
        pairs.filter((p) => p.typeName === typeName),
        ctx.signal,
      );
      for (const [k, entity] of some) found.set(k, entity);
    } catch (error) {
      if (!(error instanceof NotFoundError || error instanceof BadRequestError)) throw error;
    }
  }
  return found;
}

const DELETED_MESSAGE = "the entity is deleted (status DELETED); create it again with create_entity";

/** The new attributes laid over the current ones, so nothing else about the entity changes. */
function mergeAttributes(current: AtlasEntity, attributes: Record<string, unknown>): AtlasEntity {
  return {
    guid: current.guid,
    typeName: current.typeName,
    attributes: { ...current.attributes, ...attributes },
    ...(current.collectionId ? { collectionId: current.collectionId } : {}),
  };
}

/**
 * Reads entities by GUID in chunks. Atlas refuses a whole bulk read when one GUID is unknown, so a
 * refused chunk is read one by one to tell which GUIDs do not exist.
 */
async function readCurrent(
  ctx: ToolContext,
  guids: string[],
): Promise<{ found: Map<string, AtlasEntity>; missing: Map<string, string> }> {
  const catalog = ctx.services.catalog();
  const found = new Map<string, AtlasEntity>();
  const missing = new Map<string, string>();
  const unique = [...new Set(guids)];
  const chunkSize = Math.min(100, ctx.services.config().batchSize);
  for (let start = 0; start < unique.length; start += chunkSize) {
    const chunk = unique.slice(start, start + chunkSize);
    try {
      const page = await catalog.entity.getMany(chunk, { minExtInfo: true, signal: ctx.signal });
      for (const entity of page.entities ?? []) {
        if (entity.guid && entity.status === "DELETED") missing.set(entity.guid, DELETED_MESSAGE);
        else if (entity.guid) found.set(entity.guid, entity);
      }
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      for (const guid of chunk) {
        try {
          const { entity } = await catalog.entity.get(guid, { minExtInfo: true, signal: ctx.signal });
          if (entity.status === "DELETED") missing.set(guid, DELETED_MESSAGE);
          else found.set(guid, entity);
        } catch (single) {
          if (!(single instanceof NotFoundError)) throw single;
          missing.set(guid, `404 ${single.code ?? ""} ${single.message}`.replace(/\s+/g, " "));
        }
      }
    }
  }
  for (const guid of unique) {
    if (!found.has(guid) && !missing.has(guid)) missing.set(guid, "404 not returned by the catalog");
  }
  return { found, missing };
}
