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
import type { CatalogClient } from "../catalog/client.ts";
import type { AtlasEntity, EntityMutationResult } from "../catalog/types.ts";
import { z } from "../deps/zod.ts";
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  CatalogError,
  ConflictError,
  NotFoundError,
  UsageError,
} from "../core/errors.ts";
import { existingKey, existingKeysOfKnownTypes } from "./entity_bulk_operations.ts";
import { guidField } from "./guid_fields.ts";
import { confirmOverwrite, ifExistsField, overwriteConfirmField } from "./if_exists.ts";
import { CREATE, defineOperation, type Operation, type OperationContext, UPSERT } from "./types.ts";

/** Entities accepted by one call. */
export const MAX_BATCH_ENTITIES = 1000;

/** What happened to one entity of a list. */
export interface EntityOutcome {
  /** Position in the list given. */
  index: number;
  typeName: string;
  qualifiedName?: string;
  guid?: string;
  status: "created" | "updated" | "failed" | "skipped";
  /** Why it failed or was skipped, with the catalog's status and code. */
  error?: string;
}

/** The answer of a list operation: counts and every entity's outcome, in list order. */
export interface BatchOutcome {
  created: number;
  updated: number;
  failed: number;
  skipped: number;
  results: EntityOutcome[];
}

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
      return await upsertWithIsolation(ctx, items);
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
    return withFailures(await upsertWithIsolation(ctx, fresh), failures);
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
    const { found, missing } = await readCurrent(ctx, [input.guid]);
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
    const { found, missing } = await readCurrent(ctx, input.updates.map((update) => update.guid));
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
    return withFailures(await upsertWithIsolation(ctx, items), failures);
  },
});

/** The list operations of this module. */
export const ENTITY_BATCH_OPERATIONS: Operation[] = [createManyEntities, updateEntity, updateManyEntities];

/** One entity to upsert, with its position in the caller's list. */
interface IndexedEntity {
  index: number;
  entity: AtlasEntity;
}

/** `outcome` with `failures` (found before anything was sent) counted and merged in list order. */
function withFailures(outcome: BatchOutcome, failures: EntityOutcome[]): BatchOutcome {
  const results = [...outcome.results, ...failures].sort((a, b) => a.index - b.index);
  return { ...outcome, failed: outcome.failed + failures.length, results };
}

const DELETED_MESSAGE = "the entity is deleted (status DELETED); create it again";

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
export async function readCurrent(
  ctx: OperationContext,
  guids: string[],
): Promise<{ found: Map<string, AtlasEntity>; missing: Map<string, string> }> {
  const catalog = ctx.catalog();
  const found = new Map<string, AtlasEntity>();
  const missing = new Map<string, string>();
  const unique = [...new Set(guids)];
  const chunkSize = Math.min(100, ctx.config().batchSize);
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
      await readOneByOne(catalog, chunk, { found, missing }, ctx.signal);
    }
  }
  for (const guid of unique) {
    if (!found.has(guid) && !missing.has(guid)) missing.set(guid, "404 not returned by the catalog");
  }
  return { found, missing };
}

async function readOneByOne(
  catalog: CatalogClient,
  guids: string[],
  into: { found: Map<string, AtlasEntity>; missing: Map<string, string> },
  signal?: AbortSignal,
): Promise<void> {
  for (const guid of guids) {
    try {
      const { entity } = await catalog.entity.get(guid, { minExtInfo: true, signal });
      if (entity.status === "DELETED") into.missing.set(guid, DELETED_MESSAGE);
      else into.found.set(guid, entity);
    } catch (single) {
      if (!(single instanceof NotFoundError)) throw single;
      into.missing.set(guid, `404 ${single.code ?? ""} ${single.message}`.replace(/\s+/g, " "));
    }
  }
}

/** Errors that concern the entities sent, so sending them one by one can tell the good from the bad. */
function isEntitySpecific(error: unknown): boolean {
  return error instanceof BadRequestError || error instanceof NotFoundError || error instanceof ConflictError;
}

function describeFailure(error: unknown): string {
  if (error instanceof CatalogError) {
    return [error.status || undefined, error.code, error.message].filter(Boolean).join(" ");
  }
  return error instanceof Error ? error.message : String(error);
}

function baseOutcome(item: IndexedEntity): Pick<EntityOutcome, "index" | "typeName" | "qualifiedName"> {
  const qualifiedName = item.entity.attributes?.qualifiedName;
  return {
    index: item.index,
    typeName: item.entity.typeName,
    qualifiedName: typeof qualifiedName === "string" ? qualifiedName : undefined,
  };
}

/** Upserts every entity and reports each one's outcome. */
async function upsertWithIsolation(ctx: OperationContext, items: IndexedEntity[]): Promise<BatchOutcome> {
  const catalog = ctx.catalog();
  const size = ctx.config().batchSize;
  const results: EntityOutcome[] = [];
  let stopped: string | undefined;
  const failAll = (chunk: IndexedEntity[], error: unknown, status: "failed" | "skipped" = "failed") =>
    results.push(...chunk.map((item) => ({ ...baseOutcome(item), status, error: describeFailure(error) })));

  const send = async (chunk: IndexedEntity[]): Promise<void> => {
    if (stopped) {
      results.push(
        ...chunk.map((item) => ({ ...baseOutcome(item), status: "skipped" as const, error: stopped })),
      );
      return;
    }
    // Negative placeholder GUIDs let the answer's guidAssignments say which entity got which GUID.
    const entities = chunk.map((item, i) => ({ ...item.entity, guid: item.entity.guid ?? `-${i + 1}` }));
    try {
      const mutation = await catalog.entity.createOrUpdateMany(entities, ctx.signal);
      results.push(...chunk.map((item, i) => outcomeOf(item, entities[i].guid!, mutation)));
    } catch (error) {
      if (error instanceof AuthenticationError || error instanceof AuthorizationError) {
        // The next chunks would be refused the same way: not sent.
        stopped = `not sent: ${describeFailure(error)}`;
        failAll(chunk, error);
      } else if (chunk.length > 1 && isEntitySpecific(error)) {
        for (const item of chunk) await send([item]);
      } else failAll(chunk, error);
    }
  };

  for (let start = 0; start < items.length; start += size) await send(items.slice(start, start + size));
  results.sort((a, b) => a.index - b.index);
  const count = (status: EntityOutcome["status"]) => results.filter((r) => r.status === status).length;
  return {
    created: count("created"),
    updated: count("updated"),
    failed: count("failed"),
    skipped: count("skipped"),
    results,
  };
}

function outcomeOf(item: IndexedEntity, sentGuid: string, mutation: EntityMutationResult): EntityOutcome {
  const guid = mutation.guidAssignments?.[sentGuid] ?? (sentGuid.startsWith("-") ? undefined : sentGuid) ??
    findByQualifiedName(item, mutation);
  const inList = (kind: "CREATE" | "UPDATE" | "PARTIAL_UPDATE") =>
    (mutation.mutatedEntities?.[kind] ?? []).some((header) => header.guid === guid);
  return { ...baseOutcome(item), guid, status: inList("CREATE") ? "created" : "updated" };
}

function findByQualifiedName(item: IndexedEntity, mutation: EntityMutationResult): string | undefined {
  const qualifiedName = item.entity.attributes?.qualifiedName;
  for (const headers of Object.values(mutation.mutatedEntities ?? {})) {
    const match = headers?.find((h) =>
      h.typeName === item.entity.typeName && h.attributes?.qualifiedName === qualifiedName
    );
    if (match?.guid) return match.guid;
  }
  return undefined;
}
