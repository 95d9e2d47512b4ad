/**
 * Heap relief (`lib/csv/heap_relief.ts`): memory-reducing full collections while a large import sends.
 * In process: a collection before `startHeapRelief` returns, then as the limits say, and none after `stop`.
 * As real `govcat entity bulk-import` processes under `--v8-flags=--trace-gc` (which only prints what V8
 * does): an import of more than HEAP_RELIEF_MIN_ROWS rows shows V8's memory-reducing full collections
 * ("Mark-Compact (reduce)"), which V8 never makes by itself in so short a run, and a 100-row import none.
 */
import assert from "node:assert/strict";
import { HEAP_RELIEF_MIN_ROWS, startHeapRelief } from "../../../lib/csv/heap_relief.ts";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { catalogEnv, spawnBulkImport } from "../../support/bulk_import_process.ts";
import { writeEntityCsv } from "../../support/entity_csv.ts";

const REDUCING_COLLECTION = /Mark-Compact \(reduce\)/g;

Deno.test("heap relief: collects before it returns, then as its limits say, and not after stop", async () => {
  // Every look at the heap calls for a collection.
  const relief = await startHeapRelief({ intervalMs: 0, settledBytes: 0, urgentBytes: 0 });
  assert.equal(relief.collections, 1, "the first collection is made before startHeapRelief returns");
  let garbage: number[][] = [];
  try {
    const deadline = Date.now() + 10_000;
    while (relief.collections < 3 && Date.now() < deadline) {
      garbage = Array.from({ length: 20_000 }, (_, i) => [i]);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok(relief.collections >= 3, `${relief.collections} collections in 10 s`);
  } finally {
    relief.stop();
  }
  const made = relief.collections;
  for (let i = 0; i < 20; i++) {
    garbage = Array.from({ length: 20_000 }, (_, i) => [i]);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(relief.collections, made, `no collection after stop (${garbage.length} arrays made)`);
});

/** Runs an import of `rows` rows with V8's collections traced; returns how many were memory-reducing. */
async function reducingCollections(rows: number): Promise<number> {
  const emulator = await startEmulator({ seed: false });
  const dir = await Deno.makeTempDir({ prefix: "govcat-heap-relief-" });
  try {
    const file = await writeEntityCsv(`${dir}/entities.csv`, rows);
    const run = spawnBulkImport(
      ["--csv-file", file.path, "--batch-size", "100", "--if-exists=update", "--confirm"],
      catalogEnv(emulator.url),
      { timeoutMs: 60_000, denoFlags: ["--v8-flags=--trace-gc"] },
    );
    const { code, stdout, stderr } = await run.result;
    assert.equal(code, 0, stderr);
    // V8's trace lines share stdout with the summary and may cut through it.
    assert.match(stdout, new RegExp(`"rows": ${rows},`), stdout.slice(-2000));
    assert.match(stdout, /"pending": 0,/, stdout.slice(-2000));
    return stdout.match(REDUCING_COLLECTION)?.length ?? 0;
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("heap relief: a large import makes memory-reducing collections; a small one makes none", async () => {
  const large = await reducingCollections(HEAP_RELIEF_MIN_ROWS + 2_000);
  assert.ok(large > 0, "no memory-reducing collection during a large import");
  assert.equal(await reducingCollections(100), 0, "a 100-row import made memory-reducing collections");
});
