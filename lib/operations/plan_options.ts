/**
 * The plan options of the CSV imports that offer one (`--plan`, `--plan-file`, `--apply-plan`) and how an
 * import runs with them: a plan (`lib/csv/plan.ts`) changes nothing and shows each row's changes; applying
 * one (`lib/csv/plan_apply.ts`) checks that nothing changed since and runs the engine on the plan's rows.
 *
 * @module
 */
import { type BulkImportSummary, runBulkImport } from "../csv/engine.ts";
import { type BulkImportOptions } from "../csv/import_options.ts";
import { makePlan, PLAN_RESULT_ROWS, planChangeRows, planSummaryLine } from "../csv/plan.ts";
import { applyingPlan, checkPlanHolds, parsePlan } from "../csv/plan_apply.ts";
import type { BulkImport } from "../csv/types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { checkOutputFile, writeOutputFile } from "../files/output_files.ts";
import type { OperationContext } from "./types.ts";

/** The plan fields; spread them into an import's input schema. */
export const planFields = {
  plan: z.boolean().optional().describe(
    "Show what each row would change (create, update: old → new, unchanged, reject: why); writes nothing",
  ),
  planFile: z.string().min(1).optional().describe(
    "With plan: write the whole plan (JSON) here, for applyPlan",
  ),
  applyPlan: z.string().min(1).optional().describe(
    "Apply exactly this plan file; refused when the CSV file or the catalog changed since",
  ),
};

/** The values of {@link planFields} in a parsed input. */
export interface PlanInput {
  plan?: boolean;
  planFile?: string;
  applyPlan?: string;
  overwrite?: boolean;
  resume?: boolean;
  dryRun?: boolean;
}

/** What `--plan` returns: the counts, where the plan went, and its first changes, one per field. */
export interface PlanResult {
  operation: string;
  file: string;
  planFile?: string;
  create: number;
  update: number;
  unchanged: number;
  skip: number;
  reject: number;
  /** Change rows listed below; the plan file holds every one. */
  shown: number;
  items: ReturnType<typeof planChangeRows>;
}

/** Refuses plan options that contradict each other, before anything is read. */
export function checkPlanInput(command: string, input: PlanInput): void {
  const refuse = (what: string, hint: string) => {
    throw new UsageError(`${command}: ${what}; nothing was read.`, hint);
  };
  if (input.plan && input.applyPlan) {
    refuse(
      "--plan and --apply-plan exclude each other",
      "Make the plan first, then apply it in a second run.",
    );
  }
  if (input.planFile && !input.plan) {
    refuse("--plan-file needs --plan", "Add --plan to write a plan, or --apply-plan=FILE to apply one.");
  }
  if (input.dryRun && (input.plan || input.applyPlan)) {
    refuse(
      "--dry-run does not go with --plan or --apply-plan",
      "--plan already writes nothing; leave out --dry-run.",
    );
  }
}

/** Runs `plugin` as the input asks: a plan, the apply of a plan, or the import itself. */
export async function runImportOrPlan<Item>(
  ctx: OperationContext,
  plugin: BulkImport<Item>,
  options: BulkImportOptions,
  input: PlanInput,
  planSettings: Record<string, unknown> = {},
): Promise<BulkImportSummary | PlanResult> {
  // What the plan depends on beyond the engine's settings (--if-exists decides skip or update).
  const settings = { ...options.settings, ...planSettings };
  if (input.plan) {
    if (input.planFile) {
      // Refused before the catalog is read, not after the whole file was planned.
      await checkOutputFile(ctx, input.planFile, "--plan-file", { overwrite: input.overwrite === true });
    }
    const plan = await makePlan(plugin, { ...options, settings });
    if (input.planFile) {
      await writeOutputFile(
        ctx,
        input.planFile,
        "--plan-file",
        (write) => write(JSON.stringify(plan, null, 1) + "\n"),
        {
          overwrite: input.overwrite === true,
        },
      );
    }
    ctx.progress?.summary?.(planSummaryLine(plan));
    const items = planChangeRows(plan, PLAN_RESULT_ROWS);
    return {
      operation: plan.operation,
      file: plan.file,
      ...(input.planFile ? { planFile: input.planFile } : {}),
      ...plan.counts,
      shown: items.length,
      items,
    };
  }
  if (input.applyPlan) {
    const text = await ctx.readTextFile(input.applyPlan, "--apply-plan");
    const plan = parsePlan(text, input.applyPlan, plugin.id, settings);
    await checkPlanHolds(plugin, plan, { ...options, planShown: input.applyPlan }, input.resume === true);
    // A resume must continue the apply of this plan, not of another one.
    options.settings = { ...options.settings, plan: plan.sha256 + plan.createdAt };
    return await runBulkImport(applyingPlan(plugin, plan), options);
  }
  return await runBulkImport(plugin, options);
}
