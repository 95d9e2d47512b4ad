/**
 * The emulator's policy store over real HTTP on 127.0.0.1: a policy per collection, made and removed with
 * it; members added to a child collection and seen; the parent's members inherited until inheritance is
 * cut; PUT's checks; the role list's paging; persistence and data reset.
 */
import assert from "node:assert/strict";
import {
  effectiveHolders,
  inheritsFrom,
  roleMembers,
  withMember,
} from "../../../../lib/catalog/policy_members.ts";
import type { MetadataPolicy } from "../../../../lib/catalog/policy_types.ts";
import { startEmulator } from "../../../../lib/emulator/mod.ts";
import { EMULATOR_USER_OBJECT_ID } from "../../../../lib/emulator/policy/defaults.ts";

const V = "api-version=2021-07-01-preview";
const ADMIN = "purviewmetadatarole_builtin_collection-administrator";
const CURATOR = "purviewmetadatarole_builtin_data-curator";
const ALICE = "3f10f245-d5c4-4541-98ce-01a4580a30e0";

async function call(base: string, method: string, path: string, body?: unknown) {
  const separator = path.includes("?") ? "&" : "?";
  const apiVersion = path.startsWith("/policyStore") ? V : "api-version=2019-11-01-preview";
  const response = await fetch(`${base}${path}${separator}${apiVersion}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text === "" ? undefined : JSON.parse(text) };
}

async function policyOf(base: string, collection: string): Promise<MetadataPolicy> {
  const reply = await call(base, "GET", `/policyStore/metadataPolicies?collectionName=${collection}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.json));
  return reply.json.values[0];
}

async function allPolicies(base: string): Promise<Map<string, MetadataPolicy>> {
  const reply = await call(base, "GET", "/policyStore/metadataPolicies");
  return new Map(
    (reply.json.values as MetadataPolicy[]).map((p) => [p.properties!.collection!.referenceName!, p]),
  );
}

async function withEmulator(run: (base: string) => Promise<void>, dataFile?: string): Promise<void> {
  const emulator = await startEmulator({ seed: true, dataFile });
  try {
    await run(emulator.url);
  } finally {
    await emulator.close();
  }
}

Deno.test("policy store: a collection gets its policy when made and loses it when deleted", async () => {
  await withEmulator(async (base) => {
    const root = await policyOf(base, "emulator");
    assert.equal(root.properties?.parentCollectionName, undefined);
    assert.deepEqual(roleMembers(root).get(ADMIN), [EMULATOR_USER_OBJECT_ID]);
    assert.equal(roleMembers(root).size, 4, "the root's creator holds every role");

    assert.equal(
      (await call(base, "GET", "/policyStore/metadataPolicies?collectionName=team-a")).status,
      404,
    );
    await call(base, "PUT", "/account/collections/team-a", { parentCollection: { referenceName: "sales" } });
    const policy = await policyOf(base, "team-a");
    assert.equal(policy.version, 1);
    assert.equal(policy.name, "policy_team-a");
    assert.equal(policy.properties?.parentCollectionName, "sales");
    assert.equal(inheritsFrom(policy), "sales");
    assert.deepEqual([...roleMembers(policy)], [[ADMIN, [EMULATOR_USER_OBJECT_ID]]]);
    assert.equal((await call(base, "GET", `/policyStore/metadataPolicies/${policy.id}`)).json.id, policy.id);

    assert.equal((await call(base, "DELETE", "/account/collections/team-a")).status, 204);
    assert.equal((await call(base, "GET", `/policyStore/metadataPolicies/${policy.id}`)).status, 404);
    assert.equal(
      (await call(base, "GET", "/policyStore/metadataPolicies?collectionName=team-a")).status,
      404,
    );
  });
});

Deno.test("policy store: a member added to a child is seen; the parent's members are inherited", async () => {
  await withEmulator(async (base) => {
    await call(base, "PUT", "/account/collections/team-a", { parentCollection: { referenceName: "sales" } });
    const sales = await policyOf(base, "sales");
    const salesCurated = withMember(sales, CURATOR, "6545aabd-7f83-4e63-adc1-45dcab61d5c3").policy;
    assert.equal(
      (await call(base, "PUT", `/policyStore/metadataPolicies/${sales.id}`, salesCurated)).status,
      200,
    );

    const child = await policyOf(base, "team-a");
    const put = await call(
      base,
      "PUT",
      `/policyStore/metadataPolicies/${child.id}`,
      withMember(child, CURATOR, ALICE).policy,
    );
    assert.equal(put.status, 200, JSON.stringify(put.json));
    assert.equal(put.json.version, 2);
    const read = await policyOf(base, "team-a");
    assert.deepEqual(roleMembers(read).get(CURATOR), [ALICE]);
    assert.equal(read.properties?.attributeRules?.every((rule) => rule.kind === "attributerule"), true);

    const holders = effectiveHolders(await allPolicies(base), "team-a");
    assert.deepEqual(holders.find((h) => h.principalId === ALICE), { roleId: CURATOR, principalId: ALICE });
    assert.deepEqual(holders.find((h) => h.principalId.startsWith("6545")), {
      roleId: CURATOR,
      principalId: "6545aabd-7f83-4e63-adc1-45dcab61d5c3",
      inheritedFrom: "sales",
    });
    assert.ok(
      holders.some((h) =>
        h.inheritedFrom === "emulator" && h.roleId === "purviewmetadatarole_builtin_purview-reader"
      ),
    );

    // Cutting inheritance: the permission rule no longer names the parent's.
    const cut = structuredClone(read);
    const permission = cut.properties!.attributeRules!.find((rule) => rule.id === "permission:team-a")!;
    permission.dnfCondition = permission.dnfCondition!.filter((clause) =>
      !clause.some((m) => m.attributeValueIncludes === "permission:sales")
    );
    assert.equal((await call(base, "PUT", `/policyStore/metadataPolicies/${cut.id}`, cut)).status, 200);
    const alone = effectiveHolders(await allPolicies(base), "team-a");
    assert.deepEqual(alone.map((h) => h.inheritedFrom).filter(Boolean), []);
    assert.equal((await policyOf(base, "team-a")).properties?.parentCollectionName, "sales");
  });
});

Deno.test("policy store: a moved collection inherits from its new parent; a remade one has a new policy", async () => {
  await withEmulator(async (base) => {
    await call(base, "PUT", "/account/collections/team-a", { parentCollection: { referenceName: "sales" } });
    const before = await policyOf(base, "team-a");
    await call(
      base,
      "PUT",
      `/policyStore/metadataPolicies/${before.id}`,
      withMember(before, CURATOR, ALICE).policy,
    );

    const moved = await call(base, "PUT", "/account/collections/team-a", {
      parentCollection: { referenceName: "finance" },
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.json));
    const after = await policyOf(base, "team-a");
    assert.equal(after.id, before.id);
    assert.equal(after.properties?.parentCollectionName, "finance");
    assert.equal(inheritsFrom(after), "finance");
    assert.ok(!JSON.stringify(after).includes(":sales"), "no rule names the old parent's grants");
    assert.deepEqual(roleMembers(after).get(CURATOR), [ALICE], "the collection's own members stay");

    assert.equal((await call(base, "DELETE", "/account/collections/team-a")).status, 204);
    // The store tells a remade collection by its creation time, in milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await call(base, "PUT", "/account/collections/team-a", { parentCollection: { referenceName: "sales" } });
    const remade = await policyOf(base, "team-a");
    assert.notEqual(remade.id, before.id);
    assert.equal(remade.version, 1);
    assert.equal(
      roleMembers(remade).get(CURATOR),
      undefined,
      "a new collection starts without the old members",
    );
  });
});

Deno.test("policy store: PUT refuses another id or collection, a non-guid member, a body without rules", async () => {
  await withEmulator(async (base) => {
    const sales = await policyOf(base, "sales");
    const path = `/policyStore/metadataPolicies/${sales.id}`;
    const otherCollection = structuredClone(sales);
    otherCollection.properties!.collection!.referenceName = "finance";
    const refusals = [
      [{ ...sales, id: crypto.randomUUID() }, "id"],
      [otherCollection, "properties.collection.referenceName"],
      [withMember(sales, CURATOR, "alice@contoso.com").policy, "principal.microsoft.id"],
      [
        { ...sales, properties: { ...sales.properties, attributeRules: undefined } },
        "properties.attributeRules",
      ],
      [[], "body"],
    ] as const;
    for (const [body, target] of refusals) {
      const reply = await call(base, "PUT", path, body);
      assert.equal(reply.status, 400, JSON.stringify(reply.json));
      assert.equal(reply.json.error.target, target, reply.json.error.message);
    }
    assert.equal((await policyOf(base, "sales")).version, 1, "nothing refused was stored");
    const unknown = await call(base, "PUT", `/policyStore/metadataPolicies/${crypto.randomUUID()}`, sales);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error.code, "PolicyNotFound");
  });
});

Deno.test("policy store: the role list offers a next page, which is empty; a foreign token is refused", async () => {
  await withEmulator(async (base) => {
    const first = await call(base, "GET", "/policyStore/metadataRoles");
    assert.deepEqual(first.json.values.map((r: { name: string }) => r.name), [
      "data-curator",
      "data-source-administrator",
      "collection-administrator",
      "purview-reader",
    ]);
    const next = new URL(first.json.nextLink);
    assert.equal(next.origin, base);
    const second = await call(
      base,
      "GET",
      `${next.pathname}?skipToken=${next.searchParams.get("skipToken")}`,
    );
    assert.deepEqual(second.json, { values: [] });
    assert.equal((await call(base, "GET", "/policyStore/metadataRoles?skipToken=xyz")).status, 400);
  });
});

Deno.test("policy store: policies survive a restart; a data reset gives the root a new account's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-policy-" });
  const dataFile = `${dir}/catalog.db`;
  try {
    let rootId = "";
    await withEmulator(async (base) => {
      const root = await policyOf(base, "emulator");
      rootId = root.id!;
      await call(
        base,
        "PUT",
        `/policyStore/metadataPolicies/${rootId}`,
        withMember(root, CURATOR, ALICE).policy,
      );
    }, dataFile);
    await withEmulator(async (base) => {
      const root = await policyOf(base, "emulator");
      assert.equal(root.id, rootId);
      assert.equal(root.version, 2);
      assert.ok(roleMembers(root).get(CURATOR)?.includes(ALICE));
      const reset = await fetch(`${base}/_emulator/reset?data=true`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      assert.equal(reset.status, 200, await reset.text());
      const fresh = await policyOf(base, "emulator");
      assert.equal(fresh.version, 1);
      assert.deepEqual(roleMembers(fresh).get(CURATOR), [EMULATOR_USER_OBJECT_ID]);
    }, dataFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
