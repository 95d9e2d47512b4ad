import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import {
  API_VERSION,
  call,
  CATALOG,
  DATAMAP,
  type JsonReply,
  withEmulator,
} from "../emulator_test_helpers.ts";

// The seed's 42 entities, its glossary "Retail Glossary" with 8 terms, and the glossary "Glossary" every new
// account has (glossaries and terms are search hits too).
const SEEDED_HITS = 52;
const CUSTOMERS_TABLE = "ca7a1000-0000-4000-8000-000000000010";

function search(emulator: RunningEmulator, body: unknown, prefix = DATAMAP): Promise<JsonReply> {
  return call(emulator, "POST", `${prefix}/search/query?${API_VERSION}`, body);
}

// deno-lint-ignore no-explicit-any
const names = (reply: JsonReply) => reply.body.value.map((item: any) => item.name);

Deno.test("keyword search ranks the best match first and returns contract-shaped items", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const hit = await search(emulator, { keywords: "Customers", limit: 10 });
    assert.equal(hit.status, 200);
    assert.ok(hit.body["@search.count"] >= 3);
    assert.equal(hit.body["@search.count.approximate"], false);
    const top = hit.body.value[0];
    assert.equal(top.id, CUSTOMERS_TABLE);
    assert.equal(top.name, "Customers");
    assert.equal(top.qualifiedName, "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Customers");
    assert.equal(top.entityType, "azure_sql_table");
    assert.equal(top.objectType, "Tables");
    assert.deepEqual(top.assetType, ["Azure SQL Database"]);
    assert.deepEqual(top.classification, ["MICROSOFT.PERSONAL.NAME", "MICROSOFT.PERSONAL.EMAIL"]);
    assert.deepEqual(top.label, ["Certified", "PII"]);
    assert.equal(top.owner, "Dana Whitfield");
    assert.equal(typeof top.description, "string");
    assert.ok(top.contact.some((c: { contactType: string }) => c.contactType === "Owner"));
    assert.deepEqual(top["@search.highlights"].name, ["<em>Customers</em>"]);
    const scores = hit.body.value.map((item: { "@search.score": number }) => item["@search.score"]);
    assert.deepEqual([...scores].sort((a, b) => b - a), scores, "sorted by score");

    const allTokens = await search(emulator, { keywords: "orders parquet" });
    // The copy activity's description: "Copies dbo.Orders to the raw lake as Parquet."
    assert.deepEqual(names(allTokens), ["orders.parquet", "CopyOrdersToRaw"], "every token must match");

    const miss = await search(emulator, { keywords: "no-such-asset-anywhere" });
    assert.equal(miss.status, 200);
    assert.equal(miss.body["@search.count"], 0);
    assert.deepEqual(miss.body.value, []);
    assert.equal(miss.body.continuationToken, undefined);

    const star = await search(emulator, { keywords: "*", limit: 100 }, CATALOG);
    assert.equal(star.body["@search.count"], SEEDED_HITS);
  });
});

Deno.test("filters: entityType, objectType, classification, collectionId, and/or/not, attributes", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const tables = await search(emulator, { keywords: null, filter: { entityType: "azure_sql_table" } });
    assert.deepEqual(names(tables).sort(), ["CustomerSales", "Customers", "Invoices", "Orders", "Products"]);

    const files = await search(emulator, {
      filter: { and: [{ objectType: "Files" }, { not: { label: "PII" } }] },
    });
    assert.deepEqual(names(files).sort(), ["invoices_{N}.parquet", "orders.parquet"]);

    const email = await search(emulator, {
      filter: { classification: "MICROSOFT.PERSONAL", includeSubClassifications: true },
      limit: 100,
    });
    const emailOnly = await search(emulator, { filter: { classification: "MICROSOFT.PERSONAL.EMAIL" } });
    assert.ok(email.body["@search.count"] > emailOnly.body["@search.count"]);
    assert.ok(names(emailOnly).includes("Email"));

    const finance = await search(emulator, {
      filter: { or: [{ collectionId: "finance" }, { entityType: "azure_sql_server" }] },
      limit: 100,
    });
    assert.ok(names(finance).includes("contoso-sql"));
    assert.ok(names(finance).includes("Monthly Revenue"));
    assert.ok(!names(finance).includes("Orders"));

    const attribute = await search(emulator, {
      filter: {
        and: [
          { attributeName: "qualifiedName", operator: "prefix", attributeValue: "https://contosolake" },
          { attributeName: "size", operator: "gt", attributeValue: 10_000_000 },
        ],
      },
    });
    assert.deepEqual(names(attribute), ["orders.parquet"]);

    const extension = await search(emulator, { filter: { fileExtension: "csv" } });
    assert.deepEqual(names(extension), ["customers.csv"]);

    const recent = await search(emulator, { filter: { updateTime: "LAST_24H" }, limit: 1 });
    assert.equal(recent.body["@search.count"], SEEDED_HITS);
  });
});

Deno.test("search validation: limit above 1000, unknown filter keys and foreign tokens are 400s", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const tooMany = await search(emulator, { keywords: "*", limit: 1001 });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.errorCode, "ATLAS-400-00-01A");
    assert.match(tooMany.body.errorMessage, /limit must be an integer from 1 to 1000/);
    assert.equal(tooMany.body.requestId, tooMany.headers.get("x-ms-request-id"));

    const typo = await search(emulator, { filter: { and: [{ entityTyp: "azure_sql_table" }] } });
    assert.equal(typo.status, 400);
    assert.match(typo.body.errorMessage, /filter\.and\[0\]\.entityTyp is not a supported filter/);

    const badOperator = await search(emulator, {
      filter: { attributeName: "name", operator: "like", attributeValue: "x" },
    });
    assert.equal(badOperator.status, 400);

    const first = await search(emulator, { keywords: "*", limit: 2 });
    const replayed = await search(emulator, {
      keywords: "customers",
      limit: 2,
      continuationToken: first.body.continuationToken,
    });
    assert.equal(replayed.status, 400);
    assert.match(replayed.body.errorMessage, /continuationToken/);

    const garbage = await search(emulator, { keywords: "*", continuationToken: "%%%" });
    assert.equal(garbage.status, 400);

    const badBody = await call(emulator, "POST", `${DATAMAP}/search/query`, undefined, { rawBody: "[1," });
    assert.equal(badBody.status, 400);
  });
});

Deno.test("pagination with continuationToken returns every result exactly once", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    let total = -1;
    do {
      const page = await search(emulator, { keywords: null, limit: 7, continuationToken: token });
      assert.equal(page.status, 200);
      total = page.body["@search.count"];
      seen.push(...page.body.value.map((item: { id: string }) => item.id));
      token = page.body.continuationToken;
      pages += 1;
      assert.ok(pages <= 10, "paging terminates");
    } while (token);
    assert.equal(total, SEEDED_HITS);
    assert.equal(pages, Math.ceil(SEEDED_HITS / 7));
    assert.equal(seen.length, SEEDED_HITS);
    assert.equal(new Set(seen).size, SEEDED_HITS);
  });
});

Deno.test("facets count over all matches and orderby sorts", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const reply = await search(emulator, {
      keywords: "*",
      limit: 1,
      facets: [{ facet: "classification", count: 10, sort: { count: "desc" } }, { facet: "assetType" }],
      orderby: [{ name: "ASC" }],
    });
    assert.equal(reply.status, 200);
    const classification = reply.body["@search.facets"].classification;
    const email = classification.find((f: { value: string }) => f.value === "MICROSOFT.PERSONAL.EMAIL");
    assert.equal(
      email.count,
      6,
      "Customers, CustomerSales, their Email columns, customers.csv and Customer 360",
    );
    assert.ok(
      reply.body["@search.facets"].assetType.some((f: { value: string }) => f.value === "Azure SQL Database"),
    );
    assert.equal(reply.body.value[0].name, "2024", "orderby name ASC puts the folder named 2024 first");

    const badFacet = await search(emulator, { facets: [{ facet: "colour" }] });
    assert.equal(badFacet.status, 400);
  });
});

async function createAll(
  emulator: RunningEmulator,
  entities: Array<Record<string, unknown>>,
): Promise<string[]> {
  const reply = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity/bulk`, { entities });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  const byQualifiedName = new Map<string, string>();
  for (const header of reply.body.mutatedEntities.CREATE) {
    byQualifiedName.set(header.attributes.qualifiedName, header.guid);
  }
  // deno-lint-ignore no-explicit-any
  return entities.map((e: any) => byQualifiedName.get(e.attributes.qualifiedName)!);
}

const dataset = (name: string, description = "", qualifiedName = `custom://scoring/${name}`) => ({
  typeName: "DataSet",
  attributes: { qualifiedName, name, description },
});

Deno.test("scoring: the exact name first, then the word in a name, then elsewhere; prefixes count less", async () => {
  await withEmulator({}, async (emulator) => {
    const [exact, inName, inDescription, unrelated] = await createAll(emulator, [
      dataset("Revenue"),
      dataset("RevenueForecast"),
      dataset("Quarterly figures", "Revenue and margin per quarter"),
      dataset("Headcount", "Employees per team"),
    ]);
    const ranked = await search(emulator, { keywords: "revenue" });
    // deno-lint-ignore no-explicit-any
    assert.deepEqual(ranked.body.value.map((item: any) => item.id), [exact, inName, inDescription]);
    assert.ok(!ranked.body.value.some((item: { id: string }) => item.id === unrelated));

    const prefix = await search(emulator, { keywords: "rev" });
    assert.equal(prefix.body["@search.count"], 3, "a prefix finds the same entities");
    const scoreOf = (reply: JsonReply, id: string) =>
      reply.body.value.find((item: { id: string }) => item.id === id)["@search.score"];
    assert.ok(scoreOf(prefix, inName) < scoreOf(ranked, inName), "a prefix match scores lower");
    assert.deepEqual(prefix.body.value[0]["@search.highlights"].name, ["<em>Revenue</em>"]);
    assert.deepEqual(
      (await search(emulator, { keywords: "forecast" })).body.value[0]["@search.highlights"].name,
      ["Revenue<em>Forecast</em>"],
      "a camelCase part is highlighted on its own",
    );

    const star = await search(emulator, { keywords: "rev*" });
    assert.equal(star.body["@search.count"], 3, "a trailing * is a prefix search too");
    const phrase = await search(emulator, { keywords: "quarterly.figures" });
    assert.equal(phrase.body["@search.count"], 0, "a term with separators must appear verbatim");
    assert.equal((await search(emulator, { keywords: "margin quarter" })).body["@search.count"], 1);
  });
});

Deno.test("facets count every match by value, honouring count and sort", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const all = await search(emulator, {
      keywords: "*",
      limit: 1,
      facets: [{ facet: "entityType", count: 100 }, { facet: "collectionId" }],
    });
    const types = all.body["@search.facets"].entityType as Array<{ count: number; value: string }>;
    assert.equal(types.reduce((sum, f) => sum + f.count, 0), SEEDED_HITS, "one type per entity");
    assert.deepEqual(types[0], { count: 15, value: "azure_sql_column" }, "most common first");
    const columns = await search(emulator, { filter: { entityType: "azure_sql_column" }, limit: 1 });
    assert.equal(columns.body["@search.count"], 15);
    assert.ok(all.body["@search.facets"].collectionId.some((f: { value: string }) => f.value === "finance"));

    const top2 = await search(emulator, {
      keywords: "*",
      facets: [{ facet: "entityType", count: 2, sort: { value: "asc" } }],
    });
    // By value, letter case aside: the seed's Data Factory activities sort before AtlasGlossary.
    assert.deepEqual(top2.body["@search.facets"].entityType.map((f: { value: string }) => f.value), [
      "adf_copy_activity",
      "adf_executeDataFlow_activity",
    ]);
    const narrowed = await search(emulator, { keywords: "customers", facets: [{ facet: "entityType" }] });
    const narrowedTotal = narrowed.body["@search.facets"].entityType
      .reduce((sum: number, f: { count: number }) => sum + f.count, 0);
    assert.equal(narrowedTotal, narrowed.body["@search.count"], "facets count the matches, not the catalog");
  });
});

Deno.test("paging a keyword search in a custom order returns each match exactly once", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const query = { keywords: "sales", orderby: [{ updateTime: "DESC" }, { name: "ASC" }], limit: 3 };
    const whole = await search(emulator, { ...query, limit: 1000 });
    const expected = whole.body.value.map((item: { id: string }) => item.id);
    assert.ok(expected.length > 6, `enough matches to page: ${expected.length}`);
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await search(emulator, { ...query, continuationToken: token });
      assert.equal(page.body["@search.count"], expected.length);
      seen.push(...page.body.value.map((item: { id: string }) => item.id));
      token = page.body.continuationToken;
    } while (token);
    assert.deepEqual(seen, expected, "pages concatenate to the single-page answer, in order");
  });
});

Deno.test("a search without keywords narrowed by type matches what the whole filter says", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const count = async (filter: unknown) =>
      (await search(emulator, { filter, limit: 1 })).body["@search.count"];
    assert.equal(await count({ entityType: "AZURE_SQL_TABLE" }), 5, "types match in any case");
    assert.equal(await count({ or: [{ entityType: "azure_sql_table" }, { entityType: "azure_sql_db" }] }), 7);
    assert.equal(
      await count({ or: [{ entityType: "azure_sql_table" }, { entityType: "Azure_Sql_Table" }] }),
      5,
    );
    assert.equal(await count({ and: [{ entityType: "azure_sql_table" }, { label: "PII" }] }), 2);
    assert.equal(await count({ or: [{ entityType: "azure_sql_table" }, { label: "Gold" }] }), 7);
    assert.equal(await count({ not: { entityType: "azure_sql_column" } }), SEEDED_HITS - 15);
  });
});
