/**
 * The search index kept in the data file: it follows writes across a restart, a file written before the
 * index tables existed is indexed on its first search, and a change another program made to the file while
 * the emulator was down is found by the next search.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { EntityStore } from "../../../../lib/emulator/store.ts";
import { startEmulatorProcess } from "../../../support/emulator_process.ts";
import { API_VERSION, call, DATAMAP, ok, tableEntity, withEmulator } from "../emulator_test_helpers.ts";

const ENTITY = `${DATAMAP}/atlas/v2/entity`;

async function withTempFile(test: (path: string) => Promise<void>): Promise<void> {
  const path = await Deno.makeTempFile({ prefix: "govcat-search-tables-", suffix: ".db" });
  try {
    await test(path);
  } finally {
    await Deno.remove(path).catch(() => {});
  }
}

async function names(emulator: RunningEmulator, keywords: string): Promise<string[]> {
  const reply = await call(emulator, "POST", `${DATAMAP}/search/query?${API_VERSION}`, {
    keywords,
    limit: 50,
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.value.map((item: { name: string }) => item.name).sort();
}

async function create(emulator: RunningEmulator, name: string): Promise<string> {
  const created = await ok(emulator, "POST", ENTITY, { entity: tableEntity(name) });
  return created.body.mutatedEntities.CREATE[0].guid;
}

function tableRow(guid: string, name: string): Record<string, unknown> {
  return {
    guid,
    typeName: "azure_sql_table",
    status: "ACTIVE",
    attributes: { qualifiedName: `mssql://other/db/dbo/${name}`, name },
    createTime: 1,
    updateTime: 1,
    createdBy: "other",
    updatedBy: "other",
    version: 1,
    lastModifiedTS: "1",
  };
}

Deno.test("the index follows writes across a restart: new records found, deleted ones not", async () => {
  await withTempFile(async (dataFile) => {
    await withEmulator({ dataFile }, async (emulator) => {
      await create(emulator, "LedgerKept");
      const dropped = await create(emulator, "LedgerDropped");
      assert.deepEqual(await names(emulator, "ledger"), ["LedgerDropped", "LedgerKept"]);
      // Written after the last search: the index has not caught up when the emulator closes.
      await create(emulator, "LedgerAdded");
      await ok(emulator, "DELETE", `${ENTITY}/guid/${dropped}`);
    });
    await withEmulator({ dataFile }, async (emulator) => {
      assert.deepEqual(await names(emulator, "ledger"), ["LedgerAdded", "LedgerKept"]);
      await create(emulator, "LedgerLater");
      assert.deepEqual(await names(emulator, "ledger"), ["LedgerAdded", "LedgerKept", "LedgerLater"]);
    });
  });
});

Deno.test("a data file written before the index tables existed is indexed on its first search", async () => {
  await withTempFile(async (dataFile) => {
    // What an older govcat leaves: entities (one soft-deleted), no search tables, no triggers.
    const store = EntityStore.open(dataFile);
    store.put(tableRow("old-1", "ArchiveOrders") as never);
    store.put({ ...tableRow("old-2", "ArchiveInvoices"), status: "DELETED" } as never);
    store.close();
    const before = new DatabaseSync(dataFile);
    const tables = before.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'search%'").all();
    before.close();
    assert.deepEqual(tables, [], "the file has no index yet");

    await withEmulator({ dataFile }, async (emulator) => {
      assert.deepEqual(await names(emulator, "archive"), ["ArchiveOrders"]);
      await create(emulator, "ArchiveLines");
      assert.deepEqual(await names(emulator, "archive"), ["ArchiveLines", "ArchiveOrders"]);
    });
  });
});

Deno.test("a change another program makes to the data file while the emulator is down is searchable", async () => {
  await withTempFile(async (dataFile) => {
    const first = await startEmulatorProcess({ port: 0, dataFile });
    let gone = "";
    try {
      const post = (path: string, body: unknown) =>
        fetch(`${first.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }).then((response) => response.json());
      gone = (await post(`${ENTITY}?${API_VERSION}`, { entity: tableEntity("FreightGone") }))
        .mutatedEntities.CREATE[0].guid;
      const found = await post(`${DATAMAP}/search/query?${API_VERSION}`, { keywords: "freight" });
      assert.equal(found["@search.count"], 1, "indexed before the emulator stops");
    } finally {
      await first.kill("SIGTERM");
    }

    // Another program writes the file with plain SQL: one entity added, one soft-deleted.
    const other = new DatabaseSync(dataFile);
    other.prepare(
      "INSERT INTO entities (guid, type_name, qualified_name, status, json) VALUES (?, ?, ?, 'ACTIVE', ?)",
    ).run(
      "other-1",
      "azure_sql_table",
      "mssql://other/db/dbo/FreightAdded",
      JSON.stringify(tableRow("other-1", "FreightAdded")),
    );
    const row = other.prepare("SELECT json FROM entities WHERE guid = ?").get(gone) as { json: string };
    other.prepare("UPDATE entities SET status = 'DELETED', json = ? WHERE guid = ?")
      .run(JSON.stringify({ ...JSON.parse(row.json), status: "DELETED" }), gone);
    other.close();

    const second = await startEmulatorProcess({ port: 0, dataFile });
    try {
      const reply = await fetch(`${second.url}${DATAMAP}/search/query?${API_VERSION}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ keywords: "freight" }),
      });
      const body = await reply.json();
      assert.deepEqual(body.value.map((item: { name: string }) => item.name), ["FreightAdded"]);
    } finally {
      await second.kill("SIGTERM");
    }
  });
});
