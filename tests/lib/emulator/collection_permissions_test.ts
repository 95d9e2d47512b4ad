/**
 * Team mode over real HTTP: collection policies decide what each signed-in caller may do. A user is refused
 * a write in `sales` until an admin grants them data-curator there; a grant on a parent reaches a child
 * until the child cuts inheritance; an admin of `sales` only cannot change the root's policy; no token is
 * 401; without the option no token is looked at.
 */
import assert from "node:assert/strict";
import { withMember } from "../../../lib/catalog/policy_members.ts";
import type { MetadataPolicy } from "../../../lib/catalog/policy_types.ts";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import {
  grantRole,
  readPolicy,
  userToken,
  withoutInheritance,
  writePolicy,
} from "../../support/collection_roles.ts";

const ADMIN = "00000000-0000-4000-8000-0000000000ad";
const USER = "00000000-0000-4000-8000-0000000000cc";
const SALES_ADMIN = "00000000-0000-4000-8000-0000000000dd";

async function writeEntity(url: string, collection: string, name: string, token?: string): Promise<Response> {
  return await fetch(`${url}/datamap/api/atlas/v2/entity?collectionId=${collection}&api-version=2023-09-01`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({
      entity: { typeName: "DataSet", attributes: { qualifiedName: `roles://${name}`, name } },
    }),
  });
}

async function createCollection(url: string, token: string, name: string, parent: string): Promise<number> {
  const response = await fetch(`${url}/account/collections/${name}?api-version=2019-11-01-preview`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ parentCollection: { referenceName: parent } }),
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test("team mode: a write refused by the collection's policy works after a collection admin's grant", async () => {
  const emulator = await startEmulator({ seed: true, roles: { admins: [ADMIN] } });
  try {
    const admin = userToken(ADMIN, "Ada Admin");
    const user = userToken(USER, "Uma User");
    const refused = await writeEntity(emulator.url, "sales", "one", user);
    assert.equal(refused.status, 403);
    assert.match(
      JSON.stringify(await refused.json()),
      /Uma User \(00000000-0000-4000-8000-0000000000cc\) may not POST .*data-curator role on collection 'sales'/,
    );
    const grant = await grantRole(emulator.url, admin, {
      collection: "sales",
      role: "data-curator",
      principal: USER,
    });
    assert.equal(grant.status, 200, JSON.stringify(grant.body));
    const written = await writeEntity(emulator.url, "sales", "one", user);
    assert.equal(written.status, 200);
    await written.body?.cancel();
    const elsewhere = await writeEntity(emulator.url, "finance", "two", user);
    assert.equal(elsewhere.status, 403, "the grant is on sales only");
    await elsewhere.body?.cancel();
    const anonymous = await writeEntity(emulator.url, "sales", "three");
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  } finally {
    await emulator.close();
  }
});

Deno.test("team mode: a parent's grant reaches a child until the child cuts inheritance", async () => {
  const emulator = await startEmulator({ seed: true, roles: { admins: [ADMIN] } });
  try {
    const admin = userToken(ADMIN);
    const user = userToken(USER);
    assert.equal(await createCollection(emulator.url, admin, "team-a", "sales"), 200);
    await grantRole(emulator.url, admin, { collection: "sales", role: "data-curator", principal: USER });
    const inherited = await writeEntity(emulator.url, "team-a", "child", user);
    assert.equal(inherited.status, 200, "granted on sales, inherited by team-a");
    await inherited.body?.cancel();

    const cut = await writePolicy(
      emulator.url,
      admin,
      withoutInheritance(await readPolicy(emulator.url, admin, "team-a")),
    );
    assert.equal(cut.status, 200, JSON.stringify(cut.body));
    const refused = await writeEntity(emulator.url, "team-a", "child-2", user);
    assert.equal(refused.status, 403, "inheritance cut");
    await refused.body?.cancel();
    const stillSales = await writeEntity(emulator.url, "sales", "parent", user);
    assert.equal(stillSales.status, 200);
    await stillSales.body?.cancel();

    // The root's admin stays team-a's admin (its admin rule admits the parent's), and grants there directly.
    const direct = await grantRole(emulator.url, admin, {
      collection: "team-a",
      role: "data-curator",
      principal: USER,
    });
    assert.equal(direct.status, 200, JSON.stringify(direct.body));
    const again = await writeEntity(emulator.url, "team-a", "child-3", user);
    assert.equal(again.status, 200);
    await again.body?.cancel();
  } finally {
    await emulator.close();
  }
});

Deno.test("team mode: an admin of sales only manages sales, not the root or its siblings", async () => {
  const emulator = await startEmulator({ seed: true, roles: { admins: [ADMIN] } });
  try {
    const admin = userToken(ADMIN);
    const salesAdmin = userToken(SALES_ADMIN, "Sal Admin");
    await grantRole(emulator.url, admin, {
      collection: "sales",
      role: "collection-admin",
      principal: SALES_ADMIN,
    });
    const own = await grantRole(emulator.url, salesAdmin, {
      collection: "sales",
      role: "data-reader",
      principal: USER,
    });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(
      await createCollection(emulator.url, salesAdmin, "team-b", "sales"),
      200,
      "creates under sales",
    );
    assert.equal(
      await createCollection(emulator.url, salesAdmin, "team-c", "emulator"),
      403,
      "not under the root",
    );

    // Reading the root's policy needs data-reader on the root, which the admin of sales lacks: the root
    // admin reads it, and the admin of sales tries to write it back with themselves added.
    const root = await readPolicy(emulator.url, admin, "emulator");
    const tried = await grantRoleOn(emulator.url, salesAdmin, root);
    assert.equal(tried.status, 403);
    assert.match(JSON.stringify(tried.body), /Sal Admin .*collection-admin role on collection 'emulator'/);
    const after = await readPolicy(emulator.url, admin, "emulator");
    assert.equal(after.version, root.version, "the root's policy is unchanged");
  } finally {
    await emulator.close();
  }
});

async function grantRoleOn(url: string, token: string, policy: MetadataPolicy) {
  const edited = withMember(policy, "purviewmetadatarole_builtin_collection-administrator", SALES_ADMIN);
  return await writePolicy(url, token, edited.policy);
}

/** A search as `token`'s user (all but marketing): its count and the collection of each result. */
async function search(url: string, token: string): Promise<{ count: number; collections: string[] }> {
  const response = await fetch(`${url}/datamap/api/search/query?api-version=2023-09-01`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ keywords: null, limit: 100, filter: { not: { collectionId: "marketing" } } }),
  });
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  const collections = body.value.map((v: { collectionId?: string }) => v.collectionId ?? "");
  return { count: body["@search.count"], collections };
}

const distinct = (values: string[]) => [...new Set(values)].sort();

Deno.test("team mode: search leaves out the collections the caller may not read, counts included", async () => {
  const emulator = await startEmulator({ seed: true, roles: { admins: [ADMIN] } });
  try {
    const admin = userToken(ADMIN);
    const user = userToken(USER);
    await grantRole(emulator.url, admin, { collection: "emulator", role: "data-reader", principal: USER });
    const before = await search(emulator.url, user);
    assert.deepEqual(distinct(before.collections), [
      "",
      "data-engineering",
      "emulator",
      "finance",
      "sales",
      "sales-insights",
    ]);

    const cut = await writePolicy(
      emulator.url,
      admin,
      withoutInheritance(await readPolicy(emulator.url, admin, "finance")),
    );
    assert.equal(cut.status, 200, JSON.stringify(cut.body));
    const after = await search(emulator.url, user);
    assert.deepEqual(
      distinct(after.collections),
      ["", "data-engineering", "emulator", "sales", "sales-insights"],
      "finance left out, the filter kept",
    );
    assert.equal(after.count, before.collections.filter((c) => c !== "finance").length, "the count agrees");
    assert.deepEqual(distinct((await search(emulator.url, admin)).collections), distinct(before.collections));
  } finally {
    await emulator.close();
  }
});

Deno.test("team mode: roles true gives the emulator's own user every root role; no option looks at no token", async () => {
  const emulator = await startEmulator({ seed: true, roles: true });
  try {
    const own = await writeEntity(
      emulator.url,
      "sales",
      "own",
      userToken("00000000-0000-4000-8000-00000000e001"),
    );
    assert.equal(own.status, 200);
    await own.body?.cancel();
    const other = await writeEntity(emulator.url, "sales", "other", userToken(USER));
    assert.equal(other.status, 403);
    await other.body?.cancel();
  } finally {
    await emulator.close();
  }
  const open = await startEmulator({ seed: true });
  try {
    const written = await writeEntity(open.url, "sales", "open");
    assert.equal(written.status, 200);
    await written.body?.cancel();
  } finally {
    await open.close();
  }
});
