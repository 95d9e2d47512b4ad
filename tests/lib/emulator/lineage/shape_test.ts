/**
 * The shape of the emulator's lineage answers, as the contract's Lineage_* examples give it (top-level
 * fields, entity headers, widthCounts of an entity without lineage, parent relations), and its errors:
 * unknown GUIDs, types that have no lineage, and bad query parameters.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { API_VERSION, call, DATAMAP, withEmulator } from "../emulator_test_helpers.ts";

const CUSTOMERS_TABLE = "ca7a1000-0000-4000-8000-000000000010";
/** A seeded table that no process of the seed reads or writes. */
const INVOICES_TABLE = "ca7a1000-0000-4000-8000-000000000040";
const CUSTOMER_ID_COLUMN = "ca7a1000-0000-4000-8000-000000000011";
const SQL_SERVER = "ca7a1000-0000-4000-8000-000000000001";
const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

async function lineage(emulator: RunningEmulator, guid: string, query: string) {
  return await call(emulator, "GET", `${DATAMAP}/atlas/v2/lineage/${guid}?${query}&${API_VERSION}`);
}

Deno.test("lineage: the answer has the shape of the contract's examples", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const alone = await lineage(emulator, INVOICES_TABLE, "depth=2&width=2&direction=BOTH");
    assert.equal(alone.status, 200, JSON.stringify(alone.body));
    // Lineage_GetByUniqueAttribute: an entity without lineage, asked for BOTH at depth 2 and width 2.
    assert.deepEqual(Object.keys(alone.body).sort(), [
      "baseEntityGuid",
      "childrenCount",
      "guidEntityMap",
      "lineageDepth",
      "lineageDirection",
      "lineageWidth",
      "parentRelations",
      "relations",
      "widthCounts",
    ]);
    assert.equal(alone.body.baseEntityGuid, INVOICES_TABLE);
    assert.equal(alone.body.lineageDirection, "BOTH");
    assert.equal(alone.body.lineageDepth, 2);
    assert.equal(alone.body.lineageWidth, 2);
    assert.equal(alone.body.childrenCount, -1);
    assert.deepEqual(alone.body.relations, []);
    assert.deepEqual(alone.body.parentRelations, []);
    assert.deepEqual(alone.body.widthCounts, {
      INPUT: { [INVOICES_TABLE]: 0 },
      OUTPUT: { [INVOICES_TABLE]: 0 },
    });
    const header = alone.body.guidEntityMap[INVOICES_TABLE];
    assert.deepEqual(Object.keys(header).sort(), [
      "attributes",
      "classificationNames",
      "displayText",
      "guid",
      "isIncomplete",
      "labels",
      "lastModifiedTS",
      "meaningNames",
      "meanings",
      "status",
      "typeName",
    ]);
    assert.equal(header.typeName, "azure_sql_table");
    assert.equal(header.status, "ACTIVE");
    assert.equal(header.displayText, "Invoices");
    assert.deepEqual(header.classificationNames, ["MICROSOFT.FINANCIAL.CREDIT_CARD_NUMBER"]);
    assert.equal(typeof header.attributes.qualifiedName, "string");

    const withParents = await lineage(
      emulator,
      CUSTOMER_ID_COLUMN,
      "direction=BOTH&includeParent=true",
    );
    assert.equal(withParents.status, 200, JSON.stringify(withParents.body));
    assert.deepEqual(
      withParents.body.parentRelations.map((r: { parentEntityId: string }) => r.parentEntityId),
      [
        CUSTOMERS_TABLE,
      ],
    );
    assert.ok(CUSTOMERS_TABLE in withParents.body.guidEntityMap);
  });
});

Deno.test("lineage: unknown guid, non-lineage types and bad parameters are Atlas errors", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const unknown = await lineage(emulator, UNKNOWN, "direction=BOTH");
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys(unknown.body).sort(), ["errorCode", "errorMessage", "requestId"]);
    assert.equal(unknown.body.errorCode, "ATLAS-404-00-005");
    assert.match(unknown.body.errorMessage, new RegExp(UNKNOWN));

    const server = await lineage(emulator, SQL_SERVER, "direction=BOTH");
    assert.equal(server.status, 404);
    assert.equal(server.body.errorCode, "ATLAS-404-00-011");

    for (
      const query of [
        "direction=UP",
        "direction=BOTH&depth=-1",
        "direction=BOTH&depth=x",
        "direction=BOTH&width=0",
      ]
    ) {
      const bad = await lineage(emulator, CUSTOMERS_TABLE, query);
      assert.equal(bad.status, 400, query);
      assert.equal(bad.body.errorCode, "ATLAS-400-00-026", query);
    }
    const noDirection = await call(emulator, "GET", `${DATAMAP}/atlas/v2/lineage/${CUSTOMERS_TABLE}`);
    assert.equal(noDirection.body.lineageDirection, "BOTH", "direction defaults to BOTH, as in Atlas");
  });
});
