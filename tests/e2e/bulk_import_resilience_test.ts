/**
 * `govcat entity bulk-import` as a real process against a faulty emulator: 429s (Retry-After 0 and 1 s,
 * retry-after-ms), 500s and 503s, dropped connections before and after the write was applied, a process
 * killed with SIGKILL mid-import and resumed, and a Ctrl-C (SIGINT) resumed. Every row of the file must end
 * accounted for exactly once: in the summary, in the catalog (each entity written once: version 0) or in the
 * reject file (once, with its line).
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import type { BulkImportSummary } from "../../lib/csv/engine.ts";
import type { FaultStep } from "../../lib/emulator/fault_settings.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import {
  accountedRows,
  type BulkImportProcess,
  catalogEnv,
  completedBatches,
  spawnBulkImport,
  summaryIn,
  waitForCompletedBatches,
} from "../support/bulk_import_process.ts";
import { type EntityCsvFile, entityQualifiedName, writeEntityCsv } from "../support/entity_csv.ts";
import type { ProcessResult } from "../support/govcat_process.ts";

/** How long one resumed run may take before it is killed as hung. */
const RESUME_TIMEOUT_MS = 120_000;

const CHECKPOINT_SUFFIX = ".govcat-checkpoint";

interface Setup {
  emulator: RunningEmulator;
  dir: string;
}

async function withEmulator(test: (setup: Setup) => Promise<void>): Promise<void> {
  const emulator = await startEmulator({ seed: false });
  const dir = await Deno.makeTempDir({ prefix: "govcat-bulk-resilience-" });
  try {
    await test({ emulator, dir });
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
}

function describeRuns(runs: ProcessResult[]): string {
  const describe = (run: ProcessResult, i: number) =>
    `run ${i + 1}: exit ${run.code}\n${run.stdout.slice(0, 1500)}${run.stderr.slice(0, 1500)}`;
  return runs.map(describe).join("\n---\n");
}

/**
 * Runs `--resume` until a run finishes the import (exit 0, or 1 when rows were rejected, with a summary
 * on stdout that leaves nothing pending); a run may stop early on a lookup the faults broke, and is then
 * resumed again. Returns the finishing run's summary.
 */
async function resumeUntilDone(
  args: string[],
  env: Record<string, string>,
  runs: ProcessResult[],
  maxRuns: number,
): Promise<BulkImportSummary> {
  while (runs.length < maxRuns) {
    // A resume rides out dropped connections (each waits out CATALOG_TIMEOUT): alone one takes about 35 s,
    // so 40 s killed one on a loaded CI machine. The bound is only there so that a hang ends the test.
    const run = await spawnBulkImport([...args, "--resume"], env, { timeoutMs: RESUME_TIMEOUT_MS }).result;
    runs.push(run);
    const finished = summaryIn(run.stdout);
    if (finished && (run.code === 0 || run.code === 1) && finished.pending === 0) return finished;
    assert.equal(
      run.code,
      1,
      `a resumed run either finishes or stops early (exit 1):\n${describeRuns(runs)}`,
    );
  }
  assert.fail(`the import was not finished after ${maxRuns} runs:\n${describeRuns(runs)}`);
}

/** Entities found by unique attribute, by qualified name, read in chunks with a client of our own. */
async function storedEntities(emulator: RunningEmulator, names: string[]): Promise<Map<string, number>> {
  const client = CatalogClient.fromConfig(
    loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url, CATALOG_RATE_LIMIT: "0" }),
  );
  const versions = new Map<string, number>();
  const chunks: string[][] = [];
  for (let i = 0; i < names.length; i += 100) chunks.push(names.slice(i, i + 100));
  const worker = async () => {
    for (let chunk = chunks.pop(); chunk; chunk = chunks.pop()) {
      const result = await client.entity.listByUniqueAttributes("DataSet", chunk, {
        minExtInfo: true,
        ignoreRelationships: true,
      });
      for (const entity of result.entities ?? []) {
        const name = String(entity.attributes?.qualifiedName);
        assert.equal(versions.has(name), false, `${name} is stored once`);
        versions.set(name, Number(entity.version));
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return versions;
}

/** The reject file's rows as `[source_line, import_error, qualifiedName]`. */
async function rejectRows(path: string): Promise<Array<[number, string, string]>> {
  const [header, ...rows] = (await Deno.readTextFile(path)).trim().split("\r\n");
  assert.equal(
    header,
    "typeName,qualifiedName,displayName,description,attr.owner,attr.colour,source_line,import_error",
  );
  return rows.map((row) => {
    const match = /^DataSet,([^,]+),Set \d+,"Row \d+, described",team-\d,red,(\d+),(.*)$/.exec(row);
    assert.ok(match, `a reject row keeps its cells, its line and the service's answer: ${row}`);
    return [Number(match[2]), match[3], match[1]];
  });
}

/**
 * Every row of `file` exactly once: the final summary counts each row once with nothing pending and
 * nothing written twice; the catalog holds exactly the accepted rows, each at version 0 (the emulator
 * bumps the version on every write); the reject file holds each refused row once with its line.
 */
async function assertEveryRowOnce(
  emulator: RunningEmulator,
  file: EntityCsvFile,
  summary: BulkImportSummary,
) {
  const refused = file.refusedLines.length;
  assert.equal(summary.rows, file.rows);
  assert.equal(summary.pending, 0);
  assert.equal(accountedRows(summary), file.rows, "each row is counted once");
  assert.equal(summary.rejected, refused);
  assert.equal(summary.failed, refused);
  assert.equal(summary.skipped, 0);
  // A second write of an entity reports an update: a write whose answer was lost must be looked up
  // (BulkImport.applied), not sent again.
  assert.equal(summary.updated, 0, "no row was written twice");
  assert.equal(summary.created + summary.recovered, file.rows - refused);

  const refusedSet = new Set(file.refusedLines);
  const accepted: string[] = [];
  const refusedNames: string[] = [];
  for (let i = 0; i < file.rows; i++) {
    (refusedSet.has(i + 2) ? refusedNames : accepted).push(entityQualifiedName(i));
  }
  assert.equal(
    emulator.entityCount(),
    accepted.length,
    "the catalog holds the accepted rows and nothing else",
  );
  const versions = await storedEntities(emulator, [...accepted, ...refusedNames]);
  assert.equal(versions.size, accepted.length);
  const missing = accepted.filter((name) => !versions.has(name));
  assert.deepEqual(missing, [], "every accepted row is in the catalog");
  const writtenTwice = [...versions].filter(([, version]) => version !== 0);
  assert.deepEqual(
    writtenTwice.slice(0, 10),
    [],
    `${writtenTwice.length} entities were written more than once`,
  );

  if (refused === 0) {
    assert.equal(summary.errorsFile, undefined, "no reject file without rejected rows");
    return;
  }
  assert.ok(summary.errorsFile, "the summary names the reject file");
  const rejects = await rejectRows(summary.errorsFile);
  assert.deepEqual(rejects.map(([line]) => line), file.refusedLines, "each refused row once, in file order");
  for (const [line, reason, name] of rejects) {
    assert.equal(name, entityQualifiedName(line - 2));
    assert.match(reason, /^"?400 [A-Za-z0-9-]+: .*colour/, `line ${line} carries the service's answer`);
  }
}

/**
 * A script of faults for the first bulk writes, consumed one step per `POST …/entity/bulk` in order (a
 * step wins over the random faults, which apply to the writes after the script and to every lookup): most
 * steps pass, the others refuse (429 with each kind of wait, 500 early on only) or lose the answer after
 * the write was applied (a dropped connection, a 503).
 */
function writeFaults(steps: number): FaultStep[] {
  const step = (fault: Partial<FaultStep>): FaultStep => ({ method: "POST", path: "/entity/bulk", ...fault });
  return Array.from({ length: steps }, (_, i) => {
    if (i % 20 === 3) return step({ status: 429, retryAfterMs: 100 });
    if (i % 100 === 9) return step({ status: 429, retryAfterSeconds: 1 });
    if (i % 20 === 7) return step({ drop: true, afterHandling: true });
    if (i % 20 === 13) return step({ status: 503, retryAfterSeconds: 0, afterHandling: true });
    // A 500 is a refusal: the batch is split to find the row at fault. Only early on, before the batches
    // of refused rows, so it never lands on a single row (which would then be rejected for it).
    if (i < 60 && i % 20 === 17) return step({ status: 500 });
    return step({});
  });
}

Deno.test("bulk import: 429s, 5xx, dropped connections and a SIGKILL; resumed, every row once", async () => {
  await withEmulator(async ({ emulator, dir }) => {
    // Refused rows only in the second half of the file, far from the early 500s (see writeFaults).
    const file = await writeEntityCsv(`${dir}/entities.csv`, 20_000, {
      refused: (i) => i >= 12_000 && i % 1_500 === 7,
    });
    emulator.faults.set({
      latencyMs: 10,
      throttleRate: 0.05,
      retryAfterSeconds: 0,
      errorRate: 0.04,
      errorStatus: 503,
      dropRate: 0.03,
      randomSeed: 20_000,
    });
    emulator.faults.script(writeFaults(160));
    const args = ["--csv-file", file.path, "--batch-size", "100", "--concurrency", "4"];
    const env = catalogEnv(emulator.url, { CATALOG_MAX_RETRIES: "2", CATALOG_TIMEOUT: "20" });
    const checkpoint = file.path + CHECKPOINT_SUFFIX;

    const first: BulkImportProcess = spawnBulkImport(args, env, { timeoutMs: 40_000 });
    const before = await waitForCompletedBatches(checkpoint, 30, first);
    first.kill("SIGKILL");
    const killed = await first.result;
    assert.notEqual(
      killed.code,
      0,
      `the first run was killed mid-import:\n${killed.stdout}\n${killed.stderr}`,
    );
    assert.equal(killed.stdout, "", "a killed run prints no summary");
    const recorded = await completedBatches(checkpoint);
    assert.ok(recorded >= before && recorded < 200, `${recorded} of 200 batches recorded before the kill`);

    const runs: ProcessResult[] = [killed];
    const summary = await resumeUntilDone(args, env, runs, 6);
    assert.equal(summary.resumed, true);
    assert.ok(summary.batches < 200, "batches the checkpoint recorded were not sent again");
    assert.ok(summary.recovered > 0, "rows whose answer was lost were found applied instead of sent again");
    await assert.rejects(
      Deno.stat(checkpoint),
      Deno.errors.NotFound,
      "a finished import leaves no checkpoint",
    );

    // Each kind of fault really happened.
    const log = emulator.faults.stats().log;
    const faults = new Set(
      log.filter((entry) => entry.fault).map((entry) => `${entry.fault} ${entry.status}`),
    );
    for (
      const kind of [
        "script 429",
        "script 500",
        "script 503",
        "script 0",
        "throttle 429",
        "error 503",
        "drop 0",
      ]
    ) {
      assert.ok(faults.has(kind), `fault ${kind} was injected (seen: ${[...faults].join(", ")})`);
    }
    emulator.faults.reset();
    await assertEveryRowOnce(emulator, file, summary);
  });
});

Deno.test("bulk import: Ctrl-C exits 130 naming the checkpoint; --resume completes it", async () => {
  await withEmulator(async ({ emulator, dir }) => {
    const file = await writeEntityCsv(`${dir}/interrupted.csv`, 10_000);
    emulator.faults.set({ latencyMs: 40 });
    const args = ["--csv-file", file.path, "--batch-size", "100", "--concurrency", "4"];
    const env = catalogEnv(emulator.url, { CATALOG_MAX_RETRIES: "2" });
    const checkpoint = file.path + CHECKPOINT_SUFFIX;

    const run = spawnBulkImport(args, env, { timeoutMs: 40_000 });
    await waitForCompletedBatches(checkpoint, 10, run);
    run.kill("SIGINT");
    const interrupted = await run.result;
    assert.equal(interrupted.code, 130, `Ctrl-C exits 130:\n${interrupted.stderr}`);
    assert.match(interrupted.stderr, /interrupted: finishing in-flight work and saving progress/);
    assert.match(interrupted.stderr, /hint: .*--resume/);
    // The summary is on stdout, as a finished run's is (and the whole of it); stderr tells, not repeats.
    const partial = summaryIn(interrupted.stdout);
    assert.ok(partial, `the interrupted run prints its summary on stdout:\n${interrupted.stdout}`);
    assert.deepEqual(JSON.parse(interrupted.stdout), partial);
    assert.equal(summaryIn(interrupted.stderr), undefined, interrupted.stderr);
    assert.equal(partial.checkpointFile, checkpoint);
    assert.ok(partial.pending > 0 && partial.pending < file.rows, `${partial.pending} rows left`);
    assert.equal(accountedRows(partial) + partial.pending, file.rows);
    // Batches in flight were let finish and recorded: the catalog holds exactly the rows counted done.
    assert.equal(emulator.entityCount(), partial.created);
    assert.equal(await completedBatches(checkpoint), (file.rows - partial.pending) / 100);

    const resumed = await spawnBulkImport([...args, "--resume"], env, { timeoutMs: RESUME_TIMEOUT_MS })
      .result;
    assert.equal(resumed.code, 0, resumed.stderr);
    const summary = summaryIn(resumed.stdout);
    assert.ok(summary, resumed.stdout);
    assert.equal(summary.resumed, true);
    assert.equal(summary.batches, partial.pending / 100, "only the batches left were sent");
    await assertEveryRowOnce(emulator, file, summary);
    assert.equal(summary.recovered, 0, "nothing was left uncertain by Ctrl-C");
    await assert.rejects(Deno.stat(checkpoint), Deno.errors.NotFound);
  });
});
