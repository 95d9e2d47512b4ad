/**
 * Term assignments in the emulator: assigning shows on the term and on the entity (meanings, header,
 * relationship attributes), repeats change nothing, unknown and deleted entities are refused, removing
 * needs the relationship guid, and terms (and glossaries) cannot be deleted while assigned.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { call, DATAMAP, tableEntity, withEmulator } from "../emulator_test_helpers.ts";

const GLOSSARY = `${DATAMAP}/atlas/v2/glossary`;
const ENTITY = `${DATAMAP}/atlas/v2/entity`;
// Seeded assets the seed assigns no glossary term to, so the test's term is their only meaning.
const PRODUCTS = "ca7a1000-0000-4000-8000-000000000030";
const CUSTOMER_360 = "ca7a1000-0000-4000-8000-000000000061";
const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

async function revenueTerm(emulator: RunningEmulator): Promise<{ glossary: string; term: string }> {
  const glossary = (await call(emulator, "POST", GLOSSARY, { name: "Finance" })).body.guid;
  const term = await call(emulator, "POST", `${GLOSSARY}/term`, {
    name: "Revenue",
    anchor: { glossaryGuid: glossary },
  });
  assert.equal(term.status, 200);
  return { glossary, term: term.body.guid };
}

const assigned = (emulator: RunningEmulator, term: string) =>
  call(emulator, "GET", `${GLOSSARY}/terms/${term}/assignedEntities`);

Deno.test("assign: the term lists the entities and the entities show the term as a meaning", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const { term } = await revenueTerm(emulator);
    const before = (await call(emulator, "GET", `${ENTITY}/guid/${PRODUCTS}`)).body.entity;
    const reply = await call(emulator, "POST", `${GLOSSARY}/terms/${term}/assignedEntities`, [
      {
        guid: PRODUCTS,
        relationshipAttributes: { attributes: { expression: "customer revenue", confidence: 90 } },
      },
      { guid: CUSTOMER_360 },
    ]);
    assert.equal(reply.status, 204);
    assert.equal(reply.body, undefined);

    const list = await assigned(emulator, term);
    assert.deepEqual(list.body.map((e: { guid: string }) => e.guid).sort(), [PRODUCTS, CUSTOMER_360]);
    const products = list.body.find((e: { guid: string }) => e.guid === PRODUCTS);
    assert.equal(products.typeName, "azure_sql_table");
    assert.equal(products.displayText, "Products");
    assert.equal(products.entityStatus, "ACTIVE");
    assert.equal(products.relationshipType, "AtlasGlossarySemanticAssignment");
    assert.equal(products.relationshipStatus, "ACTIVE");
    assert.equal(products.relationshipAttributes.attributes.expression, "customer revenue");
    assert.equal(products.relationshipAttributes.attributes.steward, null, "unset attributes are null");
    const page = await call(emulator, "GET", `${GLOSSARY}/terms/${term}/assignedEntities?limit=1&sort=DESC`);
    assert.deepEqual(page.body.map((e: { displayText: string }) => e.displayText), ["Products"]);

    const entity = (await call(emulator, "GET", `${ENTITY}/guid/${PRODUCTS}`)).body.entity;
    assert.deepEqual(entity.meanings.map((m: { termGuid: string }) => m.termGuid), [term]);
    assert.equal(entity.meanings[0].displayText, "Revenue");
    assert.equal(entity.meanings[0].relationGuid, products.relationshipGuid);
    assert.equal(entity.meanings[0].confidence, 90);
    assert.equal(entity.relationshipAttributes.meanings[0].guid, term);
    assert.equal(entity.relationshipAttributes.meanings[0].typeName, "AtlasGlossaryTerm");
    assert.equal(Number(entity.lastModifiedTS), Number(before.lastModifiedTS) + 1, "the entity changed");
    const header = (await call(emulator, "GET", `${ENTITY}/guid/${PRODUCTS}/header`)).body;
    assert.deepEqual(header.meaningNames, ["Revenue"]);
    const termView = (await call(emulator, "GET", `${GLOSSARY}/term/${term}`)).body;
    assert.equal(termView.assignedEntities.length, 2);
    const without = (await call(
      emulator,
      "GET",
      `${GLOSSARY}/term/${term}?excludeRelationshipTypes=AtlasGlossarySemanticAssignment`,
    )).body;
    assert.equal(without.assignedEntities, undefined);

    const again = await call(emulator, "POST", `${GLOSSARY}/terms/${term}/assignedEntities`, [{
      guid: PRODUCTS,
    }]);
    assert.equal(again.status, 204, "assigning again is harmless");
    assert.equal((await assigned(emulator, term)).body.length, 2);
    const after = (await call(emulator, "GET", `${ENTITY}/guid/${PRODUCTS}`)).body.entity;
    assert.equal(after.meanings.length, 1, "and adds no second meaning");

    const renamed = await call(emulator, "PUT", `${GLOSSARY}/term/${term}/partial`, { name: "Turnover" });
    assert.equal(renamed.status, 200);
    const renamedHeader = (await call(emulator, "GET", `${ENTITY}/guid/${PRODUCTS}/header`)).body;
    assert.deepEqual(renamedHeader.meaningNames, ["Turnover"], "entities show the term's new name");
  });
});

Deno.test("assign: unknown and deleted entities refuse the whole request; bad bodies are 400", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const { term } = await revenueTerm(emulator);
    const path = `${GLOSSARY}/terms/${term}/assignedEntities`;
    const unknown = await call(emulator, "POST", path, [{ guid: PRODUCTS }, { guid: UNKNOWN }]);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errorCode, "ATLAS-404-00-005");
    assert.deepEqual((await assigned(emulator, term)).body, [], "all or nothing");

    const created = await call(emulator, "POST", ENTITY, { entity: tableEntity("Gone") });
    const gone = created.body.mutatedEntities.CREATE[0].guid;
    await call(emulator, "DELETE", `${ENTITY}/guid/${gone}`);
    const deleted = await call(emulator, "POST", path, [{ guid: gone }]);
    assert.equal(deleted.status, 404);
    assert.equal(deleted.body.errorCode, "ATLAS-404-00-012");

    assert.equal((await call(emulator, "POST", path, [])).status, 400);
    assert.equal((await call(emulator, "POST", path, { guid: PRODUCTS })).status, 400);
    assert.equal((await call(emulator, "POST", path, [{ typeName: "DataSet" }])).status, 400);
    const unknownTerm = await call(emulator, "POST", `${GLOSSARY}/terms/${UNKNOWN}/assignedEntities`, [{
      guid: PRODUCTS,
    }]);
    assert.equal(unknownTerm.status, 404);
  });
});

Deno.test("remove: needs the relationship guid; the entity loses its meaning; deletes refused while assigned", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const { glossary, term } = await revenueTerm(emulator);
    const path = `${GLOSSARY}/terms/${term}/assignedEntities`;
    await call(emulator, "POST", path, [{ guid: PRODUCTS }, { guid: CUSTOMER_360 }]);

    const refused = await call(emulator, "DELETE", `${GLOSSARY}/term/${term}`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.errorCode, "ATLAS-400-00-086");
    assert.match(refused.body.errorMessage, /assigned to 2 entities/);
    assert.equal((await call(emulator, "DELETE", `${GLOSSARY}/${glossary}`)).status, 400, "nor its glossary");
    // Nor through the entity route, which deletes a glossary as the glossary route does.
    const asEntity = await call(emulator, "DELETE", `${ENTITY}/guid/${glossary}`);
    assert.equal(asEntity.status, 400);
    assert.equal(asEntity.body.errorCode, "ATLAS-400-00-086");
    assert.equal(
      (await call(emulator, "GET", `${GLOSSARY}/${glossary}`)).status,
      200,
      "the glossary is kept",
    );

    const missing = await call(emulator, "DELETE", path, [{ guid: PRODUCTS }]);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.errorCode, "ATLAS-400-00-078");
    const wrong = await call(emulator, "DELETE", path, [{ guid: PRODUCTS, relationshipGuid: UNKNOWN }]);
    assert.equal(wrong.body.errorCode, "ATLAS-400-00-080");

    const relationships = new Map<string, string>(
      (await assigned(emulator, term)).body.map((e: { guid: string; relationshipGuid: string }) => [
        e.guid,
        e.relationshipGuid,
      ]),
    );
    const removed = await call(emulator, "DELETE", path, [{
      guid: PRODUCTS,
      relationshipGuid: relationships.get(PRODUCTS),
    }]);
    assert.equal(removed.status, 204);
    const entity = (await call(emulator, "GET", `${ENTITY}/guid/${PRODUCTS}`)).body.entity;
    assert.deepEqual(entity.meanings, []);
    assert.deepEqual(entity.relationshipAttributes.meanings, []);
    // The older catalog API removes with PUT.
    const viaPut = await call(emulator, "PUT", path, [{
      guid: CUSTOMER_360,
      relationshipGuid: relationships.get(CUSTOMER_360),
    }]);
    assert.equal(viaPut.status, 204);
    assert.deepEqual((await assigned(emulator, term)).body, []);
    assert.equal((await call(emulator, "DELETE", `${GLOSSARY}/term/${term}`)).status, 204);
  });
});

Deno.test("assignments to an entity that is deleted later no longer count", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const { term } = await revenueTerm(emulator);
    const created = await call(emulator, "POST", ENTITY, { entity: tableEntity("Temporary") });
    const guid = created.body.mutatedEntities.CREATE[0].guid;
    await call(emulator, "POST", `${GLOSSARY}/terms/${term}/assignedEntities`, [{ guid }]);
    assert.equal((await assigned(emulator, term)).body.length, 1);
    await call(emulator, "DELETE", `${ENTITY}/guid/${guid}`);
    assert.deepEqual((await assigned(emulator, term)).body, []);
    assert.equal((await call(emulator, "DELETE", `${GLOSSARY}/term/${term}`)).status, 204);
    const entity = (await call(emulator, "GET", `${ENTITY}/guid/${guid}`)).body.entity;
    assert.deepEqual(entity.meanings, [], "the deleted entity drops the meaning of the deleted term");
  });
});
