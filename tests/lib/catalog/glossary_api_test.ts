/**
 * The glossary and category calls of `client.glossary` over real HTTP against the emulator, with the typed
 * errors of refusals.
 */
import assert from "node:assert/strict";
import { BadRequestError, ConflictError, NotFoundError } from "../../../lib/core/errors.ts";
import { withClient } from "../../support/glossary_client.ts";

Deno.test("glossary client: glossaries — create, list, get, detailed, update, partial update, delete", async () => {
  await withClient(async (client) => {
    const api = client.glossary;
    const finance = await api.create({ name: "Finance", usage: "Reporting" });
    await api.create({ name: "Banking" });
    assert.equal(finance.qualifiedName, "Finance");
    // Beside the glossary "Glossary" every new account has and the seed's "Retail Glossary".
    assert.deepEqual((await api.list({ limit: 1, sort: "DESC" })).map((g) => g.name), ["Retail Glossary"]);
    assert.deepEqual((await api.list({ offset: 1 })).map((g) => g.name), [
      "Finance",
      "Glossary",
      "Retail Glossary",
    ]);
    assert.equal((await api.get(finance.guid!)).usage, "Reporting");
    assert.deepEqual((await api.getDetailed(finance.guid!)).termInfo, {});
    const updated = await api.update(finance.guid!, { name: "Finance", language: "en" });
    assert.equal(updated.language, "en");
    assert.equal(updated.usage, undefined);
    assert.equal((await api.partialUpdate(finance.guid!, { usage: "Audit" })).usage, "Audit");
    await assert.rejects(api.create({ name: "Banking" }), ConflictError);
    await api.delete(finance.guid!);
    await assert.rejects(api.get(finance.guid!), NotFoundError);
  });
});

Deno.test("glossary client: categories — one and many, read, related, terms, headers, update, delete", async () => {
  await withClient(async (client) => {
    const api = client.glossary;
    // The glossary every new account has.
    const glossaryGuid = (await api.list()).find((g) => g.name === "Glossary")!.guid!;
    const term = await api.createTerm({ name: "Revenue", anchor: { glossaryGuid } });
    const top = await api.createCategory({ name: "Finance", anchor: { glossaryGuid } });
    const [child, other] = await api.createCategories([
      { name: "KPIs", anchor: { glossaryGuid }, parentCategory: { categoryGuid: top.guid } },
      { name: "Tax", anchor: { glossaryGuid }, terms: [{ termGuid: term.guid }] },
    ]);
    assert.equal(child.qualifiedName, "KPIs.Finance@Glossary");
    assert.equal((await api.getCategory(top.guid!)).childrenCategories?.[0].categoryGuid, child.guid);
    assert.equal((await api.getCategoryRelated(child.guid!)).parent[0].categoryGuid, top.guid);
    assert.deepEqual((await api.getCategoryTerms(other.guid!)).map((t) => t.termGuid), [term.guid]);
    assert.deepEqual((await api.listCategories(glossaryGuid, { sort: "DESC" })).map((c) => c.name), [
      "Tax",
      "KPIs",
      "Finance",
    ]);
    assert.equal((await api.listCategoryHeaders(glossaryGuid, { limit: 1 }))[0].displayText, "Finance");
    const renamed = await api.updateCategory(other.guid!, {
      name: "Taxes",
      terms: [{ termGuid: term.guid }],
    });
    assert.equal(renamed.name, "Taxes");
    assert.equal(renamed.terms?.length, 1);
    assert.equal(
      (await api.partialUpdateCategory(other.guid!, { shortDescription: "s" })).shortDescription,
      "s",
    );
    await api.deleteCategory(other.guid!);
    await assert.rejects(api.getCategory(other.guid!), NotFoundError);
    await assert.rejects(api.createCategory({ name: "No anchor" }), BadRequestError);
  });
});
