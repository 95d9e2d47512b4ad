/**
 * The account API's 2023-10-01-preview additions as the emulator behaves, over real HTTP on 127.0.0.1:
 * contact group definitions and assignments (system groups, names without regard to case, a collection
 * scope that must exist, no duplicate, no deletion of a group in use, filters and pages, kept on a data
 * file), the default domain over the root collection, and feature flags.
 */
import assert from "node:assert/strict";
import { call, ok, withEmulator } from "../emulator_test_helpers.ts";

const V = "api-version=2023-10-01-preview";
const A1 = "11111111-1111-4111-8111-111111111111";
const A2 = "22222222-2222-4222-8222-222222222222";
const ALICE = "aaaaaaaa-0000-4000-8000-000000000001";
const BOB = "bbbbbbbb-0000-4000-8000-000000000002";

function assignment(principalId: string, group: string, collection: string) {
  return {
    principalId,
    contactGroup: { type: "ContactGroupDefinitionReference", referenceName: group },
    scope: { type: "CollectionReference", referenceName: collection },
  };
}

Deno.test("contacts: the system groups exist and refuse change; a custom group is kept and found in any case", async () => {
  await withEmulator({}, async (emulator) => {
    const listed = await ok(emulator, "GET", `/account/contactGroupDefinitions?${V}`);
    assert.deepEqual(listed.body.value.map((g: { name: string }) => g.name), ["Expert", "Owner"]);
    const refused = await call(emulator, "PUT", `/account/contactGroupDefinitions/owner?${V}`, {
      description: "x",
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, "SystemContactGroup");
    const deleteRefused = await call(emulator, "DELETE", `/account/contactGroupDefinitions/Expert?${V}`);
    assert.equal(deleteRefused.status, 400);

    const put = await ok(emulator, "PUT", `/account/contactGroupDefinitions/Stewards?${V}`, {
      description: "Data stewards",
      contactGroupType: "System", // read-only: ignored
    });
    assert.deepEqual(put.body, {
      name: "Stewards",
      description: "Data stewards",
      contactGroupType: "Custom",
    });
    const read = await ok(emulator, "GET", `/account/contactGroupDefinitions/STEWARDS?${V}`);
    assert.equal(read.body.name, "Stewards", "the name first written is answered");
    const badName = await call(
      emulator,
      "PUT",
      `/account/contactGroupDefinitions/${"x".repeat(65)}?${V}`,
      {},
    );
    assert.equal(badName.status, 400);
    assert.equal(badName.body.error.target, "contactGroupDefinitionName");
  });
});

Deno.test("contacts: an assignment needs a known group and an existing collection, and is not duplicated", async () => {
  await withEmulator({}, async (emulator) => {
    await ok(emulator, "PUT", `/account/collections/sales?${V}`, {
      parentCollection: { referenceName: "emulator" },
    });
    const unknownGroup = await call(
      emulator,
      "PUT",
      `/account/contactAssignments/${A1}?${V}`,
      assignment(ALICE, "nobody", "sales"),
    );
    assert.equal(unknownGroup.status, 400);
    assert.equal(unknownGroup.body.error.code, "ContactGroupNotFound");
    const unknownScope = await call(
      emulator,
      "PUT",
      `/account/contactAssignments/${A1}?${V}`,
      assignment(ALICE, "expert", "nosuch"),
    );
    assert.equal(unknownScope.status, 400);
    assert.equal(unknownScope.body.error.target, "scope.referenceName");
    const badId = await call(
      emulator,
      "PUT",
      `/account/contactAssignments/not-a-guid?${V}`,
      assignment(ALICE, "expert", "sales"),
    );
    assert.equal(badId.status, 400);

    const created = await ok(
      emulator,
      "PUT",
      `/account/contactAssignments/${A1}?${V}`,
      assignment(ALICE, "expert", "sales"),
    );
    assert.equal(created.body.assignmentId, A1);
    assert.equal(created.body.contactGroup.referenceName, "Expert", "the group's own name is stored");
    assert.equal(typeof created.body.systemData.createdAt, "string");
    const duplicate = await call(
      emulator,
      "PUT",
      `/account/contactAssignments/${A2}?${V}`,
      assignment(ALICE, "Expert", "SALES"),
    );
    assert.equal(duplicate.status, 409);
    assert.match(duplicate.body.error.message, new RegExp(A1));
    const read = await ok(emulator, "GET", `/account/contactAssignments/${A1.toUpperCase()}?${V}`);
    assert.equal(read.body.principalId, ALICE);
  });
});

Deno.test("contacts: lists filter by scope, group and type; scoped group names; a group in use is kept", async () => {
  await withEmulator({}, async (emulator) => {
    for (const name of ["sales", "people"]) {
      await ok(emulator, "PUT", `/account/collections/${name}?${V}`, {
        parentCollection: { referenceName: "emulator" },
      });
    }
    await ok(emulator, "PUT", `/account/contactGroupDefinitions/stewards?${V}`, { description: "Stewards" });
    await ok(
      emulator,
      "PUT",
      `/account/contactAssignments/${A1}?${V}`,
      assignment(ALICE, "stewards", "sales"),
    );
    await ok(emulator, "PUT", `/account/contactAssignments/${A2}?${V}`, assignment(BOB, "Owner", "people"));

    const sales = await ok(
      emulator,
      "GET",
      `/account/contactAssignments?${V}&scope=Sales&referenceType=CollectionReference`,
    );
    assert.deepEqual(sales.body.value.map((a: { assignmentId: string }) => a.assignmentId), [A1]);
    const owners = await ok(emulator, "GET", `/account/contactAssignments?${V}&contactGroupDefinition=owner`);
    assert.deepEqual(owners.body.value.map((a: { principalId: string }) => a.principalId), [BOB]);
    const names = await ok(
      emulator,
      "GET",
      `/account/getScopedContactGroupNames?${V}&scope=people&referenceType=CollectionReference`,
    );
    assert.deepEqual(names.body, { value: ["Owner"], count: 1 });

    const inUse = await call(emulator, "DELETE", `/account/contactGroupDefinitions/stewards?${V}`);
    assert.equal(inUse.status, 409);
    assert.equal(inUse.body.error.code, "ContactGroupInUse");
    assert.equal((await call(emulator, "DELETE", `/account/contactAssignments/${A1}?${V}`)).status, 204);
    assert.equal(
      (await call(emulator, "DELETE", `/account/contactGroupDefinitions/stewards?${V}`)).status,
      204,
    );
    assert.equal((await call(emulator, "GET", `/account/contactGroupDefinitions/stewards?${V}`)).status, 404);
    assert.equal(
      (await call(emulator, "DELETE", `/account/contactAssignments/${A1}?${V}`)).status,
      204,
      "idempotent",
    );
  });
});

Deno.test("contacts: a long list pages with a nextLink; a forged token is refused", async () => {
  await withEmulator({}, async (emulator) => {
    for (let i = 0; i < 102; i++) {
      await ok(
        emulator,
        "PUT",
        `/account/contactGroupDefinitions/group${String(i).padStart(3, "0")}?${V}`,
        {},
      );
    }
    const first = await ok(emulator, "GET", `/account/contactGroupDefinitions?${V}`);
    assert.equal(first.body.value.length, 100);
    assert.equal(first.body.count, 104);
    const next = new URL(first.body.nextLink);
    const second = await ok(emulator, "GET", next.pathname + next.search);
    assert.equal(second.body.value.length, 4);
    assert.equal(second.body.nextLink, undefined);
    const forged = await call(emulator, "GET", `/account/contactGroupDefinitions?${V}&$skipToken=abc`);
    assert.equal(forged.status, 400);
    assert.equal(forged.body.error.code, "InvalidSkipToken");
  });
});

Deno.test("contacts: groups and assignments are kept on the data file across a restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-contacts-" });
  try {
    const dataFile = `${dir}/catalog.db`;
    await withEmulator({ dataFile }, async (emulator) => {
      await ok(emulator, "PUT", `/account/contactGroupDefinitions/stewards?${V}`, { description: "kept" });
      await ok(
        emulator,
        "PUT",
        `/account/contactAssignments/${A1}?${V}`,
        assignment(ALICE, "stewards", "emulator"),
      );
    });
    await withEmulator({ dataFile }, async (emulator) => {
      const group = await ok(emulator, "GET", `/account/contactGroupDefinitions/stewards?${V}`);
      assert.equal(group.body.description, "kept");
      const read = await ok(emulator, "GET", `/account/contactAssignments/${A1}?${V}`);
      assert.equal(read.body.scope.referenceName, "emulator");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("domains: the default domain stands over the root collection and follows its changes", async () => {
  await withEmulator({}, async (emulator) => {
    const list = await ok(emulator, "GET", `/account/domains?${V}`);
    assert.equal(list.body.count, 1);
    const [domain] = list.body.value;
    assert.equal(domain.name, "emulator");
    assert.equal(domain.containerType, "Domain");
    await ok(emulator, "PUT", `/account/collections/emulator?${V}`, {
      friendlyName: "Contoso",
      description: "All of it",
    });
    const read = await ok(emulator, "GET", `/account/domains/EMULATOR?${V}`);
    assert.equal(read.body.friendlyName, "Contoso");
    assert.equal(read.body.description, "All of it");
    const missing = await call(emulator, "GET", `/account/domains/myDomain1?${V}`);
    assert.equal(missing.status, 404);
    assert.match(missing.body.error.message, /emulator/);
  });
});

Deno.test("features: each name asked answers on or off; bad requests are refused", async () => {
  await withEmulator({}, async (emulator) => {
    const answer = await ok(emulator, "POST", `/account/features?${V}`, {
      features: ["domains", "Teleport"],
    });
    assert.deepEqual(answer.body, { features: { domains: true, Teleport: false } });
    const twice = await call(emulator, "POST", `/account/features?${V}`, { features: ["A", "A"] });
    assert.equal(twice.status, 400);
    assert.equal(twice.body.error.target, "features[1]");
    const notList = await call(emulator, "POST", `/account/features?${V}`, { features: "Domains" });
    assert.equal(notList.status, 400);
  });
});

Deno.test("contacts: a data reset empties custom groups and assignments; the system groups stay", async () => {
  await withEmulator({}, async (emulator) => {
    await ok(emulator, "PUT", `/account/contactGroupDefinitions/stewards?${V}`, {});
    await ok(
      emulator,
      "PUT",
      `/account/contactAssignments/${A1}?${V}`,
      assignment(ALICE, "Expert", "emulator"),
    );
    await ok(emulator, "POST", "/_emulator/reset?data=true", {});
    const groups = await ok(emulator, "GET", `/account/contactGroupDefinitions?${V}`);
    assert.deepEqual(groups.body.value.map((g: { name: string }) => g.name), ["Expert", "Owner"]);
    assert.equal((await call(emulator, "GET", `/account/contactAssignments/${A1}?${V}`)).status, 404);
  });
});
