/**
 * The pure parts of `policy import`: rows checked into role rows or refusals, grouped into one unit per
 * collection (any letter case) with bad rows as units of their own, and a collection's rows applied to its
 * policy in file order, each row saying whether it changed anything.
 */
import assert from "node:assert/strict";
import { roleMembers, withMember } from "../../../lib/catalog/policy_members.ts";
import type { MetadataPolicy } from "../../../lib/catalog/policy_types.ts";
import { sampleCsvLines } from "../../../lib/templates/csv/mod.ts";
import { roleAssignments } from "../../../lib/templates/csv/policy_templates.ts";
import type { CheckedRow } from "../../../lib/csv/types.ts";
import {
  groupByCollection,
  planPolicy,
  type RoleRow,
  roleRowFrom,
} from "../../../lib/imports/policy_members_import.ts";

const ALICE = "3f10f245-d5c4-4541-98ce-01a4580a30e0";
const BOB = "8c2d7e41-5b3a-4f6e-9d10-2a4b6c8e0f12";
const CURATOR = "purviewmetadatarole_builtin_data-curator";
const READER = "purviewmetadatarole_builtin_purview-reader";

function checked(
  line: number,
  collection: string,
  role: string,
  principal: string,
  action?: string,
): CheckedRow {
  const values: Record<string, string> = { collection, role, principal_id: principal };
  if (action) values.action = action;
  return { line, cells: [], values, extras: {} };
}

const policy: MetadataPolicy = {
  id: "p-sales",
  version: 1,
  properties: { collection: { referenceName: "sales" }, attributeRules: [] },
};

Deno.test("roleRowFrom: short and full role names resolve; unknown roles and non-GUID principals are refused", () => {
  assert.deepEqual(roleRowFrom(checked(2, "sales", "Data-Curator", ALICE)), {
    line: 2,
    collection: "sales",
    roleId: CURATOR,
    principalId: ALICE,
    action: "add",
  });
  assert.equal((roleRowFrom(checked(3, "sales", READER, BOB, "remove")) as RoleRow).action, "remove");
  const unknown = roleRowFrom(checked(4, "sales", "owner", ALICE));
  assert.ok("kind" in unknown && unknown.kind === "bad");
  assert.match(unknown.reason, /unknown role "owner": use collection-admin, .*data-reader or a full role id/);
  const email = roleRowFrom(checked(5, "sales", "data-reader", "alice@contoso.com"));
  assert.ok("kind" in email);
  assert.match(email.reason, /principal_id "alice@contoso.com" is not an object id/);
});

Deno.test("groupByCollection: one unit per collection with all its lines, bad rows alone, by first line", () => {
  const units = groupByCollection([
    roleRowFrom(checked(2, "sales", "data-curator", ALICE)),
    roleRowFrom(checked(3, "finance", "data-reader", BOB)),
    roleRowFrom(checked(4, "sales", "owner", BOB)),
    roleRowFrom(checked(5, "SALES", "data-reader", BOB)),
  ]);
  assert.deepEqual(units.map((u) => [u.item.kind, u.item.collection, u.lines]), [
    ["collection", "sales", [2, 5]],
    ["collection", "finance", [3]],
    ["bad", "sales", [4]],
  ]);
});

Deno.test("planPolicy: rows applied in file order; satisfied rows unchanged; no change leaves the policy", () => {
  const rows: RoleRow[] = [
    { line: 2, collection: "sales", roleId: CURATOR, principalId: ALICE, action: "add" },
    { line: 3, collection: "sales", roleId: READER, principalId: BOB, action: "remove" },
    { line: 4, collection: "sales", roleId: CURATOR, principalId: BOB, action: "add" },
  ];
  const plan = planPolicy(policy, rows);
  assert.equal(plan.changed, true);
  assert.deepEqual(plan.rows.map((r) => r.change), ["added", "unchanged", "added"]);
  assert.deepEqual(roleMembers(plan.policy).get(CURATOR), [ALICE, BOB]);
  assert.equal(plan.policy.version, 1, "the version read goes back with the write");
  assert.deepEqual(roleMembers(policy).get(CURATOR), undefined, "the policy read is left as it was");

  const satisfied = planPolicy(withMember(policy, CURATOR, ALICE).policy, rows.slice(0, 2));
  assert.equal(satisfied.changed, false);
  assert.deepEqual(satisfied.rows.map((r) => r.change), ["unchanged", "unchanged"]);

  const removed = planPolicy(plan.policy, [{ ...rows[0], line: 9, action: "remove" }]);
  assert.deepEqual(removed.rows.map((r) => r.change), ["removed"]);
  assert.deepEqual(roleMembers(removed.policy).get(CURATOR), [BOB]);
});

Deno.test("role-assignments template: its sample is the four columns and three rows", () => {
  assert.deepEqual(sampleCsvLines(roleAssignments)[0], "collection,role,principal_id,action");
  assert.equal(sampleCsvLines(roleAssignments).length, 4);
});
