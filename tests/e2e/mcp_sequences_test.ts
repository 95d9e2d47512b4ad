/**
 * The typical tool sequences the product lists, run start to finish by an MCP client against `govcat serve
 * --emulator` over streamable HTTP, the way an assistant would use them. Sequence 2 (unified catalog
 * domains and terms) is in mcp_sequence_uc_test.ts.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { startServe } from "../support/serve_process.ts";

type Sdk = Awaited<ReturnType<typeof loadMcpClientSdk>>;
type Client = InstanceType<Sdk["Client"]>;

async function withServer(
  run: (
    call: (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>,
  ) => Promise<void>,
  env: Record<string, string> = {},
) {
  const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
  const server = await startServe(["--emulator", "--transport=http", "--port=0"], env);
  const client: Client = new Client({ name: "sequence-test", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    await run(async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      assert.ok(!result.isError, `${name} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent as Record<string, unknown>;
    });
  } finally {
    await client.close();
    await server.stop();
  }
}

Deno.test("sequence 1: search, create an entity, define a term, assign it, record lineage", async () => {
  await withServer(async (call) => {
    const found = await call("search_entities", { query: "orders", limit: 5 });
    const orders = (found.results as Array<{ guid: string; name: string }>).find((r) => r.name === "Orders");
    assert.ok(orders, "the Orders table is found");

    const created = await call("create_entity", {
      type_name: "DataSet",
      qualified_name: "dataset://analytics/orders_daily",
      name: "orders_daily",
      description: "Orders aggregated per day",
    });
    const dailyGuid = String(created.guid);

    const term = await call("create_glossary_term", {
      name: "Daily Order Volume",
      short_description: "Number of orders placed per calendar day",
    });
    const termGuid = String(term.guid ?? (term.term as { guid?: string } | undefined)?.guid);
    assert.match(termGuid, /^[0-9a-f-]{36}$/);

    const assigned = await call("assign_term_to_entities", {
      term_guid: termGuid,
      entity_guids: [dailyGuid],
    });
    assert.ok(JSON.stringify(assigned).includes(dailyGuid));

    const lineage = await call("create_lineage", {
      source_guids: [orders.guid],
      target_guids: [dailyGuid],
      process_name: "aggregate_orders_daily",
    });
    assert.match(String(lineage.process_guid), /^[0-9a-f-]{36}$/);
    // Re-running leaves the process alone unless told to update it; it never makes a second one.
    const again = await call("create_lineage", {
      source_guids: [orders.guid],
      target_guids: [dailyGuid],
      process_name: "aggregate_orders_daily",
      if_exists: "update",
      confirm: true,
    });
    assert.equal(again.process_guid, lineage.process_guid, "re-running creates nothing twice");
    assert.equal(again.created, false);
  });
});

Deno.test("sequence 3: list metadata definitions, check, clean up, delete", async () => {
  // The server reads files only under its file root (CATALOG_MCP_FILE_ROOT): the payload goes there.
  const root = await Deno.makeTempDir();
  try {
    await withServer(async (call) => {
      // Arrange a definition carried by one asset, through the registry operations a model can reach.
      const monthlyRevenue = "ca7a1000-0000-4000-8000-000000000060";
      await call("invoke_operation", {
        operation: "types.business-metadata-template",
        arguments: { name: "governance" },
      }).then(async (template) => {
        const payload = (template as { result: unknown }).result;
        const file = `${root}/governance.json`;
        await Deno.writeTextFile(file, JSON.stringify(payload));
        await call("invoke_operation", {
          operation: "types.create-type-defs",
          arguments: { payloadFile: file },
        });
      });
      const defs = await call("uc_list_custom_metadata_defs", {});
      const governance =
        (defs.definitions as Array<{ name: string; attributes: Array<{ name: string; type_name?: string }> }>)
          .find((d) => /governance/i.test(d.name));
      assert.ok(governance, "the governance set is defined");
      const stringAttribute = governance.attributes.find((a) => a.type_name === "string")!;
      await call("invoke_operation", {
        operation: "entity.add-business-metadata",
        arguments: {
          guid: monthlyRevenue,
          bmName: governance.name,
          attrName: stringAttribute.name,
          attrValue: "finance-data-office",
        },
      });

      const check = await call("uc_cleanup_metadata_definition", { name: governance.name, check_only: true });
      assert.equal(check.assigned, true);
      assert.deepEqual((check.assets as Array<{ guid: string }>).map((a) => a.guid), [monthlyRevenue]);

      const cleaned = await call("uc_cleanup_metadata_definition", {
        name: governance.name,
        check_only: false,
        confirm: true,
      });
      assert.deepEqual(cleaned.removed_from, [monthlyRevenue]);

      const deleted = await call("uc_delete_metadata_definition", { name: governance.name, confirm: true });
      assert.equal(deleted.deleted, governance.name);
    }, { CATALOG_MCP_FILE_ROOT: root });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("sequence 4: suggest, search, read an entity, its lineage and the glossary", async () => {
  await withServer(async (call) => {
    const suggestions = await call("search_suggest", { keywords: "cust", limit: 5 });
    assert.ok(JSON.stringify(suggestions).toLowerCase().includes("customer"), "suggestions name customers");

    const found = await call("search_entities", {
      query: "customers",
      limit: 5,
      entity_type: "azure_sql_table",
    });
    const customers = (found.results as Array<{ guid: string; name: string }>)[0];
    assert.equal(customers.name, "Customers");

    const entity = await call("get_entity", { guid: customers.guid });
    assert.equal((entity.entity as { typeName: string }).typeName, "azure_sql_table");

    const lineage = await call("get_lineage", { guid: customers.guid, depth: 2, direction: "both" });
    assert.equal(lineage.base_guid, customers.guid);
    assert.ok(
      (lineage.nodes as Array<{ guid: string }>).some((n) => n.guid === customers.guid),
      "the base is a node",
    );

    const terms = await call("get_glossary_terms", {});
    assert.ok(Array.isArray(terms.terms), "the glossary answers with a list of terms");
  });
});
