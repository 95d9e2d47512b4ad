/**
 * The account commands of the 2023-10-01-preview API as a user runs them: govcat as a subprocess, over
 * real HTTP, against the emulator. Contact groups and assignments (a collection's expert is named, found,
 * and removed; a group in use is kept; a destructive command needs --confirm), the account's domains and
 * its feature flags.
 */
import assert from "node:assert/strict";
import { assertRefusedLocally, withCliSetup } from "../support/cli_harness.ts";

const ALICE = "aaaaaaaa-0000-4000-8000-000000000001";

Deno.test("account contacts: a custom group, an expert of a collection, listed, then removed", async () => {
  await withCliSetup({ prefix: "govcat-contacts-" }, async (setup) => {
    await setup.client.collections.createOrUpdate("sales", {
      parentCollection: { referenceName: "emulator" },
    });
    const group = await setup.govcat(
      "account",
      "put-contact-group",
      "--name=Stewards",
      "--description=Data stewards",
    );
    assert.equal(group.code, 0, group.stderr);
    assert.equal(group.json.contactGroupType, "Custom");

    const groups = await setup.govcat("account", "listContactGroupDefinitions");
    assert.equal(groups.code, 0, groups.stderr);
    assert.deepEqual(groups.json.value.map((g: { name: string }) => g.name), ["Expert", "Owner", "Stewards"]);

    const added = await setup.govcat(
      "account",
      "add-contact",
      `--principal-id=${ALICE}`,
      "--contact-group=stewards",
      "--scope=sales",
    );
    assert.equal(added.code, 0, added.stderr);
    const id = added.json.assignmentId;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(added.json.scope.type, "CollectionReference");

    await setup.client.contacts.putAssignment(crypto.randomUUID(), {
      principalId: ALICE,
      contactGroup: { referenceName: "Owner" },
      scope: { type: "CollectionReference", referenceName: "emulator" },
    });
    const listed = await setup.govcat("account", "list-contact-assignments", "--scope=sales");
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.json.count, 1);
    assert.equal(listed.json.value[0].principalId, ALICE);
    const scoped = await setup.govcat("account", "list-scoped-contact-groups", "--scope=sales");
    assert.deepEqual(scoped.json, { count: 1, value: ["Stewards"] });

    const inUse = await setup.govcat("account", "delete-contact-group", "--name=Stewards", "--confirm");
    assert.equal(inUse.code, 1, inUse.stderr);
    assert.match(inUse.stderr, /ContactGroupInUse|assigned/);

    await assertRefusedLocally(setup, /--confirm/, ["account", "remove-contact", `--assignment-id=${id}`]);
    const removed = await setup.govcat("account", "remove-contact", `--assignment-id=${id}`, "--confirm");
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(await setup.client.contacts.listAssignments({ scope: "sales" }), []);
    const deleted = await setup.govcat("account", "delete-contact-group", "--name=Stewards", "--confirm");
    assert.equal(deleted.code, 0, deleted.stderr);
  });
});

Deno.test("account contacts: bad input is refused before anything is sent, the service's refusals say why", async () => {
  await withCliSetup({ prefix: "govcat-contacts-" }, async (setup) => {
    await assertRefusedLocally(setup, /principal-id.*GUID|GUID/i, [
      "account",
      "put-contact-assignment",
      "--principal-id=alice@example.com",
      "--contact-group=Expert",
      "--scope=emulator",
    ]);
    await assertRefusedLocally(setup, /reference-type/, [
      "account",
      "list-contact-assignments",
      "--reference-type=Planet",
    ]);
    const unknownScope = await setup.govcat(
      "account",
      "put-contact-assignment",
      `--principal-id=${ALICE}`,
      "--contact-group=Expert",
      "--scope=nosuchcollection",
    );
    assert.equal(unknownScope.code, 1);
    assert.match(unknownScope.stderr, /nosuchcollection/);
    const missing = await setup.govcat("account", "get-contact-group", "--name=nobody");
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /status: 404/);
  });
});

Deno.test("account domains and features: the default domain, and feature flags", async () => {
  await withCliSetup({ prefix: "govcat-domains-" }, async (setup) => {
    const domains = await setup.govcat("account", "list-domains");
    assert.equal(domains.code, 0, domains.stderr);
    assert.equal(domains.json.count, 1);
    const name = domains.json.value[0].name;
    const domain = await setup.govcat("account", "getDomain", `--domain-name=${name}`);
    assert.equal(domain.code, 0, domain.stderr);
    assert.equal(domain.json.containerType, "Domain");

    const features = await setup.govcat("account", "get-features", "--features=Domains,Teleport");
    assert.equal(features.code, 0, features.stderr);
    assert.deepEqual(features.json, { features: { Domains: true, Teleport: false } });
  });
});
