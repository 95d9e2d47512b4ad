/**
 * The plan of a list operation (`entity create-many`, `entity update-many`; the MCP batch tools' `plan`):
 * each entity read as the operation would find it and compared field by field with what it would write
 * (`entityDiff`), nothing written. A plan only reads, so it needs no confirmation.
 *
 * @module
 */
import type { FieldChange, UnitDiff } from "../csv/types.ts";
import type { z } from "../deps/zod.ts";
import { entityDiff } from "../imports/entity_csv_diff.ts";
import { existingKey, existingKeysOfKnownTypes } from "../imports/entity_catalog_io.ts";
import { atlasEntity, batchContext, type newEntity } from "./entity_batch_operations.ts";
import { readCurrent } from "../catalog/entity_batch.ts";
import type { OperationContext } from "./types.ts";

/** Changes a batch plan lists; the counts cover every entity. */
export const BATCH_PLAN_CHANGES = 20;

/** One listed change of a batch plan: a changed field, or the entity itself when no field is listed. */
export interface BatchPlanChange {
  index: number;
  action: UnitDiff["action"];
  target: string;
  field?: string;
  old?: unknown;
  new?: unknown;
  reason?: string;
}

/** What a batch would do: counts by action and the first changes; `written` is always 0. */
export interface BatchPlan {
  create: number;
  update: number;
  unchanged: number;
  reject: number;
  changes: BatchPlanChange[];
  /** More changes than listed. */
  truncated: boolean;
}

function planOf(diffs: UnitDiff[]): BatchPlan {
  const plan: BatchPlan = { create: 0, update: 0, unchanged: 0, reject: 0, changes: [], truncated: false };
  diffs.forEach((diff, index) => {
    if (diff.action !== "skip") plan[diff.action]++;
    if (diff.action === "unchanged") return;
    const fields: Array<FieldChange | undefined> = diff.changes.length > 0 ? diff.changes : [undefined];
    for (const change of fields) {
      if (plan.changes.length >= BATCH_PLAN_CHANGES) {
        plan.truncated = true;
        return;
      }
      plan.changes.push({
        index,
        action: diff.action,
        target: diff.target,
        ...(change ? { field: change.field, old: change.old, new: change.new } : {}),
        ...(diff.reason ? { reason: diff.reason } : {}),
      });
    }
  });
  return plan;
}

/** The plan of `entity create-many`: an entity that exists is rejected unless `ifExists` is "update". */
export async function planCreateMany(
  ctx: OperationContext,
  entities: Array<z.output<typeof newEntity>>,
  ifExists: string | undefined,
): Promise<BatchPlan> {
  const existing = await existingKeysOfKnownTypes(
    ctx.catalog(),
    entities.map(({ typeName, qualifiedName }) => ({ typeName, qualifiedName })),
    ctx.signal,
  );
  return planOf(entities.map((item) => {
    const target = `${item.typeName} ${item.qualifiedName}`;
    const stored = existing.get(existingKey(item.typeName, item.qualifiedName));
    if (stored && ifExists !== "update") {
      return {
        action: "reject",
        target,
        changes: [],
        reason: "exists already (overwrite it with if_exists update)",
        read: { guid: stored.guid ?? null },
      };
    }
    const entity = atlasEntity(item);
    return entityDiff(target, stored, {
      attributes: entity.attributes ?? {},
      ...(item.collectionId ? { collection: item.collectionId } : {}),
    });
  }));
}

/** The plan of `entity update-many`: an unknown or deleted GUID is rejected, as the operation fails it. */
export async function planUpdateMany(
  ctx: OperationContext,
  updates: Array<{ guid: string; attributes: Record<string, unknown> }>,
): Promise<BatchPlan> {
  const { found, missing } = await readCurrent(batchContext(ctx), updates.map((update) => update.guid));
  return planOf(updates.map(({ guid, attributes }) => {
    const stored = found.get(guid);
    if (!stored) {
      const reason = missing.get(guid) ?? "404 no entity has this GUID";
      return { action: "reject", target: guid, changes: [], reason, read: { guid: null } };
    }
    return entityDiff(guid, stored, { attributes });
  }));
}
