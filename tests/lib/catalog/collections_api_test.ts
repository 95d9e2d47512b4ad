/**
 * Every `client.collections` method over real HTTP: against the emulator (list across pages, get,
 * create or update, delete, child names, path, and the typed errors of refusals), and against a scripted
 * server for what the emulator never does (a nextLink to another host, paging that loops).
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";
import { BadRequestError, CatalogError, ConflictError, NotFoundError } from "../../../lib/core/errors.ts";
import { json, startLocalServer } from "../../support/local_server.ts";

function clientFor(url: string): CatalogClient {
  return CatalogClient.fromConfig(loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: url }), {
    retryBaseMs: 5,
  });
}

async function withClient(test: (client: CatalogClient, emulator: RunningEmulator) => Promise<void>) {
  const emulator = await startEmulator({ seed: true });
  try {
    await test(clientFor(emulator.url), emulator);
  } finally {
    await emulator.close();
  }
}

Deno.test("collections: create, get, update, child names, path and delete", async () => {
  await withClient(async (client, emulator) => {
    const created = await client.collections.createOrUpdate("Sales-EU", {
      friendlyName: "Sales Europe",
      description: "European sales",
      parentCollection: { referenceName: "sales" },
    });
    assert.equal(created.name, "sales-eu");
    assert.equal(created.parentCollection?.referenceName, "sales");
    assert.equal(created.collectionProvisioningState, "Succeeded");
    await client.collections.createOrUpdate("sales-eu-de", {
      friendlyName: "Germany",
      parentCollection: { referenceName: "sales-eu" },
    });

    const read = await client.collections.get("sales-eu");
    assert.equal(read.friendlyName, "Sales Europe");
    assert.equal(read.description, "European sales");
    const updated = await client.collections.createOrUpdate("sales-eu", { description: "EMEA sales" });
    assert.equal(updated.description, "EMEA sales");
    assert.equal(updated.friendlyName, "Sales Europe");

    assert.deepEqual(await client.collections.childNames("sales-eu"), [{
      name: "sales-eu-de",
      friendlyName: "Germany",
    }]);
    assert.deepEqual(await client.collections.path("sales-eu-de"), {
      parentNameChain: ["emulator", "sales", "sales-eu"],
      parentFriendlyNameChain: ["govcat catalog emulator", "Sales", "Sales Europe"],
    });

    assert.equal(await client.collections.delete("sales-eu-de"), undefined);
    await assert.rejects(client.collections.get("sales-eu-de"), NotFoundError);

    const log = emulator.faults.stats().log;
    assert.ok(
      log.every((entry) => entry.path.startsWith("/account/collections")),
      "paths start with /account",
    );
  });
});

Deno.test("collections: list follows nextLink across pages; listPage reads one", async () => {
  await withClient(async (client) => {
    // The emulator's page holds 100 collections; the seed's 7 exist, so 100 more make a second page.
    const names = Array.from({ length: 100 }, (_, i) => `bulk-${String(i).padStart(3, "0")}`);
    for (const name of names) {
      await client.collections.createOrUpdate(name, { parentCollection: { referenceName: "finance" } });
    }
    const first = await client.collections.listPage();
    assert.equal(first.value.length, 100);
    assert.equal(first.count, 107);
    assert.ok(first.nextLink, "a second page exists");
    const token = new URL(first.nextLink!).searchParams.get("$skipToken")!;
    const second = await client.collections.listPage(token);
    assert.equal(second.value.length, 7);
    assert.equal(second.nextLink, undefined);

    const seen: string[] = [];
    for await (const collection of client.collections.list()) seen.push(collection.name!);
    assert.equal(seen.length, 107);
    assert.deepEqual(seen.slice(0, 4), ["emulator", "sales", "finance", "marketing"]);
    assert.deepEqual((await client.collections.listAll()).map((c) => c.name), seen);
    assert.equal((await client.collections.childNames("finance")).length, 100, "child names page too");
  });
});

Deno.test("collections: refusals arrive as typed errors with the service's code", async () => {
  await withClient(async (client) => {
    const missing = await client.collections.get("nowhere").catch((e) => e);
    assert.ok(missing instanceof NotFoundError);
    assert.equal(missing.code, "CollectionNotFound");
    assert.equal(missing.status, 404);

    const badName = await client.collections.createOrUpdate("x", {
      parentCollection: { referenceName: "sales" },
    })
      .catch((e) => e);
    assert.ok(badName instanceof BadRequestError);
    assert.equal(badName.code, "InvalidCollectionName");
    const badParent = await client.collections.createOrUpdate("valid-name", {
      parentCollection: { referenceName: "nowhere" },
    }).catch((e) => e);
    assert.ok(badParent instanceof BadRequestError);
    assert.equal(badParent.code, "InvalidParentCollection");

    const withAssets = await client.collections.delete("sales").catch((e) => e);
    assert.ok(withAssets instanceof ConflictError);
    assert.equal(withAssets.code, "CollectionHasAssets");
    const root = await client.collections.delete("emulator").catch((e) => e);
    assert.ok(root instanceof BadRequestError);
    assert.equal(root.code, "RootCollectionNotDeletable");
    await assert.rejects(client.collections.childNames("nowhere"), NotFoundError);
    await assert.rejects(client.collections.path("nowhere"), NotFoundError);
  });
});

Deno.test("collections: names are sent path-encoded with the account api-version", async () => {
  const server = startLocalServer(() => json(200, { name: "a b", friendlyName: "a b" }));
  try {
    await clientFor(server.url).collections.get("a b/c");
    const [request] = server.requests;
    assert.equal(request.method, "GET");
    assert.equal(request.path, "/account/collections/a%20b%2Fc");
    assert.equal(new URLSearchParams(request.search).get("api-version"), "2019-11-01-preview");
  } finally {
    await server.close();
  }
});

Deno.test("collections: a nextLink to another host is followed on the configured endpoint only", async () => {
  const server = startLocalServer((request) => {
    const token = new URLSearchParams(request.search).get("$skipToken");
    return token === null
      ? json(200, {
        value: [{ name: "one" }],
        nextLink: "https://elsewhere.invalid/account/collections?$skipToken=t2",
      })
      : json(200, { value: [{ name: token }] });
  });
  try {
    const names = (await clientFor(server.url).collections.listAll()).map((c) => c.name);
    assert.deepEqual(names, ["one", "t2"]);
    assert.equal(server.requests.length, 2, "both pages came from the configured endpoint");
  } finally {
    await server.close();
  }
});

Deno.test("collections: paging that repeats a token, or names none, fails instead of looping", async () => {
  const repeating = startLocalServer(() =>
    json(200, {
      value: [{ name: "again" }],
      nextLink: "http://127.0.0.1/account/collections?$skipToken=same",
    })
  );
  const tokenless = startLocalServer(() =>
    json(200, { value: [{ name: "x" }], nextLink: "http://127.0.0.1/account/collections?page=2" })
  );
  try {
    const loop = await clientFor(repeating.url).collections.listAll().catch((e) => e);
    assert.ok(loop instanceof CatalogError);
    assert.match(loop.message, /sent the continuation "same" a second time/);
    assert.equal(repeating.requests.length, 2, "stopped at the first repeat");
    const none = await clientFor(tokenless.url).collections.listAll().catch((e) => e);
    assert.ok(none instanceof CatalogError);
    assert.match(none.message, /carries no \$skipToken/);
  } finally {
    await repeating.close();
    await tokenless.close();
  }
});
