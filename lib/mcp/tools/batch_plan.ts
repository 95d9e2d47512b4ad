/**
 * The `plan` of the batch tools (batch_create_entities, batch_update_entities): what the batch would do,
 * read from the catalog and written nowhere: counts by action and the first changes, each a field with
 * its value now and the value it would get (`lib/operations/entity_batch_plan.ts`).
 *
 * @module
 */
import { z } from "../../deps/zod.ts";
import type { BatchPlan } from "../../operations/entity_batch_plan.ts";
import { batchSummaryOutput } from "./batch_upsert.ts";

/** The `plan` argument. */
export const batchPlanField = z.boolean().optional().describe(
  "Preview; writes nothing",
);

const planChange = z.object({
  index: z.number().int(),
  action: z.enum(["create", "update", "unchanged", "skip", "reject"]),
  target: z.string(),
  field: z.string().optional(),
  old: z.unknown().optional(),
  new: z.unknown().optional(),
  reason: z.string().optional(),
});

/** The batch answer, with `plan` when the call asked for one (then nothing was written: counts are 0). */
export const batchPlanOutput = batchSummaryOutput.extend({
  plan: z.object({
    create: z.number().int(),
    update: z.number().int(),
    unchanged: z.number().int(),
    reject: z.number().int(),
    changes: z.array(planChange),
    truncated: z.boolean(),
  }).optional(),
});

/** The answer of a plan call: nothing written, the plan. */
export function planAnswer(plan: BatchPlan): z.input<typeof batchPlanOutput> {
  return {
    created: 0,
    updated: 0,
    failed: 0,
    skipped: 0,
    guids: [],
    failures: [],
    truncated: false,
    plan,
  };
}
