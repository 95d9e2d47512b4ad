/**
 * `--apply-plan`: applies exactly the plan `--plan` made (`plan.ts`), through the engine with its checkpoint,
 * resume and exactly-once, or refuses before anything is sent:
 *
 * - the plan file must be a plan of this import, with the same settings;
 * - the CSV file must be the one planned (same SHA-256);
 * - every field the plan read must hold the value it read. A resumed apply also accepts the value the plan
 *   writes (the interrupted run wrote it), and an entity that a planned create made.
 *
 * Rows planned unchanged or skipped are not sent (counted skipped); rows planned rejected are rejected with
 * the plan's reason; the rest are sent as the import sends them.
 *
 * @module
 */
import { UsageError } from "../core/errors.ts";
import type { BulkImportOptions } from "./import_options.ts";
import {
  checkPlannableFile,
  diffFile,
  type ImportPlan,
  PLAN_FORMAT,
  type PlanRow,
  sameValue,
} from "./plan.ts";
import type { BulkImport, ImportUnit, UnitOutcome } from "./types.ts";

/** Rows a refusal names at most. */
const LISTED_STALE_ROWS = 20;

/** Reads a plan file (already read as text), refusing anything that is not a plan of `operation`. */
export function parsePlan(
  text: string,
  shown: string,
  operation: string,
  settings: Record<string, unknown>,
): ImportPlan {
  let plan: ImportPlan;
  try {
    plan = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--apply-plan: ${shown} is not JSON (${(error as Error).message}); nothing was sent.`,
      "Name the file --plan-file wrote.",
    );
  }
  if (plan?.format !== PLAN_FORMAT || !Array.isArray(plan.rows) || typeof plan.sha256 !== "string") {
    throw new UsageError(
      `--apply-plan: ${shown} is not a govcat import plan (format ${PLAN_FORMAT}); nothing was sent.`,
      "Name the file --plan-file wrote.",
    );
  }
  if (plan.operation !== operation) {
    throw new UsageError(
      `--apply-plan: ${shown} is a plan of ${plan.operation}, not of ${operation}; nothing was sent.`,
      `Apply it with the command that made it, or make a plan of this one with --plan --plan-file.`,
    );
  }
  if (JSON.stringify(plan.settings ?? {}) !== JSON.stringify(settings)) {
    throw new UsageError(
      `--apply-plan: ${shown} was planned with ${JSON.stringify(plan.settings)}, this run has ` +
        `${JSON.stringify(settings)}; nothing was sent.`,
      "Give the same options as when planning (--template, --if-exists), or plan again.",
    );
  }
  return plan;
}

/** One field that differs now from what the plan read. */
interface StaleField {
  field: string;
  planned: unknown;
  now: unknown;
}

/** Whether `now` is what the plan read, or (resuming) what the planned row writes. */
function stillHolds(planned: PlanRow, field: string, now: unknown, resuming: boolean): boolean {
  const read = planned.read[field] ?? null;
  if (sameValue(read, now ?? null)) return true;
  if (!resuming) return false;
  if (field === "guid") return planned.action === "create" && read === null;
  const change = planned.changes.find((c) => c.field === field);
  return change !== undefined && sameValue(change.new, now);
}

const valueText = (value: unknown) =>
  value === null || value === undefined ? "(none)" : JSON.stringify(value);

/**
 * Refuses, naming the rows and fields, when `options.file` or the catalog changed since `plan` was made.
 * `resuming`: an apply interrupted earlier may have written part of the plan already.
 */
export async function checkPlanHolds<Item>(
  plugin: BulkImport<Item>,
  plan: ImportPlan,
  options: BulkImportOptions & { planShown: string },
  resuming: boolean,
): Promise<void> {
  const signal = options.signal ?? new AbortController().signal;
  const display = options.displayName ?? options.file;
  const { sha256, delimiter } = await checkPlannableFile(plugin, options, signal);
  if (sha256 !== plan.sha256) {
    throw new UsageError(
      `--apply-plan: ${display} changed since the plan ${options.planShown} was made (SHA-256 ` +
        `${sha256.slice(0, 12)}…, planned ${plan.sha256.slice(0, 12)}…); nothing was sent.`,
      `Plan the file as it is now (--plan --plan-file) and review that plan, or restore the file planned.`,
    );
  }
  const planned = new Map(plan.rows.map((row) => [row.lines[0], row]));
  const now = await diffFile(plugin, options, delimiter, signal);
  const stale: Array<{ row: PlanRow; fields: StaleField[] }> = [];
  for (const current of now) {
    const row = planned.get(current.lines[0]);
    if (!row) continue;
    const fields: StaleField[] = [];
    for (const field of new Set([...Object.keys(row.read), ...Object.keys(current.read)])) {
      if (!stillHolds(row, field, current.read[field], resuming)) {
        fields.push({ field, planned: row.read[field] ?? null, now: current.read[field] ?? null });
      }
    }
    if (fields.length > 0) stale.push({ row, fields });
  }
  if (stale.length === 0) return;
  const listed = stale.slice(0, LISTED_STALE_ROWS).map(({ row, fields }) =>
    `line ${row.lines[0]} (${row.target}): ` +
    fields.map((f) => `${f.field} was ${valueText(f.planned)} when planned, now ${valueText(f.now)}`).join(
      "; ",
    )
  );
  const more = stale.length > listed.length ? [`… and ${stale.length - listed.length} more rows`] : [];
  throw new UsageError(
    [
      `--apply-plan: the catalog changed since the plan ${options.planShown} was made (${plan.createdAt}); ` +
      `${stale.length} planned row${
        stale.length === 1 ? "" : "s"
      } would not do what the plan says; nothing was sent:`,
      ...listed,
      ...more,
    ].join("\n  "),
    resuming
      ? "Plan again (--plan --plan-file), review the new plan, and apply that one."
      : "Plan again (--plan --plan-file), review the new plan, and apply that one. If an earlier apply of " +
        "this plan was interrupted, add --resume to finish it.",
  );
}

/** `plugin`, sending only the rows the plan creates or updates; the others end as the plan says. */
export function applyingPlan<Item>(plugin: BulkImport<Item>, plan: ImportPlan): BulkImport<Item> {
  const planned = new Map(plan.rows.map((row) => [row.lines[0], row]));
  const sent = (unit: ImportUnit<Item>) => {
    const action = planned.get(unit.lines[0])?.action;
    return action === "create" || action === "update";
  };
  const settled = (unit: ImportUnit<Item>): UnitOutcome => {
    const row = planned.get(unit.lines[0]);
    return row?.action === "reject"
      ? { status: "rejected", reason: `planned: ${row.reason ?? "rejected"}` }
      : { status: "skipped" };
  };
  const bound = plugin.applied?.bind(plugin);
  return {
    ...plugin,
    send: async (units, signal) => {
      const sending = units.filter(sent);
      const answers = sending.length > 0 ? await plugin.send(sending, signal) : [];
      let next = 0;
      return units.map((unit) => sent(unit) ? answers[next++] : settled(unit));
    },
    applied: bound &&
      (async (units, signal) => {
        const sending = units.filter(sent);
        const answers = sending.length > 0 ? await bound(sending, signal) : [];
        let next = 0;
        // A row the plan does not send needs nothing: it is as done as it will be.
        return units.map((unit) => sent(unit) ? answers[next++] : false);
      }),
  };
}
