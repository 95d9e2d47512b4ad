/**
 * Role membership read from and written into metadata policy bodies, on the service's own recorded
 * policies (`fixtures/recorded/js/Administration/should_list_all_available_metdatapolicies.json`: a root
 * collection `newpurviewllc` and its child `la7eio`).
 */
import assert from "node:assert/strict";
import {
  effectiveHolders,
  inheritsFrom,
  isObjectId,
  resolveRole,
  roleAlias,
  roleMembers,
  withMember,
  withoutMember,
} from "../../../lib/catalog/policy_members.ts";
import type { MetadataPolicy } from "../../../lib/catalog/policy_types.ts";

const recorded = JSON.parse(
  await Deno.readTextFile(
    new URL(
      "../../../fixtures/recorded/js/Administration/should_list_all_available_metdatapolicies.json",
      import.meta.url,
    ),
  ),
);
const [ROOT, CHILD] = recorded.exchanges[0].responseBody.values as MetadataPolicy[];
const ADMIN = "purviewmetadatarole_builtin_collection-administrator";
const CURATOR = "purviewmetadatarole_builtin_data-curator";
const READER = "purviewmetadatarole_builtin_purview-reader";
const NEW_MEMBER = "3f10f245-d5c4-4541-98ce-01a4580a30e0";

Deno.test("resolveRole: short names, role names and full ids, any case; others undefined", () => {
  assert.equal(resolveRole("collection-admin"), ADMIN);
  assert.equal(resolveRole("Data-Reader"), READER);
  assert.equal(resolveRole("purview-reader"), READER);
  assert.equal(resolveRole(CURATOR.toUpperCase()), CURATOR);
  assert.equal(resolveRole("data-source-admin"), "purviewmetadatarole_builtin_data-source-administrator");
  assert.equal(resolveRole("owner"), undefined);
  assert.equal(resolveRole("purviewmetadatarole_builtin_owner"), undefined);
  assert.equal(roleAlias(READER), "data-reader");
});

Deno.test("isObjectId: a guid, nothing else", () => {
  assert.ok(isObjectId(NEW_MEMBER));
  assert.ok(!isObjectId("alice@contoso.com"));
  assert.ok(!isObjectId(`${NEW_MEMBER}0`));
});

Deno.test("roleMembers: the recorded root's four roles and the child's administrators", () => {
  const root = roleMembers(ROOT);
  assert.deepEqual([...root.keys()].sort(), [
    ADMIN,
    CURATOR,
    "purviewmetadatarole_builtin_data-source-administrator",
    READER,
  ]);
  assert.deepEqual(root.get(ADMIN), [
    "35ac9d32-a8ca-4324-9393-d4000746f07c",
    "f8cfe8ca-1f83-4deb-814c-ee49336fdebd",
  ]);
  assert.deepEqual([...roleMembers(CHILD)], [[ADMIN, ["f8cfe8ca-1f83-4deb-814c-ee49336fdebd"]]]);
});

Deno.test("inheritsFrom: the child names its parent, the root none, a cut child none (keeping the parent's admins)", () => {
  assert.equal(inheritsFrom(CHILD), "newpurviewllc");
  assert.equal(inheritsFrom(ROOT), undefined);
  const cut = structuredClone(CHILD);
  const permission = cut.properties!.attributeRules!.find((rule) => rule.id === "permission:la7eio")!;
  permission.dnfCondition = permission.dnfCondition!.filter((clause) =>
    !clause.some((m) => m.attributeValueIncludes === "permission:newpurviewllc")
  );
  assert.equal(inheritsFrom(cut), undefined);
  const holders = effectiveHolders(new Map([["newpurviewllc", ROOT], ["la7eio", cut]]), "la7eio");
  // The child's administrator rule admits the parent's administrators by itself: they stay, nobody else.
  assert.deepEqual(holders, [
    { roleId: ADMIN, principalId: "f8cfe8ca-1f83-4deb-814c-ee49336fdebd" },
    { roleId: ADMIN, principalId: "35ac9d32-a8ca-4324-9393-d4000746f07c", inheritedFrom: "newpurviewllc" },
  ]);
});

Deno.test("effectiveHolders: the child's own members, then the parent's marked inherited, no repeats", () => {
  const holders = effectiveHolders(new Map([["newpurviewllc", ROOT], ["la7eio", CHILD]]), "LA7EIO");
  assert.deepEqual(holders[0], { roleId: ADMIN, principalId: "f8cfe8ca-1f83-4deb-814c-ee49336fdebd" });
  // The parent's administrator f8cf… is the child's own administrator too: listed once, as direct.
  assert.equal(holders.filter((h) => h.roleId === ADMIN).length, 2);
  assert.deepEqual(holders.find((h) => h.roleId === CURATOR && h.principalId.startsWith("35ac")), {
    roleId: CURATOR,
    principalId: "35ac9d32-a8ca-4324-9393-d4000746f07c",
    inheritedFrom: "newpurviewllc",
  });
  assert.equal(holders.length, 1 + 1 + 2 * 3);
});

Deno.test("withMember: adds to an existing role, leaving the original untouched", () => {
  const edit = withMember(CHILD, ADMIN, NEW_MEMBER);
  assert.ok(edit.changed);
  assert.deepEqual(roleMembers(edit.policy).get(ADMIN), ["f8cfe8ca-1f83-4deb-814c-ee49336fdebd", NEW_MEMBER]);
  assert.deepEqual(roleMembers(CHILD).get(ADMIN), ["f8cfe8ca-1f83-4deb-814c-ee49336fdebd"]);
  // The parent clause of the administrator rule stays.
  const rule = edit.policy.properties!.attributeRules!.find((r) => r.id === `${ADMIN}:la7eio`)!;
  assert.equal(rule.dnfCondition!.length, 2);
});

Deno.test("withMember: a role the collection has no rule for gets one, named in its permission rule", () => {
  const edit = withMember(CHILD, CURATOR, NEW_MEMBER);
  assert.ok(edit.changed);
  assert.deepEqual(roleMembers(edit.policy).get(CURATOR), [NEW_MEMBER]);
  const rules = edit.policy.properties!.attributeRules!;
  assert.deepEqual(rules.map((r) => r.id), [`${ADMIN}:la7eio`, `${CURATOR}:la7eio`, "permission:la7eio"]);
  const permission = rules[2].dnfCondition!.flat().map((m) => m.attributeValueIncludes);
  assert.ok(permission.includes(`${CURATOR}:la7eio`), permission.join(" "));
  assert.equal(inheritsFrom(edit.policy), "newpurviewllc");
});

Deno.test("withMember: someone already there (any case) changes nothing", () => {
  const edit = withMember(CHILD, ADMIN, "F8CFE8CA-1F83-4DEB-814C-EE49336FDEBD");
  assert.equal(edit.changed, false);
  assert.equal(edit.policy, CHILD);
});

Deno.test("withoutMember: removes a direct member; someone absent or only inherited changes nothing", () => {
  const edit = withoutMember(ROOT, CURATOR, "35ac9d32-a8ca-4324-9393-d4000746f07c");
  assert.ok(edit.changed);
  assert.deepEqual(roleMembers(edit.policy).get(CURATOR), ["f8cfe8ca-1f83-4deb-814c-ee49336fdebd"]);
  assert.equal(withoutMember(ROOT, CURATOR, NEW_MEMBER).changed, false);
  assert.equal(withoutMember(CHILD, CURATOR, "35ac9d32-a8ca-4324-9393-d4000746f07c").changed, false);
});
