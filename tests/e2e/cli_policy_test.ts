/**
 * The `policy` commands (collection roles) as a user runs them: govcat as a subprocess, over real HTTP,
 * against the emulator's policy store. Roles listed (following the service's trailing nextLink), a child
 * collection's policy shown with its parent's members marked inherited, a member added and removed with
 * the policy's version rising, repeats reported without a write, and bad input refused before anything is
 * sent.
 */
import assert from "node:assert/strict";
import { roleMembers } from "../../lib/catalog/policy_members.ts";
import { EMULATOR_USER_OBJECT_ID } from "../../lib/emulator/policy/defaults.ts";
import { assertRefusedLocally, withCliSetup } from "../support/cli_harness.ts";

const ALICE = "3f10f245-d5c4-4541-98ce-01a4580a30e0";
const CURATOR = "purviewmetadatarole_builtin_data-curator";

Deno.test("policy roles lists the four built-in roles with govcat's short names", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const run = await setup.govcat("policy", "roles");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.json.count, 4);
    assert.deepEqual(run.json.value.map((role: { alias: string }) => role.alias).sort(), [
      "collection-admin",
      "data-curator",
      "data-reader",
      "data-source-admin",
    ]);
    // The list's one page and the empty page its nextLink leads to.
    assert.equal(setup.requests("GET"), 2);
  });
});

Deno.test("policy show: a child collection's own administrator and its parent's members, inherited", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    await setup.client.collections.createOrUpdate("team-a", { parentCollection: { referenceName: "sales" } });
    const run = await setup.govcat("policy", "show", "--collection-name", "team-a");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.json.collection, "team-a");
    assert.equal(run.json.parentCollection, "sales");
    assert.equal(run.json.inheritsFrom, "sales");
    assert.deepEqual(run.json.members[0], {
      role: "collection-admin",
      roleId: "purviewmetadatarole_builtin_collection-administrator",
      principalId: EMULATOR_USER_OBJECT_ID,
    });
    assert.ok(
      run.json.members.some((m: { role: string; inheritedFrom?: string }) =>
        m.role === "data-reader" && m.inheritedFrom === "emulator"
      ),
      JSON.stringify(run.json.members),
    );
    const byId = await setup.govcat("policy", "get", "--policy-id", run.json.policyId);
    assert.equal(byId.code, 0, byId.stderr);
    assert.deepEqual(byId.json.members, run.json.members);
  });
});

Deno.test("policy add-member and remove-member: read, change, write back; repeats write nothing", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const add = ["policy", "add-member", "--collection-name", "sales", "--role", "data-curator"];
    const added = await setup.govcat(...add, "--principal-id", ALICE, "--confirm");
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.json.changed, true);
    assert.equal(added.json.version, 2);
    assert.deepEqual(roleMembers(await setup.client.policies.forCollection("sales")).get(CURATOR), [ALICE]);

    const puts = setup.requests("PUT");
    const again = await setup.govcat(...add, "--principal-id", ALICE.toUpperCase(), "--confirm");
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.json.changed, false);
    assert.match(again.json.message, /already holds data-curator on sales; nothing was changed/);
    assert.equal(setup.requests("PUT"), puts, "nothing written for a member already there");

    const shown = await setup.govcat("policy", "show", "--collection-name", "sales");
    assert.ok(
      shown.json.members.some((m: { principalId: string; inheritedFrom?: string }) =>
        m.principalId === ALICE && m.inheritedFrom === undefined
      ),
    );

    const remove = ["policy", "remove-member", "--collection-name", "sales", "--role", CURATOR];
    const removed = await setup.govcat(...remove, "--principal-id", ALICE, "--confirm");
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(removed.json.changed, true);
    assert.equal(removed.json.version, 3);
    assert.deepEqual(roleMembers(await setup.client.policies.forCollection("sales")).get(CURATOR), []);

    const absent = await setup.govcat(...remove, "--principal-id", ALICE, "--confirm");
    assert.equal(absent.json.changed, false);
    assert.match(absent.json.message, /does not hold data-curator on sales itself; nothing was changed/);
    assert.equal(setup.requests("PUT"), puts + 1);
  });
});

Deno.test("policy show of an unknown collection: the service's 404, with a hint naming collections list", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const run = await setup.govcat("policy", "show", "--collection-name", "nosuchcollection");
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /Collection 'nosuchcollection' does not exist/);
    assert.match(run.stderr, /hint: Check the collection's name .*`govcat collections list`/);
    assert.equal(run.stdout, "");
  });
});

Deno.test("policy add-member refuses a bad principal id, a bad role or no --confirm: exit 2, nothing sent", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const add = ["policy", "add-member", "--collection-name", "sales"];
    await assertRefusedLocally(setup, /--principal-id: must be a GUID .*not "alice@contoso.com"/, [
      ...add,
      "--role=data-reader",
      "--principal-id=alice@contoso.com",
      "--confirm",
    ]);
    await assertRefusedLocally(setup, /--role: must be one of collection-admin, data-source-admin/, [
      ...add,
      "--role=owner",
      `--principal-id=${ALICE}`,
      "--confirm",
    ]);
    await assertRefusedLocally(setup, /destructive: refusing to run it without --confirm/, [
      ...add,
      "--role=data-reader",
      `--principal-id=${ALICE}`,
    ]);
    await assertRefusedLocally(setup, /exactly one of --collection-name and --policy-id/, ["policy", "show"]);
    const policy = await setup.client.policies.forCollection("sales");
    assert.equal(policy.version, 1, "the policy was not written");
  });
});
