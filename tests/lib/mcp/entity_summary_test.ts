/**
 * get_entity's summary pages a wide entity's related entities: a table of 800 columns, made
 * through the catalog API of the emulator, read page by page through a real SDK client over streamable
 * HTTP, gives every column once, in the record's order, with the count of each relation.
 */
import assert from "node:assert/strict";
import {
  ENTITY_SUMMARY_BOUND_BYTES,
  entitySummary,
  RELATED_PAGE_SIZE,
} from "../../../lib/mcp/tools/entity_summary.ts";
import { type McpClient, resultJson, startHarness } from "../../support/mcp_harness.ts";

const COLUMNS = 800;
const TABLE = "mssql://wide.database.windows.net/db/dbo/Wide";

async function getEntity(client: McpClient, args: Record<string, unknown>) {
  const result = await client.callTool({ name: "get_entity", arguments: args });
  const text = (result.content as Array<{ text?: string }>)[0].text ?? "";
  return { result, data: resultJson(result), bytes: new TextEncoder().encode(text).length };
}

Deno.test(`get_entity pages the ${COLUMNS} columns of a table: none lost, none twice`, async () => {
  const h = await startHarness();
  try {
    const columns = Array.from({ length: COLUMNS }, (_, i) => ({
      typeName: "azure_sql_column",
      attributes: { qualifiedName: `${TABLE}#c${i}`, name: `c${i}`, data_type: "int" },
      relationshipAttributes: { table: { guid: "-1", typeName: "azure_sql_table" } },
    }));
    const made = await h.catalog.entity.createOrUpdateMany([
      { guid: "-1", typeName: "azure_sql_table", attributes: { qualifiedName: TABLE, name: "Wide" } },
      ...columns,
    ]);
    const tableGuid = made.guidAssignments!["-1"];
    const full = await getEntity(h.client, { guid: tableGuid, view: "full" });
    const relations = (full.data.entity as { relationshipAttributes: Record<string, unknown> })
      .relationshipAttributes;
    const recorded = (relations.columns as Array<{ guid: string }>).map((column) => column.guid);
    assert.equal(recorded.length, COLUMNS);

    const paged: string[] = [];
    let offset: number | undefined = undefined;
    let pages = 0;
    for (;;) {
      const page = await getEntity(h.client, { guid: tableGuid, related_offset: offset });
      pages++;
      assert.ok(!page.result.isError, JSON.stringify(page.data));
      assert.ok(page.bytes < ENTITY_SUMMARY_BOUND_BYTES, `${page.bytes} bytes`);
      assert.equal((page.data.related_counts as Record<string, number>).columns, COLUMNS);
      const related = (page.data.entity as { related?: Record<string, Array<{ guid: string }>> }).related;
      const got = related?.columns ?? [];
      assert.ok(got.length <= RELATED_PAGE_SIZE);
      paged.push(...got.map((column) => column.guid));
      if (!page.data.has_more) {
        assert.equal(page.data.next_related_offset, undefined);
        break;
      }
      assert.equal(page.data.truncated, true, "a page with more after it left something out");
      assert.equal(page.data.next_related_offset, (offset ?? 0) + got.length);
      offset = page.data.next_related_offset as number;
      assert.ok(pages <= COLUMNS / RELATED_PAGE_SIZE, "paging ends");
    }
    assert.equal(pages, COLUMNS / RELATED_PAGE_SIZE);
    assert.equal(new Set(paged).size, COLUMNS, "no column twice");
    assert.deepEqual(paged, recorded, "every column, in the record's order");

    const past = await getEntity(h.client, { guid: tableGuid, related_offset: COLUMNS });
    assert.equal((past.data.entity as { related?: unknown }).related, undefined);
    assert.equal(past.data.has_more, false);

    const refused = await getEntity(h.client, { guid: tableGuid, view: "full", related_offset: 20 });
    assert.equal(refused.result.isError, true);
    assert.match(String(refused.data.message), /related_offset pages the summary's related entities/);
  } finally {
    await h.close();
  }
});

Deno.test("the summary of an entity with 200 long-named relations stays under its bound; counts the first 20", () => {
  const relationshipAttributes = Object.fromEntries(
    Array.from({ length: 200 }, (_, i) => [
      `relation-${i}-${"r".repeat(300)}`,
      [{ guid: `g-${i}`, typeName: "DataSet", displayText: "n".repeat(300) }],
    ]),
  );
  const entity = { guid: "e", typeName: "DataSet", attributes: { name: "many" }, relationshipAttributes };
  const first = entitySummary(entity);
  assert.ok(JSON.stringify(first).length < ENTITY_SUMMARY_BOUND_BYTES, `${JSON.stringify(first).length}`);
  assert.equal(Object.keys(first.paging.related_counts).length, 20);
  assert.ok(Object.keys(first.paging.related_counts).every((name) => name.length <= 100));
  assert.equal(first.truncated, true);
  assert.deepEqual([first.paging.has_more, first.paging.next_related_offset], [true, RELATED_PAGE_SIZE]);
  const last = entitySummary(entity, {}, 200 - RELATED_PAGE_SIZE);
  const related = last.entity.related as Record<string, Array<{ guid: string }>>;
  assert.deepEqual(Object.values(related).flat().map((r) => r.guid).at(-1), "g-199");
  assert.equal(last.paging.has_more, false);
});
