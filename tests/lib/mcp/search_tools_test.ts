/**
 * The search tools through a real MCP client over streamable HTTP, against the seeded emulator:
 * search_suggest, search_browse (overview by type, by type, by path, paging) and search_entities' facets.
 */
import assert from "node:assert/strict";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";

const CUSTOMERS_GUID = "ca7a1000-0000-4000-8000-000000000010";

async function call(h: Harness, name: string, args: Record<string, unknown>) {
  const result = await h.client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name}: ${JSON.stringify(result.content)}`);
  const data = result.structuredContent as Record<string, unknown>;
  assert.deepEqual(resultJson(result), data, "the text content is the same JSON");
  return data;
}

Deno.test("search tools are listed read-only with all four annotations", async () => {
  const h = await startHarness();
  try {
    const { tools } = await h.client.listTools();
    for (const name of ["search_entities", "search_suggest", "search_browse"]) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is listed`);
      assert.deepEqual(tool.annotations, {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      });
    }
  } finally {
    await h.close();
  }
});

Deno.test("search_suggest turns the start of a name into guids, best first", async () => {
  const h = await startHarness();
  try {
    type Suggestion = {
      guid: string;
      name: string;
      qualified_name: string;
      entity_type: string;
      matched: string;
    };
    const all = (await call(h, "search_suggest", { keywords: "cust" })).suggestions as Suggestion[];
    assert.equal(all.length, 10, "11 names have a word starting with cust: the default limit of 10 holds");
    assert.ok(all.every((s) => s.guid && s.qualified_name && s.entity_type && s.matched.includes("<em>")));

    const tables = (await call(h, "search_suggest", { keywords: "cust", entity_type: "azure_sql_table" }))
      .suggestions as Suggestion[];
    assert.deepEqual(tables.map((s) => [s.guid, s.name, s.matched]), [
      [CUSTOMERS_GUID, "Customers", "<em>Customers</em>"],
      ["ca7a1000-0000-4000-8000-000000000072", "CustomerSales", "<em>CustomerSales</em>"],
    ]);

    const limited = (await call(h, "search_suggest", { keywords: "c", limit: 2 })).suggestions as unknown[];
    assert.equal(limited.length, 2);
    const refused = await h.client.callTool({ name: "search_suggest", arguments: { keywords: "" } });
    assert.equal(refused.isError, true, "empty keywords are refused");
  } finally {
    await h.close();
  }
});

Deno.test("search_browse: counts by type at the top, then a type, then a path, page by page", async () => {
  const h = await startHarness();
  try {
    const overview = await call(h, "search_browse", {});
    const counts = overview.type_counts as Array<{ entity_type: string; count: number }>;
    assert.deepEqual(counts[0], { entity_type: "azure_sql_column", count: 15 });
    // The seed's 42 entities, its glossary and 8 terms, and the glossary "Glossary" every new account has.
    assert.equal(counts.reduce((sum, c) => sum + c.count, 0), 52);
    assert.deepEqual(overview.items, []);

    type Item = { guid: string; name: string; path: string; is_leaf: boolean; entity_type: string };
    const servers = await call(h, "search_browse", { entity_type: "azure_sql_server" });
    const [server] = servers.items as Item[];
    assert.equal(server.is_leaf, false);
    assert.equal(servers.type_counts, undefined, "no overview when a type is given");
    const databases = await call(h, "search_browse", { path: server.path });
    const salesDb = (databases.items as Item[]).find((item) => item.name === "SalesDb")!;
    const schemas = await call(h, "search_browse", { path: salesDb.path });
    const schemaPath = (schemas.items as Item[])[0].path;

    const first = await call(h, "search_browse", { path: schemaPath, limit: 3 });
    assert.equal(first.count, 4);
    assert.equal(first.truncated, true);
    assert.equal(first.next_offset, 3);
    const rest = await call(h, "search_browse", { path: schemaPath, limit: 3, offset: first.next_offset });
    assert.equal(rest.truncated, false);
    assert.equal(rest.next_offset, undefined);
    const tables = [...first.items as Item[], ...rest.items as Item[]];
    assert.deepEqual(tables.map((t) => t.name), ["Customers", "Invoices", "Orders", "Products"]);
    const columns = await call(h, "search_browse", { path: tables[0].path, limit: 10 });
    assert.ok((columns.items as Item[]).every((c) => c.is_leaf && c.entity_type === "azure_sql_column"));
  } finally {
    await h.close();
  }
});

Deno.test("search_entities returns facet counts over all matches when asked", async () => {
  const h = await startHarness();
  try {
    const found = await call(h, "search_entities", {
      query: "customers",
      limit: 1,
      facets: ["entityType", "classification"],
    });
    const facets = found.facets as Record<string, Array<{ value: string; count: number }>>;
    assert.deepEqual(Object.keys(facets).sort(), ["classification", "entityType"]);
    assert.equal(facets.entityType.reduce((sum, f) => sum + f.count, 0), found.count);
    assert.ok(facets.classification.some((f) => f.value === "MICROSOFT.PERSONAL.EMAIL"));

    const plain = await call(h, "search_entities", { query: "customers", limit: 1 });
    assert.equal(plain.facets, undefined, "no facets unless asked");
  } finally {
    await h.close();
  }
});

Deno.test("search_entities pages with continuation_token to the end, over answers with null facets", async () => {
  // The emulator answers as the service does: "@search.facets": null when none are asked, and a
  // continuationToken only while more matches follow (recorded CatalogClientTest/Search.json).
  const h = await startHarness();
  try {
    const first = await call(h, "search_entities", { query: "*", limit: 3 });
    const total = first.count as number;
    const seen = new Set((first.results as Array<{ guid: string }>).map((r) => r.guid));
    let page = first;
    for (let n = 1; page.truncated && n <= total; n++) {
      assert.equal(typeof page.continuation_token, "string");
      page = await call(h, "search_entities", {
        query: "*",
        limit: 3,
        continuation_token: page.continuation_token,
      });
      for (const r of page.results as Array<{ guid: string }>) seen.add(r.guid);
    }
    assert.equal(page.truncated, false);
    assert.equal(page.continuation_token, undefined, "the last page has no token");
    assert.equal(page.facets, undefined);
    assert.equal(seen.size, total, "every match once");
  } finally {
    await h.close();
  }
});
