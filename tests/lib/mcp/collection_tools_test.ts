/**
 * The collection tools through a real MCP client over streamable HTTP, against the seeded emulator:
 * list_collections (bounded), get_collection, create_collection (refuses an existing name unless
 * if_exists "update"), delete_collection (with the
 * service's refusals as error results carrying a hint) and get_collection_path, plus their annotations and
 * read-only mode.
 */
import assert from "node:assert/strict";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";

const COLLECTION_TOOL_NAMES = [
  "list_collections",
  "get_collection",
  "create_collection",
  "delete_collection",
  "get_collection_path",
];

async function call(h: Harness, name: string, args: Record<string, unknown>) {
  const result = await h.client.callTool({ name, arguments: args });
  return { result, data: result.structuredContent as Record<string, unknown>, json: resultJson(result) };
}

Deno.test("list_collections returns every collection, bounded by limit", async () => {
  const h = await startHarness();
  try {
    const all = await call(h, "list_collections", {});
    assert.ok(!all.result.isError, JSON.stringify(all.json));
    assert.deepEqual(all.data.collections, [
      { name: "emulator", friendly_name: "govcat catalog emulator", description: "The root collection." },
      {
        name: "sales",
        friendly_name: "Sales",
        parent_collection: "emulator",
        description: "Created by the emulator for the assets of its sample catalog",
      },
      {
        name: "finance",
        friendly_name: "Finance",
        parent_collection: "emulator",
        description: "Created by the emulator for the assets of its sample catalog",
      },
      {
        name: "marketing",
        friendly_name: "Marketing",
        parent_collection: "emulator",
        description: "Created by the emulator for the assets of its sample catalog",
      },
      // The seed's collection tree: Data Platform and its two children.
      {
        name: "sales-insights",
        friendly_name: "Sales Insights",
        parent_collection: "data-platform",
        description: "Curated sales data and its reports.",
      },
      {
        name: "data-engineering",
        friendly_name: "Data Engineering",
        parent_collection: "data-platform",
        description: "Pipelines that move and shape the data.",
      },
      {
        name: "data-platform",
        friendly_name: "Data Platform",
        parent_collection: "emulator",
        description: "Contoso Retail's shared data platform: pipelines and curated analytics.",
      },
    ]);
    assert.equal(all.data.count, 7);
    assert.equal(all.data.truncated, false);
    assert.deepEqual(all.json, all.data, "the text content carries the same JSON");

    const two = await call(h, "list_collections", { limit: 2 });
    assert.equal((two.data.collections as unknown[]).length, 2);
    assert.equal(two.data.truncated, true);
    const exact = await call(h, "list_collections", { limit: 7 });
    assert.equal(exact.data.truncated, false, "exactly limit collections is not truncated");

    const invalid = await call(h, "list_collections", { limit: 0 });
    assert.equal(invalid.result.isError, true);
  } finally {
    await h.close();
  }
});

Deno.test("create_collection creates, refuses an existing name unless if_exists update; reads back", async () => {
  const h = await startHarness();
  try {
    const created = await call(h, "create_collection", {
      collection_name: "sales-eu",
      friendly_name: "Sales EU",
    });
    assert.ok(!created.result.isError, JSON.stringify(created.json));
    assert.equal(created.data.created, true);
    const collection = created.data.collection as {
      name: string;
      parentCollection: { referenceName: string };
    };
    assert.equal(collection.name, "sales-eu");
    assert.equal(collection.parentCollection.referenceName, "emulator", "the root by default");

    const refused = await call(h, "create_collection", {
      collection_name: "sales-eu",
      parent_collection: "sales",
      description: "European sales",
    });
    assert.equal(refused.result.isError, true, "an existing name is refused by default");
    assert.match(String(refused.json.message), /exists already .*nothing was changed/);
    assert.match(String(refused.json.hint), /"if_exists": "update"/);
    const moved = await call(h, "create_collection", {
      collection_name: "sales-eu",
      parent_collection: "sales",
      description: "European sales",
      if_exists: "update",
      confirm: true,
    });
    assert.equal(moved.data.created, false, "the second call updates");
    const movedCollection = moved.data.collection as Record<string, unknown>;
    assert.equal((movedCollection.parentCollection as { referenceName: string }).referenceName, "sales");
    assert.equal(movedCollection.friendlyName, "Sales EU", "fields left out are kept");
    const repeated = await call(h, "create_collection", {
      collection_name: "sales-eu",
      description: "European sales",
      if_exists: "update",
      confirm: true,
    });
    assert.equal(
      ((repeated.data.collection as Record<string, unknown>).parentCollection as { referenceName: string })
        .referenceName,
      "sales",
      "no parent given: no move",
    );
    await call(h, "create_collection", {
      collection_name: "sales-eu-de",
      friendly_name: "Germany",
      parent_collection: "sales-eu",
    });

    const read = await call(h, "get_collection", { collection_name: "SALES-EU" });
    assert.equal((read.data.collection as Record<string, unknown>).description, "European sales");
    const path = await call(h, "get_collection_path", { collection_name: "sales-eu-de" });
    assert.deepEqual(path.data, {
      collection_name: "sales-eu-de",
      names: ["emulator", "sales", "sales-eu", "sales-eu-de"],
      friendly_names: ["govcat catalog emulator", "Sales", "Sales EU", "Germany"],
      path: "govcat catalog emulator / Sales / Sales EU / Germany",
    });
    const rootPath = await call(h, "get_collection_path", { collection_name: "emulator" });
    assert.deepEqual(rootPath.data.names, ["emulator"]);

    const badName = await call(h, "create_collection", { collection_name: "no_underscores" });
    assert.equal(badName.result.isError, true);
    assert.match(String(badName.json.message), /letters, digits and hyphens/);
    const badParent = await call(h, "create_collection", {
      collection_name: "orphan",
      parent_collection: "nope",
    });
    assert.equal(badParent.result.isError, true);
    assert.equal(badParent.json.status, 400);
    assert.equal(badParent.json.code, "InvalidParentCollection");
  } finally {
    await h.close();
  }
});

Deno.test("delete_collection deletes, and the service's refusals come back as errors with a hint", async () => {
  const h = await startHarness();
  try {
    await call(h, "create_collection", { collection_name: "finance-eu", parent_collection: "finance" });
    await call(h, "create_collection", { collection_name: "finance-eu-fr", parent_collection: "finance-eu" });

    const withChildren = await call(h, "delete_collection", { collection_name: "finance-eu", confirm: true });
    assert.equal(withChildren.result.isError, true);
    assert.equal(withChildren.json.status, 409);
    assert.equal(withChildren.json.code, "CollectionHasChildCollections");
    assert.match(String(withChildren.json.hint), /child collections/);

    const withAssets = await call(h, "delete_collection", { collection_name: "sales", confirm: true });
    assert.equal(withAssets.json.status, 409);
    assert.equal(withAssets.json.code, "CollectionHasAssets");
    assert.match(String(withAssets.json.hint), /move its assets/);

    const root = await call(h, "delete_collection", { collection_name: "emulator", confirm: true });
    assert.equal(root.json.status, 400);
    assert.match(String(root.json.hint), /root collection/);

    const missing = await call(h, "get_collection", { collection_name: "nowhere" });
    assert.equal(missing.json.status, 404);
    assert.match(String(missing.json.hint), /list_collections/);

    // Without "confirm": true nothing is sent; the collection stays.
    const unconfirmed = await call(h, "delete_collection", { collection_name: "finance-eu-fr" });
    assert.equal(unconfirmed.result.isError, true);
    assert.match(
      String(unconfirmed.json.message),
      /refusing to run it without "confirm": true.*nothing was sent/,
    );
    assert.notEqual(
      (await call(h, "get_collection", { collection_name: "finance-eu-fr" })).result.isError,
      true,
    );
    const deleted = await call(h, "delete_collection", { collection_name: "finance-eu-fr", confirm: true });
    assert.ok(!deleted.result.isError, JSON.stringify(deleted.json));
    assert.deepEqual(deleted.data, { deleted: "finance-eu-fr" });
    const gone = await call(h, "delete_collection", { collection_name: "finance-eu-fr", confirm: true });
    assert.equal(gone.json.status, 404);
  } finally {
    await h.close();
  }
});

Deno.test("collection tools carry all four annotations; read-only mode keeps only the readers", async () => {
  const h = await startHarness();
  try {
    const { tools } = await h.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of COLLECTION_TOOL_NAMES) {
      const tool = byName.get(name);
      assert.ok(tool, `${name} is listed`);
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
        assert.equal(typeof tool.annotations?.[hint], "boolean", `${name}: ${hint}`);
      }
      assert.ok(tool.outputSchema, `${name} declares its output`);
    }
    assert.equal(byName.get("delete_collection")!.annotations!.destructiveHint, true);
    assert.equal(byName.get("create_collection")!.annotations!.idempotentHint, true);
    assert.equal(
      byName.get("create_collection")!.annotations!.destructiveHint,
      true,
      'if_exists "update" overwrites',
    );
    assert.equal(byName.get("list_collections")!.annotations!.readOnlyHint, true);
    const properties = (byName.get("create_collection")!.inputSchema.properties ?? {}) as Record<
      string,
      unknown
    >;
    assert.deepEqual(
      Object.keys(properties).sort(),
      ["collection_name", "confirm", "description", "friendly_name", "if_exists", "parent_collection"],
    );
  } finally {
    await h.close();
  }

  const readOnly = await startHarness({ env: { CATALOG_MCP_READ_ONLY: "true" } });
  try {
    const names = (await readOnly.client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(
      COLLECTION_TOOL_NAMES.filter((n) => names.includes(n)),
      ["list_collections", "get_collection", "get_collection_path"],
    );
    const refused = await readOnly.client.callTool({
      name: "create_collection",
      arguments: { collection_name: "abc" },
    });
    assert.equal(refused.isError, true);
  } finally {
    await readOnly.close();
  }
});
