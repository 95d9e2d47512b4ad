import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { AtlasEntity } from "../../../lib/emulator/mod.ts";
import { EntityStore } from "../../../lib/emulator/store.ts";

function entity(guid: string, qualifiedName: string, status: "ACTIVE" | "DELETED" = "ACTIVE"): AtlasEntity {
  return {
    guid,
    typeName: "DataSet",
    attributes: { qualifiedName, name: qualifiedName },
    status,
    createTime: 1,
    updateTime: 1,
    createdBy: "emulator",
    updatedBy: "emulator",
    version: 0,
    lastModifiedTS: "1",
  };
}

async function withTempFile(test: (path: string) => void | Promise<void>): Promise<void> {
  const path = await Deno.makeTempFile({ prefix: "govcat-store-", suffix: ".db" });
  try {
    await test(path);
  } finally {
    await Deno.remove(path).catch(() => {});
  }
}

Deno.test("store: uniqueness covers ACTIVE rows only; count and list leave deleted ones out", () => {
  const store = EntityStore.open();
  try {
    store.put(entity("g1", "ds://a"));
    assert.throws(
      () => store.put(entity("g2", "ds://a")),
      (error: Error & { status?: number }) => error.status === 409,
    );
    store.put(entity("g1", "ds://a", "DELETED"));
    store.put(entity("g2", "ds://a"));
    assert.equal(store.count(), 1);
    assert.equal(store.countAll(), 2);
    assert.deepEqual(store.list().map((e) => e.guid), ["g2"]);
    assert.deepEqual(store.listAll().map((e) => e.guid), ["g1", "g2"]);
    assert.equal(store.findByQualifiedName("DataSet", "ds://a")?.guid, "g2");
    assert.equal(store.get("g1")?.status, "DELETED");
  } finally {
    store.close();
  }
});

Deno.test("store: a version 1 data file is migrated to soft deletes, keeping its rows", async () => {
  await withTempFile((path) => {
    const old = new DatabaseSync(path);
    old.exec(
      `CREATE TABLE entities (guid TEXT PRIMARY KEY, type_name TEXT NOT NULL, qualified_name TEXT NOT NULL,
      json TEXT NOT NULL, UNIQUE (type_name, qualified_name))`,
    );
    const insert = old.prepare("INSERT INTO entities VALUES (?, ?, ?, ?)");
    insert.run("g1", "DataSet", "ds://a", JSON.stringify(entity("g1", "ds://a")));
    insert.run("g2", "DataSet", "ds://b", JSON.stringify(entity("g2", "ds://b")));
    old.exec("PRAGMA user_version = 1");
    old.close();

    const store = EntityStore.open(path);
    try {
      assert.deepEqual(store.list().map((e) => e.guid), ["g1", "g2"]);
      store.put(entity("g1", "ds://a", "DELETED"));
      store.put(entity("g3", "ds://a"));
      assert.equal(store.findByQualifiedName("DataSet", "ds://a")?.guid, "g3");
      const version = store.database.prepare("PRAGMA user_version").get() as { user_version: number };
      assert.equal(version.user_version, 2);
    } finally {
      store.close();
    }
    const reopened = EntityStore.open(path);
    try {
      assert.equal(reopened.count(), 2);
      assert.equal(reopened.countAll(), 3);
    } finally {
      reopened.close();
    }
  });
});

Deno.test("store: a data file from a newer govcat is refused", async () => {
  await withTempFile((path) => {
    const newer = new DatabaseSync(path);
    newer.exec("PRAGMA user_version = 99");
    newer.close();
    assert.throws(() => EntityStore.open(path), /schema version 99, newer than this govcat understands/);
  });
});

Deno.test("a write waits while another process holds the data file's write lock, then goes through", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/catalog.db`;
  const store = EntityStore.open(file);
  try {
    // Another process takes the write lock for half a second (as a second emulator catching its index up).
    const holder = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { DatabaseSync } from "node:sqlite";
         const db = new DatabaseSync(${JSON.stringify(file)});
         db.exec("BEGIN IMMEDIATE");
         console.log("locked");
         await new Promise((resolve) => setTimeout(resolve, 500));
         db.exec("COMMIT");`,
      ],
      env: { DENO_NO_UPDATE_CHECK: "1" },
      stdout: "piped",
    }).spawn();
    const reader = holder.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assert.equal((await reader.read()).value?.trim(), "locked");
    store.put(entity("g-locked", "locked.table"));
    assert.equal(store.get("g-locked")?.attributes.qualifiedName, "locked.table");
    await reader.cancel();
    assert.equal((await holder.status).success, true);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
