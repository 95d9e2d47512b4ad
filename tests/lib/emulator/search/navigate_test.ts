/**
 * `POST /datamap/api/navigate` (2024-03-01-preview) as the emulator behaves, over real HTTP on 127.0.0.1:
 * the asset-type tree of the seed walked level by level, counts, pages, the index catching up with writes,
 * two siblings of one name told apart by guid, and the refusals.
 */
import assert from "node:assert/strict";
import { call, DATAMAP, ok, withEmulator } from "../emulator_test_helpers.ts";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";

const NAVIGATE = `${DATAMAP}/navigate?api-version=2024-03-01-preview`;
const SERVER = "/azure_sql_server/contoso-sql";
const TABLES = `${SERVER}/azure_sql_db/SalesDb/azure_sql_schema/dbo/azure_sql_table`;

async function navigate(
  emulator: RunningEmulator,
  path: string,
  extra: Record<string, unknown> = {},
  query = "",
  // deno-lint-ignore no-explicit-any
): Promise<any> {
  return (await ok(emulator, "POST", NAVIGATE + query, { itemPath: { path }, ...extra })).body;
}

const names = (result: { items: { name: string }[] }) => result.items.map((i) => i.name);

Deno.test("navigate: entity types at the top, then assets, their children by type, down to leaves", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const top = await navigate(emulator, "/", { includeNextLevelAssetCount: true });
    const server = top.items.find((i: { name: string }) => i.name === "azure_sql_server");
    assert.deepEqual(
      {
        isEntity: server.isEntity,
        isLeafNode: server.isLeafNode,
        count: server.count,
        path: server.itemPath.path,
      },
      { isEntity: false, isLeafNode: false, count: 1, path: "azure_sql_server" },
    );
    assert.equal(server.properties.cloudType, "Azure");
    assert.equal(
      top.items.some((i: { name: string }) => i.name === "azure_sql_table"),
      false,
      "tables are not top-level",
    );

    const servers = await navigate(emulator, "/azure_sql_server");
    assert.deepEqual(names(servers), ["contoso-sql"]);
    assert.equal(servers.items[0].isEntity, true);
    assert.equal(servers.items[0].properties.qualifiedName, "mssql://contoso-sql.database.windows.net");
    assert.deepEqual(names(await navigate(emulator, SERVER)), ["azure_sql_db"]);

    const tables = await navigate(emulator, TABLES, { includeNextLevelAssetCount: true });
    assert.deepEqual(names(tables), [...names(tables)].sort(), "assets are ordered by name");
    assert.ok(names(tables).includes("Customers") && names(tables).includes("Orders"), names(tables).join());
    const customers = tables.items.find((i: { name: string }) => i.name === "Customers");
    assert.equal(customers.count, 4, "Customers has four columns");
    const columns = await navigate(emulator, `${TABLES}/Customers/azure_sql_column`);
    assert.equal(columns.items.length, 4);
    assert.ok(columns.items.every((c: { isLeafNode: boolean }) => c.isLeafNode));
    assert.equal(typeof top.continuationToken, "undefined");
  });
});

Deno.test("navigate: a new table shows up, siblings of one name are told apart by guid", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const schema = "mssql://contoso-sql.database.windows.net/SalesDb/dbo";
    const dbSchema = { typeName: "azure_sql_schema", uniqueAttributes: { qualifiedName: schema } };
    const made = await ok(emulator, "POST", `${DATAMAP}/atlas/v2/entity/bulk?api-version=2023-09-01`, {
      entities: [
        {
          typeName: "azure_sql_table",
          attributes: { qualifiedName: `${schema}/Twin`, name: "Twin" },
          relationshipAttributes: { dbSchema },
        },
        {
          typeName: "azure_sql_table",
          attributes: { qualifiedName: `${schema}/Twin2`, name: "Twin" },
          relationshipAttributes: { dbSchema },
        },
      ],
    });
    const guids = Object.values(made.body.guidAssignments) as string[];
    const tables = await navigate(emulator, TABLES);
    const twins = tables.items.filter((i: { name: string }) => i.name === "Twin");
    assert.equal(twins.length, 2);
    assert.deepEqual(
      twins.map((t: { properties: { guid: string } }) => t.properties.guid).sort(),
      [...guids].sort(),
    );
    // Give the first twin a column: asking for either by its guid answers its own children.
    const [first, second] = twins;
    await ok(emulator, "POST", `${DATAMAP}/atlas/v2/entity?api-version=2023-09-01`, {
      entity: {
        typeName: "azure_sql_column",
        attributes: { qualifiedName: `${first.properties.qualifiedName}#Id`, name: "Id", data_type: "int" },
        relationshipAttributes: {
          table: {
            typeName: "azure_sql_table",
            uniqueAttributes: { qualifiedName: first.properties.qualifiedName },
          },
        },
      },
    });
    const path = `${TABLES}/Twin`;
    const ofFirst = await navigate(emulator, path, {
      itemPath: { path, extendedProperties: first.itemPath.extendedProperties },
    });
    assert.deepEqual(names(ofFirst), ["azure_sql_column"]);
    const ofSecond = await navigate(emulator, path, {
      itemPath: { path, extendedProperties: second.itemPath.extendedProperties },
    });
    assert.deepEqual(ofSecond.items, [], "the second twin has no children");
  });
});

Deno.test("navigate: pages of maxpagesize, a token only for its own path", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const all = names(await navigate(emulator, TABLES));
    assert.ok(all.length >= 3);
    const first = await navigate(emulator, TABLES, {}, "&maxpagesize=2");
    assert.deepEqual(names(first), all.slice(0, 2));
    assert.equal(typeof first.continuationToken, "string");
    const token = `&maxpagesize=2&continuationToken=${encodeURIComponent(first.continuationToken)}`;
    const second = await navigate(emulator, TABLES, {}, token);
    assert.deepEqual(names(second), all.slice(2, 4));
    const elsewhere = await call(emulator, "POST", NAVIGATE + token, { itemPath: { path: "/" } });
    assert.equal(elsewhere.status, 400);
    assert.match(elsewhere.body.errorMessage, /continuationToken/);
    const tooBig = await call(emulator, "POST", NAVIGATE + "&maxpagesize=10001", { itemPath: { path: "/" } });
    assert.equal(tooBig.status, 400);
  });
});

Deno.test("navigate: a path naming nothing is a 404 saying where to look; bad requests are 400", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const missing = await call(emulator, "POST", NAVIGATE, {
      itemPath: { path: `${SERVER}/azure_sql_db/NoSuchDb` },
    });
    assert.equal(missing.status, 404);
    assert.match(missing.body.errorMessage, /Navigate \/azure_sql_server\/contoso-sql\/azure_sql_db /);
    const noType = await call(emulator, "POST", NAVIGATE, { itemPath: { path: "/no_such_type" } });
    assert.equal(noType.status, 404);
    const mode = await call(emulator, "POST", NAVIGATE, {
      navigationMode: "azureResourceHierarchy",
      itemPath: { path: "/" },
    });
    assert.equal(mode.status, 400);
    assert.match(mode.body.errorMessage, /assetType/);
    const noPath = await call(emulator, "POST", NAVIGATE, { itemPath: {} });
    assert.equal(noPath.status, 400);
    const badCount = await call(emulator, "POST", NAVIGATE, {
      itemPath: { path: "/" },
      includeNextLevelAssetCount: "yes",
    });
    assert.equal(badCount.status, 400);
  });
});
