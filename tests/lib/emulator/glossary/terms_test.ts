/**
 * The term routes of the emulator over real HTTP: create (one, bulk), read, related terms on both ends,
 * term hierarchy, lists and headers with paging, full and partial updates, deletes, and the errors the
 * service answers (400, 404, 409).
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { call, CATALOG, DATAMAP, withEmulator } from "../emulator_test_helpers.ts";

const GLOSSARY = `${DATAMAP}/atlas/v2/glossary`;

async function glossary(emulator: RunningEmulator, name: string): Promise<string> {
  const reply = await call(emulator, "POST", GLOSSARY, { name });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.guid;
}

async function term(
  emulator: RunningEmulator,
  glossaryGuid: string,
  body: Record<string, unknown>,
  query = "",
) {
  const reply = await call(emulator, "POST", `${GLOSSARY}/term${query}`, {
    anchor: { glossaryGuid },
    ...body,
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

Deno.test("terms: create with the contract's fields, read, audit fields and status default", async () => {
  await withEmulator({}, async (emulator) => {
    const finance = await glossary(emulator, "Finance");
    const created = await term(emulator, finance, {
      name: "Revenue",
      shortDescription: "Money in",
      longDescription: "Income from sales",
      abbreviation: "REV",
      status: "Approved",
      examples: ["Q1 revenue"],
      resources: [{ displayName: "Wiki", url: "https://wiki/revenue" }],
      contacts: { Expert: [{ id: "30435ff9-9b96-44af-a5a9-e05c8b1ae2df", info: "CFO" }] },
    });
    assert.equal(created.qualifiedName, "Revenue@Finance");
    assert.equal(created.anchor.glossaryGuid, finance);
    assert.match(created.anchor.relationGuid, /^[0-9a-f-]{36}$/);
    assert.equal(created.lastModifiedTS, "1");
    assert.equal(created.createdBy, "emulator");
    assert.equal(created.updatedBy, "emulator");
    assert.equal(created.createTime, created.updateTime);
    assert.deepEqual(created.examples, ["Q1 revenue"]);
    assert.equal(created.contacts.Expert[0].info, "CFO");

    const read = await call(emulator, "GET", `${CATALOG}/atlas/v2/glossary/term/${created.guid}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.abbreviation, "REV");
    const draft = await term(emulator, finance, { name: "Cost" });
    assert.equal(draft.status, "Draft", "a term without a status is a draft");
  });
});

Deno.test("terms: related terms show on both ends, with inverse attributes, and can be listed", async () => {
  await withEmulator({}, async (emulator) => {
    const finance = await glossary(emulator, "Finance");
    const revenue = await term(emulator, finance, { name: "Revenue" });
    const sales = await term(emulator, finance, { name: "Sales" });
    const income = await term(emulator, finance, {
      name: "Income",
      synonyms: [{ termGuid: revenue.guid, description: "same thing" }],
      isA: [{ termGuid: sales.guid }],
      seeAlso: [{ termGuid: sales.guid }],
    });
    assert.equal(income.synonyms[0].termGuid, revenue.guid);
    assert.equal(income.synonyms[0].displayText, "Revenue");
    assert.equal(income.synonyms[0].description, "same thing");
    const revenueView = await call(emulator, "GET", `${GLOSSARY}/term/${revenue.guid}`);
    assert.equal(revenueView.body.synonyms[0].termGuid, income.guid, "synonyms are symmetric");
    assert.equal(revenueView.body.synonyms[0].relationGuid, income.synonyms[0].relationGuid);
    const salesView = await call(emulator, "GET", `${GLOSSARY}/term/${sales.guid}`);
    assert.equal(
      salesView.body.classifies[0].termGuid,
      income.guid,
      "isA on one end is classifies on the other",
    );
    assert.equal(salesView.body.seeAlso[0].termGuid, income.guid);

    const related = await call(emulator, "GET", `${GLOSSARY}/terms/${income.guid}/related`);
    assert.deepEqual(Object.keys(related.body).sort(), ["isA", "seeAlso", "synonyms"]);

    const self = await call(emulator, "PUT", `${GLOSSARY}/term/${revenue.guid}`, {
      name: "Revenue",
      seeAlso: [{ termGuid: revenue.guid }],
    });
    assert.equal(self.status, 400);
    assert.equal(self.body.errorCode, "ATLAS-400-00-07E");
    const unknown = await call(emulator, "POST", `${GLOSSARY}/term`, {
      name: "X",
      anchor: { glossaryGuid: finance },
      antonyms: [{ termGuid: "00000000-0000-4000-8000-00000000dead" }],
    });
    assert.equal(unknown.status, 404);
    assert.equal(
      (await call(emulator, "GET", `${GLOSSARY}/${finance}/terms/headers`)).body.length,
      3,
      "nothing made",
    );
  });
});

Deno.test("terms: bulk create, unique names per glossary, anchor and status checks", async () => {
  await withEmulator({}, async (emulator) => {
    const finance = await glossary(emulator, "Finance");
    const sales = await glossary(emulator, "Sales");
    const bulk = await call(emulator, "POST", `${GLOSSARY}/terms`, [
      { name: "Margin", anchor: { glossaryGuid: finance }, status: "Approved" },
      { name: "Profit", anchor: { glossaryGuid: finance } },
    ]);
    assert.equal(bulk.status, 200);
    assert.deepEqual(bulk.body.map((t: { qualifiedName: string }) => t.qualifiedName), [
      "Margin@Finance",
      "Profit@Finance",
    ]);
    const duplicate = await call(emulator, "POST", `${GLOSSARY}/term`, {
      name: "Margin",
      anchor: { glossaryGuid: finance },
    });
    assert.equal(duplicate.status, 409);
    assert.equal(duplicate.body.errorCode, "ATLAS-409-00-009");
    assert.match(duplicate.body.errorMessage, /Margin@Finance already exists/);
    assert.equal((await term(emulator, sales, { name: "Margin" })).qualifiedName, "Margin@Sales");

    const partlyBad = await call(emulator, "POST", `${GLOSSARY}/terms`, [
      { name: "Fresh", anchor: { glossaryGuid: finance } },
      { name: "Profit", anchor: { glossaryGuid: finance } },
    ]);
    assert.equal(partlyBad.status, 409);
    const names = (await call(emulator, "GET", `${GLOSSARY}/${finance}/terms/headers`)).body
      .map((h: { displayText: string }) => h.displayText);
    assert.ok(!names.includes("Fresh"), "a bulk create is all or nothing");

    const noAnchor = await call(emulator, "POST", `${GLOSSARY}/term`, { name: "Lost" });
    assert.equal(noAnchor.body.errorCode, "ATLAS-400-00-072");
    const noName = await call(emulator, "POST", `${GLOSSARY}/term`, { anchor: { glossaryGuid: finance } });
    assert.equal(noName.body.errorCode, "ATLAS-400-00-07A");
    const badStatus = await call(emulator, "POST", `${GLOSSARY}/term`, {
      name: "Odd",
      anchor: { glossaryGuid: finance },
      status: "Pending",
    });
    assert.equal(badStatus.status, 400);
    assert.match(badStatus.body.errorMessage, /Draft, Approved, Alert, Expired/);
    const unknownGlossary = await call(emulator, "POST", `${GLOSSARY}/term`, {
      name: "Odd",
      anchor: { glossaryGuid: "00000000-0000-4000-8000-00000000dead" },
    });
    assert.equal(unknownGlossary.status, 404);
    assert.equal((await call(emulator, "POST", `${GLOSSARY}/terms`, {})).status, 400, "bulk needs an array");
  });
});

Deno.test("terms: lists, headers, paging, hierarchy and the list by glossary name", async () => {
  await withEmulator({}, async (emulator) => {
    const finance = await glossary(emulator, "Finance");
    const parent = await term(emulator, finance, { name: "Amount", shortDescription: "Money" });
    const child = await term(emulator, finance, {
      name: "Net amount",
      hierarchyInfo: [{ guid: parent.guid }],
    }, "?includeTermHierarchy=true");
    assert.equal(child.hierarchyInfo[0].guid, parent.guid);
    await term(emulator, finance, { name: "Balance" });

    const all = await call(emulator, "GET", `${GLOSSARY}/${finance}/terms`);
    assert.deepEqual(all.body.map((t: { name: string }) => t.name), ["Amount", "Balance", "Net amount"]);
    assert.equal(all.body[2].hierarchyInfo, undefined, "hierarchy only when asked for");
    const page = await call(
      emulator,
      "GET",
      `${GLOSSARY}/${finance}/terms?limit=1&offset=1&includeTermHierarchy=true&extInfo=true`,
    );
    assert.deepEqual(page.body.map((t: { name: string }) => t.name), ["Balance"]);
    const withHierarchy = await call(
      emulator,
      "GET",
      `${GLOSSARY}/term/${child.guid}?includeTermHierarchy=true`,
    );
    assert.equal(withHierarchy.body.hierarchyInfo[0].name, "Amount");
    const headers = await call(emulator, "GET", `${GLOSSARY}/${finance}/terms/headers?sort=DESC&limit=2`);
    assert.deepEqual(headers.body.map((h: { displayText: string }) => h.displayText), [
      "Net amount",
      "Balance",
    ]);
    assert.deepEqual(Object.keys(headers.body[0]).sort(), ["displayText", "relationGuid", "termGuid"]);

    const byName = await call(emulator, "GET", `${CATALOG}/glossary/name/Finance/terms?limit=1`);
    assert.equal(byName.status, 200);
    assert.deepEqual(
      byName.body[0].templateName,
      [],
      "compact terms, as in Glossary_ListTermsByGlossaryName",
    );
    assert.equal(byName.body[0].anchor, undefined);
    const extended = await call(emulator, "GET", `${CATALOG}/glossary/name/Finance/terms?extInfo=true`);
    assert.equal(extended.body[0].anchor.glossaryGuid, finance);
    assert.equal((await call(emulator, "GET", `${CATALOG}/glossary/name/Nope/terms`)).status, 404);
  });
});

Deno.test("terms: full update replaces relations, partial update, rename, delete", async () => {
  await withEmulator({}, async (emulator) => {
    const finance = await glossary(emulator, "Finance");
    const other = await glossary(emulator, "Other");
    const a = await term(emulator, finance, { name: "A" });
    const b = await term(emulator, finance, {
      name: "B",
      seeAlso: [{ termGuid: a.guid }],
      status: "Approved",
    });

    const put = await call(emulator, "PUT", `${GLOSSARY}/term/${b.guid}`, {
      name: "Bee",
      longDescription: "Second",
    });
    assert.equal(put.status, 200);
    assert.equal(put.body.qualifiedName, "Bee@Finance");
    assert.equal(put.body.seeAlso, undefined, "relations left out of a full update are removed");
    assert.equal(put.body.status, "Approved", "the status stays when not given");
    assert.equal(put.body.lastModifiedTS, "2");
    assert.equal((await call(emulator, "GET", `${GLOSSARY}/term/${a.guid}`)).body.seeAlso, undefined);
    const move = await call(emulator, "PUT", `${GLOSSARY}/term/${b.guid}`, {
      name: "Bee",
      anchor: { glossaryGuid: other },
    });
    assert.equal(move.status, 400, "moving a term to another glossary is refused");
    const clash = await call(emulator, "PUT", `${GLOSSARY}/term/${b.guid}`, { name: "A" });
    assert.equal(clash.status, 409);

    const partial = await call(emulator, "PUT", `${GLOSSARY}/term/${a.guid}/partial`, {
      status: "Expired",
      abbreviation: "A1",
    });
    assert.equal(partial.status, 200);
    assert.equal(partial.body.status, "Expired");
    assert.equal(partial.body.abbreviation, "A1");
    const badStatus = await call(emulator, "PUT", `${GLOSSARY}/term/${a.guid}/partial`, { status: "Gone" });
    assert.equal(badStatus.status, 400);
    const notPartial = await call(emulator, "PUT", `${GLOSSARY}/term/${a.guid}/partial`, { anchor: "x" });
    assert.equal(notPartial.body.errorCode, "ATLAS-400-00-074");

    assert.equal((await call(emulator, "DELETE", `${GLOSSARY}/term/${a.guid}`)).status, 204);
    assert.equal((await call(emulator, "GET", `${GLOSSARY}/term/${a.guid}`)).status, 404);
    assert.equal((await call(emulator, "DELETE", `${GLOSSARY}/term/${a.guid}`)).status, 404);
    assert.equal((await call(emulator, "DELETE", `${GLOSSARY}/${finance}`)).status, 204);
    assert.equal(
      (await call(emulator, "GET", `${GLOSSARY}/term/${b.guid}`)).status,
      404,
      "terms go with their glossary",
    );
  });
});
