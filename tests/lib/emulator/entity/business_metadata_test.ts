import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import {
  API_VERSION,
  call,
  DATAMAP,
  type JsonReply,
  tableEntity,
  withEmulator,
} from "../emulator_test_helpers.ts";

const ENTITY = `${DATAMAP}/atlas/v2/entity`;
const TABLE_QN = (name: string) => `mssql://test-sql.database.windows.net/TestDb/dbo/${name}`;
const APPLICABLE = { applicableEntityTypes: '["DataSet"]' };

/** Defines the `Governance` business metadata group the tests write. */
async function defineGovernance(emulator: RunningEmulator): Promise<void> {
  const attribute = (name: string, typeName: string, cardinality = "SINGLE") => ({
    name,
    typeName,
    isOptional: true,
    cardinality,
    options: { ...APPLICABLE, maxStrLength: "50" },
  });
  const reply = await call(emulator, "POST", `${DATAMAP}/atlas/v2/types/typedefs`, {
    businessMetadataDefs: [{
      category: "BUSINESS_METADATA",
      name: "Governance",
      attributeDefs: [
        attribute("steward", "string"),
        attribute("score", "int"),
        attribute("certified", "boolean"),
        attribute("reviewDate", "date"),
        attribute("tags", "array<string>", "SET"),
      ],
    }],
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
}

async function create(
  emulator: RunningEmulator,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const reply = await call(emulator, "POST", ENTITY, { entity: tableEntity(name, extra) });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.mutatedEntities.CREATE[0].guid;
}

async function bm(emulator: RunningEmulator, guid: string): Promise<unknown> {
  return (await call(emulator, "GET", `${ENTITY}/guid/${guid}`)).body.entity.businessAttributes;
}

Deno.test("business metadata routes: merge, overwrite, one group, removal; each 204", async () => {
  await withEmulator({}, async (emulator) => {
    await defineGovernance(emulator);
    const guid = await create(emulator, "Customers");
    const path = `${ENTITY}/guid/${guid}/businessmetadata`;

    const added = await call(emulator, "POST", `${path}?${API_VERSION}`, {
      Governance: { steward: "dana", score: 3 },
    });
    assert.equal(added.status, 204);
    assert.equal(added.body, undefined);
    assert.deepEqual(await bm(emulator, guid), { Governance: { steward: "dana", score: 3 } });
    assert.equal(
      (await call(emulator, "POST", `${path}?isOverwrite=false`, { Governance: { certified: true } })).status,
      204,
    );
    assert.deepEqual(await bm(emulator, guid), {
      Governance: { steward: "dana", score: 3, certified: true },
    });

    assert.equal(
      (await call(emulator, "POST", `${path}?isOverwrite=true`, { Governance: { score: 5 } })).status,
      204,
    );
    assert.deepEqual(
      await bm(emulator, guid),
      { Governance: { score: 5 } },
      "overwrite replaces every group",
    );

    assert.equal(
      (await call(emulator, "POST", `${path}/Governance`, { steward: "lee", tags: ["a", "b"] })).status,
      204,
    );
    assert.deepEqual(await bm(emulator, guid), {
      Governance: { score: 5, steward: "lee", tags: ["a", "b"] },
    });
    assert.equal((await call(emulator, "POST", path, { Governance: { certified: true } })).status, 204);
    assert.equal((await call(emulator, "POST", path, { Governance: { certified: null } })).status, 204);
    assert.deepEqual(
      await bm(emulator, guid),
      { Governance: { score: 5, steward: "lee", tags: ["a", "b"] } },
      "null removes",
    );
    assert.equal((await call(emulator, "DELETE", `${path}/Governance`, { tags: null })).status, 204);
    assert.deepEqual(await bm(emulator, guid), { Governance: { score: 5, steward: "lee" } });
    assert.equal(
      (await call(emulator, "DELETE", path, { Governance: { score: "ignored", steward: "" } })).status,
      204,
    );
    assert.deepEqual(await bm(emulator, guid), {}, "an emptied group disappears");
    const entity = (await call(emulator, "GET", `${ENTITY}/guid/${guid}`)).body.entity;
    assert.equal(entity.version, 8, "every write is an update");
  });
});

Deno.test("business metadata errors: empty body, bad shape, type system refusals, unknown entity", async () => {
  await withEmulator({}, async (emulator) => {
    await defineGovernance(emulator);
    const guid = await create(emulator, "Orders");
    const path = `${ENTITY}/guid/${guid}/businessmetadata`;
    const expect = async (reply: Promise<JsonReply>, status: number, code?: string) => {
      const { status: actual, body } = await reply;
      assert.equal(actual, status, JSON.stringify(body));
      if (code) assert.equal(body.errorCode, code);
    };
    await expect(call(emulator, "POST", path, {}), 400, "ATLAS-400-00-01A");
    await expect(call(emulator, "DELETE", path, {}), 400, "ATLAS-400-00-01A");
    await expect(call(emulator, "POST", path, { Governance: "x" }), 400, "ATLAS-400-00-01A");
    await expect(call(emulator, "POST", path, [1]), 400, "ATLAS-400-00-029");
    await expect(call(emulator, "POST", path, { NoSuchGroup: { a: 1 } }), 400);
    await expect(
      call(emulator, "POST", path, { Governance: { noSuchAttribute: 1 } }),
      400,
      "ATLAS-400-00-023",
    );
    await expect(call(emulator, "POST", path, { Governance: { score: "high" } }), 400, "ATLAS-400-00-028");
    await expect(
      call(emulator, "POST", `${path}/Governance`, { steward: "x".repeat(51) }),
      400,
      "ATLAS-400-00-028",
    );
    await expect(
      call(emulator, "POST", `${ENTITY}/guid/nope/businessmetadata`, { Governance: { score: 1 } }),
      404,
      "ATLAS-404-00-005",
    );
    assert.equal(await bm(emulator, guid), undefined, "nothing was written");
  });
});

Deno.test("business attributes on create and the businessAttributeUpdateBehavior of updates", async () => {
  await withEmulator({}, async (emulator) => {
    await defineGovernance(emulator);
    const guid = await create(emulator, "Invoices", {
      businessAttributes: { Governance: { steward: "dana" } },
    });
    assert.deepEqual(await bm(emulator, guid), { Governance: { steward: "dana" } });

    const update = (behavior: string, values: unknown) =>
      call(emulator, "POST", `${ENTITY}${behavior ? `?businessAttributeUpdateBehavior=${behavior}` : ""}`, {
        entity: tableEntity("Invoices", { businessAttributes: values }),
      });
    assert.equal((await update("", { Governance: { score: 1 } })).status, 200);
    assert.deepEqual(await bm(emulator, guid), { Governance: { steward: "dana" } }, "ignored by default");
    assert.equal((await update("merge", { Governance: { score: 1 } })).status, 200);
    assert.deepEqual(await bm(emulator, guid), { Governance: { steward: "dana", score: 1 } });
    assert.equal((await update("replace", { Governance: { certified: false } })).status, 200);
    assert.deepEqual(await bm(emulator, guid), { Governance: { certified: false } });
    const bad = await update("bogus", {});
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errorCode, "ATLAS-400-00-01A");

    const refused = await call(emulator, "POST", ENTITY, {
      entity: tableEntity("Refused", { businessAttributes: { Governance: { score: "x" } } }),
    });
    assert.equal(refused.status, 400);
    assert.equal(emulator.entityCount(), 1, "the refused entity was not created");
  });
});

function upload(emulator: RunningEmulator, csv: string, fileName = "values.csv"): Promise<JsonReply> {
  const form = new FormData();
  form.append("file", new Blob([csv], { type: "text/csv" }), fileName);
  return fetch(`${emulator.url}${ENTITY}/businessmetadata/import?${API_VERSION}`, {
    method: "POST",
    body: form,
  })
    .then(async (response) => ({
      status: response.status,
      headers: response.headers,
      body: await response.json(),
    }));
}

Deno.test("business metadata import: template, good rows applied, bad rows listed with reasons", async () => {
  await withEmulator({}, async (emulator) => {
    await defineGovernance(emulator);
    const customers = await create(emulator, "Customers", {
      businessAttributes: { Governance: { steward: "old" } },
    });
    const orders = await create(emulator, "Orders");

    const template = await fetch(`${emulator.url}${ENTITY}/businessmetadata/import/template?${API_VERSION}`);
    assert.equal(template.status, 200);
    assert.equal(template.headers.get("content-type"), "application/octet-stream");
    assert.match(
      template.headers.get("content-disposition") ?? "",
      /attachment; filename="template_business_metadata"/,
    );
    const header = await template.text();
    assert.equal(
      header,
      "EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue,EntityUniqueAttributeName[optional]",
    );

    const csv = [
      header,
      `azure_sql_table,${TABLE_QN("Customers")},Governance.score,7`,
      `azure_sql_table,"${TABLE_QN("Customers")}",Governance.certified,true,qualifiedName`,
      `azure_sql_table,${orders},Governance.tags,a|b,guid`,
      `azure_sql_table,${TABLE_QN("Customers")},Governance.score,`,
      `no_such_type,x,Governance.score,1`,
      `azure_sql_table,${TABLE_QN("Missing")},Governance.score,1`,
      `azure_sql_table,${TABLE_QN("Orders")},NoDot,1`,
      `azure_sql_table,${TABLE_QN("Orders")},Governance.score,lots`,
      `azure_sql_table,${TABLE_QN("Orders")},Governance.score,1,owner`,
    ].join("\r\n");
    const result = await upload(emulator, csv);
    assert.equal(result.status, 200, JSON.stringify(result.body));
    assert.deepEqual(result.body.successImportInfoList, [
      {
        parentObjectName: customers,
        childObjectName: "{Governance={steward=old, score=7, certified=true}}",
        importStatus: "SUCCESS",
        remarks: "",
      },
      {
        parentObjectName: orders,
        childObjectName: "{Governance={tags=[a, b]}}",
        importStatus: "SUCCESS",
        remarks: "",
      },
    ]);
    const failed = result.body.failedImportInfoList.map((info: { remarks: string }) => info.remarks);
    assert.equal(failed.length, 6);
    assert.match(failed[0], /^Line #5: missing fields\./);
    assert.equal(failed[1], "Line #6: invalid entity-type 'no_such_type'");
    assert.equal(
      failed[2],
      `Line #7: no azure_sql_table entity found with qualifiedName=${TABLE_QN("Missing")}`,
    );
    assert.equal(failed[3], "Line #8: invalid business-metadata 'NoDot' for entity type 'azure_sql_table'");
    assert.match(
      failed[4],
      /^Line #9: invalid business-metadata 'Governance.score' for entity type 'azure_sql_table': /,
    );
    assert.equal(
      failed[5],
      "Line #10: attribute 'owner' is not an unique attribute in entity-type 'azure_sql_table'",
    );
    assert.ok(
      result.body.failedImportInfoList.every((info: { importStatus: string }) =>
        info.importStatus === "FAILED"
      ),
    );

    assert.deepEqual(await bm(emulator, customers), {
      Governance: { steward: "old", score: 7, certified: true },
    });
    assert.deepEqual(await bm(emulator, orders), { Governance: { tags: ["a", "b"] } });
  });
});

/**
 * Microsoft's SDK test file with Apache Atlas's header names, and the service's answer to it, recorded
 * (Azure/azure-sdk-for-js
 * sdk/purview/purview-datamap-rest/recordings/node/purview_datamap_entity_test/recording_import_entity_business_metadata_.json):
 * the header is skipped, the row read by position, and only the non-empty list answered.
 */
Deno.test("business metadata import: Apache Atlas's header is read by position, answered as the service did", async () => {
  await withEmulator({}, async (emulator) => {
    const sdkFile =
      "TypeName,UniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue,UniqueAttributeName[optional]\n" +
      'hive_database,hive_db_1,bmWithAllTypes.attr8,"Awesome Attribute 1",name\n\r\n';
    const result = await upload(emulator, sdkFile, "template_2.csv");
    assert.equal(result.status, 200, JSON.stringify(result.body));
    assert.deepEqual(result.body, {
      failedImportInfoList: [{
        parentObjectName: "",
        childObjectName: "",
        importStatus: "FAILED",
        remarks: "Line #2: invalid entity-type 'hive_database'",
      }],
    });

    await defineGovernance(emulator);
    const customers = await create(emulator, "Customers");
    const atlasForm = await upload(
      emulator,
      "TypeName,UniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue,UniqueAttributeName[optional]\n" +
        `azure_sql_table,${TABLE_QN("Customers")},Governance.steward,ana,qualifiedName\n`,
    );
    assert.deepEqual(Object.keys(atlasForm.body), ["successImportInfoList"], "no empty failed list");
    assert.deepEqual(await bm(emulator, customers), { Governance: { steward: "ana" } });
  });
});

Deno.test("business metadata import errors: not multipart, no file, wrong type, no data", async () => {
  await withEmulator({}, async (emulator) => {
    const path = `${ENTITY}/businessmetadata/import`;
    const json = await call(emulator, "POST", path, { file: "x" });
    assert.equal(json.status, 400);
    assert.equal(json.body.errorCode, "ATLAS-400-00-029");

    const noFile = new FormData();
    noFile.append("other", "x");
    const missing = await fetch(`${emulator.url}${path}`, { method: "POST", body: noFile });
    assert.equal(missing.status, 400);
    assert.equal((await missing.json()).errorCode, "ATLAS-400-00-01A");

    const textPart = new FormData();
    textPart.append("file", "a,b,c");
    const unnamed = await fetch(`${emulator.url}${path}`, { method: "POST", body: textPart });
    assert.equal(unnamed.status, 404);
    assert.equal((await unnamed.json()).errorCode, "ATLAS-404-00-014");

    const wrongType = await upload(emulator, "a,b", "values.txt");
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body.errorCode, "ATLAS-400-00-098");
    const headerOnly = await upload(emulator, "EntityType,EntityUniqueAttributeValue\n\n");
    assert.equal(headerOnly.status, 400);
    assert.equal(headerOnly.body.errorCode, "ATLAS-400-00-09B");
    assert.equal(headerOnly.body.errorMessage, "No data found in the uploaded file");
  });
});

Deno.test("search filters on business metadata attributes as in Discovery_Query_BusinessMetadataAttribute", async () => {
  await withEmulator({}, async (emulator) => {
    await defineGovernance(emulator);
    const now = Date.now();
    const a = await create(emulator, "A", {
      businessAttributes: {
        Governance: { steward: "Dana Whitfield", score: 9, certified: true, reviewDate: now },
      },
    });
    const b = await create(emulator, "B", {
      businessAttributes: { Governance: { steward: "Lee", score: 2, certified: false, tags: ["gold"] } },
    });
    await create(emulator, "C");
    const ids = async (filter: unknown, keywords: string | null = null) => {
      const reply = await call(emulator, "POST", `${DATAMAP}/search/query?${API_VERSION}`, {
        keywords,
        limit: 10,
        filter,
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.value.map((v: { id: string }) => v.id).sort();
    };
    const one = (attributeName: string, operator: string, attributeValue: unknown) => ({
      attributeName,
      operator,
      attributeValue,
    });
    assert.deepEqual(await ids(one("Governance.steward", "eq", "lee")), [b]);
    assert.deepEqual(await ids(one("Governance.steward", "contains", "whit")), [a]);
    assert.deepEqual(await ids(one("Governance.steward", "prefix", "Dan")), [a]);
    assert.deepEqual(await ids(one("Governance.score", "gt", 5)), [a]);
    assert.deepEqual(await ids(one("Governance.score", "le", 9)), [a, b].sort());
    assert.deepEqual(await ids(one("Governance.certified", "eq", false)), [b]);
    assert.deepEqual(await ids(one("Governance.reviewDate", "timerange", "LAST_24H")), [a]);
    assert.deepEqual(await ids(one("Governance.tags", "eq", "gold")), [b], "arrays match on any element");
    assert.deepEqual(
      await ids({ or: [one("Governance.score", "gt", 5), one("Governance.certified", "eq", false)] }),
      [a, b].sort(),
    );
    assert.deepEqual(await ids(null, "whitfield"), [a], "business metadata values are indexed for keywords");

    await call(emulator, "DELETE", `${ENTITY}/guid/${a}`);
    assert.deepEqual(await ids(one("Governance.score", "gt", 5)), [], "deleted entities never match");
  });
});
