/**
 * The emulator's per-record write counts: a write counts when its transaction commits, never when it is
 * rolled back (a bulk call the service refuses as a whole); the data file never holds them; the admin route
 * answers them by kind.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { countWrite, trackWrites, writeCounts } from "../../../lib/emulator/write_counts.ts";

Deno.test("write counts: committed writes count, rolled back ones do not", () => {
  const db = new DatabaseSync(":memory:");
  try {
    trackWrites(db);
    countWrite(db, "collection", "finance");
    db.exec("BEGIN");
    countWrite(db, "collection", "finance");
    countWrite(db, "collection", "sales");
    db.exec("ROLLBACK");
    db.exec("BEGIN");
    countWrite(db, "collection", "finance");
    db.exec("COMMIT");
    assert.deepEqual(writeCounts(db, "collection"), { finance: 2 });
    assert.deepEqual(writeCounts(db, "glossary-term"), {});
  } finally {
    db.close();
  }
});

Deno.test("write counts: GET /_emulator/writes answers them by kind; the data file has no table of them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-write-counts-" });
  try {
    const emulator = await startEmulator({ seed: false, dataFile: `${dir}/catalog.db` });
    try {
      const put = (name: string) =>
        fetch(`${emulator.url}/account/collections/${name}?api-version=2019-11-01-preview`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ friendlyName: name, parentCollection: { referenceName: "emulator" } }),
        }).then((response) => response.body?.cancel());
      await put("finance");
      await put("finance");
      await put("sales");
      const answer = await (await fetch(`${emulator.url}/_emulator/writes?kind=collection`)).json();
      assert.equal(answer.kind, "collection");
      assert.equal(answer.counts.finance, 2);
      assert.equal(answer.counts.sales, 1);
    } finally {
      await emulator.close();
    }
    const db = new DatabaseSync(`${dir}/catalog.db`);
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%write_counts%'").all();
      assert.deepEqual(tables, []);
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
