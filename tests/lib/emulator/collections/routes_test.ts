/**
 * The account API's collection routes on the emulator, over real HTTP: shapes and status codes of the
 * account contract (2019-11-01-preview), the root collection, the collections the seed's assets use,
 * create/update rules, delete refusals, child names and paths, and errors in the account API's
 * `{"error": {code, message, target, details}}` shape.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { call, DATAMAP, tableEntity, withEmulator } from "../emulator_test_helpers.ts";

const V = "api-version=2019-11-01-preview";
const ROOT = "emulator";
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const collectionUrl = (name: string, suffix = "") =>
  `/account/collections/${encodeURIComponent(name)}${suffix}?${V}`;

function put(emulator: RunningEmulator, name: string, body: unknown) {
  return call(emulator, "PUT", collectionUrl(name), body);
}

/** The answer is an account-API error with this status and code. */
function assertAccountError(reply: { status: number; body: unknown }, status: number, code: string) {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  const error = (reply.body as { error: Record<string, unknown> }).error;
  assert.equal(error.code, code);
  assert.equal(typeof error.message, "string");
  assert.deepEqual(error.details, []);
  return error;
}

Deno.test("a fresh account has only the root collection, named after the account", async () => {
  await withEmulator({}, async (emulator) => {
    const list = await call(emulator, "GET", `/account/collections?${V}`);
    assert.equal(list.status, 200);
    assert.equal(list.body.count, 1);
    assert.equal(list.body.nextLink, undefined);
    const [root] = list.body.value;
    assert.equal(root.name, ROOT);
    assert.equal(root.friendlyName, "govcat catalog emulator");
    assert.equal(root.parentCollection, undefined, "the root has no parent");
    assert.equal(root.collectionProvisioningState, "Succeeded");
    assert.match(root.systemData.createdAt, ISO_TIME);
    assert.match(root.systemData.lastModifiedAt, ISO_TIME);
    assert.equal(typeof root.systemData.createdBy, "string");

    const account = await call(emulator, "GET", `/account?${V}`);
    assert.equal(account.body.name, root.name);
    assert.equal(account.body.properties.friendlyName, root.friendlyName);
  });
});

Deno.test("the collections the seeded assets use exist under the root", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const list = await call(emulator, "GET", `/account/collections?${V}`);
    const byName = new Map(list.body.value.map((c: { name: string }) => [c.name, c]));
    assert.deepEqual([...byName.keys()].sort(), [
      "data-engineering",
      "data-platform",
      "emulator",
      "finance",
      "marketing",
      "sales",
      "sales-insights",
    ]);
    for (const name of ["sales", "finance", "marketing"]) {
      // deno-lint-ignore no-explicit-any
      const collection = byName.get(name) as any;
      assert.deepEqual(collection.parentCollection, { type: "CollectionReference", referenceName: ROOT });
      assert.equal(collection.friendlyName, name[0].toUpperCase() + name.slice(1));
    }
    const search = await call(emulator, "POST", `${DATAMAP}/search/query?api-version=2023-09-01`, {
      keywords: "*",
      limit: 100,
    });
    // Assets only: glossaries and terms (the glossary every new account has among them) belong to no collection.
    for (
      const item of search.body.value.filter((hit: { objectType: string }) =>
        hit.objectType !== "Glossary terms"
      )
    ) {
      assert.ok(byName.has(item.collectionId), `${item.name} lives in ${item.collectionId}, which exists`);
    }
  });
});

Deno.test("PUT creates and updates a collection; names are answered in lower case", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const created = await put(emulator, "Finance-EU", { parentCollection: { referenceName: "Finance" } });
    assert.equal(created.status, 200);
    assert.equal(created.body.name, "finance-eu");
    assert.equal(created.body.friendlyName, "Finance-EU", "the friendly name defaults to the name as given");
    assert.deepEqual(created.body.parentCollection, {
      type: "CollectionReference",
      referenceName: "finance",
    });
    assert.equal(created.body.collectionProvisioningState, "Succeeded");
    assert.equal(created.body.description, undefined);

    const read = await call(emulator, "GET", collectionUrl("FINANCE-eu"));
    assert.equal(read.status, 200, "names are looked up without regard to case");
    assert.deepEqual(read.body, created.body);

    const updated = await put(emulator, "finance-eu", {
      friendlyName: "Finance Europe",
      description: "EU books",
    });
    assert.equal(updated.body.friendlyName, "Finance Europe");
    assert.equal(updated.body.description, "EU books");
    assert.equal(updated.body.parentCollection.referenceName, "finance", "a left-out parent is kept");
    assert.equal(updated.body.systemData.createdAt, created.body.systemData.createdAt);

    const kept = await put(emulator, "finance-eu", {});
    assert.equal(kept.body.friendlyName, "Finance Europe", "left-out fields keep their values");
    assert.equal(kept.body.description, "EU books");
    const cleared = await put(emulator, "finance-eu", { description: "" });
    assert.equal(cleared.body.description, undefined, "an empty description clears it");

    const moved = await put(emulator, "finance-eu", { parentCollection: { referenceName: "sales" } });
    assert.equal(moved.body.parentCollection.referenceName, "sales");
    // Read-only fields of a body copied from a GET are ignored.
    const roundTrip = await put(emulator, "finance-eu", { ...moved.body, name: "ignored", systemData: {} });
    assert.equal(roundTrip.status, 200);
    assert.equal(roundTrip.body.name, "finance-eu");

    const renamedRoot = await put(emulator, ROOT, { description: "The whole estate" });
    assert.equal(renamedRoot.status, 200, "the root's description may change");
    assert.equal(renamedRoot.body.parentCollection, undefined);
  });
});

Deno.test("PUT refuses bad names, bodies and parents with the account API's errors", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    for (const name of ["ab", "a".repeat(37), "has_underscore", "has space", "dot.name"]) {
      const error = assertAccountError(
        await put(emulator, name, { parentCollection: { referenceName: ROOT } }),
        400,
        "InvalidCollectionName",
      );
      assert.equal(error.target, "collectionName");
    }
    assert.equal(
      (await put(emulator, "a".repeat(36), { parentCollection: { referenceName: ROOT } })).status,
      200,
    );
    assert.equal((await put(emulator, "abc", { parentCollection: { referenceName: ROOT } })).status, 200);

    const noParent = assertAccountError(await put(emulator, "orphan", {}), 400, "InvalidParentCollection");
    assert.match(String(noParent.message), /root collection is 'emulator'/);
    assert.equal(noParent.target, "parentCollection.referenceName");
    const unknown = assertAccountError(
      await put(emulator, "orphan", { parentCollection: { referenceName: "nowhere" } }),
      400,
      "InvalidParentCollection",
    );
    assert.match(String(unknown.message), /'nowhere' does not exist/);
    assertAccountError(
      await put(emulator, "orphan", { parentCollection: "sales" }),
      400,
      "InvalidParentCollection",
    );
    assertAccountError(
      await put(emulator, ROOT, { parentCollection: { referenceName: "sales" } }),
      400,
      "InvalidParentCollection",
    );

    await put(emulator, "sales-eu", { parentCollection: { referenceName: "sales" } });
    const cycle = assertAccountError(
      await put(emulator, "sales", { parentCollection: { referenceName: "sales-eu" } }),
      400,
      "InvalidParentCollection",
    );
    assert.match(String(cycle.message), /its own ancestor/);
    assertAccountError(
      await put(emulator, "sales", { parentCollection: { referenceName: "sales" } }),
      400,
      "InvalidParentCollection",
    );

    const notJson = await call(emulator, "PUT", collectionUrl("orphan"), undefined, { rawBody: "{oops" });
    assertAccountError(notJson, 400, "InvalidCollectionRequest");
    const empty = await call(emulator, "PUT", collectionUrl("orphan"), undefined, { rawBody: "" });
    assertAccountError(empty, 400, "InvalidCollectionRequest");
    assertAccountError(await put(emulator, "orphan", [1]), 400, "InvalidCollectionRequest");
    const badField = assertAccountError(
      await put(emulator, "orphan", { friendlyName: 7, parentCollection: { referenceName: ROOT } }),
      400,
      "InvalidCollectionRequest",
    );
    assert.equal(badField.target, "friendlyName");

    const clash = assertAccountError(
      await put(emulator, "sales-two", { friendlyName: "SALES", parentCollection: { referenceName: ROOT } }),
      409,
      "DuplicateCollectionFriendlyName",
    );
    assert.match(String(clash.message), /'sales'/);
    const elsewhere = await put(emulator, "sales-two", {
      friendlyName: "Sales",
      parentCollection: { referenceName: "finance" },
    });
    assert.equal(elsewhere.status, 200, "the same friendly name under another parent is fine");
    assert.equal((await call(emulator, "GET", collectionUrl("orphan"))).status, 404, "nothing was created");
  });
});

Deno.test("GET of an unknown collection is a 404 in the account API's error shape", async () => {
  await withEmulator({}, async (emulator) => {
    for (const suffix of ["", "/getChildCollectionNames", "/getCollectionPath"]) {
      const reply = await call(emulator, "GET", collectionUrl("nothing-here", suffix));
      const error = assertAccountError(reply, 404, "CollectionNotFound");
      assert.match(String(error.message), /'nothing-here' does not exist/);
    }
    assertAccountError(
      await call(emulator, "DELETE", collectionUrl("nothing-here")),
      404,
      "CollectionNotFound",
    );
    const wrongMethod = await call(emulator, "POST", `/account/collections?${V}`, {});
    assert.equal(wrongMethod.status, 405);
    assert.ok(wrongMethod.body.error, "the account API's error shape");
  });
});

Deno.test("DELETE answers 204, and is refused for the root and while children or assets remain", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const root = assertAccountError(
      await call(emulator, "DELETE", collectionUrl(ROOT)),
      400,
      "RootCollectionNotDeletable",
    );
    assert.match(String(root.message), /root collection/);

    await put(emulator, "sales-eu", { parentCollection: { referenceName: "sales" } });
    const withChild = assertAccountError(
      await call(emulator, "DELETE", collectionUrl("sales")),
      409,
      "CollectionHasChildCollections",
    );
    assert.match(String(withChild.message), /1 child collection\(s\): sales-eu/);

    const deleted = await call(emulator, "DELETE", collectionUrl("SALES-EU"));
    assert.equal(deleted.status, 204);
    assert.equal(deleted.body, undefined, "204 has no body");
    assert.equal((await call(emulator, "GET", collectionUrl("sales-eu"))).status, 404);

    const withAssets = assertAccountError(
      await call(emulator, "DELETE", collectionUrl("marketing")),
      409,
      "CollectionHasAssets",
    );
    assert.match(String(withAssets.message), /referenced by 1 asset/);

    // Customer 360 is marketing's only asset: move it away and the delete goes through.
    const moved = await call(
      emulator,
      "POST",
      `${DATAMAP}/entity/moveTo?collectionId=finance&api-version=2023-09-01`,
      { entityGuids: ["ca7a1000-0000-4000-8000-000000000061"] },
    );
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal((await call(emulator, "DELETE", collectionUrl("marketing"))).status, 204);
  });
});

Deno.test("a deleted asset no longer holds its collection", async () => {
  await withEmulator({}, async (emulator) => {
    await put(emulator, "scratch", { parentCollection: { referenceName: ROOT } });
    const created = await call(
      emulator,
      "POST",
      `${DATAMAP}/atlas/v2/entity?collectionId=scratch&api-version=2023-09-01`,
      { entity: tableEntity("ScratchTable") },
    );
    const guid = created.body.mutatedEntities.CREATE[0].guid;
    assertAccountError(await call(emulator, "DELETE", collectionUrl("scratch")), 409, "CollectionHasAssets");
    await call(emulator, "DELETE", `${DATAMAP}/atlas/v2/entity/guid/${guid}`);
    assert.equal((await call(emulator, "DELETE", collectionUrl("scratch"))).status, 204);
  });
});

Deno.test("child names and the collection path follow the hierarchy", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    await put(emulator, "sales-eu", {
      friendlyName: "Sales Europe",
      parentCollection: { referenceName: "sales" },
    });
    await put(emulator, "sales-eu-de", {
      friendlyName: "Germany",
      parentCollection: { referenceName: "sales-eu" },
    });

    const rootChildren = await call(emulator, "GET", collectionUrl(ROOT, "/getChildCollectionNames"));
    assert.equal(rootChildren.status, 200);
    assert.deepEqual(rootChildren.body, {
      value: [
        { name: "sales", friendlyName: "Sales" },
        { name: "finance", friendlyName: "Finance" },
        { name: "marketing", friendlyName: "Marketing" },
        { name: "data-platform", friendlyName: "Data Platform" },
      ],
      count: 4,
    });
    const leaf = await call(emulator, "GET", collectionUrl("sales-eu-de", "/getChildCollectionNames"));
    assert.deepEqual(leaf.body, { value: [], count: 0 });

    const path = await call(emulator, "GET", collectionUrl("Sales-EU-DE", "/getCollectionPath"));
    assert.equal(path.status, 200);
    assert.deepEqual(path.body, {
      parentNameChain: ["emulator", "sales", "sales-eu"],
      parentFriendlyNameChain: ["govcat catalog emulator", "Sales", "Sales Europe"],
    });
    const rootPath = await call(emulator, "GET", collectionUrl(ROOT, "/getCollectionPath"));
    assert.deepEqual(rootPath.body, { parentNameChain: [], parentFriendlyNameChain: [] });
  });
});
