/**
 * The bulk engine under a 429 that the HTTP client retries by itself: the client pauses every request for
 * the Retry-After the service gave, and the engine's adaptive window is told that pause, not only that a
 * throttle happened, so round trips within a pause longer than its cool-down are not taken for samples
 * (what the window makes of the pause is `adaptive_window_test.ts`'s).
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { AdaptiveWindow } from "../../../lib/csv/adaptive_window.ts";
import { runBulkImport } from "../../../lib/csv/engine.ts";
import { csvTemplate } from "../../../lib/templates/csv/mod.ts";
import type { FaultSettings } from "../../../lib/emulator/fault_settings.ts";
import { type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";
import { entityCsvImport } from "../../../lib/imports/entity_csv_import.ts";

/** An adaptive window that records the pauses it is told of. */
class WatchedWindow extends AdaptiveWindow {
  readonly pauses: number[] = [];

  override throttled(pauseMs = 0): void {
    this.pauses.push(pauseMs);
    super.throttled(pauseMs);
  }
}

/** What a test gets: the emulator, a client of it that retries by itself, and the CSV's path. */
interface Setup {
  emulator: RunningEmulator;
  client: CatalogClient;
  path: string;
}

/**
 * An emulator with `faults`, a client of it retrying up to `maxRetries` times, and a CSV of `rows` DataSet
 * rows named `ds://{name}/{i}`, for `test`; all removed after it.
 */
async function withEntityFile(
  options: { name: string; rows: number; maxRetries: number; faults?: Partial<FaultSettings> },
  test: (setup: Setup) => Promise<void>,
): Promise<void> {
  const emulator = await startEmulator({ seed: false, faults: options.faults });
  const dir = await Deno.makeTempDir({ prefix: `govcat-engine-${options.name}-` });
  try {
    const client = CatalogClient.fromConfig(
      loadConfig({
        CATALOG_ACCOUNT_NAME: "emulator",
        CATALOG_ENDPOINT: emulator.url,
        CATALOG_MAX_RETRIES: String(options.maxRetries),
      }),
      { retryBaseMs: 5 },
    );
    const lines = ["typeName,qualifiedName,displayName"];
    for (let i = 0; i < options.rows; i++) lines.push(`DataSet,ds://${options.name}/${i},Set ${i}`);
    const path = `${dir}/entities.csv`;
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    await test({ emulator, client, path });
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("engine: the pause a 429 asks for (1.5 s, longer than the window's cool-down) reaches the window", async () => {
  await withEntityFile({ name: "throttle", rows: 120, maxRetries: 3 }, async ({ emulator, client, path }) => {
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
  });
});

Deno.test("engine: under a service's rate limit, the import paces to the rate it learns instead of drawing a 429 storm", async () => {
  // 50 requests a second, each batch a lookup and a write: the lookups and writes arrive in pairs, and
  // without a learnt rate the requests a pause held back leave together and half of them draw a 429.
  const rows = 1000, batchSize = 10;
  const options = { name: "rate", rows, maxRetries: 5, faults: { requestsPerSecond: 50 } };
  await withEntityFile(options, async ({ emulator, client, path }) => {
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
  });
});
