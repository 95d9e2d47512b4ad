/**
 * Upserts and reads of entity lists with per-entity results: entities go in `batchSize` chunks, and a chunk
 * the catalog refuses for what it holds (400, 404, 409) is sent again one entity at a time, so every entity
 * ends with its own result and one bad entity never hides the others. An authentication or permission
 * refusal stops the chunks after it: they would be refused the same way.
 *
 * @module
 */
import type { CatalogClient } from "./client.ts";
import type { AtlasEntity, EntityMutationResult } from "./atlas_model.ts";
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  CatalogError,
  ConflictError,
  NotFoundError,
} from "../core/errors.ts";

/** What a batch needs: the catalog, the chunk size (`CATALOG_BATCH_SIZE`) and the caller's signal. */
export interface BatchContext {
  catalog: CatalogClient;
  batchSize: number;
  signal?: AbortSignal;
}

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

/** One entity to upsert, with its position in the caller's list. */
export interface IndexedEntity {
  index: number;
  entity: AtlasEntity;
}

/** `outcome` with `failures` (found before anything was sent) counted and merged in list order. */
export function withFailures(outcome: BatchOutcome, failures: EntityOutcome[]): BatchOutcome {
  const results = [...outcome.results, ...failures].sort((a, b) => a.index - b.index);
  return { ...outcome, failed: outcome.failed + failures.length, results };
}

const DELETED_MESSAGE = "the entity is deleted (status DELETED); create it again";

/**
 * Reads entities by GUID in chunks. Atlas refuses a whole bulk read when one GUID is unknown, so a
 * refused chunk is read one by one to tell which GUIDs do not exist.
 */
export async function readCurrent(
  ctx: BatchContext,
  guids: string[],
): Promise<{ found: Map<string, AtlasEntity>; missing: Map<string, string> }> {
  const { catalog } = ctx;
  const found = new Map<string, AtlasEntity>();
  const missing = new Map<string, string>();
  const unique = [...new Set(guids)];
  const chunkSize = Math.min(100, ctx.batchSize);
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
export async function upsertWithIsolation(ctx: BatchContext, items: IndexedEntity[]): Promise<BatchOutcome> {
  const { catalog, batchSize: size } = ctx;
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
