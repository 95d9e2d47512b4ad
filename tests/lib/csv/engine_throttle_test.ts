/**
 * The bulk engine under a 429 that the HTTP client retries by itself: the client pauses every request for
 * the Retry-After the service gave, and the engine's adaptive window is told that pause, not only that a
 * throttle happened, so round trips within a pause longer than its cool-down are not taken for samples
 * (what the window makes of the pause is `adaptive_window_test.ts`'s).
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config.ts";
import { AdaptiveWindow } from "../../../lib/csv/adaptive_window.ts";
import { runBulkImport } from "../../../lib/csv/engine.ts";
import { csvTemplate } from "../../../lib/csv/templates/mod.ts";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { entityCsvImport } from "../../../lib/operations/entity_bulk_operations.ts";

/** An adaptive window that records the pauses it is told of. */
class WatchedWindow extends AdaptiveWindow {
  readonly pauses: number[] = [];

  override throttled(pauseMs = 0): void {
    this.pauses.push(pauseMs);
    super.throttled(pauseMs);
  }
}

Deno.test("engine: the pause a 429 asks for (1.5 s, longer than the window's cool-down) reaches the window", async () => {
  const emulator = await startEmulator({ seed: false });
  const dir = await Deno.makeTempDir({ prefix: "govcat-engine-throttle-" });
  try {
    const client = CatalogClient.fromConfig(
      loadConfig({
        CATALOG_ACCOUNT_NAME: "emulator",
        CATALOG_ENDPOINT: emulator.url,
        CATALOG_MAX_RETRIES: "3",
      }),
      { retryBaseMs: 5 },
    );
    const lines = ["typeName,qualifiedName,displayName"];
    for (let i = 0; i < 120; i++) lines.push(`DataSet,ds://throttle/${i},Set ${i}`);
    const path = `${dir}/entities.csv`;
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    // The first bulk write is throttled; the client waits the 1.5 s out and sends it again by itself, so
    // the engine learns of the throttle only through the client's listener.
    emulator.faults.script([{ status: 429, retryAfterMs: 1500, method: "POST" }]);
    const window = new WatchedWindow(8);
    const summary = await runBulkImport(entityCsvImport(client, csvTemplate("entity-bulk-import")!), {
      file: path,
      batchSize: 10,
      concurrency: 8,
      window,
    });
    assert.equal(summary.created, 120);
    assert.equal(summary.throttled, 1);
    assert.equal(emulator.entityCount(), 120);
    assert.deepEqual(window.pauses, [1500], "the window was told how long the pause lasts");
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("engine: under a service's rate limit, the import paces to the rate it learns instead of drawing a 429 storm", async () => {
  // 50 requests a second, each batch a lookup and a write: the lookups and writes arrive in pairs, and
  // without a learnt rate the requests a pause held back leave together and half of them draw a 429.
  const emulator = await startEmulator({ seed: false, faults: { requestsPerSecond: 50 } });
  const dir = await Deno.makeTempDir({ prefix: "govcat-engine-rate-" });
  try {
    const client = CatalogClient.fromConfig(
      loadConfig({
        CATALOG_ACCOUNT_NAME: "emulator",
        CATALOG_ENDPOINT: emulator.url,
        CATALOG_MAX_RETRIES: "5",
      }),
      { retryBaseMs: 5 },
    );
    const rows = 1000, batchSize = 10;
    const lines = ["typeName,qualifiedName,displayName"];
    for (let i = 0; i < rows; i++) lines.push(`DataSet,ds://rate/${i},Set ${i}`);
    const path = `${dir}/entities.csv`;
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    const summary = await runBulkImport(entityCsvImport(client, csvTemplate("entity-bulk-import")!), {
      file: path,
      batchSize,
      concurrency: 8,
    });
    assert.equal(summary.created, rows);
    assert.equal(emulator.entityCount(), rows, "every row stored once");
    const log = emulator.faults.stats().log;
    const refused = log.filter((entry) => entry.status === 429).length;
    const writes = log.filter((entry) => entry.method === "POST" && entry.status === 200).length;
    assert.equal(writes, rows / batchSize);
    // The opening burst is refused before anything is learnt (up to the window in flight); after that a
    // 429 only marks each probe past the limit. Without the learnt rate: 21 to 29 429s; with it, 3 to 8.
    assert.ok(refused <= writes * 0.15, `${refused} 429s for ${writes} writes`);
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
});
