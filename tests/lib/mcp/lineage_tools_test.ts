/**
 * get_lineage and create_lineage through a real MCP client against the emulator: creation with column
 * mappings that never duplicates a process nor overwrites one unasked, the compact graph in each
 * direction, processes of custom types, bounds, and errors.
 */
import assert from "node:assert/strict";
import { createLineage } from "../../../lib/catalog/lineage_builder.ts";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";

const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const MONTHLY_REVENUE = "ca7a1000-0000-4000-8000-000000000060";
const INVOICES = "ca7a1000-0000-4000-8000-000000000040";
const CUSTOMER_360 = "ca7a1000-0000-4000-8000-000000000061";
const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

async function call(h: Harness, name: string, args: Record<string, unknown>) {
  const result = await h.client.callTool({ name, arguments: args });
  // deno-lint-ignore no-explicit-any
  return { result, data: result.structuredContent as any, json: resultJson(result) };
}

Deno.test("lineage tools: names, all four annotations, descriptions for a model", async () => {
  const h = await startHarness();
  try {
    const { tools } = await h.client.listTools();
    const get = tools.find((t) => t.name === "get_lineage")!;
    const create = tools.find((t) => t.name === "create_lineage")!;
    assert.deepEqual(
      get.annotations && Object.keys(get.annotations).filter((k) => k.endsWith("Hint")).sort(),
      [
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
        "readOnlyHint",
      ],
    );
    assert.equal(get.annotations?.readOnlyHint, true);
    assert.equal(create.annotations?.readOnlyHint, false);
    assert.equal(create.annotations?.idempotentHint, true);
    // if_exists "update" overwrites an existing process: the hint describes that worst call.
    assert.equal(create.annotations?.destructiveHint, true);
    assert.match(create.description ?? "", /never a duplicate/);
    assert.deepEqual(Object.keys(create.inputSchema.properties ?? {}).sort(), [
      "column_mappings",
      "confirm",
      "description",
      "if_exists",
      "process_name",
      "source_guids",
      "target_guids",
    ]);
  } finally {
    await h.close();
  }
});

Deno.test("create_lineage then get_lineage: one process, left alone unless updated, compact graph, column mappings", async () => {
  const h = await startHarness();
  try {
    const args = {
      source_guids: [ORDERS, CUSTOMERS],
      target_guids: [MONTHLY_REVENUE],
      process_name: "revenue_rollup",
      description: "Monthly revenue",
      column_mappings: [
        { source_column: "OrderTotal", target_column: "revenue" },
        { source_column: "CustomerId", target_column: "customer", source_guid: CUSTOMERS },
      ],
    };
    const first = await call(h, "create_lineage", args);
    assert.ok(!first.result.isError, JSON.stringify(first.json));
    assert.equal(first.data.created, true);
    const count = h.emulator.entityCount();
    const refused = await call(h, "create_lineage", { ...args, description: "replaced" });
    assert.equal(refused.result.isError, true, "the process exists: the default call changes nothing");
    assert.match(
      String(refused.json.message),
      new RegExp(`exists already \\(guid ${first.data.process_guid}\\)`),
    );
    const unconfirmed = await call(h, "create_lineage", { ...args, if_exists: "update" });
    assert.equal(unconfirmed.result.isError, true);
    assert.match(String(unconfirmed.json.message), /create_lineage .*without "confirm": true/);
    const again = await call(h, "create_lineage", { ...args, if_exists: "update", confirm: true });
    assert.ok(!again.result.isError, JSON.stringify(again.json));
    assert.equal(again.data.created, false);
    assert.equal(again.data.process_guid, first.data.process_guid);
    assert.equal(h.emulator.entityCount(), count, "nothing new");

    const upstream = await call(h, "get_lineage", { guid: MONTHLY_REVENUE, depth: 1, direction: "upstream" });
    assert.ok(!upstream.result.isError, JSON.stringify(upstream.json));
    assert.equal(upstream.data.direction, "INPUT");
    assert.equal(upstream.data.truncated, false);
    assert.equal(upstream.data.node_count, 4);
    assert.equal(upstream.data.process_count, 1);
    const process = upstream.data.nodes.find((n: { kind: string }) => n.kind === "process");
    assert.equal(process.guid, first.data.process_guid);
    assert.equal(process.name, "revenue_rollup");
    assert.equal(process.column_mappings.length, 2);
    const customerPair = process.column_mappings.find((m: { target_column: string }) =>
      m.target_column === "customer"
    );
    assert.match(customerPair.source_dataset, /Customers/);
    const edges = upstream.data.edges.map((e: { from: string; to: string }) => `${e.from}>${e.to}`).sort();
    assert.deepEqual(edges, [`${CUSTOMERS}>${MONTHLY_REVENUE}`, `${ORDERS}>${MONTHLY_REVENUE}`].sort());
    assert.equal(upstream.data.edges[0].via_process_name, "revenue_rollup");
    assert.deepEqual(upstream.data.nodes[0].guid, MONTHLY_REVENUE, "the base comes first");

    const downstream = await call(h, "get_lineage", { guid: ORDERS, direction: "OUTPUT" });
    assert.equal(downstream.data.direction, "OUTPUT");
    assert.equal(downstream.data.depth, 3);
    // The seed's three hops (to orders.parquet, CustomerSales and the Power BI dataset), then the test's.
    assert.deepEqual(
      downstream.data.edges.map((e: { from: string; to: string }) => [e.from, e.to]),
      [
        [ORDERS, "ca7a1000-0000-4000-8000-000000000052"],
        ["ca7a1000-0000-4000-8000-000000000052", "ca7a1000-0000-4000-8000-000000000072"],
        ["ca7a1000-0000-4000-8000-000000000072", "ca7a1000-0000-4000-8000-000000000081"],
        [ORDERS, MONTHLY_REVENUE],
      ],
    );

    const fromProcess = await call(h, "get_lineage", { guid: first.data.process_guid, depth: 1 });
    assert.equal(
      fromProcess.data.nodes.find((n: { guid: string }) => n.guid === first.data.process_guid).kind,
      "process",
    );
    assert.equal(fromProcess.data.edges.length, 2);
  } finally {
    await h.close();
  }
});

Deno.test("get_lineage: processes of custom types among typed data sets are recognised", async () => {
  // Two seeded data sets no process of the seed touches.
  const h = await startHarness();
  try {
    await h.catalog.types.create({
      entityDefs: [{ category: "ENTITY", name: "etl_job", superTypes: ["Process"], attributeDefs: [] }],
    });
    const job = await createLineage(h.catalog, {
      sources: [{ guid: INVOICES }],
      targets: [{ guid: CUSTOMER_360 }],
      processName: "invoices_to_customer_360",
      processType: "etl_job",
    });
    const answer = await call(h, "get_lineage", { guid: CUSTOMER_360, direction: "both" });
    const kinds = Object.fromEntries(
      answer.data.nodes.map((n: { guid: string; kind: string }) => [n.guid, n.kind]),
    );
    assert.deepEqual(kinds, {
      [CUSTOMER_360]: "dataset",
      [job.processGuid]: "process",
      [INVOICES]: "dataset",
    });
    assert.deepEqual(answer.data.edges.map((e: { from: string; to: string }) => [e.from, e.to]), [[
      INVOICES,
      CUSTOMER_360,
    ]]);
  } finally {
    await h.close();
  }
});

Deno.test("get_lineage: a graph larger than the bounds is cut and flagged truncated", async () => {
  const h = await startHarness();
  try {
    const made = await h.catalog.entity.createOrUpdateMany(
      Array.from({ length: 70 }, (_, i) => ({
        typeName: "DataSet",
        attributes: { qualifiedName: `dataset://wide/${i}`, name: `wide_${i}` },
      })),
    );
    const guids = made.mutatedEntities!.CREATE!.map((h) => h.guid!);
    const wide = await createLineage(h.catalog, {
      sources: guids.slice(0, 40).map((guid) => ({ guid })),
      targets: guids.slice(40).map((guid) => ({ guid })),
      processName: "wide_join",
    });
    const answer = await call(h, "get_lineage", { guid: wide.processGuid, depth: 1 });
    assert.ok(!answer.result.isError, JSON.stringify(answer.json));
    assert.equal(answer.data.node_count, 71);
    assert.equal(answer.data.edge_count, 40 * 30);
    assert.equal(answer.data.edges.length, 1000);
    assert.equal(answer.data.truncated, true);
  } finally {
    await h.close();
  }
});

Deno.test("lineage tools: unknown GUIDs are errors with the status; nothing is written", async () => {
  const h = await startHarness();
  try {
    const missing = await call(h, "get_lineage", { guid: UNKNOWN });
    assert.equal(missing.result.isError, true);
    assert.equal(missing.json.status, 404);

    const count = h.emulator.entityCount();
    const refused = await call(h, "create_lineage", {
      source_guids: [UNKNOWN],
      target_guids: [MONTHLY_REVENUE],
      process_name: "nope",
    });
    assert.equal(refused.result.isError, true);
    assert.equal(refused.json.status, 404);
    assert.match(String(refused.json.message), new RegExp(`source ${UNKNOWN} not found`));
    assert.equal(h.emulator.entityCount(), count);

    const badDepth = await h.client.callTool({ name: "get_lineage", arguments: { guid: ORDERS, depth: 11 } });
    assert.equal(badDepth.isError, true);
  } finally {
    await h.close();
  }
});
