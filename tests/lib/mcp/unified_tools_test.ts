import assert from "node:assert/strict";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";

const OWNER = "0a1b2c3d-0000-4000-8000-00000000beef";
const MISSING = "deadbeef-0000-4000-8000-000000000000";

async function call(h: Harness, name: string, args: Record<string, unknown>) {
  const result = await h.client.callTool({ name, arguments: args });
  return { result, data: result.structuredContent as Record<string, unknown>, json: resultJson(result) };
}

/** Calls a tool that must succeed and returns its structured content. */
async function ok(h: Harness, name: string, args: Record<string, unknown>) {
  const { result, data, json } = await call(h, name, args);
  assert.ok(!result.isError, `${name} failed: ${JSON.stringify(json)}`);
  return data;
}

/** Calls a tool that must fail and returns its error body. */
async function fails(h: Harness, name: string, args: Record<string, unknown>) {
  const { result, json } = await call(h, name, args);
  assert.equal(result.isError, true, `${name} should fail: ${JSON.stringify(json)}`);
  return json;
}

type Row = { id: string; name: string; status?: string; domain_id?: string; domain_name?: string };

Deno.test("uc domain tools: list, create, get, and their errors", async () => {
  const h = await startHarness();
  try {
    const empty = await ok(h, "uc_list_domains", {});
    assert.equal(empty.truncated, false);
    const before = (empty.domains as Row[]).length;

    const finance = await ok(h, "uc_create_domain", {
      name: "Finance",
      description: "Money matters",
      type: "lineofbusiness",
      status: "published",
      owner_ids: [OWNER],
    });
    assert.match(String(finance.id), /^[0-9a-f-]{36}$/);
    assert.equal(finance.type, "LineOfBusiness");
    assert.equal(finance.status, "PUBLISHED");
    const payments = await ok(h, "uc_create_domain", { name: "Payments", parent_id: finance.id });
    assert.equal(payments.parent_id, finance.id);

    const all = await ok(h, "uc_list_domains", {});
    const rows = all.domains as Array<Row & { parent_id?: string; type?: string; description?: string }>;
    assert.equal(rows.length, before + 2);
    const listed = rows.find((d) => d.id === finance.id);
    assert.equal(listed?.name, "Finance");
    assert.equal(listed?.description, "Money matters");
    assert.equal(rows.find((d) => d.id === payments.id)?.parent_id, finance.id);
    const one = await ok(h, "uc_list_domains", { limit: 1 });
    assert.equal((one.domains as Row[]).length, 1);
    assert.equal(one.truncated, true);

    const got = await ok(h, "uc_get_domain", { domain_id: finance.id });
    assert.equal(got.name, "Finance");
    assert.equal((got.domain as { id: string }).id, finance.id);

    const unknown = await fails(h, "uc_get_domain", { domain_id: MISSING });
    assert.equal(unknown.status, 404);
    assert.match(String(unknown.message), new RegExp(MISSING));
    assert.match(String(unknown.hint), /uc_list_domains/);

    const badType = await fails(h, "uc_create_domain", { name: "X", type: "Department" });
    assert.match(String(badType.message), /FunctionalUnit, LineOfBusiness, DataDomain, Regulatory, Project/);
    const badStatus = await fails(h, "uc_create_domain", { name: "X", status: "Approved" });
    assert.match(String(badStatus.message), /DRAFT, PUBLISHED, EXPIRED/);
    const badParent = await fails(h, "uc_create_domain", { name: "X", parent_id: MISSING });
    assert.equal(badParent.status, 404);
    assert.match(String(badParent.message), new RegExp(`${MISSING}.*parent_id`));
    const email = await fails(h, "uc_create_domain", { name: "X", owner_ids: ["ann@contoso.com"] });
    assert.match(String(email.message), /identity-provider/);
    const duplicate = await fails(h, "uc_create_domain", { name: "Finance" });
    assert.equal(duplicate.status, 409);
    const after = await ok(h, "uc_list_domains", {});
    assert.equal((after.domains as Row[]).length, before + 2, "no failed create left a domain behind");
  } finally {
    await h.close();
  }
});

Deno.test("uc term tools: create with relationships and hierarchy, get, list, search", async () => {
  const h = await startHarness();
  try {
    const sales = await ok(h, "uc_create_domain", { name: "Sales", type: "FunctionalUnit" });
    const hr = await ok(h, "uc_create_domain", { name: "HR", type: "DataDomain" });

    const revenue = await ok(h, "uc_create_term", {
      name: "Revenue",
      domain_id: sales.id,
      description: "Income from sales",
      status: "published",
      acronyms: ["REV"],
      owner_ids: [OWNER],
      resources: [{ name: "Wiki", url: "https://wiki.contoso.com/revenue" }],
    });
    assert.equal(revenue.status, "PUBLISHED");
    assert.equal(revenue.domain_id, sales.id);
    assert.equal(revenue.domain_name, "Sales");
    assert.deepEqual(revenue.acronyms, ["REV"]);
    assert.deepEqual(revenue.owner_ids, [OWNER]);
    assert.deepEqual(revenue.relationship_errors, []);

    const turnover = await ok(h, "uc_create_term", { name: "Turnover", domain_id: sales.id });
    assert.equal(turnover.status, "DRAFT", "status defaults to Draft");

    const net = await ok(h, "uc_create_term", {
      name: "Net Revenue",
      domain_id: sales.id,
      status: "Draft",
      parent_id: revenue.id,
      synonyms: [turnover.id],
    });
    assert.equal(net.parent_id, revenue.id);
    const synonyms = net.synonyms as Array<{ entity_id: string; relationship_type: string }>;
    assert.deepEqual(synonyms.map((s) => [s.entity_id, s.relationship_type]), [[turnover.id, "Synonym"]]);

    const child = await ok(h, "uc_get_term", { term_id: net.id });
    assert.equal(child.name, "Net Revenue");
    assert.deepEqual((child.synonyms as Array<{ entity_id: string }>).map((s) => s.entity_id), [turnover.id]);
    const hierarchy = child.hierarchy as { parent?: { id: string; name?: string } };
    assert.equal(hierarchy.parent?.id, revenue.id);
    assert.equal(hierarchy.parent?.name, "Revenue");
    const parent = await ok(h, "uc_get_term", { term_id: revenue.id });
    const children = (parent.hierarchy as { children: Row[] }).children;
    assert.deepEqual(children.map((c) => c.name), ["Net Revenue"]);
    const seenFromSynonym = await ok(h, "uc_get_term", { term_id: turnover.id });
    assert.deepEqual(
      (seenFromSynonym.synonyms as Array<{ entity_id: string }>).map((s) => s.entity_id),
      [net.id],
    );
    const unknownTerm = await fails(h, "uc_get_term", { term_id: MISSING });
    assert.equal(unknownTerm.status, 404);
    assert.match(String(unknownTerm.message), new RegExp(MISSING));

    await ok(h, "uc_create_term", { name: "Headcount", domain_id: hr.id, status: "PUBLISHED" });
    await ok(h, "uc_create_term", { name: "Revenue per Employee", domain_id: hr.id });

    // uc_list_terms
    const listed = await ok(h, "uc_list_terms", { domain_id: sales.id });
    assert.deepEqual((listed.terms as Row[]).map((t) => t.name).sort(), [
      "Net Revenue",
      "Revenue",
      "Turnover",
    ]);
    assert.equal(listed.domain_name, "Sales");
    assert.equal(listed.truncated, false);
    const published = await ok(h, "uc_list_terms", { domain_id: sales.id, status: "published" });
    assert.deepEqual((published.terms as Row[]).map((t) => t.name), ["Revenue"]);
    const byKeyword = await ok(h, "uc_list_terms", { domain_id: sales.id, keyword: "turn" });
    assert.deepEqual((byKeyword.terms as Row[]).map((t) => t.name), ["Turnover"]);
    const limited = await ok(h, "uc_list_terms", { domain_id: sales.id, limit: 2 });
    assert.equal((limited.terms as Row[]).length, 2);
    assert.equal(limited.truncated, true);
    const unknownDomain = await fails(h, "uc_list_terms", { domain_id: MISSING });
    assert.equal(unknownDomain.status, 404);
    assert.match(String(unknownDomain.message), new RegExp(MISSING));
    const badStatus = await fails(h, "uc_list_terms", { domain_id: sales.id, status: "Approved" });
    assert.match(String(badStatus.message), /Approved.*DRAFT, PUBLISHED, EXPIRED/);

    // uc_search_terms: every domain by default
    const everywhere = await ok(h, "uc_search_terms", { keyword: "revenue" });
    const found = everywhere.terms as Row[];
    // Beside the seed's Recognised Revenue (Corporate Finance).
    assert.deepEqual(found.map((t) => t.name).sort(), [
      "Net Revenue",
      "Recognised Revenue",
      "Revenue",
      "Revenue per Employee",
    ]);
    assert.equal(found.find((t) => t.name === "Revenue per Employee")?.domain_name, "HR");
    assert.equal(found.find((t) => t.name === "Revenue")?.domain_id, sales.id);
    const inHr = await ok(h, "uc_search_terms", { keyword: "REVENUE", domain_id: hr.id });
    assert.deepEqual((inHr.terms as Row[]).map((t) => t.name), ["Revenue per Employee"]);
    const publishedOnly = await ok(h, "uc_search_terms", { keyword: "e", status: "published" });
    assert.deepEqual((publishedOnly.terms as Row[]).map((t) => t.name).sort(), [
      "Active Customer",
      "Customer Lifetime Value",
      "Headcount",
      "Recognised Revenue",
      "Revenue",
    ], "the test's and the seed's published terms with an e");
    const one = await ok(h, "uc_search_terms", { keyword: "revenue", limit: 1 });
    assert.equal((one.terms as Row[]).length, 1);
    assert.equal(one.truncated, true);
    const searchUnknownDomain = await fails(h, "uc_search_terms", { keyword: "x", domain_id: MISSING });
    assert.equal(searchUnknownDomain.status, 404);
    const searchBadStatus = await fails(h, "uc_search_terms", { keyword: "x", status: "gone" });
    assert.match(String(searchBadStatus.message), /Draft, Published, Expired/);
    const noKeyword = await fails(h, "uc_search_terms", {});
    assert.match(String(noKeyword.message), /keyword/);
  } finally {
    await h.close();
  }
});

Deno.test("uc_create_term errors: e-mail owner, unknown domain, status, synonym, parent, duplicate", async () => {
  const h = await startHarness();
  try {
    const ops = await ok(h, "uc_create_domain", { name: "Operations" });
    const email = await fails(h, "uc_create_term", {
      name: "Uptime",
      domain_id: ops.id,
      owner_ids: ["ann@contoso.com"],
    });
    assert.match(String(email.message), /identity-provider \(Microsoft Entra ID\) object IDs/);
    assert.match(String(email.message), /ann@contoso\.com/);
    assert.match(String(email.hint), /object ID/);
    const nothing = await ok(h, "uc_search_terms", { keyword: "Uptime" });
    assert.equal(nothing.count, 0, "nothing was created");

    const unknownDomain = await fails(h, "uc_create_term", { name: "Uptime", domain_id: MISSING });
    assert.ok([400, 404].includes(Number(unknownDomain.status)));
    assert.match(String(unknownDomain.message), new RegExp(MISSING));

    const badStatus = await fails(h, "uc_create_term", {
      name: "Uptime",
      domain_id: ops.id,
      status: "Approved",
    });
    assert.match(String(badStatus.message), /allowed values: DRAFT, PUBLISHED, EXPIRED/);

    const badSynonym = await fails(h, "uc_create_term", {
      name: "Uptime",
      domain_id: ops.id,
      synonyms: [MISSING],
    });
    assert.equal(badSynonym.status, 404);
    assert.match(String(badSynonym.message), new RegExp(`${MISSING}.*synonyms`));
    const badParent = await fails(h, "uc_create_term", {
      name: "Uptime",
      domain_id: ops.id,
      parent_id: MISSING,
    });
    assert.equal(badParent.status, 404);
    assert.equal((await ok(h, "uc_search_terms", { keyword: "Uptime" })).count, 0, "still nothing created");

    await ok(h, "uc_create_term", { name: "Uptime", domain_id: ops.id });
    const duplicate = await fails(h, "uc_create_term", { name: "uptime", domain_id: ops.id });
    assert.equal(duplicate.status, 409);
    assert.equal((await ok(h, "uc_search_terms", { keyword: "Uptime" })).count, 1);

    const missingName = await fails(h, "uc_create_term", { domain_id: ops.id });
    assert.match(String(missingName.message), /name/);
  } finally {
    await h.close();
  }
});
