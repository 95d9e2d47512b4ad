/**
 * Glossaries and terms made through the glossary API are found by `POST /search/query`, over real HTTP:
 * in the contract's glossary hit shape (Discovery_Query_GlossaryTerm), filtered by objectType, glossaryType,
 * entityType, termStatus and termTemplate, counted in facets, and kept in step with term and glossary
 * updates, renames and deletes; browse never lists them.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { CATALOG, DATAMAP, ok, withEmulator } from "../emulator_test_helpers.ts";

const GLOSSARY = `${DATAMAP}/atlas/v2/glossary`;
const QUERY = `${DATAMAP}/search/query?api-version=2023-09-01`;

/** The filter of the contract's Discovery_Query_GlossaryTerm example. */
const GLOSSARY_FILTER = {
  and: [
    { objectType: "Glossary terms" },
    { or: [{ glossaryType: "AtlasGlossary" }, { glossaryType: "AtlasGlossaryTerm" }] },
  ],
};

/** The seed's glossary and its terms (fixtures/emulator/seed.json). */
const SEEDED_GLOSSARY_HITS = [
  "Retail Glossary",
  "Customer",
  "Email Address",
  "Personally Identifiable Information",
  "Order",
  "Order Total",
  "Customer Lifetime Value",
  "Invoice",
  "Revenue",
];

async function search(emulator: RunningEmulator, body: Record<string, unknown>) {
  return (await ok(emulator, "POST", QUERY, { limit: 100, ...body })).body;
}

async function names(emulator: RunningEmulator, body: Record<string, unknown>): Promise<string[]> {
  const result = await search(emulator, body);
  return result.value.map((item: { name: string }) => item.name).sort();
}

async function finance(emulator: RunningEmulator) {
  const glossary = await ok(emulator, "POST", GLOSSARY, {
    name: "Finance",
    longDescription: "Words of the finance team",
  });
  const anchor = { glossaryGuid: glossary.body.guid };
  const revenue = await ok(emulator, "POST", `${GLOSSARY}/term`, {
    name: "Revenue",
    anchor,
    status: "Approved",
    longDescription: "Money earned from sales",
    attributes: { FinanceTemplate: { owner: "Dana" } },
  });
  const churn = await ok(emulator, "POST", `${GLOSSARY}/term`, { name: "Churn", anchor });
  return { glossary: glossary.body.guid, revenue: revenue.body.guid, churn: churn.body.guid };
}

Deno.test("terms and glossaries are search hits in the contract's glossary shape", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const { glossary, revenue } = await finance(emulator);

    const result = await search(emulator, {
      keywords: "Revenue",
      filter: GLOSSARY_FILTER,
      facets: [{ facet: "termStatus" }, { facet: "termTemplate" }],
    });
    // The test's term and the seed's Revenue of its Retail Glossary.
    assert.equal(result["@search.count"], 2);
    const hit = result.value.find((item: { id: string }) => item.id === revenue);
    assert.equal(typeof hit["@search.score"], "number");
    assert.deepEqual(hit["@search.highlights"].name, ["<em>Revenue</em>"]);
    const { "@search.score": _score, "@search.highlights": _highlights, createTime, updateTime, ...fields } =
      hit;
    assert.deepEqual(fields, {
      objectType: "Glossary terms",
      glossaryType: "AtlasGlossaryTerm",
      id: revenue,
      name: "Revenue",
      qualifiedName: "Revenue@Finance",
      entityType: "AtlasGlossaryTerm",
      glossary: "Finance",
      longDescription: "Money earned from sales",
      termStatus: "Approved",
      termTemplate: ["FinanceTemplate"],
    });
    assert.equal(typeof createTime, "number");
    assert.ok(updateTime >= createTime);
    assert.deepEqual(result["@search.facets"], {
      termStatus: [{ count: 2, value: "Approved" }],
      termTemplate: [{ count: 1, value: "FinanceTemplate" }],
    });

    const all = await search(emulator, { keywords: "*", filter: GLOSSARY_FILTER });
    // Beside the test's glossary and terms, the glossary every new account has and the seed's.
    assert.deepEqual(
      all.value.map((item: { name: string }) => item.name).sort(),
      [
        "Churn",
        "Finance",
        "Glossary",
        "Revenue",
        ...SEEDED_GLOSSARY_HITS,
      ].sort(),
    );
    const glossaryHit = all.value.find((item: { id: string }) => item.id === glossary);
    assert.equal(glossaryHit.glossaryType, "AtlasGlossary");
    assert.equal(glossaryHit.qualifiedName, "Finance");
    assert.equal(glossaryHit.longDescription, "Words of the finance team");
    assert.equal(glossaryHit.glossary, undefined);

    assert.deepEqual(
      await names(emulator, { filter: { entityType: "AtlasGlossaryTerm" } }),
      ["Churn", "Revenue", ...SEEDED_GLOSSARY_HITS.filter((name) => name !== "Retail Glossary")].sort(),
    );
    assert.deepEqual(await names(emulator, { filter: { termStatus: "Draft" } }), [
      "Churn",
      "Customer Lifetime Value",
    ]);
    assert.deepEqual(await names(emulator, { filter: { termTemplate: "FinanceTemplate" } }), ["Revenue"]);
    assert.deepEqual(await names(emulator, { keywords: "sales earned", filter: GLOSSARY_FILTER }), [
      "Revenue",
    ]);
    const everything = await search(emulator, { keywords: "revenue" });
    const assets = await search(emulator, {
      keywords: "revenue",
      filter: { not: { objectType: "Glossary terms" } },
    });
    assert.ok(assets["@search.count"] > 0, "the seed has revenue assets");
    assert.equal(
      everything["@search.count"],
      assets["@search.count"] + 2,
      "assets and the terms (the test's and the seed's), found together",
    );
    assert.ok(assets.value.every((item: { id: string }) => item.id !== revenue));
    const tables = await search(emulator, { filter: { objectType: "Tables" } });
    assert.ok(tables["@search.count"] > 0);
    assert.ok(tables.value.every((item: { glossaryType?: string }) => item.glossaryType === undefined));

    const browse = await ok(emulator, "POST", `${CATALOG}/browse?api-version=2023-02-01-preview`, {
      entityType: "AtlasGlossaryTerm",
    });
    assert.equal(browse.body["@search.count"], 0, "browse lists assets only");
    const roots = await ok(emulator, "POST", `${CATALOG}/browse?api-version=2023-02-01-preview`, {});
    assert.ok(roots.body.value.every((item: { id: string }) => item.id !== glossary));
  });
});

Deno.test("term and glossary updates, renames and deletes reach search at once", async () => {
  await withEmulator({}, async (emulator) => {
    const { glossary, revenue, churn } = await finance(emulator);

    await ok(emulator, "PUT", `${GLOSSARY}/term/${revenue}`, { name: "Turnover", status: "Alert" });
    assert.deepEqual(await names(emulator, { keywords: "revenue" }), []);
    const [turnover] = (await search(emulator, { keywords: "turnover" })).value;
    assert.equal(turnover.id, revenue);
    assert.equal(turnover.qualifiedName, "Turnover@Finance");
    assert.equal(turnover.termStatus, "Alert");
    assert.equal(turnover.longDescription, undefined, "a full update replaces the definition");

    await ok(emulator, "PUT", `${GLOSSARY}/term/${churn}/partial`, { longDescription: "Customers lost" });
    assert.deepEqual(await names(emulator, { keywords: "customers lost" }), ["Churn"]);

    await ok(emulator, "PUT", `${GLOSSARY}/${glossary}`, { name: "Money" });
    const renamed = await search(emulator, { filter: { entityType: "AtlasGlossaryTerm" } });
    assert.deepEqual(
      renamed.value.map((
        item: { qualifiedName: string; glossary: string },
      ) => [item.qualifiedName, item.glossary])
        .sort(),
      [["Churn@Money", "Money"], ["Turnover@Money", "Money"]],
      "a renamed glossary renames its terms' qualified names",
    );

    await ok(emulator, "DELETE", `${GLOSSARY}/term/${churn}`);
    // "Glossary" is the glossary every new account has.
    assert.deepEqual(await names(emulator, { filter: GLOSSARY_FILTER }), ["Glossary", "Money", "Turnover"]);
    await ok(emulator, "DELETE", `${GLOSSARY}/${glossary}`);
    assert.deepEqual(await names(emulator, { filter: GLOSSARY_FILTER }), ["Glossary"]);
  });
});

Deno.test("glossaries and terms made before the first search are in the index it builds", async () => {
  await withEmulator({}, async (emulator) => {
    await finance(emulator);
    assert.deepEqual(
      await names(emulator, {}),
      ["Churn", "Finance", "Glossary", "Revenue"],
      "with the default one",
    );
    const suggest = await ok(emulator, "POST", `${DATAMAP}/search/suggest?api-version=2023-09-01`, {
      keywords: "chu",
    });
    assert.deepEqual(suggest.body.value.map((item: { name: string }) => item.name), ["Churn"]);
  });
});
