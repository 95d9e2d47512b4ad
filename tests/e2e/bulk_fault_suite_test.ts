/**
 * One fault suite for every import kind: entities (`entity bulk-import`), bulk update
 * (`entity bulk-update-csv`), glossary terms (`glossary import-terms --mode=batches`), term assignments
 * (`glossary assign_terms`), lineage (`lineage import`), collections (`collections import`), unified catalog
 * terms (`uc term import-csv`), role assignments (`policy import`, one policy write per collection:
 * `tests/support/fault_suite_policy_kind.ts`) and business metadata (`entity import-business-metadata`).
 * The kinds are a table (`tests/support/fault_suite_kinds.ts`): how to build each one's CSV (a few hundred
 * rows, small batches with several in flight, a few rows the service refuses: none for glossary terms and
 * collections, whose refusals the import's own checks find first), its command line, and how to count its
 * rows in the store.
 *
 * Each engine kind runs as real govcat processes against the emulator while it
 * - loses answers after the service applied the write (scripted: a dropped connection, or a 503, after the
 *   write; and a few dropped before it, at random),
 * - throttles (429 with Retry-After, and with retry-after-ms; scripted, and at random on every request),
 * - and has its first process SIGKILLed with batches in flight, then resumed with `--resume` until done.
 *
 * Then it counts per row in the store, never totals: every valid row written exactly once (an entity's
 * version, bumped on every write; else the emulator's write count of the record: glossary terms, term
 * assignments, collections, unified catalog terms), every bad row stored never and in the reject file
 * exactly once.
 *
 * Each guarantee was seen to fail without its kind's code for it: without `applied` (the look-up of an
 * interrupted or unanswered batch) bulk update wrote rows three times and glossary and unified catalog terms
 * rejected valid rows as duplicates of themselves; with the HTTP core repeating writes whose answer was lost,
 * lineage processes, collections and term assignments were written twice.
 *
 * Service jobs. Business metadata, and glossary terms in the default (service) mode, are not run by the
 * engine: govcat uploads the file and the service imports it as one job, with no checkpoint, no reject file
 * and no resume. Exactly once there means the job is atomic and its answer accounts for each row once: an
 * upload either lands whole or not at all (a kill or a lost answer never leaves part of a file applied), a
 * repeated upload (after a lost answer, or running the command again) sets the same values again, and the
 * answer of the upload that finishes lists each refused row once. The suite checks that for business
 * metadata (every valid row holds its value, every entity of the file was written by the same number of
 * uploads, each refused row reported once), and covers the engine's guarantee for glossary terms through
 * the batches mode.
 */
import assert from "node:assert/strict";
import type { BulkImportSummary } from "../../lib/csv/engine.ts";
import type { FaultStep } from "../../lib/emulator/fault_settings.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { accountedRows, catalogEnv, completedBatches, summaryIn } from "../support/bulk_import_process.ts";
import { ENGINE_KINDS, type FaultKind, kindClients } from "../support/fault_suite_kinds.ts";
import { roleAssignmentsKind } from "../support/fault_suite_policy_kind.ts";
import { govcatArgs, killQuietly, type ProcessResult, spawnPiped } from "../support/govcat_process.ts";
import { readCsvRecords } from "../support/import_setup.ts";

/** A govcat process the suite can kill. */
function spawnGovcat(args: string[], env: Record<string, string>, timeoutMs = 40_000) {
  const child = spawnPiped(govcatArgs(args), { env });
  const deadline = setTimeout(() => killQuietly(child, "SIGKILL"), timeoutMs);
  const result = (async (): Promise<ProcessResult> => {
    const [stdout, stderr, status] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.status,
    ]);
    clearTimeout(deadline);
    return { code: status.code, stdout, stderr };
  })();
  return { result, kill: () => killQuietly(child, "SIGKILL") };
}

/**
 * The first writes of a kind: some pass, some lose their answer after the service applied them (a dropped
 * connection, a 503), some are throttled (429 with Retry-After: 0, or retry-after-ms).
 */
function writeFaults(kind: FaultKind): FaultStep[] {
  const step = (fault: Partial<FaultStep>): FaultStep => ({ ...kind.write, ...fault });
  return Array.from({ length: kind.faultedWrites ?? 36 }, (_, i) => {
    if (i % 6 === 1) {
      return step(
        kind.emptyAnswers
          ? { status: 503, retryAfterSeconds: 0, afterHandling: true }
          : { drop: true, afterHandling: true },
      );
    }
    if (i % 6 === 3) return step({ status: 429, retryAfterSeconds: 0 });
    if (i % 6 === 4) return step({ status: 429, retryAfterMs: 40 });
    if (i % 12 === 5) return step({ status: 503, retryAfterSeconds: 0, afterHandling: true });
    return step({});
  });
}

function describeRuns(runs: ProcessResult[]): string {
  return runs.map((run, i) =>
    `run ${i + 1}: exit ${run.code}\n${run.stdout.slice(0, 1500)}${run.stderr.slice(0, 1500)}`
  )
    .join("\n---\n");
}

/** Runs `kind` under faults, killed once and resumed until done; returns the finishing summary. */
async function importUnderFaults(kind: FaultKind) {
  const emulator = await startEmulator({ seed: false });
  const dir = await Deno.makeTempDir({ prefix: "govcat-fault-suite-" });
  try {
    const prepared = await kind.prepare({ emulator, dir, ...kindClients(emulator) });
    const env = catalogEnv(emulator.url, {
      CATALOG_UNIFIED_ENDPOINT: emulator.url,
      CATALOG_MAX_RETRIES: "2",
      CATALOG_TIMEOUT: "20",
    });
    const args = [
      ...prepared.args,
      "--batch-size",
      String(kind.batchSize),
      "--concurrency",
      String(kind.concurrency),
    ];
    const checkpoint = `${prepared.file}.govcat-checkpoint`;
    emulator.faults.set({
      latencyMs: 3,
      throttleRate: 0.02,
      retryAfterSeconds: 0,
      dropRate: 0.005,
      randomSeed: 16,
    });
    emulator.faults.script(writeFaults(kind));

    // The first run is killed with batches in flight, after a few were recorded.
    const first = spawnGovcat(args, env);
    let ended = false;
    first.result.then(() => ended = true);
    while (!ended && await completedBatches(checkpoint) < 3) await new Promise((r) => setTimeout(r, 5));
    first.kill();
    const runs: ProcessResult[] = [await first.result];
    assert.ok(!ended || runs[0].code !== 0, `the first run was killed mid-import:\n${describeRuns(runs)}`);

    let summary: BulkImportSummary | undefined;
    while (summary === undefined) {
      assert.ok(runs.length <= 8, `not finished after ${runs.length} runs:\n${describeRuns(runs)}`);
      const run = await spawnGovcat([...args, "--resume"], env).result;
      runs.push(run);
      const printed = summaryIn(run.stdout);
      if (printed && (run.code === 0 || run.code === 1) && printed.pending === 0) summary = printed;
      else {assert.equal(
          run.code,
          1,
          `a resumed run finishes or stops early (exit 1):\n${describeRuns(runs)}`,
        );}
    }
    const log = emulator.faults.stats().log;
    emulator.faults.reset();
    emulator.faults.script([]);
    const injected = new Set(log.filter((e) => e.fault).map((e) => `${e.fault} ${e.status}`));
    return { emulator, dir, prepared, summary, runs, injected, writes: await prepared.writes() };
  } catch (error) {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
    throw error;
  }
}

for (const kind of [...ENGINE_KINDS, roleAssignmentsKind]) {
  Deno.test(`fault suite: ${kind.name}: lost answers, 429s, a SIGKILL and resumes; every row once`, async () => {
    const started = performance.now();
    const { emulator, dir, prepared, summary, runs, injected, writes } = await importUnderFaults(kind);
    try {
      // A dropped answer of an empty body (204) arrives whole: those kinds lose theirs to 503s.
      const seen = `seen: ${[...injected].join(", ")}`;
      assert.ok(injected.has("script 0") || injected.has("script 503"), `answers were lost (${seen})`);
      assert.ok(injected.has("script 429"), `writes were throttled (${seen})`);
      // Per row in the store.
      const lost = prepared.validKeys.filter((key) => !writes.has(key));
      const twice = prepared.validKeys.filter((key) => (writes.get(key) ?? 0) > 1);
      const badStored = prepared.badKeys.filter((key) => writes.has(key));
      assert.deepEqual(lost.slice(0, 10), [], `${lost.length} valid rows were never written`);
      assert.deepEqual(
        twice.slice(0, 10).map((key) => `${key}: ${writes.get(key)}`),
        [],
        `${twice.length} valid rows were written more than once:\n${describeRuns(runs)}`,
      );
      assert.deepEqual(badStored, [], "no bad row is stored");
      // Each bad row in the reject file once, in file order.
      if (prepared.badLines.length > 0) {
        assert.ok(summary.errorsFile, "the summary names the reject file");
        const rejected = (await readCsvRecords(summary.errorsFile)).map((r) => Number(r.source_line));
        assert.deepEqual(rejected, prepared.badLines, "each bad row in the reject file once");
      } else assert.equal(summary.errorsFile, undefined);
      assert.equal(summary.resumed, true);
      assert.equal(summary.rejected, prepared.badLines.length);
      assert.equal(accountedRows(summary), prepared.rows, "each row counted once");
      console.log(
        `${kind.name}: ${prepared.rows} rows (${prepared.badLines.length} bad), ${runs.length} runs, ` +
          `faults ${[...injected].sort().join(", ")}; written once ${
            prepared.validKeys.length - twice.length - lost.length
          }, twice+ ${twice.length}, lost ${lost.length}; rejects ${prepared.badLines.length} once; ` +
          `${Math.round(performance.now() - started)} ms`,
      );
    } finally {
      await emulator.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("fault suite: business metadata (the service's job): atomic under a kill, a lost answer and a 429", async () => {
  const started = performance.now();
  const emulator = await startEmulator({ seed: false });
  const dir = await Deno.makeTempDir({ prefix: "govcat-fault-suite-" });
  try {
    const { catalog } = kindClients(emulator);
    await catalog.types.create({
      businessMetadataDefs: [{
        name: "FaultGovernance",
        attributeDefs: [{
          name: "steward",
          typeName: "string",
          isOptional: true,
          cardinality: "SINGLE",
          options: { applicableEntityTypes: '["DataSet"]', maxStrLength: "100" },
        }],
      }],
    });
    const rows = 100;
    const bad = (i: number) => i % 25 === 7;
    const names = Array.from({ length: rows }, (_, i) => `ds://fault/bm/${bad(i) ? "missing-" : ""}${i}`);
    const valid = names.filter((_, i) => !bad(i));
    for (let i = 0; i < valid.length; i += 100) {
      await catalog.entity.createOrUpdateMany(
        valid.slice(i, i + 100).map((qualifiedName) => ({
          typeName: "DataSet",
          attributes: { qualifiedName, name: qualifiedName },
        })),
      );
    }
    const file = `${dir}/bm.csv`;
    await Deno.writeTextFile(
      file,
      [
        "EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue,EntityUniqueAttributeName",
        ...names.map((name, i) => `DataSet,${name},FaultGovernance.steward,owner-${i},qualifiedName`),
      ].join("\n") + "\n",
    );
    const env = catalogEnv(emulator.url, { CATALOG_MAX_RETRIES: "2", CATALOG_TIMEOUT: "20" });
    const args = ["entity", "import-business-metadata", "--bm-file", file];
    const upload = { method: "POST", path: "/businessmetadata/import" };

    const stewards = async () => {
      const stored = new Map<string, { version: number; steward: unknown }>();
      for (let i = 0; i < names.length; i += 100) {
        const result = await catalog.entity.listByUniqueAttributes("DataSet", names.slice(i, i + 100));
        for (const entity of result.entities ?? []) {
          const business = entity.businessAttributes as Record<string, Record<string, unknown>> | undefined;
          stored.set(String(entity.attributes?.qualifiedName), {
            version: Number(entity.version),
            steward: business?.FaultGovernance?.steward,
          });
        }
      }
      return stored;
    };

    // Killed while the service holds the answer of an upload it applied (the emulator applies, then waits).
    emulator.faults.script([{ ...upload, delayMs: 1_500 }]);
    const killed = spawnGovcat(args, env);
    while (emulator.faults.pendingSteps().length > 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 300));
    killed.kill();
    assert.notEqual((await killed.result).code, 0);
    const afterKill = new Set([...(await stewards()).values()].map((entity) => entity.version));
    assert.deepEqual([...afterKill], [1], "the killed run's upload was applied whole: every entity once");

    // Run again: the answer of the first upload is lost after it was applied, the next one throttled.
    emulator.faults.script([{ ...upload, drop: true, afterHandling: true }, {
      ...upload,
      status: 429,
      retryAfterSeconds: 0,
    }]);
    const run = await spawnGovcat(args, env).result;
    // Its bad rows (entities that do not exist) fail: the import says so with exit 1, as every import does.
    assert.equal(run.code, 1, run.stderr);
    const answer = JSON.parse(run.stdout);
    assert.equal(answer.failed, names.filter((_, i) => bad(i)).length);
    // The killed run's answer, held back by the emulator, is logged once sent.
    while (emulator.faults.stats().log.filter((e) => e.path.includes(upload.path)).length < 4) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const uploads = emulator.faults.stats().log.filter((e) => e.path.includes(upload.path));
    // Every upload but the throttled one was applied: the killed run's and two of the second run's.
    const applied = uploads.filter((e) => e.status !== 429).length;
    assert.deepEqual(
      uploads.map((e) => `${e.fault ?? "none"} ${e.status}`).sort(),
      ["none 200", "none 200", "script 0", "script 429"],
      "answered late to the killed run; lost after applying, throttled, answered",
    );
    emulator.faults.reset();

    // Per row: every valid entity holds its row's value and was written once by each upload applied,
    // none partially; no bad row's entity exists; the finishing answer reports each bad row once.
    const stored = await stewards();
    const wrong = names.flatMap((name, i) => {
      if (bad(i)) return stored.has(name) ? [`${name} exists`] : [];
      const entity = stored.get(name);
      if (entity?.steward !== `owner-${i}`) return [`${name} holds ${entity?.steward}`];
      return entity.version === applied ? [] : [`${name} written ${entity.version} times, not ${applied}`];
    });
    assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} rows are not as the uploads applied them`);
    assert.equal(answer.successImportInfoList.length, valid.length);
    const badLines = names.flatMap((_, i) => bad(i) ? [i + 2] : []);
    assert.deepEqual(
      answer.failedImportInfoList.map((info: { remarks: string }) =>
        Number(/^Line #(\d+):/.exec(info.remarks)?.[1])
      ),
      badLines,
      "each bad row reported once",
    );
    console.log(
      `business metadata: ${rows} rows (${badLines.length} bad), 2 runs, faults kill, script 0, script 429; ` +
        `${applied} uploads applied whole, every valid row written by each, lost 0; bad rows reported once; ` +
        `${Math.round(performance.now() - started)} ms`,
    );
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
});
