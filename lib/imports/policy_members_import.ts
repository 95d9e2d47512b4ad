/**
 * `policy import --csv-file`: collection role members added or removed from CSV through the bulk engine.
 *
 * Rows are grouped by collection: each collection is one unit of the engine, holding all its rows, so its
 * policy is read once, changed for every row (in file order) and written once, with the version read. A
 * collection whose rows change nothing is skipped without a write, and rows already as asked count as
 * skipped (unchanged) within a written collection. A row naming an unknown role or a principal that is not
 * an object id is its own unit, rejected with its reason without a request, so the rest of its collection
 * is still applied; a collection the service does not know is rejected (all its rows) with its answer.
 *
 * Exactly once per collection: the PUT is marked not idempotent, so the HTTP core never repeats it after a
 * lost answer; the engine asks instead (`applied`) whether the policy already holds every row's change,
 * and after an interruption `--resume` skips finished collections and asks the same of unfinished ones.
 * Units depend on the file alone, so a resume sees the same batches.
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import { POLICY_API_VERSION } from "../catalog/policy_api.ts";
import {
  isObjectId,
  resolveRole,
  ROLE_ALIASES,
  roleAlias,
  withMember,
  withoutMember,
} from "../catalog/policy_members.ts";
import type { MetadataPolicy } from "../catalog/policy_types.ts";
import { cellText } from "../templates/csv/rules.ts";
import type {
  BulkImport,
  CheckedRow,
  CsvTemplate,
  FieldChange,
  ImportUnit,
  PlannedAction,
  UnitDiff,
} from "../csv/types.ts";
import { isRowRefusal, refusalOutcome, rejectedOutcome, SettledUnits } from "./bulk_outcomes.ts";

/** One row of the file, checked: a role member to add or remove on a collection. */
export interface RoleRow {
  line: number;
  collection: string;
  roleId: string;
  principalId: string;
  action: "add" | "remove";
}

/** A unit of the import: a collection's rows, or one row refused before any request. */
export type RoleUnitItem =
  | { kind: "collection"; collection: string; rows: RoleRow[] }
  | { kind: "bad"; line: number; collection: string; role: string; principalId: string; reason: string };

/** What one row does to a policy. */
export interface RowChange {
  line: number;
  change: "added" | "removed" | "unchanged";
}

/** A collection's policy with its rows applied, and what each row did. */
export interface PolicyPlan {
  policy: MetadataPolicy;
  changed: boolean;
  rows: RowChange[];
}

/** A checked row as a role row, or the reason it cannot be applied. */
export function roleRowFrom(row: CheckedRow): RoleRow | Extract<RoleUnitItem, { kind: "bad" }> {
  const collection = cellText(row, "collection") ?? "";
  const role = cellText(row, "role") ?? "";
  const principalId = cellText(row, "principal_id") ?? "";
  const roleId = resolveRole(role);
  const bad = (reason: string) => ({
    kind: "bad" as const,
    line: row.line,
    collection,
    role,
    principalId,
    reason,
  });
  if (!roleId) {
    return bad(
      `unknown role ${JSON.stringify(role)}: use ${Object.keys(ROLE_ALIASES).join(", ")} or a full role id`,
    );
  }
  if (!isObjectId(principalId)) {
    return bad(
      `principal_id ${
        JSON.stringify(principalId)
      } is not an object id: 8-4-4-4-12 hexadecimal digits (the user's, group's or service principal's object id in Entra ID)`,
    );
  }
  const action = String(row.values.action ?? "add").toLowerCase() === "remove" ? "remove" : "add";
  return { line: row.line, collection, roleId, principalId, action };
}

/**
 * The units of a file's rows: one per collection (named without regard to letter case), holding its rows
 * in file order, and one per bad row; ordered by their first line.
 */
export function groupByCollection(
  rows: readonly (RoleRow | Extract<RoleUnitItem, { kind: "bad" }>)[],
): ImportUnit<RoleUnitItem>[] {
  const units: ImportUnit<RoleUnitItem>[] = [];
  const byCollection = new Map<string, ImportUnit<RoleUnitItem> & { item: { kind: "collection" } }>();
  for (const row of rows) {
    if ("kind" in row) {
      units.push({ lines: [row.line], item: row });
      continue;
    }
    const key = row.collection.toLowerCase();
    const unit = byCollection.get(key);
    if (unit) {
      unit.lines.push(row.line);
      unit.item.rows.push(row);
      continue;
    }
    const created = {
      lines: [row.line],
      item: { kind: "collection" as const, collection: row.collection, rows: [row] },
    };
    byCollection.set(key, created);
    units.push(created);
  }
  return units;
}

/** The policy with every row applied in file order, and what each row changed. */
export function planPolicy(policy: MetadataPolicy, rows: readonly RoleRow[]): PolicyPlan {
  let current = policy;
  let changed = false;
  const changes = rows.map((row): RowChange => {
    const edit = row.action === "add"
      ? withMember(current, row.roleId, row.principalId)
      : withoutMember(current, row.roleId, row.principalId);
    current = edit.policy;
    changed ||= edit.changed;
    const change = !edit.changed ? "unchanged" : row.action === "add" ? "added" : "removed";
    return { line: row.line, change };
  });
  return { policy: current, changed, rows: changes };
}

/** The plan's name for a row's membership: `member data-curator <object id>`. */
const memberField = (row: RoleRow) => `member ${roleAlias(row.roleId)} ${row.principalId.toLowerCase()}`;

/**
 * What a collection's rows would do (`--plan`): each row adds a member, removes one, or changes nothing
 * (already a member, already absent; named in the reason). The plan reads each row's membership as it is
 * before the import, so an apply refuses when someone added or removed that member since.
 */
export function policyDiff(
  item: Extract<RoleUnitItem, { kind: "collection" }>,
  policy: MetadataPolicy,
): UnitDiff {
  const plan = planPolicy(policy, item.rows);
  const read: Record<string, unknown> = { guid: String(policy.id ?? item.collection) };
  const changes: FieldChange[] = [];
  const already: string[] = [];
  item.rows.forEach((row, i) => {
    const field = memberField(row);
    read[field] ??= !withMember(policy, row.roleId, row.principalId).changed;
    const change = plan.rows[i].change;
    if (change === "unchanged") {
      already.push(`line ${row.line}: ${row.action === "add" ? "already a member" : "already absent"}`);
    } else changes.push({ field, old: change === "removed", new: change === "added" });
  });
  return {
    action: plan.changed ? "update" : "unchanged",
    target: item.collection,
    changes,
    ...(already.length > 0 ? { reason: already.join("; ") } : {}),
    read,
  };
}

/**
 * The policy written once: the HTTP core repeats an idempotent PUT whose answer was lost, which would write
 * the collection twice; marked not idempotent, the lost answer reaches the engine, which asks `applied`.
 */
function writePolicyOnce(
  catalog: CatalogClient,
  policy: MetadataPolicy,
  signal: AbortSignal,
): Promise<MetadataPolicy> {
  return catalog.http.request<MetadataPolicy>({
    method: "PUT",
    area: "account",
    path: `/policyStore/metadataPolicies/${encodeURIComponent(String(policy.id))}`,
    apiVersion: POLICY_API_VERSION,
    body: policy,
    idempotent: false,
    signal,
  });
}

/** The bulk import of role members; see the module documentation. */
export function policyMembersImport(
  catalog: CatalogClient,
  template: CsvTemplate,
): BulkImport<RoleUnitItem> {
  const settled = new SettledUnits<RoleUnitItem>();
  // What a dry run found for each unit, for its preview.
  const planned = new WeakMap<ImportUnit<RoleUnitItem>, PolicyPlan | string>();
  const read = (collection: string, signal: AbortSignal) =>
    catalog.policies.forCollection(collection, signal);
  return {
    id: "policy.import",
    template,
    units: async function* (rows) {
      const all: Parameters<typeof groupByCollection>[0][number][] = [];
      for await (const row of rows) all.push(roleRowFrom(row));
      yield* groupByCollection(all);
    },
    send: async (units, signal) => {
      for (const unit of settled.pending(units)) {
        const item = unit.item;
        if (item.kind === "bad") {
          settled.settle(unit, rejectedOutcome(item.reason));
          continue;
        }
        try {
          const plan = planPolicy(await read(item.collection, signal), item.rows);
          const unchanged = plan.rows.filter((row) => row.change === "unchanged").length;
          if (!plan.changed) {
            settled.settle(unit, { status: "skipped" });
            continue;
          }
          await writePolicyOnce(catalog, plan.policy, signal);
          settled.settle(unit, { status: "updated", unchanged });
        } catch (error) {
          if (!isRowRefusal(error)) throw error;
          settled.settle(unit, refusalOutcome(error));
        }
      }
      return settled.outcomes(units);
    },
    applied: async (units, signal) => {
      const found: boolean[] = [];
      for (const { item } of units) {
        if (item.kind === "bad") found.push(false);
        else found.push(!planPolicy(await read(item.collection, signal), item.rows).changed);
      }
      return found;
    },
    plan: async (units, signal) => {
      const actions: PlannedAction[] = [];
      for (const unit of units) {
        const item = unit.item;
        if (item.kind === "bad") {
          actions.push("reject");
          continue;
        }
        try {
          const plan = planPolicy(await read(item.collection, signal), item.rows);
          planned.set(unit, plan);
          actions.push(plan.changed ? "update" : "skip");
        } catch (error) {
          if (!isRowRefusal(error)) throw error;
          planned.set(unit, refusalOutcome(error).reason);
          actions.push("reject");
        }
      }
      return actions;
    },
    diff: async (units, signal) => {
      const diffs: UnitDiff[] = [];
      for (const { item } of units) {
        if (item.kind === "bad") {
          const target = `${item.collection} ${item.role} ${item.principalId}`;
          diffs.push({ action: "reject", target, changes: [], reason: item.reason, read: {} });
          continue;
        }
        try {
          diffs.push(policyDiff(item, await read(item.collection, signal)));
        } catch (error) {
          if (!isRowRefusal(error)) throw error;
          const reason = refusalOutcome(error).reason;
          diffs.push({
            action: "reject",
            target: item.collection,
            changes: [],
            reason,
            read: { guid: null },
          });
        }
      }
      return diffs;
    },
    describe: (unit) => {
      const item = unit.item;
      if (item.kind === "bad") {
        return {
          collection: item.collection,
          role: item.role,
          principal_id: item.principalId,
          reason: item.reason,
        };
      }
      const plan = planned.get(unit);
      const changes = typeof plan === "object"
        ? new Map(plan.rows.map((r) => [r.line, r.change]))
        : undefined;
      return {
        collection: item.collection,
        ...(typeof plan === "string" ? { reason: plan } : {}),
        rows: item.rows.map((row) => ({
          line: row.line,
          action: row.action,
          role: roleAlias(row.roleId),
          principal_id: row.principalId,
          ...(changes ? { change: changes.get(row.line) } : {}),
        })),
      };
    },
    onThrottle: (listener) => catalog.http.onThrottle(listener),
  };
}
