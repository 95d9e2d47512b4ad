/**
 * `govcat entity bulk-import` (a subprocess) while the catalog itself dies or answers too late: the emulator runs as its own
 * subprocess on a SQLite file, is killed with SIGKILL mid-import (writes in flight, answers lost) and
 * started again on the same port with the same file. Either the import rides the outage out (a short
 * one), or it stops with exit 1 and its checkpoint (a long one) and `--resume` completes it. Either way
 * every row ends in the catalog exactly once: the data file, read directly once the emulator is gone,
 * holds one entity per row, each at version 0 (the emulator bumps the version on every write, so a write
 * repeated after a lost answer would show).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { BulkImportSummary } from "../../lib/csv/engine.ts";
import type { FaultStep } from "../../lib/emulator/fault_settings.ts";
import { EntityStore } from "../../lib/emulator/store.ts";
import {
  accountedRows,
  catalogEnv,
  completedBatches,
  spawnBulkImport,
  summaryIn,
  waitForCompletedBatches,
} from "../support/bulk_import_process.ts";
import { type EmulatorProcess, startEmulatorProcess } from "../support/emulator_process.ts";
import { type EntityCsvFile, entityQualifiedName, writeEntityCsv } from "../support/entity_csv.ts";
import type { ProcessResult } from "../support/govcat_process.ts";

const ROWS = 6_000;
const BATCH = 50;
const BATCHES = ROWS / BATCH;
/** Slows each answer (after the write is applied), so a kill lands on writes whose answer is pending. */
const EMULATOR_ARGS = ["--latency-ms=40"];
const CHECKPOINT_SUFFIX = ".govcat-checkpoint";

interface Setup {
  dir: string;
  dataFile: string;
  file: EntityCsvFile;
  args: string[];
}

async function withSetup(test: (setup: Setup) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "govcat-resilience-bulk-" });
  try {
    const file = await writeEntityCsv(`${dir}/entities.csv`, ROWS);
    const args = ["--csv-file", file.path, "--batch-size", String(BATCH), "--concurrency", "4"];
    await test({ dir, dataFile: `${dir}/catalog.db`, file, args });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function describe(run: ProcessResult): string {
  return `exit ${run.code}\n${run.stdout.slice(0, 2000)}\n${run.stderr.slice(0, 3000)}`;
}

/** Kills the emulator with SIGKILL, keeps it down `downtime` (ms, or until it resolves), and starts it again on its port and file. */
async function crashAndRestart(
  emulator: EmulatorProcess,
  dataFile: string,
  downtime: number | (() => Promise<void>),
): Promise<{ restarted: EmulatorProcess; downForMs: number }> {
  const killedAt = performance.now();
  const killed = await emulator.kill("SIGKILL");
  assert.notEqual(killed.code, 0, "the emulator was killed, not stopped");
  if (typeof downtime === "number") await new Promise((resolve) => setTimeout(resolve, downtime));
  else await downtime();
  const restarted = await startEmulatorProcess({ port: emulator.port, dataFile, args: EMULATOR_ARGS });
  assert.equal(restarted.url, emulator.url, "back on the same address");
  return { restarted, downForMs: Math.round(performance.now() - killedAt) };
}

/**
 * Every row exactly once: the summary counts each row once (created, or recovered when its answer was
 * lost and the engine found it applied), with nothing pending, skipped, updated or rejected; and the data
 * file holds exactly one entity per row, each written once (version 0).
 */
function assertEveryRowOnce(summary: BulkImportSummary, dataFile: string): void {
  assert.equal(summary.rows, ROWS);
  assert.equal(summary.pending, 0);
  assert.equal(accountedRows(summary), ROWS, "each row is counted once");
  assert.equal(summary.updated, 0, "no row was written twice");
  assert.equal(summary.rejected, 0);
  assert.equal(summary.skipped, 0);
  assert.equal(summary.created + summary.recovered, ROWS);

  const store = EntityStore.open(dataFile);
  try {
    assert.equal(store.countAll(), ROWS, "the catalog holds one entity per row and nothing else");
    const versions = new Map<string, number>();
    for (const entity of store.listAll()) {
      const name = String(entity.attributes.qualifiedName);
      assert.equal(versions.has(name), false, `${name} is stored once`);
      versions.set(name, Number(entity.version));
    }
    const missing = Array.from({ length: ROWS }, (_, i) => entityQualifiedName(i))
      .filter((name) => !versions.has(name));
    assert.deepEqual(missing.slice(0, 10), [], `${missing.length} rows are missing from the catalog`);
    const writtenTwice = [...versions].filter(([, version]) => version !== 0);
    assert.deepEqual(writtenTwice.slice(0, 10), [], `${writtenTwice.length} entities were written twice`);
  } finally {
    store.close();
  }
}

Deno.test("bulk import: the catalog killed and restarted within seconds; the import rides it out", async () => {
  await withSetup(async ({ dataFile, file, args }) => {
    let emulator = await startEmulatorProcess({ port: 0, dataFile, args: EMULATOR_ARGS });
    try {
      const env = catalogEnv(emulator.url, { CATALOG_MAX_RETRIES: "3", CATALOG_TIMEOUT: "10" });
      const run = spawnBulkImport(args, env, { timeoutMs: 60_000 });
      const before = await waitForCompletedBatches(file.path + CHECKPOINT_SUFFIX, 20, run);
      const { restarted, downForMs } = await crashAndRestart(emulator, dataFile, 1_000);
      emulator = restarted;
      const result = await run.result;
      const summary = summaryIn(result.stdout);
      console.log(
        `killed after ${before} of ${BATCHES} batches, down ${downForMs} ms; exit ${result.code}: ` +
          `${summary?.created} created, ${summary?.recovered} found applied, ${summary?.elapsedMs} ms`,
      );
      // The HTTP core retries a refused connection (nothing was sent) for several seconds, and the engine
      // retries a batch whose answer was lost after checking what it applied: a short outage is no failure.
      assert.equal(result.code, 0, `the import rode the outage out:\n${describe(result)}`);
      assert.ok(summary, result.stdout);
      assert.equal(summary.resumed, false);
      assert.equal(summary.batches, BATCHES);
      await assert.rejects(Deno.stat(file.path + CHECKPOINT_SUFFIX), Deno.errors.NotFound);
      await emulator.kill("SIGTERM");
      assertEveryRowOnce(summary, dataFile);
    } finally {
      await emulator.kill("SIGKILL");
    }
  });
});

Deno.test("bulk import: the catalog down longer than the retries; exit 1 with a checkpoint, --resume completes", async () => {
  await withSetup(async ({ dataFile, file, args }) => {
    let emulator = await startEmulatorProcess({ port: 0, dataFile, args: EMULATOR_ARGS });
    const checkpoint = file.path + CHECKPOINT_SUFFIX;
    try {
      // No retries in the HTTP core, so the engine's own attempts (five, over 7.5 to 15 s) decide.
      const env = catalogEnv(emulator.url, { CATALOG_MAX_RETRIES: "0", CATALOG_TIMEOUT: "10" });
      const run = spawnBulkImport(args, env, { timeoutMs: 60_000 });
      const before = await waitForCompletedBatches(checkpoint, 20, run);
      let stopped: ProcessResult | undefined;
      // The catalog stays down until the import has given up.
      const { restarted, downForMs } = await crashAndRestart(emulator, dataFile, async () => {
        stopped = await run.result;
      });
      emulator = restarted;
      assert.ok(stopped);
      assert.equal(stopped.code, 1, `the import stopped with exit 1:\n${describe(stopped)}`);
      assert.equal(stopped.stdout, "", "no summary on stdout: the run did not finish");
      assert.match(stopped.stderr, /could not be (reached|asked what it holds)/);
      assert.match(stopped.stderr, /hint: .*--resume/);
      const partial = summaryIn(stopped.stderr);
      assert.ok(partial, `the stopped run prints its summary:\n${stopped.stderr}`);
      assert.equal(partial.checkpointFile, checkpoint);
      assert.ok(partial.pending > 0 && partial.pending < ROWS, `${partial.pending} rows left for --resume`);
      assert.equal(accountedRows(partial) + partial.pending, ROWS);
      const recorded = await completedBatches(checkpoint);
      assert.ok(recorded >= before, `${recorded} batches recorded, ${before} of them before the kill`);

      const resumedRun = await spawnBulkImport([...args, "--resume"], env, { timeoutMs: 60_000 }).result;
      const summary = summaryIn(resumedRun.stdout);
      console.log(
        `killed after ${before} of ${BATCHES} batches, down ${downForMs} ms; stopped with ` +
          `${partial.pending} rows pending; resumed: ${summary?.batches} batches sent, ` +
          `${summary?.recovered} rows found applied`,
      );
      assert.equal(resumedRun.code, 0, `--resume completed the import:\n${describe(resumedRun)}`);
      assert.ok(summary, resumedRun.stdout);
      assert.equal(summary.resumed, true);
      assert.equal(
        summary.batches,
        BATCHES - recorded,
        "batches the checkpoint recorded were not sent again",
      );
      await assert.rejects(Deno.stat(checkpoint), Deno.errors.NotFound);
      await emulator.kill("SIGTERM");
      assertEveryRowOnce(summary, dataFile);
    } finally {
      await emulator.kill("SIGKILL");
    }
  });
});

Deno.test("bulk import: writes answered later than CATALOG_TIMEOUT are found applied, not sent again", async () => {
  await withSetup(async ({ dataFile, file, args }) => {
    const emulator = await startEmulatorProcess({ port: 0, dataFile, args: EMULATOR_ARGS });
    try {
      // Three bulk writes, among the first ones, are applied and then answered after 1.5 s: past the 1 s
      // timeout. A step without a fault lets its write through.
      const pass: FaultStep = { method: "POST", path: "/entity/bulk" };
      const slow: FaultStep = { ...pass, delayMs: 1_500 };
      const script = [...Array(10).fill(pass), slow, ...Array(10).fill(pass), slow, slow];
      const scripted = await fetch(`${emulator.url}/_emulator/faults/script`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(script),
      });
      assert.equal(scripted.status, 200, await scripted.text());
      const env = catalogEnv(emulator.url, { CATALOG_MAX_RETRIES: "3", CATALOG_TIMEOUT: "1" });
      const result = await spawnBulkImport(args, env, { timeoutMs: 60_000 }).result;
      assert.equal(result.code, 0, `the import finished:\n${describe(result)}`);
      const summary = summaryIn(result.stdout);
      assert.ok(summary, result.stdout);
      assert.equal(summary.recovered, 3 * BATCH, "the rows of the three late answers were found applied");
      await assert.rejects(Deno.stat(file.path + CHECKPOINT_SUFFIX), Deno.errors.NotFound);
      const stats = await (await fetch(`${emulator.url}/_emulator/stats`)).json();
      assert.equal(
        stats.byRoute["POST /datamap/api/atlas/v2/entity/bulk"],
        BATCHES,
        "one bulk write per batch: none was sent again after its timeout",
      );
      await emulator.kill("SIGTERM");
      assertEveryRowOnce(summary, dataFile);
    } finally {
      await emulator.kill("SIGKILL");
    }
  });
});
