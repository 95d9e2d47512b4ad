/**
 * Paging of the collection lists (`$skipToken` in, `nextLink` out) with a small page size, on a server
 * that mounts the collections area alone, the way the emulator mounts it; and the state of collections
 * across restarts of an emulator with a data file.
 */
import assert from "node:assert/strict";
import { createCollectionsArea } from "../../../../lib/emulator/collections/area.ts";
import { startEmulator } from "../../../../lib/emulator/mod.ts";
import { EntityStore } from "../../../../lib/emulator/store.ts";
import { serveArea } from "../../../support/local_server.ts";
import { call, withEmulator } from "../emulator_test_helpers.ts";

const V = "api-version=2019-11-01-preview";
const PAGE_SIZE = 2;

interface PagingServer {
  url: string;
  get(path: string): Promise<{ status: number; body: Record<string, unknown> }>;
  put(name: string, body: unknown): Promise<number>;
  close(): Promise<void>;
}

/** The collections area with a page size of 2 on 127.0.0.1, errors in the account API's shape. */
function startPagingServer(): PagingServer {
  const server = serveArea(createCollectionsArea({ pageSize: PAGE_SIZE }));
  const url = server.url;
  return {
    url,
    async get(path) {
      const response = await fetch(url + path);
      return { status: response.status, body: await response.json() };
    },
    async put(name, body) {
      const response = await fetch(`${url}/account/collections/${name}?${V}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      await response.body?.cancel();
      return response.status;
    },
    close: () => server.close(),
  };
}

/** Follows nextLink from `first` and returns every page. */
async function allPages(server: PagingServer, first: string): Promise<Array<Record<string, unknown>>> {
  const pages: Array<Record<string, unknown>> = [];
  let path: string | undefined = first;
  while (path) {
    const reply = await server.get(path);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    pages.push(reply.body);
    const next = reply.body.nextLink as string | undefined;
    if (next) {
      const url = new URL(next);
      assert.equal(url.origin, server.url, "nextLink points back at the server");
      assert.equal(url.searchParams.get("api-version"), "2019-11-01-preview", "and keeps the api-version");
      assert.ok(url.searchParams.get("$skipToken"), "and carries a $skipToken");
      path = url.pathname + url.search;
    } else path = undefined;
  }
  return pages;
}

Deno.test("collection lists page with $skipToken and nextLink; count is the total", async () => {
  const server = startPagingServer();
  try {
    for (const name of ["alpha", "bravo", "charlie", "delta"]) {
      assert.equal(await server.put(name, { parentCollection: { referenceName: "emulator" } }), 200);
    }
    const pages = await allPages(server, `/account/collections?${V}`);
    assert.deepEqual(pages.map((p) => (p.value as unknown[]).length), [2, 2, 1]);
    assert.ok(pages.every((p) => p.count === 5));
    assert.equal(pages[2].nextLink, undefined, "the last page has no nextLink");
    const names = pages.flatMap((p) => (p.value as Array<{ name: string }>).map((c) => c.name));
    assert.deepEqual(names, ["emulator", "alpha", "bravo", "charlie", "delta"]);

    const children = await allPages(server, `/account/collections/emulator/getChildCollectionNames?${V}`);
    assert.deepEqual(children.map((p) => (p.value as unknown[]).length), [2, 2]);
    assert.deepEqual(
      children.flatMap((p) => p.value as unknown[]),
      ["alpha", "bravo", "charlie", "delta"].map((name) => ({ name, friendlyName: name })),
    );

    const beyond = await server.get(`/account/collections?${V}&$skipToken=${btoa("offset:50")}`);
    assert.deepEqual(beyond.body, { value: [], count: 5 }, "a token past the end gives an empty last page");
    for (const token of ["garbage!", btoa("offset:-1"), btoa("limit:2")]) {
      const bad = await server.get(`/account/collections?${V}&$skipToken=${encodeURIComponent(token)}`);
      assert.equal(bad.status, 400);
      assert.equal((bad.body.error as { code: string }).code, "InvalidSkipToken");
    }
  } finally {
    await server.close();
  }
});

Deno.test("collections survive a restart; seeded ones are created once and stay deleted", async () => {
  const dataFile = await Deno.makeTempFile({ prefix: "govcat-collections-", suffix: ".db" });
  try {
    await withEmulator({ dataFile, seed: true }, async (emulator) => {
      const created = await call(emulator, "PUT", `/account/collections/sales-eu?${V}`, {
        friendlyName: "Sales Europe",
        parentCollection: { referenceName: "sales" },
      });
      assert.equal(created.status, 200);
      // Move marketing's only asset away, then delete the collection.
      await call(emulator, "POST", "/datamap/api/entity/moveTo?collectionId=finance", {
        entityGuids: ["ca7a1000-0000-4000-8000-000000000061"],
      });
      assert.equal((await call(emulator, "DELETE", `/account/collections/marketing?${V}`)).status, 204);
    });
    await withEmulator({ dataFile, seed: true }, async (emulator) => {
      const list = await call(emulator, "GET", `/account/collections?${V}`);
      const names = list.body.value.map((c: { name: string }) => c.name);
      const seeded = ["emulator", "sales", "finance", "sales-insights", "data-engineering", "data-platform"];
      assert.deepEqual(names, [...seeded, "sales-eu"], "marketing stays deleted");
      const kept = await call(emulator, "GET", `/account/collections/sales-eu?${V}`);
      assert.equal(kept.body.friendlyName, "Sales Europe");
      assert.equal(kept.body.parentCollection.referenceName, "sales");
    });
  } finally {
    await Deno.remove(dataFile).catch(() => {});
  }
});

Deno.test("an emulator over an existing data file without collections adopts its entities' collections", async () => {
  const dataFile = await Deno.makeTempFile({ prefix: "govcat-collections-", suffix: ".db" });
  try {
    // A data file written before collections existed: entities only.
    const store = EntityStore.open(dataFile);
    store.put({
      guid: "0f0f0f0f-0000-4000-8000-0000000000aa",
      typeName: "DataSet",
      attributes: { qualifiedName: "dataset://legacy", name: "legacy" },
      collectionId: "Legacy-Area",
      status: "ACTIVE",
    } as never);
    store.close();
    const emulator = await startEmulator({ dataFile });
    try {
      const legacy = await call(emulator, "GET", `/account/collections/legacy-area?${V}`);
      assert.equal(legacy.status, 200);
      assert.equal(legacy.body.parentCollection.referenceName, "emulator");
    } finally {
      await emulator.close();
    }
  } finally {
    await Deno.remove(dataFile).catch(() => {});
  }
});
