/**
 * Entity operations on lists given in the call (not a CSV file): `entity create-many`, `entity update`
 * and `entity update-many`. Entities go in `CATALOG_BATCH_SIZE` chunks, and a chunk the catalog refuses is
 * sent again one entity at a time, so every entity ends with its own result and one bad entity never hides
 * the others. An entity that exists already is left alone by `create-many` unless `--if-exists=update`
 * (confirmed); the updates read each entity first and lay the attributes given over the current ones.
 * The MCP tools batch_create_entities, update_entity and batch_update_entities are these operations.
 *
 * @module
 */
import type { AtlasEntity } from "../catalog/atlas_model.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import {
  type BatchContext,
  type EntityOutcome,
  type IndexedEntity,
  readCurrent,
  upsertWithIsolation,
  withFailures,
} from "../catalog/entity_batch.ts";
import { existingKey, existingKeysOfKnownTypes } from "../imports/entity_catalog_io.ts";
import { guidField } from "./guid_fields.ts";
import { confirmOverwrite, ifExistsField, overwriteConfirmField } from "./if_exists.ts";
import { CREATE, defineOperation, type Operation, type OperationContext, UPSERT } from "./types.ts";

/** Entities accepted by one call. */
export const MAX_BATCH_ENTITIES = 1000;

const attributes = z.record(z.string(), z.unknown()).describe(
  'Attribute names and values as a JSON object, e.g. {"owner":"finance-data","description":"…"}',
);

export const newEntity = z.object({
  typeName: z.string().min(1).describe("Type of the asset, e.g. azure_sql_table or DataSet"),
  qualifiedName: z.string().min(1).describe("Unique name within the type"),
  name: z.string().min(1).describe("Display name"),
  description: z.string().optional().describe("Description of the asset"),
  attributes: attributes.optional(),
  collectionId: z.string().optional().describe("Collection to register the asset in"),
});

/** The Atlas entity for one item of `create-many`. */
export function atlasEntity(item: z.output<typeof newEntity>): AtlasEntity {
  return {
    typeName: item.typeName,
    attributes: {
      ...item.attributes,
      qualifiedName: item.qualifiedName,
      name: item.name,
      ...(item.description === undefined ? {} : { description: item.description }),
    },
    ...(item.collectionId ? { collectionId: item.collectionId } : {}),
  };
}

export const createManyEntities = defineOperation({
  id: "entity.create-many",
  group: "entity",
  command: "create-many",
  aliases: ["createMany"],
  summary: "Create up to 1000 entities given as JSON; existing ones fail alone unless --if-exists=update",
  description: "--entities is a JSON array of {typeName, qualifiedName, name, description, attributes, " +
    "collectionId}. They are sent in batches of CATALOG_BATCH_SIZE; a batch the catalog refuses is sent " +
    "again one entity at a time, so each entity has its own result. An entity whose type and qualified " +
    "name exist already fails, nothing sent for it, unless --if-exists=update: then it is overwritten, " +
    "once confirmed (--confirm).",
  input: z.object({
    entities: z.array(newEntity).min(1).max(MAX_BATCH_ENTITIES).describe(
      `The entities to create, 1 to ${MAX_BATCH_ENTITIES}, as a JSON array`,
    ),
    ifExists: ifExistsField,
    confirm: overwriteConfirmField,
  }),
  // As entity create: repeating it creates nothing new; --if-exists=update overwrites, once confirmed.
  annotations: { ...CREATE, idempotent: true },
  run: async (ctx, input) => {
    const items = input.entities.map((item, index) => ({ index, entity: atlasEntity(item) }));
    if (input.ifExists === "update") {
      await confirmOverwrite(
        ctx,
        `entity create-many --if-exists=update (${input.entities.length} entities)`,
        input.confirm,
      );
      return await upsertWithIsolation(batchContext(ctx), items);
    }
    const existing = await existingKeysOfKnownTypes(
      ctx.catalog(),
      input.entities.map(({ typeName, qualifiedName }) => ({ typeName, qualifiedName })),
      ctx.signal,
    );
    const fresh: IndexedEntity[] = [];
    const failures: EntityOutcome[] = [];
    for (const item of items) {
      const { typeName, qualifiedName } = input.entities[item.index];
      const current = existing.get(existingKey(typeName, qualifiedName));
      if (!current) fresh.push(item);
      else {
        failures.push({
          index: item.index,
          typeName,
          qualifiedName,
          guid: current.guid,
          status: "failed",
          error: "exists already; nothing was sent for it (update it by GUID, or overwrite it with " +
            "if-exists update)",
        });
      }
    }
    return withFailures(await upsertWithIsolation(batchContext(ctx), fresh), failures);
  },
});

const entityGuid = guidField("GUID of the entity");

export const updateEntity = defineOperation({
  id: "entity.update",
  group: "entity",
  command: "update",
  summary: "Set attributes of an entity found by GUID; the others keep their values",
  description: "The entity is read first and the attributes given are laid over its current ones, so " +
    "nothing else about it changes. Their previous values are overwritten: confirmed (--confirm).",
  input: z.object({ guid: entityGuid, attributes }),
  // Replaces the values of the attributes given, which are not kept: destructive, so confirmed.
  annotations: { ...UPSERT, destructive: true },
  run: async (ctx, input) => {
    const { found, missing } = await readCurrent(batchContext(ctx), [input.guid]);
    const current = found.get(input.guid);
    if (!current) throw new UsageError(`Cannot update ${input.guid}: ${missing.get(input.guid)}.`);
    return await ctx.catalog().entity.createOrUpdate(
      { entity: mergeAttributes(current, input.attributes) },
      ctx.signal,
    );
  },
});

export const updateManyEntities = defineOperation({
  id: "entity.update-many",
  group: "entity",
  command: "update-many",
  aliases: ["updateMany"],
  summary: "Set attributes of up to 1000 entities found by GUID, each failing alone",
  description: "--updates is a JSON array of {guid, attributes}. Each entity is read first and the " +
    "attributes given are laid over its current ones; an unknown or deleted GUID fails only that entry. " +
    "Previous values are overwritten: confirmed (--confirm).",
  input: z.object({
    updates: z.array(z.object({ guid: entityGuid, attributes })).min(1).max(MAX_BATCH_ENTITIES).describe(
      `The entities to change (1 to ${MAX_BATCH_ENTITIES}) as a JSON array of {guid, attributes}`,
    ),
  }),
  annotations: { ...UPSERT, destructive: true },
  run: async (ctx, input) => {
    const { found, missing } = await readCurrent(
      batchContext(ctx),
      input.updates.map((update) => update.guid),
    );
    const items: IndexedEntity[] = [];
    const failures: EntityOutcome[] = [];
    input.updates.forEach((update, index) => {
      const current = found.get(update.guid);
      if (current) items.push({ index, entity: mergeAttributes(current, update.attributes) });
      else {
        failures.push({
          index,
          typeName: "",
          guid: update.guid,
          status: "failed",
          error: missing.get(update.guid) ?? "404 no entity has this GUID",
        });
      }
    });
    return withFailures(await upsertWithIsolation(batchContext(ctx), items), failures);
  },
});

/** The list operations of this module. */
export const ENTITY_BATCH_OPERATIONS: Operation[] = [createManyEntities, updateEntity, updateManyEntities];

/** The new attributes laid over the current ones, so nothing else about the entity changes. */
function mergeAttributes(current: AtlasEntity, attributes: Record<string, unknown>): AtlasEntity {
  return {
    guid: current.guid,
    typeName: current.typeName,
    attributes: { ...current.attributes, ...attributes },
    ...(current.collectionId ? { collectionId: current.collectionId } : {}),
  };
}

/** The batch context of an operation call. */
export function batchContext(ctx: OperationContext): BatchContext {
  return { catalog: ctx.catalog(), batchSize: ctx.config().batchSize, signal: ctx.signal };
}
