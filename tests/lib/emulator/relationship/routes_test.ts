import assert from "node:assert/strict";
import { API_VERSION, call, CATALOG, DATAMAP, withEmulator } from "../emulator_test_helpers.ts";

const RELATIONSHIP = `${DATAMAP}/atlas/v2/relationship`;
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const ORDER_TOTAL = "ca7a1000-0000-4000-8000-000000000023";
const CUSTOMER_ID = "ca7a1000-0000-4000-8000-000000000011";
const MONTHLY_REVENUE = "ca7a1000-0000-4000-8000-000000000060";
const ORDERS_QUALIFIED_NAME = "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Orders";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function createTerms(emulator: Parameters<typeof call>[0]): Promise<[string, string]> {
  const created = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity/bulk`, {
    entities: ["Revenue", "Income"].map((name, i) => ({
      guid: `-${i + 1}`,
      typeName: "AtlasGlossaryTerm",
      attributes: { qualifiedName: `${name}@Finance`, name },
    })),
  });
  assert.equal(created.status, 200);
  return [created.body.guidAssignments["-1"], created.body.guidAssignments["-2"]];
}

Deno.test("relationship round trip: create, read with and without extended info, update, delete", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const created = await call(emulator, "POST", `${RELATIONSHIP}?${API_VERSION}`, {
      typeName: "azure_sql_table_columns",
      end1: { guid: ORDERS, typeName: "azure_sql_table" },
      end2: {
        typeName: "azure_sql_column",
        uniqueAttributes: { qualifiedName: `${ORDERS_QUALIFIED_NAME}#OrderTotal` },
      },
      status: "DELETED",
      version: 7,
    });
    assert.equal(created.status, 200);
    const relationship = created.body;
    assert.match(relationship.guid, UUID);
    assert.deepEqual(relationship.end1, { guid: ORDERS, typeName: "azure_sql_table" });
    assert.deepEqual(relationship.end2, { guid: ORDER_TOTAL, typeName: "azure_sql_column" });
    assert.equal(relationship.label, "r:azure_sql_table_columns");
    assert.equal(relationship.status, "ACTIVE", "service-owned fields in the body are ignored");
    assert.equal(relationship.version, 0);
    assert.equal(relationship.createdBy, "emulator");
    assert.equal(relationship.updatedBy, "emulator");
    assert.equal(typeof relationship.createTime, "number");
    assert.equal(relationship.createTime, relationship.updateTime);
    assert.deepEqual(relationship.attributes, {});

    const plain = await call(emulator, "GET", `${RELATIONSHIP}/guid/${relationship.guid}?extendedInfo=false`);
    assert.equal(plain.status, 200);
    assert.deepEqual(plain.body, { relationship });
    const extended = await call(
      emulator,
      "GET",
      `${CATALOG}/atlas/v2/relationship/guid/${relationship.guid}?extendedInfo=true`,
    );
    assert.deepEqual(extended.body.relationship, relationship);
    assert.deepEqual(Object.keys(extended.body.referredEntities).sort(), [ORDERS, ORDER_TOTAL]);
    const table = extended.body.referredEntities[ORDERS];
    assert.equal(table.typeName, "azure_sql_table");
    assert.equal(table.displayText, "Orders");
    // The same entity header GET /entity/guid/{guid}/header gives: unique attribute, name, owner, description.
    assert.deepEqual(table.attributes, {
      qualifiedName: ORDERS_QUALIFIED_NAME,
      name: "Orders",
      owner: "Dana Whitfield",
      description: "Sales orders placed through the web shop and by phone.",
    });
    assert.equal(table.status, "ACTIVE");

    const updated = await call(emulator, "PUT", RELATIONSHIP, {
      guid: relationship.guid,
      typeName: "azure_sql_table_columns",
      end1: { guid: ORDERS },
      label: "r:orders-total",
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.label, "r:orders-total");
    assert.equal(updated.body.createTime, relationship.createTime);
    assert.ok(updated.body.updateTime >= relationship.updateTime);
    assert.deepEqual(updated.body.end2, relationship.end2);

    const deleted = await call(emulator, "DELETE", `${RELATIONSHIP}/guid/${relationship.guid}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.body, undefined);
    const gone = await call(emulator, "GET", `${RELATIONSHIP}/guid/${relationship.guid}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.errorCode, "ATLAS-404-00-00C");
    assert.equal(gone.body.errorMessage, `Given relationship guid ${relationship.guid} is invalid/not found`);
    const deleteAgain = await call(emulator, "DELETE", `${RELATIONSHIP}/guid/${relationship.guid}`);
    assert.equal(deleteAgain.status, 404);
    assert.equal(deleteAgain.body.errorCode, "ATLAS-404-00-00C");
  });
});

Deno.test("relationship attributes follow the relationship type; unset ones read as null", async () => {
  await withEmulator({}, async (emulator) => {
    const [revenue, income] = await createTerms(emulator);
    const created = await call(emulator, "POST", RELATIONSHIP, {
      typeName: "AtlasGlossarySynonym",
      end1: { guid: revenue, typeName: "AtlasGlossaryTerm" },
      end2: { guid: income, typeName: "AtlasGlossaryTerm" },
      attributes: { expression: "same figure", status: "ACTIVE" },
    });
    assert.equal(created.status, 200);
    assert.deepEqual(created.body.attributes, {
      description: null,
      expression: "same figure",
      status: "ACTIVE",
      steward: null,
      source: null,
    });
    const updated = await call(emulator, "PUT", RELATIONSHIP, {
      guid: created.body.guid,
      attributes: { steward: "Ravi" },
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.attributes.steward, "Ravi");
    assert.equal(updated.body.attributes.expression, "same figure", "attributes left out keep their value");

    const unknownAttribute = await call(emulator, "PUT", RELATIONSHIP, {
      guid: created.body.guid,
      attributes: { colour: "red" },
    });
    assert.equal(unknownAttribute.status, 400);
    assert.equal(unknownAttribute.body.errorCode, "ATLAS-400-00-023");
    const badValue = await call(emulator, "PUT", RELATIONSHIP, {
      guid: created.body.guid,
      attributes: { status: "FINAL" },
    });
    assert.equal(badValue.status, 400);
    assert.equal(badValue.body.errorCode, "ATLAS-400-00-028");
    const reread = await call(emulator, "GET", `${RELATIONSHIP}/guid/${created.body.guid}`);
    assert.equal(reread.body.relationship.attributes.status, "ACTIVE", "a refused update changes nothing");
  });
});

Deno.test("relationship create refuses unknown types and ends, wrong end types and duplicates", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const create = (body: Record<string, unknown>) =>
      call(emulator, "POST", RELATIONSHIP, { typeName: "azure_sql_table_columns", ...body });
    const cases: Array<[body: Record<string, unknown>, status: number, code: string]> = [
      [
        { typeName: "no_such_relationship", end1: { guid: ORDERS }, end2: { guid: ORDER_TOTAL } },
        404,
        "ATLAS-404-00-001",
      ],
      [
        { typeName: "azure_sql_table", end1: { guid: ORDERS }, end2: { guid: ORDER_TOTAL } },
        404,
        "ATLAS-404-00-001",
      ],
      [
        { end1: { guid: "00000000-0000-4000-8000-00000000dead" }, end2: { guid: ORDER_TOTAL } },
        404,
        "ATLAS-404-00-005",
      ],
      [
        {
          end1: { guid: ORDERS },
          end2: { typeName: "azure_sql_column", uniqueAttributes: { qualifiedName: "nope" } },
        },
        404,
        "ATLAS-404-00-009",
      ],
      [{ end1: { guid: CUSTOMER_ID }, end2: { guid: ORDERS } }, 400, "ATLAS-400-00-036"],
      [{ end1: { guid: ORDERS }, end2: { guid: MONTHLY_REVENUE } }, 400, "ATLAS-400-00-036"],
      [{ end1: { guid: ORDERS } }, 400, "ATLAS-400-00-07D"],
      [{ end1: { guid: ORDERS }, end2: "column" }, 400, "ATLAS-400-00-01A"],
      [
        { end1: { guid: ORDERS }, end2: { guid: ORDER_TOTAL }, attributes: { colour: "red" } },
        400,
        "ATLAS-400-00-023",
      ],
      [{ typeName: undefined, end1: { guid: ORDERS }, end2: { guid: ORDER_TOTAL } }, 400, "ATLAS-400-00-01A"],
    ];
    for (const [body, status, code] of cases) {
      const reply = await create(body);
      assert.equal(reply.status, status, JSON.stringify(body));
      assert.equal(reply.body.errorCode, code, JSON.stringify(body));
      assert.equal(reply.body.requestId, reply.headers.get("x-ms-request-id"));
    }
    const wrongEnd = await create({ end1: { guid: CUSTOMER_ID }, end2: { guid: ORDERS } });
    assert.equal(
      wrongEnd.body.errorMessage,
      "invalid relationshipDef: azure_sql_table_columns: end type 1: azure_sql_column, end type 2: azure_sql_table",
    );

    const first = await create({ end1: { guid: ORDERS }, end2: { guid: ORDER_TOTAL } });
    assert.equal(first.status, 200);
    const duplicate = await create({ end1: { guid: ORDERS }, end2: { guid: ORDER_TOTAL } });
    assert.equal(duplicate.status, 409);
    assert.equal(duplicate.body.errorCode, "ATLAS-409-00-004");

    const lineage = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, {
      entity: {
        typeName: "Process",
        attributes: { qualifiedName: "adf://copy-orders", name: "copy orders" },
      },
    });
    const process = lineage.body.mutatedEntities.CREATE[0].guid;
    const input = await call(emulator, "POST", RELATIONSHIP, {
      typeName: "dataset_process_inputs",
      end1: { guid: process },
      end2: { guid: ORDERS },
    });
    assert.equal(input.status, 200, "any DataSet subtype is a valid DataSet end");
  });
});

Deno.test("relationship update and delete: unknown guid, type or end change", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const missing = await call(emulator, "PUT", RELATIONSHIP, {
      guid: "00000000-0000-4000-8000-00000000dead",
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errorCode, "ATLAS-404-00-00C");
    const noGuid = await call(emulator, "PUT", RELATIONSHIP, { typeName: "azure_sql_table_columns" });
    assert.equal(noGuid.status, 400);
    assert.equal(noGuid.body.errorCode, "ATLAS-400-00-01A");
    const deleteMissing = await call(emulator, "DELETE", `${RELATIONSHIP}/guid/nope`);
    assert.equal(deleteMissing.status, 404);

    const created = await call(emulator, "POST", RELATIONSHIP, {
      typeName: "azure_sql_table_columns",
      end1: { guid: ORDERS },
      end2: { guid: ORDER_TOTAL },
    });
    const guid = created.body.guid;
    // Atlas declares these two with HTTP 404 although their codes read 400.
    const typeChange = await call(emulator, "PUT", RELATIONSHIP, {
      guid,
      typeName: "azure_sql_view_columns",
    });
    assert.equal(typeChange.status, 404);
    assert.equal(typeChange.body.errorCode, "ATLAS-400-00-06A");
    const endChange = await call(emulator, "PUT", RELATIONSHIP, { guid, end2: { guid: CUSTOMER_ID } });
    assert.equal(endChange.status, 404);
    assert.equal(endChange.body.errorCode, "ATLAS-400-00-069");
  });
});

Deno.test("relationships survive a restart", async () => {
  const dataFile = await Deno.makeTempFile({ prefix: "govcat-relationships-", suffix: ".db" });
  try {
    let guid = "";
    await withEmulator({ dataFile, seed: true }, async (emulator) => {
      const created = await call(emulator, "POST", RELATIONSHIP, {
        typeName: "azure_sql_table_columns",
        end1: { guid: ORDERS },
        end2: { guid: ORDER_TOTAL },
      });
      guid = created.body.guid;
    });
    await withEmulator({ dataFile, seed: true }, async (emulator) => {
      const read = await call(emulator, "GET", `${RELATIONSHIP}/guid/${guid}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.relationship.end2.guid, ORDER_TOTAL);
    });
  } finally {
    await Deno.remove(dataFile).catch(() => {});
  }
});
