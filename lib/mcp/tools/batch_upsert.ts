/**
 * The answers of the batch tools (batch_create_entities, batch_update_entities): the lean summary of a
 * list operation's outcome (`entity create-many`, `entity update-many`, which do the sending: chunks, and
 * a refused chunk sent again one entity at a time), with every entity's own result on request.
 *
 * @module
 */
import { z } from "../../deps/zod.ts";
import type { BatchOutcome, EntityOutcome } from "../../catalog/entity_batch.ts";

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
 * The answer of a batch tool. By default a summary (a 1,000-entity batch's per-entity results weigh
 * 140 KB): counts, the GUID of each entity in request order and the failures, at most
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
  "full: each entity's result too (~140 B each)",
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

/** The tool's view of one entity's outcome (`entity create-many`, `entity update-many`). */
export function entityResultOf(outcome: EntityOutcome): EntityResult {
  return {
    index: outcome.index,
    type_name: outcome.typeName,
    ...(outcome.qualifiedName === undefined ? {} : { qualified_name: outcome.qualifiedName }),
    ...(outcome.guid === undefined ? {} : { guid: outcome.guid }),
    status: outcome.status,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  };
}

/** The batch answer for `detail` from a list operation's outcome. */
export function batchView(
  outcome: BatchOutcome,
  count: number,
  detail: "summary" | "full" | undefined,
): z.infer<typeof batchSummaryOutput> {
  return batchAnswer({ ...outcome, results: outcome.results.map(entityResultOf) }, count, detail);
}
