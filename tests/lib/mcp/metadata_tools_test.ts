import assert from "node:assert/strict";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";

const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const CUSTOMER_ID_COLUMN = "ca7a1000-0000-4000-8000-000000000011";
const ORDER_TOTAL_COLUMN = "ca7a1000-0000-4000-8000-000000000023";

async function call(h: Harness, name: string, args: Record<string, unknown>) {
  const result = await h.client.callTool({ name, arguments: args });
  return { result, data: result.structuredContent as Record<string, unknown>, json: resultJson(result) };
}

async function defineGroup(h: Harness, name: string) {
  await h.catalog.types.create({
    businessMetadataDefs: [{
      category: "BUSINESS_METADATA",
      name,
      description: `${name} test group`,
      attributeDefs: [
        {
          name: "dataOwner",
          typeName: "string",
          isOptional: true,
          cardinality: "SINGLE",
          options: { maxStrLength: "200", applicableEntityTypes: '["DataSet"]' },
        },
        {
          name: "retentionDays",
          typeName: "int",
          isOptional: true,
          cardinality: "SINGLE",
          options: { applicableEntityTypes: '["DataSet"]' },
        },
      ],
    }],
  });
}

Deno.test("typedef tools: list with filters and limits, get by name, errors", async () => {
  const h = await startHarness();
  try {
    const tables = await call(h, "list_typedefs", { category: "entity", name_contains: "azure_sql" });
    const names = (tables.data.typedefs as Array<{ name: string; attributes?: string[] }>).map((t) => t.name);
    assert.ok(names.includes("azure_sql_table"), names.join(", "));
    assert.equal(tables.data.truncated, false);
    const limited = await call(h, "list_typedefs", { limit: 2 });
    assert.equal((limited.data.typedefs as unknown[]).length, 2);
    assert.equal(limited.data.truncated, true);

    const table = await call(h, "get_typedef", { name: "azure_sql_table" });
    const typedef = table.data.typedef as { name: string; attributeDefs: unknown[] };
    assert.equal(typedef.name, "azure_sql_table");
    const byCategory = await call(h, "get_typedef", { name: "azure_sql_table", category: "entity" });
    assert.equal((byCategory.data.typedef as { name: string }).name, "azure_sql_table");

    const both = await call(h, "get_typedef", { name: "x", guid: "y" });
    assert.match(String(both.json.message), /exactly one of name or guid/);
    const unknown = await call(h, "get_typedef", { name: "no_such_type" });
    assert.equal(unknown.result.isError, true);
    assert.equal(unknown.json.status, 404);
  } finally {
    await h.close();
  }
});

Deno.test("relationship tools: create, get with extended info, delete", async () => {
  const h = await startHarness();
  try {
    const created = await call(h, "create_relationship", {
      type_name: "azure_sql_table_columns",
      end1_guid: ORDERS,
      end2_guid: ORDER_TOTAL_COLUMN,
    });
    assert.ok(!created.result.isError, JSON.stringify(created.json));
    const guid = String(created.data.guid);
    const fetched = await call(h, "get_relationship", { guid, extended_info: true });
    const relationship = fetched.data.relationship as { typeName: string; end1: { guid: string } };
    assert.equal(relationship.typeName, "azure_sql_table_columns");
    assert.equal(relationship.end1.guid, ORDERS);
    assert.ok(Object.keys(fetched.data.referredEntities as object).includes(ORDER_TOTAL_COLUMN));

    const wrongEnd = await call(h, "create_relationship", {
      type_name: "azure_sql_table_columns",
      end1_guid: CUSTOMER_ID_COLUMN,
      end2_guid: ORDERS,
    });
    assert.equal(wrongEnd.result.isError, true, "ends of the wrong types are refused");
    assert.equal(wrongEnd.json.status, 400);

    const deleted = await call(h, "delete_relationship", { guid, confirm: true });
    assert.equal(deleted.data.deleted, guid);
    const gone = await call(h, "get_relationship", { guid });
    assert.equal(gone.json.status, 404);
  } finally {
    await h.close();
  }
});

Deno.test("business metadata tools: list, check, refuse, clean up, delete, remove from one asset", async () => {
  const h = await startHarness();
  try {
    await defineGroup(h, "Stewardship");
    const monthlyRevenue = "ca7a1000-0000-4000-8000-000000000060";
    const customer360 = "ca7a1000-0000-4000-8000-000000000061";
    for (const guid of [monthlyRevenue, customer360]) {
      await h.catalog.entity.addOrUpdateBusinessMetadata(guid, {
        Stewardship: { dataOwner: "finance", retentionDays: 365 },
      });
    }

    const listed = await call(h, "uc_list_custom_metadata_defs", {});
    const def = (listed.data.definitions as Array<
      { name: string; attributes: Array<{ name: string; applicable_entity_types?: string[] }> }
    >)
      .find((d) => d.name === "Stewardship")!;
    assert.deepEqual(def.attributes.map((a) => a.name), ["dataOwner", "retentionDays"]);
    assert.deepEqual(def.attributes[0].applicable_entity_types, ["DataSet"]);

    const check = await call(h, "uc_cleanup_metadata_definition", { name: "Stewardship", check_only: true });
    assert.equal(check.data.assigned, true);
    assert.deepEqual((check.data.assets as Array<{ guid: string }>).map((a) => a.guid).sort(), [
      monthlyRevenue,
      customer360,
    ]);
    assert.deepEqual(check.data.removed_from, [], "check_only changes nothing");
    const still = await h.catalog.entity.get(monthlyRevenue);
    assert.equal(still.entity.businessAttributes?.Stewardship?.dataOwner, "finance");

    const refused = await call(h, "uc_delete_metadata_definition", { name: "Stewardship", confirm: true });
    assert.equal(refused.result.isError, true);
    assert.match(String(refused.json.message), /still assigned to 2 assets.*nothing was deleted/);

    const fromOne = await call(h, "uc_delete_metadata_from_asset", {
      guid: customer360,
      bm_name: "Stewardship",
      confirm: true,
    });
    assert.deepEqual(fromOne.data.removed_attributes, ["dataOwner", "retentionDays"]);
    const again = await call(h, "uc_delete_metadata_from_asset", {
      guid: customer360,
      bm_name: "Stewardship",
      confirm: true,
    });
    assert.match(String(again.json.message), /carries no business metadata group "Stewardship"/);

    // Without check_only it is the clean-up (the second step of the clean-up sequence), which changes assets: it
    // needs "confirm": true (the checks above did not).
    const unconfirmed = await call(h, "uc_cleanup_metadata_definition", { name: "Stewardship" });
    assert.equal(unconfirmed.result.isError, true);
    assert.match(String(unconfirmed.json.message), /without "confirm": true.*nothing was sent/);
    const stillThere = await h.catalog.entity.get(monthlyRevenue);
    assert.equal(stillThere.entity.businessAttributes?.Stewardship?.dataOwner, "finance");
    const cleanup = await call(h, "uc_cleanup_metadata_definition", { name: "Stewardship", confirm: true });
    assert.deepEqual(cleanup.data.removed_from, [monthlyRevenue]);
    const after = await call(h, "uc_cleanup_metadata_definition", { name: "Stewardship", check_only: true });
    assert.equal(after.data.assigned, false);

    const deleted = await call(h, "uc_delete_metadata_definition", { name: "Stewardship", confirm: true });
    assert.equal(deleted.data.deleted, "Stewardship");
    const relisted = await call(h, "uc_list_custom_metadata_defs", {});
    assert.ok(!(relisted.data.definitions as Array<{ name: string }>).some((d) => d.name === "Stewardship"));

    await defineGroup(h, "Retention");
    await h.catalog.entity.addOrUpdateBusinessMetadata(monthlyRevenue, { Retention: { dataOwner: "legal" } });
    const forced = await call(h, "uc_delete_metadata_definition", {
      name: "Retention",
      force: true,
      confirm: true,
    });
    assert.deepEqual(forced.data.removed_from, [monthlyRevenue]);
    const unknown = await call(h, "uc_cleanup_metadata_definition", { name: "Retention", check_only: true });
    assert.match(String(unknown.json.message), /No business metadata definition is named "Retention"/);
  } finally {
    await h.close();
  }
});
