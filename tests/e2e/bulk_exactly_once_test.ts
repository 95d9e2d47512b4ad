/**
 * `govcat entity bulk-import` as real processes on one checkpoint: a run SIGKILLed mid-import leaves its
 * lock file behind; two `--resume` runs started together then race for that dead lock: exactly one takes
 * it over and finishes the import, the other is refused (exit 2) naming the one running (pid, host, start
 * time) and sends nothing. Every row ends in the catalog exactly once, written once (version 0).
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import {
  catalogEnv,
  spawnBulkImport,
  summaryIn,
  waitForCompletedBatches,
} from "../support/bulk_import_process.ts";
import { entityQualifiedName, writeEntityCsv } from "../support/entity_csv.ts";

Deno.test("bulk import: two resumes started together after a SIGKILL: one runs, one is refused; every row once", async () => {
  const emulator = await startEmulator({ seed: false });
  const dir = await Deno.makeTempDir({ prefix: "govcat-exactly-once-" });
  try {
    const file = await writeEntityCsv(`${dir}/entities.csv`, 8_000);
    // Slow enough that the resume still runs when the second process starts.
    emulator.faults.set({ latencyMs: 40 });
    const args = ["--csv-file", file.path, "--batch-size", "100", "--concurrency", "4"];
    const env = catalogEnv(emulator.url, { CATALOG_MAX_RETRIES: "2" });
    const checkpoint = `${file.path}.govcat-checkpoint`;

    const first = spawnBulkImport(args, env, { timeoutMs: 40_000 });
    await waitForCompletedBatches(checkpoint, 5, first);
    first.kill("SIGKILL");
    await first.result;
    assert.match(
      await Deno.readTextFile(`${checkpoint}.lock`),
      new RegExp(`"pid":${first.pid}`),
      "the killed run left its lock file",
    );

    const runs = [0, 1].map(() => spawnBulkImport([...args, "--resume"], env, { timeoutMs: 40_000 }));
    const results = await Promise.all(runs.map((run) => run.result));
    const refused = results.findIndex((result) => result.code === 2);
    assert.notEqual(refused, -1, `one run is refused:\n${results.map((r) => r.stderr).join("\n---\n")}`);
    const finished = results[1 - refused];
    assert.equal(finished.code, 0, finished.stderr);
    assert.match(
      results[refused].stderr,
      new RegExp(
        `another import is running on this checkpoint \\(pid ${runs[1 - refused].pid} on host \\S+, ` +
          `started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; lock file ${checkpoint}\\.lock\\); nothing was sent`,
      ),
    );
    assert.equal(results[refused].stdout, "", "the refused run prints no summary");
    const summary = summaryIn(finished.stdout);
    assert.ok(summary, finished.stdout);
    assert.equal(summary.resumed, true);
    assert.equal(summary.pending, 0);
    assert.equal(summary.updated, 0, "no row was written twice");
    await assert.rejects(Deno.stat(checkpoint), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(`${checkpoint}.lock`), Deno.errors.NotFound, "the lock is released");

    // Per row in the store: each entity once, at version 0 (written once).
    emulator.faults.reset();
    assert.equal(emulator.entityCount(), file.rows);
    const client = CatalogClient.fromConfig(loadConfig(env));
    const twice: string[] = [];
    let found = 0;
    for (let i = 0; i < file.rows; i += 200) {
      const names = Array.from(
        { length: Math.min(200, file.rows - i) },
        (_, k) => entityQualifiedName(i + k),
      );
      const result = await client.entity.listByUniqueAttributes("DataSet", names, {
        minExtInfo: true,
        ignoreRelationships: true,
      });
      for (const entity of result.entities ?? []) {
        found++;
        if (entity.version !== 0) twice.push(String(entity.attributes?.qualifiedName));
      }
    }
    assert.equal(found, file.rows, "every row is in the catalog once");
    assert.deepEqual(twice.slice(0, 10), [], `${twice.length} rows were written more than once`);
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
});
