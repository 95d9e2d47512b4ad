/**
 * Bulk upserts for the batch tools: entities go in `CATALOG_BATCH_SIZE` chunks, and a chunk the catalog
 * rejects is retried one entity at a time, so every entity ends with its own result and one bad entity
 * never hides the others.
 *
 * @module
 */
import type { AtlasEntity, EntityMutationResult } from "../../catalog/types.ts";
import { z } from "../../deps/zod.ts";
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  CatalogError,
  ConflictError,
  NotFoundError,
} from "../../errors.ts";
import type { ToolContext } from "../tool.ts";

export const entityResult = z.object({
  index: z.number().int().describe("Position in the request"),
  type_name: z.string(),
  qualified_name: z.string().optional(),
  guid: z.string().optional(),
  status: z.enum(["created", "updated", "failed", "skipped"]),
  error: z.string().optional().describe("Why it failed, with the catalog's error code"),
});
export type EntityResult = z.infer<typeof entityResult>;

export const batchOutput = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int().describe(
    "Not sent because an earlier failure (authentication) stopped the batch",
  ),
  results: z.array(entityResult),
});

/** Failures listed in one batch answer; the rest are counted (truncated) and listed with detail "full". */
export const MAX_LISTED_FAILURES = 50;
/** Characters of one failure's error kept in the summary. */
export const MAX_ERROR_CHARS = 300;

/**
 * The answer of a batch tool. By default a summary (issue 18: a 1,000-entity batch answered 140 KB of
 * per-entity results): counts, the GUID of each entity in request order and the failures, at most
 * MAX_LISTED_FAILURES of them (truncated says more failed). Bound: 1,000 GUIDs (~39 KB) and 50 failures
 * of at most 300 characters each, ~60 KB in the worst case. With detail "full", `results` adds every
 * entity's own result.
 */
export const batchSummaryOutput = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int().describe(
    "Not sent because an earlier failure (authentication) stopped the batch",
  ),
  guids: z.array(z.string().nullable()).describe(
    "GUID of each entity, in request order (null where it failed or was skipped without one)",
  ),
  failures: z.array(entityResult).describe(
    `The failed and skipped entities, at most ${MAX_LISTED_FAILURES}, errors cut to ${MAX_ERROR_CHARS} characters`,
  ),
  truncated: z.boolean().describe('More failures than listed: call with detail "full" for every result'),
  results: z.array(entityResult).optional().describe('With detail "full" only: every entity\'s result'),
});

/** The detail argument of the batch tools. */
export const batchDetailField = z.enum(["summary", "full"]).optional().describe(
  "summary (default): counts, GUIDs in request order and up to 50 failures; full: also every entity's " +
    "own result (about 140 bytes per entity)",
);

/** The batch answer for `detail`, from every entity's result. */
export function batchAnswer(
  result: z.infer<typeof batchOutput>,
  count: number,
  detail: "summary" | "full" = "summary",
): z.infer<typeof batchSummaryOutput> {
  const guids: Array<string | null> = Array.from({ length: count }, () => null);
  for (const r of result.results) {
    if (r.guid && (r.status === "created" || r.status === "updated")) guids[r.index] = r.guid;
  }
  const failing = result.results.filter((r) => r.status === "failed" || r.status === "skipped");
  const failures = failing.slice(0, MAX_LISTED_FAILURES).map((r) =>
    r.error && r.error.length > MAX_ERROR_CHARS
      ? { ...r, error: `${r.error.slice(0, MAX_ERROR_CHARS - 1)}…` }
      : r
  );
  return {
    created: result.created,
    updated: result.updated,
    failed: result.failed,
    skipped: result.skipped,
    guids,
    failures,
    truncated: failing.length > failures.length,
    ...(detail === "full" ? { results: result.results } : {}),
  };
}

/** One entity to upsert, with its position in the caller's list. */
export interface IndexedEntity {
  index: number;
  entity: AtlasEntity;
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

function baseResult(item: IndexedEntity): Pick<EntityResult, "index" | "type_name" | "qualified_name"> {
  const qualifiedName = item.entity.attributes?.qualifiedName;
  return {
    index: item.index,
    type_name: item.entity.typeName,
    qualified_name: typeof qualifiedName === "string" ? qualifiedName : undefined,
  };
}

/** Upserts every entity and reports each one's outcome. */
export async function upsertWithIsolation(
  ctx: ToolContext,
  items: IndexedEntity[],
): Promise<z.infer<typeof batchOutput>> {
  const catalog = ctx.services.catalog();
  const size = ctx.services.config().batchSize;
  const results: EntityResult[] = [];
  let stopped: string | undefined;

  const send = async (chunk: IndexedEntity[]): Promise<void> => {
    if (stopped) {
      results.push(
        ...chunk.map((item) => ({ ...baseResult(item), status: "skipped" as const, error: stopped })),
      );
      return;
    }
    // Negative placeholder GUIDs let the answer's guidAssignments say which entity got which GUID.
    const entities = chunk.map((item, i) => ({ ...item.entity, guid: item.entity.guid ?? `-${i + 1}` }));
    try {
      const mutation = await catalog.entity.createOrUpdateMany(entities, ctx.signal);
      results.push(...chunk.map((item, i) => outcome(item, entities[i].guid!, mutation)));
    } catch (error) {
      if (error instanceof AuthenticationError || error instanceof AuthorizationError) {
        stopped = `not sent: ${describeFailure(error)}`;
        results.push(
          ...chunk.map((item) => ({
            ...baseResult(item),
            status: "failed" as const,
            error: describeFailure(error),
          })),
        );
      } else if (chunk.length > 1 && isEntitySpecific(error)) {
        for (const item of chunk) await send([item]);
      } else {
        results.push(
          ...chunk.map((item) => ({
            ...baseResult(item),
            status: "failed" as const,
            error: describeFailure(error),
          })),
        );
      }
    }
  };

  for (let start = 0; start < items.length; start += size) await send(items.slice(start, start + size));
  results.sort((a, b) => a.index - b.index);
  const count = (status: EntityResult["status"]) => results.filter((r) => r.status === status).length;
  return {
    created: count("created"),
    updated: count("updated"),
    failed: count("failed"),
    skipped: count("skipped"),
    results,
  };
}

function outcome(item: IndexedEntity, sentGuid: string, mutation: EntityMutationResult): EntityResult {
  const guid = mutation.guidAssignments?.[sentGuid] ?? (sentGuid.startsWith("-") ? undefined : sentGuid) ??
    findByQualifiedName(item, mutation);
  const inList = (kind: "CREATE" | "UPDATE" | "PARTIAL_UPDATE") =>
    (mutation.mutatedEntities?.[kind] ?? []).some((header) => header.guid === guid);
  const status = inList("CREATE") ? "created" : "updated";
  return { ...baseResult(item), guid, status };
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
