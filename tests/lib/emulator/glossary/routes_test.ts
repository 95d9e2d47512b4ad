/**
 * The glossary and category routes of the emulator over real HTTP: shapes of the 2023-09-01 contract,
 * status codes (200, 204, 400, 404, 409), paging and sorting, full and partial updates, category
 * hierarchy, and persistence across a restart.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { call, CATALOG, DATAMAP, withEmulator } from "../emulator_test_helpers.ts";

const GLOSSARY = `${DATAMAP}/atlas/v2/glossary`;
const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

async function createGlossary(emulator: RunningEmulator, name: string, extra: Record<string, unknown> = {}) {
  const reply = await call(emulator, "POST", GLOSSARY, { name, ...extra });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

async function createCategory(
  emulator: RunningEmulator,
  glossaryGuid: string,
  body: Record<string, unknown>,
) {
  const reply = await call(emulator, "POST", `${GLOSSARY}/category`, { anchor: { glossaryGuid }, ...body });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

Deno.test("glossary: create, get, list with paging and sort, detailed, under both prefixes", async () => {
  await withEmulator({}, async (emulator) => {
    const created = await createGlossary(emulator, "Finance", {
      shortDescription: "Money words",
      longDescription: "Terms of the finance team",
      language: "en",
      usage: "Reporting",
    });
    assert.match(created.guid, /^[0-9a-f-]{36}$/);
    assert.equal(created.qualifiedName, "Finance");
    assert.equal(created.lastModifiedTS, "1");
    assert.equal(created.createdBy, "emulator");
    assert.equal(typeof created.createTime, "number");
    assert.equal(created.terms, undefined, "no terms yet, as in Glossary_Create");
    await createGlossary(emulator, "Banking");
    await createGlossary(emulator, "Compliance");

    const read = await call(emulator, "GET", `${CATALOG}/atlas/v2/glossary/${created.guid}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.usage, "Reporting");

    const all = await call(emulator, "GET", GLOSSARY);
    // With the glossary every new account has.
    const names = ["Banking", "Compliance", "Finance", "Glossary"];
    assert.deepEqual(all.body.map((g: { name: string }) => g.name), names);
    const page = await call(emulator, "GET", `${GLOSSARY}?limit=1&offset=1&sort=DESC`);
    assert.deepEqual(page.body.map((g: { name: string }) => g.name), ["Finance"]);
    assert.equal((await call(emulator, "GET", `${GLOSSARY}?sort=SIDEWAYS`)).status, 400);
    assert.equal((await call(emulator, "GET", `${GLOSSARY}?limit=x`)).status, 400);

    const category = await createCategory(emulator, created.guid, { name: "KPIs" });
    const term = await call(emulator, "POST", `${GLOSSARY}/term`, {
      name: "Revenue",
      anchor: { glossaryGuid: created.guid },
    });
    const withHeaders = await call(emulator, "GET", `${GLOSSARY}/${created.guid}`);
    assert.deepEqual(withHeaders.body.terms, [{
      termGuid: term.body.guid,
      relationGuid: term.body.anchor.relationGuid,
      displayText: "Revenue",
    }]);
    assert.equal(withHeaders.body.categories[0].categoryGuid, category.guid);
    const ignoring = await call(emulator, "GET", `${GLOSSARY}?ignoreTermsAndCategories=true`);
    assert.ok(ignoring.body.every((g: Record<string, unknown>) => g.terms === undefined));

    const detailed = await call(emulator, "GET", `${GLOSSARY}/${created.guid}/detailed`);
    assert.equal(detailed.status, 200);
    assert.equal(detailed.body.termInfo[term.body.guid].qualifiedName, "Revenue@Finance");
    assert.equal(detailed.body.categoryInfo[category.guid].name, "KPIs");
  });
});

Deno.test("glossary: 400 without a name, 409 for a name in use, 404 for unknown guids, 405", async () => {
  await withEmulator({}, async (emulator) => {
    const noName = await call(emulator, "POST", GLOSSARY, { shortDescription: "x" });
    assert.equal(noName.status, 400);
    assert.equal(noName.body.errorCode, "ATLAS-400-00-079");
    assert.ok(noName.body.requestId, "Atlas error shape");
    assert.equal(
      (await call(emulator, "POST", GLOSSARY, { name: "a@b" })).body.errorCode,
      "ATLAS-400-00-083",
    );
    assert.equal((await call(emulator, "POST", GLOSSARY, { name: 42 })).status, 400);
    assert.equal((await call(emulator, "POST", GLOSSARY, [], { rawBody: "[" })).status, 400);

    await createGlossary(emulator, "Finance");
    const duplicate = await call(emulator, "POST", GLOSSARY, { name: "Finance" });
    assert.equal(duplicate.status, 409);
    assert.equal(duplicate.body.errorCode, "ATLAS-409-00-007");
    assert.match(duplicate.body.errorMessage, /Glossary with qualifiedName Finance already exists/);

    for (
      const [method, path] of [
        ["GET", `${GLOSSARY}/${UNKNOWN}`],
        ["GET", `${GLOSSARY}/${UNKNOWN}/detailed`],
        ["GET", `${GLOSSARY}/${UNKNOWN}/terms`],
        ["GET", `${GLOSSARY}/${UNKNOWN}/categories`],
        ["DELETE", `${GLOSSARY}/${UNKNOWN}`],
        ["GET", `${GLOSSARY}/category/${UNKNOWN}`],
        ["GET", `${GLOSSARY}/term/${UNKNOWN}`],
      ]
    ) {
      const reply = await call(emulator, method, path);
      assert.equal(reply.status, 404, `${method} ${path}`);
      assert.equal(reply.body.errorCode, "ATLAS-404-00-005");
    }
    assert.equal((await call(emulator, "PATCH", GLOSSARY)).status, 405);
  });
});

Deno.test("glossary: full update, partial update, rename conflict and delete", async () => {
  await withEmulator({}, async (emulator) => {
    const glossary = await createGlossary(emulator, "Finance", { usage: "Reporting", language: "en" });
    await createGlossary(emulator, "Banking");

    const put = await call(emulator, "PUT", `${GLOSSARY}/${glossary.guid}`, {
      name: "Finance",
      shortDescription: "Updated",
    });
    assert.equal(put.status, 200);
    assert.equal(put.body.shortDescription, "Updated");
    assert.equal(put.body.usage, undefined, "a full update clears fields left out");
    assert.equal(put.body.lastModifiedTS, "2");
    assert.equal(put.body.createTime, glossary.createTime);

    const partial = await call(emulator, "PUT", `${GLOSSARY}/${glossary.guid}/partial`, {
      longDescription: "Long text",
    });
    assert.equal(partial.status, 200);
    assert.equal(partial.body.longDescription, "Long text");
    assert.equal(partial.body.shortDescription, "Updated", "a partial update keeps the rest");
    assert.equal(partial.body.lastModifiedTS, "3");
    const badAttribute = await call(emulator, "PUT", `${GLOSSARY}/${glossary.guid}/partial`, { owner: "x" });
    assert.equal(badAttribute.status, 400);
    assert.equal(badAttribute.body.errorCode, "ATLAS-400-00-074");
    const badValue = await call(emulator, "PUT", `${GLOSSARY}/${glossary.guid}/partial`, { name: 1 });
    assert.equal(badValue.body.errorCode, "ATLAS-400-00-075");
    assert.equal((await call(emulator, "PUT", `${GLOSSARY}/${glossary.guid}/partial`, {})).status, 400);

    const clash = await call(emulator, "PUT", `${GLOSSARY}/${glossary.guid}`, { name: "Banking" });
    assert.equal(clash.status, 409);

    const deleted = await call(emulator, "DELETE", `${GLOSSARY}/${glossary.guid}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.body, undefined);
    assert.equal((await call(emulator, "GET", `${GLOSSARY}/${glossary.guid}`)).status, 404);
    assert.equal((await createGlossary(emulator, "Finance")).name, "Finance", "the name is free again");
  });
});

Deno.test("categories: create one and many, hierarchy, related, terms, headers, update, delete", async () => {
  await withEmulator({}, async (emulator) => {
    // The glossary every new account has, named "Glossary".
    const glossary = (await call(emulator, "GET", GLOSSARY)).body.find((g: { name: string }) =>
      g.name === "Glossary"
    );
    const top = await createCategory(emulator, glossary.guid, { name: "Finance", longDescription: "Money" });
    assert.equal(top.qualifiedName, "Finance@Glossary");
    assert.deepEqual(Object.keys(top.anchor).sort(), ["displayText", "glossaryGuid", "relationGuid"]);
    const term = (await call(emulator, "POST", `${GLOSSARY}/term`, {
      name: "Revenue",
      anchor: { glossaryGuid: glossary.guid },
    })).body;

    const bulk = await call(emulator, "POST", `${GLOSSARY}/categories`, [
      {
        name: "Reporting",
        anchor: { glossaryGuid: glossary.guid },
        parentCategory: { categoryGuid: top.guid },
      },
      { name: "Tax", anchor: { glossaryGuid: glossary.guid }, terms: [{ termGuid: term.guid }] },
    ]);
    assert.equal(bulk.status, 200);
    const [reporting, tax] = bulk.body;
    assert.equal(reporting.qualifiedName, "Reporting.Finance@Glossary");
    assert.equal(reporting.parentCategory.categoryGuid, top.guid);
    assert.equal(tax.terms[0].termGuid, term.guid);

    const parent = await call(emulator, "GET", `${GLOSSARY}/category/${top.guid}`);
    assert.equal(parent.body.childrenCategories[0].categoryGuid, reporting.guid);
    const related = await call(emulator, "GET", `${GLOSSARY}/category/${reporting.guid}/related`);
    assert.equal(related.body.parent[0].categoryGuid, top.guid);
    const children = await call(emulator, "GET", `${GLOSSARY}/category/${top.guid}/related`);
    assert.equal(children.body.children[0].displayText, "Reporting");
    const terms = await call(emulator, "GET", `${GLOSSARY}/category/${tax.guid}/terms`);
    assert.deepEqual(terms.body.map((t: { displayText: string }) => t.displayText), ["Revenue"]);
    const termView = await call(emulator, "GET", `${GLOSSARY}/term/${term.guid}`);
    assert.equal(termView.body.categories[0].categoryGuid, tax.guid, "categorization shows on the term");

    const headers = await call(emulator, "GET", `${GLOSSARY}/${glossary.guid}/categories/headers?limit=2`);
    assert.deepEqual(headers.body.map((h: { displayText: string }) => h.displayText), [
      "Finance",
      "Reporting",
    ]);
    assert.equal(headers.body[1].parentCategoryGuid, top.guid);
    const full = await call(emulator, "GET", `${GLOSSARY}/${glossary.guid}/categories?sort=DESC`);
    assert.deepEqual(full.body.map((c: { name: string }) => c.name), ["Tax", "Reporting", "Finance"]);

    const sibling = await call(emulator, "POST", `${GLOSSARY}/category`, {
      name: "Reporting",
      anchor: { glossaryGuid: glossary.guid },
      parentCategory: { categoryGuid: top.guid },
    });
    assert.equal(sibling.status, 409);
    assert.equal(sibling.body.errorCode, "ATLAS-409-00-00A");
    const elsewhere = await createCategory(emulator, glossary.guid, { name: "Reporting" });
    assert.equal(elsewhere.qualifiedName, "Reporting@Glossary", "the same name on another level is fine");
    assert.equal(
      (await call(emulator, "POST", `${GLOSSARY}/category`, { name: "X" })).body.errorCode,
      "ATLAS-400-00-072",
    );
    assert.equal(
      (await call(emulator, "POST", `${GLOSSARY}/category`, { anchor: { glossaryGuid: glossary.guid } })).body
        .errorCode,
      "ATLAS-400-00-082",
    );
    const cycle = await call(emulator, "PUT", `${GLOSSARY}/category/${top.guid}`, {
      name: "Finance",
      parentCategory: { categoryGuid: reporting.guid },
    });
    assert.equal(cycle.status, 400, "a category cannot move under its own child");

    const updated = await call(emulator, "PUT", `${GLOSSARY}/category/${tax.guid}`, {
      name: "Taxes",
      parentCategory: { categoryGuid: top.guid },
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.qualifiedName, "Taxes.Finance@Glossary");
    assert.equal(updated.body.terms, undefined, "a full update without terms removes them");
    const partial = await call(emulator, "PUT", `${GLOSSARY}/category/${tax.guid}/partial`, {
      shortDescription: "Short",
    });
    assert.equal(partial.body.shortDescription, "Short");
    assert.equal(partial.body.parentCategory.categoryGuid, top.guid);

    const clashing = await call(emulator, "DELETE", `${GLOSSARY}/category/${top.guid}`);
    assert.equal(clashing.status, 409, "its child Reporting cannot move up beside the other Reporting");
    assert.equal(
      (await call(emulator, "GET", `${GLOSSARY}/category/${top.guid}`)).status,
      200,
      "nothing deleted",
    );
    assert.equal((await call(emulator, "DELETE", `${GLOSSARY}/category/${elsewhere.guid}`)).status, 204);
    assert.equal((await call(emulator, "DELETE", `${GLOSSARY}/category/${top.guid}`)).status, 204);
    const orphan = await call(emulator, "GET", `${GLOSSARY}/category/${reporting.guid}`);
    assert.equal(orphan.body.parentCategory, undefined, "children of a deleted top category move to the top");
    assert.equal(orphan.body.qualifiedName, "Reporting@Glossary");
  });
});

Deno.test("glossary objects persist across a restart with a data file", async () => {
  const dataFile = await Deno.makeTempFile({ prefix: "govcat-glossary-", suffix: ".db" });
  try {
    let termGuid = "";
    await withEmulator({ dataFile }, async (emulator) => {
      const glossary = await createGlossary(emulator, "Finance");
      const category = await createCategory(emulator, glossary.guid, { name: "KPIs" });
      const term = await call(emulator, "POST", `${GLOSSARY}/term`, {
        name: "Revenue",
        anchor: { glossaryGuid: glossary.guid },
        categories: [{ categoryGuid: category.guid }],
      });
      termGuid = term.body.guid;
    });
    await withEmulator({ dataFile }, async (emulator) => {
      const term = await call(emulator, "GET", `${GLOSSARY}/term/${termGuid}`);
      assert.equal(term.status, 200);
      assert.equal(term.body.qualifiedName, "Revenue@Finance");
      assert.equal(term.body.categories[0].displayText, "KPIs");
    });
  } finally {
    await Deno.remove(dataFile).catch(() => {});
  }
});

/**
 * The service deletes a glossary through the entity route and answers its header (Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/node/purview_catalog_glossary_test/recording_should_delete_a_glossary.json);
 * its terms and categories go with it, as with the glossary route.
 */
Deno.test("glossary: DELETE /entity/guid/{glossaryGuid} deletes the glossary as the service does", async () => {
  await withEmulator({}, async (emulator) => {
    const glossary = await createGlossary(emulator, "jsLROTesting-2");
    await createCategory(emulator, glossary.guid, { name: "Money" });
    const term = await call(emulator, "POST", `${GLOSSARY}/term`, {
      name: "Revenue",
      anchor: { glossaryGuid: glossary.guid },
    });
    assert.equal(term.status, 200);
    const path = `${CATALOG}/atlas/v2/entity/guid/${glossary.guid}?api-version=2022-03-01-preview`;
    const deleted = await call(emulator, "DELETE", path);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual(Object.keys(deleted.body), ["mutatedEntities"]);
    const [header, ...more] = deleted.body.mutatedEntities.DELETE;
    assert.deepEqual(more, []);
    assert.deepEqual(header, {
      typeName: "AtlasGlossary",
      attributes: { qualifiedName: "jsLROTesting-2", name: "jsLROTesting-2" },
      lastModifiedTS: glossary.lastModifiedTS,
      guid: glossary.guid,
      status: "ACTIVE",
      displayText: "jsLROTesting-2",
      classificationNames: [],
      meaningNames: [],
      meanings: [],
      isIncomplete: false,
      labels: [],
      isIndexed: true,
    });
    assert.equal((await call(emulator, "GET", `${GLOSSARY}/${glossary.guid}`)).status, 404);
    assert.equal((await call(emulator, "GET", `${GLOSSARY}/term/${term.body.guid}`)).status, 404);
    assert.equal((await call(emulator, "DELETE", path)).status, 404, "deleted once");
    assert.equal((await call(emulator, "DELETE", `${DATAMAP}/atlas/v2/entity/guid/${UNKNOWN}`)).status, 404);
  });
});
