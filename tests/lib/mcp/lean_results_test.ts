/**
 * Lean results: get_entity answers a curated view under its bound by default and
 * the raw record with view "full"; the batch tools answer counts, the GUIDs in request order and at most
 * MAX_LISTED_FAILURES failures, every result with detail "full". Sizes before: get_entity 1,823 bytes for
 * the seeded Customers table, a 1,000-entity batch_create_entities about 140 KB.
 */
import assert from "node:assert/strict";
import { ENTITY_SUMMARY_BOUND_BYTES, MAX_BATCH_ENTITIES } from "../../../lib/mcp/tools/entity_tools.ts";
import { MAX_LISTED_FAILURES } from "../../../lib/mcp/tools/batch_upsert.ts";
import { type Harness, startHarness } from "../../support/mcp_harness.ts";

const CUSTOMERS_GUID = "ca7a1000-0000-4000-8000-000000000010";

// The answers are read loosely: the output schemas are checked by the SDK client on every call.
// deno-lint-ignore no-explicit-any
type Loose = Record<string, any>;

async function call(h: Harness, name: string, args: Record<string, unknown>) {
  const result = await h.client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text: string }>)[0].text;
  assert.ok(!result.isError, `${name}: ${text.slice(0, 500)}`);
  return {
    bytes: new TextEncoder().encode(text).length,
    data: result.structuredContent as Loose,
  };
}

Deno.test("get_entity: a curated view by default, under its bound, the raw record with view full", async () => {
  const h = await startHarness();
  try {
    const full = await call(h, "get_entity", { guid: CUSTOMERS_GUID, view: "full" });
    const summary = await call(h, "get_entity", { guid: CUSTOMERS_GUID });
    console.log(`get_entity Customers: summary ${summary.bytes} bytes, full ${full.bytes} bytes`);
    assert.equal(full.data.view, "full");
    assert.equal(full.data.entity.attributes.name, "Customers");
    assert.ok("referredEntities" in full.data);
    assert.ok(summary.bytes < 1000 && summary.bytes < full.bytes / 2, `${summary.bytes} bytes`);
    assert.equal(summary.data.view, "summary");
    assert.equal(summary.data.truncated, false);
    const e = summary.data.entity;
    assert.deepEqual(
      [e.guid, e.typeName, e.name, e.collection, e.status, e.owner],
      [CUSTOMERS_GUID, "azure_sql_table", "Customers", "sales", "ACTIVE", "Dana Whitfield"],
    );
    assert.match(e.qualifiedName, /SalesDb\/dbo\/Customers$/);
    assert.match(e.description, /Customer master data/);
    assert.deepEqual(e.classifications, ["MICROSOFT.PERSONAL.NAME", "MICROSOFT.PERSONAL.EMAIL"]);
    assert.deepEqual(e.labels, ["Certified", "PII"]);
    assert.deepEqual(e.experts, ["Lena Park, data engineer"]);
    assert.match(e.updateTime, /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(e.related.dbSchema, [{
      guid: "ca7a1000-0000-4000-8000-000000000003",
      typeName: "azure_sql_schema",
      name: "dbo",
    }]);
    assert.ok(!("relationshipAttributes" in e) && !("lastModifiedTS" in e), "no bookkeeping");

    // Glossary terms appear by name.
    const glossaryGuid = (await h.catalog.glossary.create({ name: "Lean" })).guid!;
    const term = (await h.catalog.glossary.createTerm({ name: "Customer", anchor: { glossaryGuid } })).guid!;
    await h.catalog.glossary.assignTermToEntities(term, [{ guid: CUSTOMERS_GUID }]);
    const withTerm = await call(h, "get_entity", { guid: CUSTOMERS_GUID });
    const terms = withTerm.data.entity.terms as Array<{ guid: string; name: string }>;
    assert.deepEqual(terms.map((t) => t.name), ["Customer", "Customer"], "the seed's term and the test's");
    assert.ok(terms.some((t) => t.guid === term));

    // An entity far bigger than the caps (50,000-character description, 80 labels): the summary stays under its bound and says it left things out.
    const attributes: Record<string, unknown> = {
      qualifiedName: "ds://lean/huge",
      name: "huge",
      description: "d".repeat(50_000),
    };
    const created = await h.catalog.entity.createOrUpdate({
      entity: { typeName: "DataSet", attributes, labels: Array.from({ length: 80 }, (_, i) => `label-${i}`) },
    });
    const guid = Object.values(created.guidAssignments ?? {})[0] ??
      created.mutatedEntities?.CREATE?.[0]?.guid;
    const huge = await call(h, "get_entity", { guid });
    const hugeFull = await call(h, "get_entity", { guid, view: "full" });
    console.log(`get_entity oversized: summary ${huge.bytes} bytes, full ${hugeFull.bytes} bytes`);
    assert.ok(huge.bytes < ENTITY_SUMMARY_BOUND_BYTES, `${huge.bytes} bytes`);
    assert.equal(huge.data.truncated, true);
    assert.equal(hugeFull.data.truncated, false);
    assert.equal(hugeFull.data.entity.attributes.description.length, 50_000, "view full has it all");
  } finally {
    await h.close();
  }
});

Deno.test("batch tools: a 1,000-entity batch answers counts, GUIDs in order and bounded failures", async () => {
  const h = await startHarness();
  try {
    const entities = Array.from({ length: MAX_BATCH_ENTITIES }, (_, i) => ({
      type_name: "DataSet",
      qualified_name: `ds://lean/batch/table_${String(i).padStart(4, "0")}`,
      name: `table_${i}`,
    }));
    const created = await call(h, "batch_create_entities", { entities });
    console.log(`batch_create_entities x${MAX_BATCH_ENTITIES}: summary ${created.bytes} bytes`);
    assert.ok(created.bytes < 45_000, `${created.bytes} bytes`);
    assert.equal(created.data.created, MAX_BATCH_ENTITIES);
    assert.equal(created.data.results, undefined);
    const guids = created.data.guids as string[];
    assert.equal(guids.length, MAX_BATCH_ENTITIES);
    assert.equal(new Set(guids).size, MAX_BATCH_ENTITIES);
    // The GUID map is in request order.
    const third = await call(h, "get_entity", { guid: guids[3] });
    assert.equal(third.data.entity.qualifiedName, entities[3].qualified_name);

    // 60 unknown GUIDs among 1,000 updates: 50 failures listed, truncated, every result with detail full.
    const unknown = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    const updates = guids.map((guid, i) => ({
      guid: i % 10 === 0 && i < 600 ? unknown(i) : guid,
      attributes: { description: "lean" },
    }));
    const summary = await call(h, "batch_update_entities", { updates, confirm: true });
    assert.equal(summary.data.failed, 60);
    assert.equal(summary.data.updated, MAX_BATCH_ENTITIES - 60);
    assert.equal(summary.data.failures.length, MAX_LISTED_FAILURES);
    assert.equal(summary.data.truncated, true);
    assert.equal(summary.data.guids[10], null);
    assert.equal(summary.data.guids[11], guids[11]);
    const full = await call(h, "batch_update_entities", { updates, confirm: true, detail: "full" });
    console.log(
      `batch_update_entities x${MAX_BATCH_ENTITIES}: summary ${summary.bytes} bytes, full ${full.bytes} bytes`,
    );
    assert.equal(full.data.results.length, MAX_BATCH_ENTITIES);
    assert.equal(full.data.results.filter((r: { status: string }) => r.status === "failed").length, 60);
    assert.ok(summary.bytes < full.bytes / 2);
  } finally {
    await h.close();
  }
});
