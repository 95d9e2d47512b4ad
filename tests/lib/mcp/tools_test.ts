import assert from "node:assert/strict";
import { resultJson, startHarness } from "../../support/mcp_harness.ts";

const CUSTOMERS_GUID = "ca7a1000-0000-4000-8000-000000000010";

Deno.test("search_entities, get_entity and the entity write tools work end to end", async () => {
  const h = await startHarness();
  try {
    const search = await h.client.callTool({
      name: "search_entities",
      arguments: { query: "customers", limit: 2 },
    });
    assert.ok(!search.isError, JSON.stringify(search.content));
    const found = search.structuredContent as {
      count: number;
      results: Array<{ guid: string }>;
      truncated: boolean;
    };
    assert.equal(found.results.length, 2);
    assert.ok(found.count > 2);
    assert.equal(found.truncated, true, "more matches than the limit");
    assert.deepEqual(resultJson(search), found, "the text content is the same JSON");

    const entity = await h.client.callTool({ name: "get_entity", arguments: { guid: CUSTOMERS_GUID } });
    const got = entity.structuredContent as { entity: { name: string }; truncated: boolean };
    assert.equal(got.entity.name, "Customers");
    assert.equal(got.truncated, false);

    const created = await h.client.callTool({
      name: "create_entity",
      arguments: {
        type_name: "DataSet",
        qualified_name: "dataset://mcp/test",
        name: "mcp-test",
        description: "made by MCP",
      },
    });
    const guid = (created.structuredContent as { guid: string; created: string[] }).guid;
    assert.match(guid, /^[0-9a-f-]{36}$/);

    const updated = await h.client.callTool({
      name: "update_entity",
      arguments: { guid, attributes: { owner: "mcp" }, confirm: true },
    });
    assert.deepEqual((updated.structuredContent as { updated: string[] }).updated, [guid]);
    const after = await h.client.callTool({ name: "get_entity", arguments: { guid, view: "full" } });
    const attributes =
      (after.structuredContent as { entity: { attributes: Record<string, unknown> } }).entity.attributes;
    assert.equal(attributes.owner, "mcp");
    assert.equal(attributes.description, "made by MCP", "other attributes are kept");

    const batch = await h.client.callTool({
      name: "batch_create_entities",
      arguments: {
        entities: Array.from(
          { length: 3 },
          (_, i) => ({ type_name: "DataSet", qualified_name: `dataset://mcp/b${i}`, name: `b${i}` }),
        ),
      },
    });
    type Batch = {
      created: number;
      updated: number;
      failed: number;
      guids: Array<string | null>;
      failures: Array<{ index: number; guid?: string; status: string; error?: string }>;
      truncated: boolean;
      results?: unknown[];
    };
    const created3 = batch.structuredContent as Batch;
    assert.equal(created3.created, 3);
    assert.equal(created3.results, undefined, "a summary by default");
    assert.deepEqual(created3.failures, []);
    const batchGuids = created3.guids as string[];
    assert.equal(batchGuids.length, 3);
    assert.ok(batchGuids.every((g) => /^[0-9a-f-]{36}$/.test(g)), "each entity reports its GUID");
    const unknownGuid = "00000000-0000-4000-8000-00000000beef";
    const batchUpdate = await h.client.callTool({
      name: "batch_update_entities",
      arguments: {
        updates: [...batchGuids, unknownGuid].map((g) => ({ guid: g, attributes: { description: "bulk" } })),
        confirm: true,
      },
    });
    const updatedBatch = batchUpdate.structuredContent as Batch;
    assert.equal(updatedBatch.updated, 3, "the unknown GUID does not hide the others");
    assert.equal(updatedBatch.failed, 1);
    assert.deepEqual(updatedBatch.guids, [...batchGuids, null]);
    assert.deepEqual(updatedBatch.failures.map((f) => [f.index, f.guid]), [[3, unknownGuid]]);
    assert.match(updatedBatch.failures[0].error ?? "", /404/);
    assert.equal(updatedBatch.truncated, false);

    const deleted = await h.client.callTool({ name: "delete_entity", arguments: { guid, confirm: true } });
    assert.deepEqual((deleted.structuredContent as { deleted: string[] }).deleted, [guid]);
    const soft = await h.client.callTool({ name: "get_entity", arguments: { guid } });
    assert.equal(
      (soft.structuredContent as { entity: { status: string } }).entity.status,
      "DELETED",
      "soft delete",
    );
    const gone = await h.client.callTool({ name: "get_entity", arguments: { guid: unknownGuid } });
    assert.equal(gone.isError, true);
    const error = resultJson(gone);
    assert.equal(error.status, 404);
    assert.equal(error.code, "ATLAS-404-00-005");
    assert.match(String(error.hint), /search_entities/);
    assert.equal(gone.structuredContent, undefined);
  } finally {
    await h.close();
  }
});

Deno.test("invalid arguments name the field; unknown tools are a protocol error", async () => {
  const h = await startHarness();
  try {
    const missing = await h.client.callTool({ name: "get_entity", arguments: {} });
    assert.equal(missing.isError, true);
    assert.match(String(resultJson(missing).message), /Invalid arguments for get_entity: guid: /);
    const wrongType = await h.client.callTool({
      name: "search_entities",
      arguments: { query: "x", limit: 5000 },
    });
    assert.match(String(resultJson(wrongType).message), /limit: .*1000/);
    await assert.rejects(
      h.client.callTool({ name: "get_entiy", arguments: {} }),
      /Unknown tool: get_entiy\. Did you mean "get_entity"\?/,
    );
    const unknownUpdate = await h.client.callTool({
      name: "update_entity",
      arguments: { guid: "00000000-0000-4000-8000-000000000000", attributes: { a: 1 }, confirm: true },
    });
    assert.equal(unknownUpdate.isError, true);
    assert.match(
      String(resultJson(unknownUpdate).message),
      /Cannot update 00000000-0000-4000-8000-000000000000: 404/,
    );
  } finally {
    await h.close();
  }
});

Deno.test("the registry tools list operations and invoke them with validated arguments", async () => {
  const h = await startHarness();
  try {
    const listed = await h.client.callTool({
      name: "list_available_operations",
      arguments: { category: "entity" },
    });
    const categories = (listed.structuredContent as {
      categories: Array<
        { name: string; operations: Array<{ name: string; annotations: { destructiveHint: boolean } }> }
      >;
    }).categories;
    const entity = categories.find((c) => c.name === "entity")!;
    assert.ok(entity.operations.some((op) => op.name === "entity.get"));
    assert.equal(
      entity.operations.find((op) => op.name === "entity.delete")!.annotations.destructiveHint,
      true,
    );
    const filtered = await h.client.callTool({
      name: "list_available_operations",
      arguments: { category: "search" },
    });
    assert.deepEqual(
      (filtered.structuredContent as { categories: Array<{ name: string }> }).categories.map((c) => c.name),
      ["search"],
    );
    const badCategory = await h.client.callTool({
      name: "list_available_operations",
      arguments: { category: "serch" },
    });
    assert.match(String(resultJson(badCategory).message), /Did you mean "search"/);

    const invoked = await h.client.callTool({
      name: "invoke_operation",
      arguments: { operation: "entity.get", arguments: { guid: CUSTOMERS_GUID } },
    });
    const result = invoked.structuredContent as { operation: string; result: { entity: { guid: string } } };
    assert.equal(result.operation, "entity.get");
    assert.equal(result.result.entity.guid, CUSTOMERS_GUID);
    const byCommand = await h.client.callTool({
      name: "invoke_operation",
      arguments: { operation: "search query", arguments: { keywords: "orders", limit: 1 } },
    });
    assert.equal((byCommand.structuredContent as { operation: string }).operation, "search.query");

    const invalid = await h.client.callTool({
      name: "invoke_operation",
      arguments: { operation: "entity.get", arguments: {} },
    });
    assert.match(String(resultJson(invalid).message), /Invalid arguments for entity.get: arguments.guid/);
    const unknown = await h.client.callTool({
      name: "invoke_operation",
      arguments: { operation: "entity.gett" },
    });
    assert.match(
      String(resultJson(unknown).message),
      /Unknown operation "entity.gett"\. Did you mean "entity.get"\?/,
    );

    const account = await h.client.callTool({ name: "get_account_properties", arguments: {} });
    const props = (account.structuredContent as {
      account: { name: string; properties: { endpoints: Record<string, string> } };
    }).account;
    assert.equal(props.name, "emulator");
    assert.ok(props.properties.endpoints.catalog.startsWith(h.emulator.url));
  } finally {
    await h.close();
  }
});

Deno.test("read-only mode hides and refuses every write tool, invoke_operation included", async () => {
  const h = await startHarness({ env: { CATALOG_MCP_READ_ONLY: "true" } });
  try {
    const { tools } = await h.client.listTools();
    const names = tools.map((t) => t.name);
    for (
      const write of [
        "create_entity",
        "update_entity",
        "delete_entity",
        "batch_create_entities",
        "batch_update_entities",
      ]
    ) {
      assert.ok(!names.includes(write), `${write} is hidden`);
      const refused = await h.client.callTool({ name: write, arguments: {} });
      assert.equal(refused.isError, true);
      assert.match(String(resultJson(refused).message), /read-only mode/);
    }
    assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true), "everything listed is read-only");
    const invokeWrite = await h.client.callTool({
      name: "invoke_operation",
      arguments: { operation: "entity.delete", arguments: { guid: CUSTOMERS_GUID } },
    });
    assert.match(
      String(resultJson(invokeWrite).message),
      /entity.delete changes the catalog .*read-only mode/,
    );
    const invokeRead = await h.client.callTool({
      name: "invoke_operation",
      arguments: { operation: "entity.get", arguments: { guid: CUSTOMERS_GUID } },
    });
    assert.ok(!invokeRead.isError);
    assert.equal(h.emulator.entityCount(), 42, "nothing was deleted: the seed's 42 are there");
  } finally {
    await h.close();
  }
});

Deno.test("CATALOG_MCP_TOOLS narrows the tool set", async () => {
  const h = await startHarness({ env: { CATALOG_MCP_TOOLS: "get_entity,search_entities" } });
  try {
    const { tools } = await h.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["get_entity", "search_entities"]);
    const off = await h.client.callTool({ name: "delete_entity", arguments: { guid: "x" } });
    assert.match(String(resultJson(off).message), /switched off .*CATALOG_MCP_TOOLS/);
  } finally {
    await h.close();
  }
  const denied = await startHarness({ env: { CATALOG_MCP_TOOLS: "-delete_entity" } });
  try {
    const names = (await denied.client.listTools()).tools.map((t) => t.name);
    assert.ok(!names.includes("delete_entity"));
    assert.ok(names.includes("get_entity"));
  } finally {
    await denied.close();
  }
});
