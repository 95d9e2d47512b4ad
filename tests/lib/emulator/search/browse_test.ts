/**
 * `POST /browse` (catalog API 2023-02-01-preview) against the seeded emulator: browse by type, walk down
 * by path, paths derived from container references and from qualified names, paging, and validation.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import {
  call,
  CATALOG,
  DATAMAP,
  type JsonReply,
  tableEntity,
  withEmulator,
} from "../emulator_test_helpers.ts";

const BROWSE_VERSION = "api-version=2023-02-01-preview";
const SERVER_PATH = "/azure_sql_server#contoso-sql.database.windows.net";
const SCHEMA_PATH = `${SERVER_PATH}/azure_sql_db#SalesDb/azure_sql_schema#dbo`;

function browse(emulator: RunningEmulator, body: unknown, prefix = CATALOG): Promise<JsonReply> {
  return call(emulator, "POST", `${prefix}/browse?${BROWSE_VERSION}`, body);
}

interface Item {
  entityType: string;
  id: string;
  isLeaf: boolean;
  name: string;
  owner: Array<{ id: string; displayName?: string; contactType: string }>;
  path: string;
  qualifiedName: string;
}

const names = (reply: JsonReply) => (reply.body.value as Item[]).map((item) => item.name);

Deno.test("browse by entity type, then down the tree by path, as in the contract's examples", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const servers = await browse(emulator, { entityType: "azure_sql_server", limit: 10 });
    assert.equal(servers.status, 200, JSON.stringify(servers.body));
    assert.equal(servers.body["@search.count"], 1);
    const [server] = servers.body.value as Item[];
    assert.deepEqual(Object.keys(server).sort(), [
      "entityType",
      "id",
      "isLeaf",
      "name",
      "owner",
      "path",
      "qualifiedName",
    ]);
    assert.equal(server.path, SERVER_PATH, "/<type>#<qualified name without its scheme>");
    assert.equal(server.isLeaf, false);
    assert.equal(server.name, "contoso-sql");
    assert.deepEqual(server.owner, [{
      id: "7f3e9a2b-1c4d-4e5f-8a6b-0c1d2e3f4a5b",
      displayName: "Dana Whitfield, Sales data owner",
      contactType: "Owner",
    }]);

    const databases = await browse(emulator, { path: server.path, limit: 10 }, DATAMAP);
    assert.deepEqual(databases.body.value.map((item: Item) => item.path), [
      `${SERVER_PATH}/azure_sql_db#AnalyticsDb`,
      `${SERVER_PATH}/azure_sql_db#SalesDb`,
    ]);
    const schemas = await browse(emulator, { path: databases.body.value[1].path });
    assert.deepEqual(schemas.body.value.map((item: Item) => item.path), [SCHEMA_PATH]);

    const tables = await browse(emulator, { path: SCHEMA_PATH });
    assert.equal(tables.body["@search.count"], 4);
    assert.deepEqual(names(tables), ["Customers", "Invoices", "Orders", "Products"], "ordered by name");
    const customers = (tables.body.value as Item[])[0];
    assert.equal(customers.path, `${SCHEMA_PATH}/azure_sql_table#Customers`);
    const columns = await browse(emulator, { path: customers.path });
    assert.deepEqual(names(columns), ["CreatedAt", "CustomerId", "Email", "FullName"]);
    assert.ok((columns.body.value as Item[]).every((column) => column.isLeaf && column.owner.length === 0));

    const page = await browse(emulator, { path: SCHEMA_PATH, limit: 2, offset: 1 });
    assert.equal(page.body["@search.count"], 4, "the count is of the whole level");
    assert.deepEqual(names(page), ["Invoices", "Orders"]);
    const typed = await browse(emulator, { path: customers.path, entityType: "azure_sql_table" });
    assert.equal(typed.body["@search.count"], 0, "a path with a type lists only children of that type");

    const lake = await browse(emulator, { entityType: "azure_datalake_gen2_filesystem" });
    const raw = (lake.body.value as Item[])[0];
    assert.equal(
      raw.path,
      "/azure_storage_account#contosolake.core.windows.net/azure_datalake_gen2_filesystem#raw",
    );
    assert.ok(names(await browse(emulator, { path: raw.path })).includes("customers.csv"));

    const roots = await browse(emulator, {});
    assert.deepEqual(names(roots), [
      "Contoso Sales Analytics",
      "contoso-adf",
      "contoso-sql",
      "contosolake",
      "Customer 360",
      "Monthly Revenue",
      "Sales Performance refresh",
    ]);
    assert.equal(
      (roots.body.value as Item[]).find((item) => item.name === "Monthly Revenue")!.path,
      "/DataSet#finance/monthly-revenue",
    );

    const unknown = await browse(emulator, { path: "/azure_sql_server#nowhere" });
    assert.deepEqual(unknown.body, { "@search.count": 0, value: [] });
  });
});

Deno.test("browse derives parents from qualified names and follows every write", async () => {
  await withEmulator({}, async (emulator) => {
    const dataset = (qualifiedName: string, name: string) => ({
      typeName: "DataSet",
      attributes: { qualifiedName, name },
    });
    const created = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity/bulk`, {
      entities: [
        dataset("https://lake.example.net", "lake"),
        dataset("https://lake.example.net/zone1", "zone1"),
        dataset("https://lake.example.net/zone1/orders#total", "total"),
      ],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const roots = await browse(emulator, {});
    assert.deepEqual(roots.body.value.map((item: Item) => item.path), ["/DataSet#lake.example.net"]);
    const zone = await browse(emulator, { path: "/DataSet#lake.example.net" });
    assert.deepEqual(zone.body.value.map((item: Item) => [item.path, item.isLeaf]), [
      ["/DataSet#lake.example.net/DataSet#zone1", false],
    ]);
    const leaf = await browse(emulator, { path: "/DataSet#lake.example.net/DataSet#zone1" });
    assert.deepEqual(names(leaf), ["total"], "the longest qualified-name prefix at / or # is the parent");

    const table = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, { entity: tableEntity("Late") });
    const guid = table.body.mutatedEntities.CREATE[0].guid;
    const tables = await browse(emulator, { entityType: "azure_sql_table" });
    assert.deepEqual(names(tables), ["Late"], "a new entity is browsable at once");
    await call(emulator, "DELETE", `${DATAMAP}/atlas/v2/entity/guid/${guid}`);
    assert.equal((await browse(emulator, { entityType: "azure_sql_table" })).body["@search.count"], 0);
  });
});

Deno.test("browse refuses limits, offsets and fields outside the contract's ranges", async () => {
  await withEmulator({}, async (emulator) => {
    for (
      const [body, target] of [
        [{ limit: 0 }, "limit"],
        [{ limit: 10_001 }, "limit"],
        [{ offset: -1 }, "offset"],
        [{ offset: 100_001 }, "offset"],
        [{ entityType: 5 }, "entityType"],
        [{ path: "" }, "path"],
      ] as const
    ) {
      const reply = await browse(emulator, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.match(reply.body.errorMessage, new RegExp(target));
    }
    assert.equal((await browse(emulator, { limit: 10_000, offset: 100_000 })).status, 200);
  });
});
