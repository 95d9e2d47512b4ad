/**
 * The glossary tools through a real MCP client (`startHarness()`): get_glossary_terms across one or all
 * glossaries with paging, create_glossary_term with the default glossary and synonyms, and
 * assign_term_to_entities with per-entity results.
 */
import assert from "node:assert/strict";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";

const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
/** Seeded assets the seed assigns no glossary term to. */
const PRODUCTS = "ca7a1000-0000-4000-8000-000000000030";
const CUSTOMER_360 = "ca7a1000-0000-4000-8000-000000000061";
/** The terms of the seed's Retail Glossary (fixtures/emulator/seed.json). */
const SEEDED_TERMS = 8;
const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

async function call(h: Harness, name: string, args: Record<string, unknown>) {
  const result = await h.client.callTool({ name, arguments: args });
  // deno-lint-ignore no-explicit-any
  return { result, data: result.structuredContent as any, json: resultJson(result) };
}

Deno.test("glossary tools are listed with all four annotations", async () => {
  const h = await startHarness();
  try {
    const { tools } = await h.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ["get_glossary_terms", "create_glossary_term", "assign_term_to_entities"]) {
      const tool = byName.get(name);
      assert.ok(tool, name);
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
        assert.equal(typeof tool.annotations?.[hint], "boolean", `${name} ${hint}`);
      }
    }
    assert.equal(byName.get("get_glossary_terms")!.annotations?.readOnlyHint, true);
    assert.equal(byName.get("create_glossary_term")!.annotations?.idempotentHint, false);
    assert.equal(byName.get("assign_term_to_entities")!.annotations?.destructiveHint, false);
    assert.match(String(byName.get("create_glossary_term")!.description), /named "Glossary" is created/);
  } finally {
    await h.close();
  }
});

Deno.test("create_glossary_term: the default glossary is created once, then used; synonyms by name", async () => {
  // A new account: the sample catalog's own glossary would be the one used.
  const h = await startHarness({ seed: false });
  try {
    // A new account has the glossary "Glossary" already; without it, the tool creates it.
    const existing = (await h.catalog.glossary.list()).find((g) => g.name === "Glossary");
    assert.ok(existing, "a new account has a glossary named Glossary");
    await h.catalog.glossary.delete(existing.guid!);
    const first = await call(h, "create_glossary_term", {
      name: "Revenue",
      definition: "Income from sales",
      short_description: "Money in",
      status: "Approved",
      abbreviation: "REV",
      examples: ["Q1 revenue"],
    });
    assert.ok(!first.result.isError, JSON.stringify(first.json));
    assert.equal(first.data.glossary_created, true);
    assert.equal(first.data.term.qualifiedName, "Revenue@Glossary");
    assert.equal(first.data.term.longDescription, "Income from sales");
    assert.equal(first.data.term.status, "Approved");
    assert.equal(first.data.guid, first.data.term.guid);

    const second = await call(h, "create_glossary_term", { name: "Income", synonyms: ["revenue"] });
    assert.equal(second.data.glossary_created, false);
    assert.equal(second.data.glossary_guid, first.data.glossary_guid);
    assert.equal(second.data.term.status, "Draft");
    assert.equal(second.data.term.synonyms[0].termGuid, first.data.guid);

    const unknownSynonym = await call(h, "create_glossary_term", { name: "Profit", synonyms: ["Nope"] });
    assert.equal(unknownSynonym.result.isError, true);
    assert.match(String(unknownSynonym.json.message), /No term of glossary .* is named "Nope"/);
    const duplicate = await call(h, "create_glossary_term", { name: "Revenue" });
    assert.equal(duplicate.result.isError, true);
    assert.equal(duplicate.json.status, 409);
    const conflicting = await call(h, "create_glossary_term", {
      name: "X",
      definition: "a",
      long_description: "b",
    });
    assert.match(String(conflicting.json.message), /definition and long_description differ/);
    const badStatus = await call(h, "create_glossary_term", { name: "X", status: "Pending" });
    assert.equal(badStatus.json.error, "InvalidArguments");
    const unknownGlossary = await call(h, "create_glossary_term", { name: "X", glossary_guid: UNKNOWN });
    assert.equal(unknownGlossary.json.status, 404);
  } finally {
    await h.close();
  }
});

Deno.test("get_glossary_terms: one glossary or all, paged across glossaries, with assigned entity counts", async () => {
  const h = await startHarness();
  try {
    // The seed's Retail Glossary holds 8 terms; the glossaries below sort before it.
    const seeded = await call(h, "get_glossary_terms", {});
    assert.equal(seeded.data.total, SEEDED_TERMS);
    assert.ok(
      seeded.data.terms.every((t: { glossary_name: string }) => t.glossary_name === "Retail Glossary"),
    );
    const banking = (await h.catalog.glossary.create({ name: "Banking" })).guid!;
    const finance = (await h.catalog.glossary.create({ name: "Finance" })).guid!;
    await h.catalog.glossary.createTerms([
      { name: "Loan", anchor: { glossaryGuid: banking } },
      { name: "Deposit", anchor: { glossaryGuid: banking }, shortDescription: "Money kept" },
      { name: "Revenue", anchor: { glossaryGuid: finance }, status: "Approved" },
    ]);
    const revenue = (await h.catalog.glossary.listTermHeaders(finance))[0].termGuid!;
    await h.catalog.glossary.assignTermToEntities(revenue, [{ guid: CUSTOMERS }, { guid: ORDERS }]);

    const all = await call(h, "get_glossary_terms", {});
    assert.equal(all.data.total, 3 + SEEDED_TERMS);
    assert.deepEqual(all.data.terms.slice(0, 3).map((t: { name: string }) => t.name), [
      "Deposit",
      "Loan",
      "Revenue",
    ]);
    assert.equal(all.data.terms[0].short_description, "Money kept");
    assert.equal(all.data.terms[0].glossary_name, "Banking");
    assert.equal(all.data.terms[2].assigned_entity_count, 2);
    assert.equal(all.data.terms[2].status, "Approved");
    assert.equal(all.data.truncated, false);

    const page = await call(h, "get_glossary_terms", { limit: 1, offset: 1 });
    assert.deepEqual(page.data.terms.map((t: { name: string }) => t.name), ["Loan"]);
    assert.equal(page.data.truncated, true);
    assert.equal(page.data.next_offset, 2);
    const across = await call(h, "get_glossary_terms", { limit: 2, offset: 1 });
    assert.deepEqual(across.data.terms.map((t: { glossary_guid: string }) => t.glossary_guid), [
      banking,
      finance,
    ]);

    const one = await call(h, "get_glossary_terms", { glossary_guid: finance });
    assert.deepEqual(one.data.terms.map((t: { name: string }) => t.name), ["Revenue"]);
    assert.equal(one.data.total, 1);
    const tooMany = await call(h, "get_glossary_terms", { limit: 5000 });
    assert.equal(tooMany.json.error, "InvalidArguments");
    const unknown = await call(h, "get_glossary_terms", { glossary_guid: UNKNOWN });
    assert.equal(unknown.json.status, 404);
  } finally {
    await h.close();
  }
});

Deno.test("assign_term_to_entities: per-entity results; a bad GUID fails alone; repeats are already_assigned", async () => {
  const h = await startHarness();
  try {
    const created = await call(h, "create_glossary_term", { name: "Customer data" });
    const term = created.data.guid;
    const first = await call(h, "assign_term_to_entities", {
      term_guid: term,
      entity_guids: [PRODUCTS, UNKNOWN, CUSTOMER_360, PRODUCTS],
    });
    assert.ok(!first.result.isError, JSON.stringify(first.json));
    assert.equal(first.data.assigned, 2);
    assert.equal(first.data.failed, 1);
    assert.deepEqual(
      first.data.results.map((r: { entity_guid: string; status: string }) => [r.entity_guid, r.status]),
      [
        [PRODUCTS, "assigned"],
        [UNKNOWN, "failed"],
        [CUSTOMER_360, "assigned"],
      ],
    );
    assert.match(first.data.results[1].error, /404/);
    const header = await h.catalog.entity.getHeader(PRODUCTS);
    assert.deepEqual(header.meaningNames, ["Customer data"]);

    const again = await call(h, "assign_term_to_entities", { term_guid: term, entity_guids: [CUSTOMER_360] });
    assert.deepEqual(again.data.results, [{ entity_guid: CUSTOMER_360, status: "already_assigned" }]);
    assert.equal(again.data.already_assigned, 1);

    const unknownTerm = await call(h, "assign_term_to_entities", {
      term_guid: UNKNOWN,
      entity_guids: [CUSTOMER_360],
    });
    assert.equal(unknownTerm.result.isError, true);
    // Neither a glossary term nor a unified catalog term: said so, with where to find one (no bare 404).
    assert.match(String(unknownTerm.json.message), /neither a glossary term nor a unified catalog term/);
    assert.match(String(unknownTerm.json.hint), /get_glossary_terms.*uc_list_terms/);
    const none = await call(h, "assign_term_to_entities", { term_guid: term, entity_guids: [] });
    assert.equal(none.json.error, "InvalidArguments");
  } finally {
    await h.close();
  }
});
