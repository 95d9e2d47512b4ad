/**
 * The default import under a throttled service, with the goal that the safe defaults cost little: at
 * least 0.9× the throughput of a plain uploader. `govcat entity bulk-import` with its
 * defaults (each batch is looked up before it is written and an existing entity is never overwritten), a
 * real `main.ts` subprocess, against the emulator admitting R requests a second (429 with `retry-after-ms`
 * beyond), as rows/s, divided by a plain batch uploader written here against a fresh emulator with the same
 * throttle: bare `fetch`, one `POST /entity/bulk` per batch of 100, on a 429 it waits the `retry-after-ms`
 * the service gave and sends again, {@link PLAIN_IN_FLIGHT} batches in flight so it uses the whole allowed
 * rate. The plain uploader overwrites whatever exists; it is the floor of requests (one per 100 rows) that
 * the import's lookups add to. Runs alternate (uploader, import, uploader, import …) and each figure is the
 * median import rate ÷ the median uploader rate. Both must store every row, or the bench fails.
 *
 * Figures `bulk.default-throttle.20` and `bulk.default-throttle.100`; target ≥ 0.9× the plain uploader.
 * Each figure's note gives the requests the import spent per batch (lookups and writes admitted ÷ writes).
 * Beside each, a detail figure (`….write-path`): the same import with `--if-exists=update` (no lookups),
 * in the same interleaved runs, so the part of the gap that is not the lookups' shows.
 *
 * `deno bench` calls a bench function at least three times, so the runs happen once, when the module
 * loads. GOVCAT_BENCH_QUICK=1 runs one pair per rate on fewer rows.
 *
 * Run: `deno bench --allow-net=127.0.0.1 --allow-env --allow-read --allow-write --allow-run
 * tests/e2e/bulk_default_throttle_bench.ts` (`deno task bench` runs it with every other bench).
 */
import { checkedRowBatches } from "../../lib/csv/check.ts";
import { templateNamed } from "../../lib/templates/template_choice.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { entityFromRow } from "../../lib/imports/entity_csv_rows.ts";
import { median, QUICK, reportFigure } from "../support/bench_figures.ts";
import { catalogEnv, spawnBulkImport, summaryIn } from "../support/bulk_import_process.ts";
import { writeEntityCsv } from "../support/entity_csv.ts";

const BATCH = 100;
/** Batches the plain uploader keeps in flight: more than the allowed rate needs at either R. */
const PLAIN_IN_FLIGHT = 16;
const TARGET = 0.9;
/**
 * Allowed rates, each with its rows: the plain uploader needs rows ÷ (100 R) seconds, long enough that the
 * opening burst the emulator's one-second window admits (R requests at once) weighs little.
 */
const RATES = [
  { rps: 20, rows: QUICK ? 8_000 : 20_000 },
  { rps: 100, rows: QUICK ? 20_000 : 60_000 },
];
const PAIRS = QUICK ? 1 : 3;

interface Run {
  rows: number;
  rowsPerSecond: number;
  /** Requests the emulator admitted per bulk write (lookups included). */
  requestsPerWrite: number;
  refused: number;
}

/** What the emulator admitted and refused, from its request log. */
function answered(emulator: Awaited<ReturnType<typeof startEmulator>>) {
  const log = emulator.faults.stats().log;
  const admitted = log.filter((entry) => entry.status === 200);
  return {
    admitted: admitted.length,
    writes: admitted.filter((entry) => entry.method === "POST").length,
    refused: log.filter((entry) => entry.status === 429).length,
  };
}

function requireAllStored(who: string, stored: number, rows: number): void {
  if (stored !== rows) throw new Error(`${who} left ${stored} of ${rows} rows in the store`);
}

/**
 * `govcat entity bulk-import --csv-file FILE` with its defaults against a fresh throttled emulator; with
 * `overwrite`, `--if-exists=update --confirm` (no lookups: the write path alone, for comparison).
 */
async function importRun(file: string, rows: number, rps: number, overwrite = false): Promise<Run> {
  const emulator = await startEmulator({ seed: false, faults: { requestsPerSecond: rps } });
  try {
    const args = ["--csv-file", file, ...(overwrite ? ["--if-exists=update", "--confirm"] : [])];
    const run = spawnBulkImport(args, catalogEnv(emulator.url), { timeoutMs: 600_000 });
    const { code, stdout, stderr } = await run.result;
    const summary = summaryIn(stdout);
    if (code !== 0 || !summary || summary.pending !== 0 || summary.created !== rows) {
      throw new Error(
        `the import failed (exit ${code}):\n${stdout.slice(0, 2000)}\n${stderr.slice(0, 2000)}`,
      );
    }
    requireAllStored("the import", emulator.entityCount(), rows);
    const counts = answered(emulator);
    return {
      rows,
      rowsPerSecond: summary.rows / (summary.elapsedMs / 1000),
      requestsPerWrite: counts.admitted / counts.writes,
      refused: counts.refused,
    };
  } finally {
    await emulator.close();
  }
}

/** The request bodies of the file's batches, as the import builds its entities, made before any timing. */
async function batchBodies(file: string): Promise<string[]> {
  const template = templateNamed("entity-bulk-import", ["entity-bulk-import"]);
  const bodies: string[] = [];
  let batch: unknown[] = [];
  const flush = () => {
    if (batch.length > 0) bodies.push(JSON.stringify({ entities: batch }));
    batch = [];
  };
  for await (const checked of checkedRowBatches(file, template)) {
    for (const row of checked) {
      batch.push({ ...entityFromRow(template.name, row).entity, guid: `-${batch.length + 1}` });
      if (batch.length === BATCH) flush();
    }
  }
  flush();
  return bodies;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POSTs one batch until the service takes it, waiting out each 429 as the service asks. */
async function postUntilTaken(url: string, body: string): Promise<void> {
  for (;;) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    await response.body?.cancel();
    if (response.ok) return;
    if (response.status !== 429) throw new Error(`the plain uploader got HTTP ${response.status}`);
    const ms = Number(response.headers.get("retry-after-ms") ?? "") ||
      Number(response.headers.get("retry-after") ?? "1") * 1000;
    await sleep(ms);
  }
}

/** The plain batch uploader against a fresh throttled emulator. */
async function plainUploader(bodies: string[], rows: number, rps: number): Promise<Run> {
  const emulator = await startEmulator({ seed: false, faults: { requestsPerSecond: rps } });
  try {
    const url = `${emulator.url}/datamap/api/atlas/v2/entity/bulk`;
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < bodies.length) await postUntilTaken(url, bodies[next++]);
    };
    await Promise.all(Array.from({ length: PLAIN_IN_FLIGHT }, worker));
    const seconds = (performance.now() - started) / 1000;
    requireAllStored("the plain uploader", emulator.entityCount(), rows);
    const counts = answered(emulator);
    return {
      rows,
      rowsPerSecond: rows / seconds,
      requestsPerWrite: counts.admitted / counts.writes,
      refused: counts.refused,
    };
  } finally {
    await emulator.close();
  }
}

async function figureAt(dir: string, rps: number, rows: number): Promise<void> {
  const file = (await writeEntityCsv(`${dir}/throttle-${rps}.csv`, rows)).path;
  const bodies = await batchBodies(file);
  const plain: Run[] = [], imports: Run[] = [], writesOnly: Run[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    plain.push(await plainUploader(bodies, rows, rps));
    imports.push(await importRun(file, rows, rps));
    writesOnly.push(await importRun(file, rows, rps, true));
  }
  const value = median(imports.map((run) => run.rowsPerSecond));
  const baseline = median(plain.map((run) => run.rowsPerSecond));
  const ratio = value / baseline;
  const perBatch = median(imports.map((run) => run.requestsPerWrite));
  reportFigure({
    id: `bulk.default-throttle.${rps}`,
    section: "bulk",
    name: `bulk import with its defaults (never overwrites), ${rows.toLocaleString("en-US")} rows, ` +
      `service admitting ${rps} req/s`,
    value,
    unit: "rows/s",
    baseline: {
      name: `plain batch uploader (bare fetch, batches of ${BATCH}, ${PLAIN_IN_FLIGHT} in flight, waits ` +
        "retry-after on 429)",
      value: baseline,
    },
    ratioLabel: "× the plain uploader",
    target: `≥ ${TARGET}× the plain uploader`,
    met: ratio >= TARGET,
    note: `median of ${PAIRS} interleaved pair(s); the import spent ${perBatch.toFixed(2)} admitted ` +
      `requests per batch written (the uploader 1.00), drew ${median(imports.map((r) => r.refused))} 429s ` +
      `(uploader ${median(plain.map((r) => r.refused))}); every row stored in every run`,
  });
  // What the client reaches without lookups, in the same runs: the part of the gap lookups do not explain.
  const writes = median(writesOnly.map((run) => run.rowsPerSecond));
  reportFigure({
    id: `bulk.default-throttle.${rps}.write-path`,
    section: "bulk",
    name: `bulk import --if-exists=update (no lookups: overwrites), ${rows.toLocaleString("en-US")} rows, ` +
      `service admitting ${rps} req/s`,
    value: writes,
    unit: "rows/s",
    baseline: { name: "the same plain batch uploader", value: baseline },
    ratioLabel: "× the plain uploader",
    note: `median of ${PAIRS} run(s), interleaved with the figure above; the default import reached ` +
      `${(value / writes).toFixed(2)}× this`,
    detail: true,
  });
}

const dir = await Deno.makeTempDir({ prefix: "govcat-default-throttle-bench-" });
try {
  console.log("");
  for (const { rps, rows } of RATES) await figureAt(dir, rps, rows);
} finally {
  await Deno.remove(dir, { recursive: true });
}
