/**
 * Bulk CSV import figures, each next to a baseline measured in the same run:
 *
 * - **Throughput**: `govcat entity bulk-import` (a real process) of 100,000 rows, batch 100, at most 4 in
 *   flight, against the emulator with 20 ms added latency, as rows/s and as a share of the theoretical limit
 *   (batch × concurrency ÷ latency = 20,000 rows/s), next to the same import against a bare loopback sink
 *   with the same latency (the baseline: what the client reaches when the service costs nothing). Then at
 *   most 8 in flight; both without latency (what the emulator itself costs a row); and with the old default
 *   client-side rate limit (CATALOG_RATE_LIMIT=50 requests/s; the other runs have none, the default now).
 *   Rows/s cover the whole import, the file check included.
 * - **Adaptive window against a sequential client**: the import with its defaults (the window starts at 4
 *   and grows to at most 32) against the same emulator with 20 ms latency, next to a client written here
 *   that posts one batch of 100 after another through the same HTTP client. Target: at least 5×.
 * - **Under throttling**: the emulator admitting R requests/s for R in {20, 100} (429 with retry-after-ms
 *   beyond), the import's write path (`--if-exists=update`: one bulk write a batch), and at R = 20 its
 *   default path (each batch looks its rows up first, two lookups of 50 names and a write): the requests
 *   the service admitted in the trailing second, averaged from two seconds after the first admission (the
 *   opening burst and the pause after it) to the last, as a share of R, the 429s the import drew (those of
 *   the first second, where nothing is learnt yet, apart), and the rows in the store. Target: at least 90%
 *   of R (on the default path, 90% of the R ÷ 3 left for writes), every row stored, 429s after the first
 *   second under a quarter of the writes (no storm).
 * - **Peak memory**: the import process's resident high-water mark (GNU time, else VmHWM polled) for
 *   1,000,000 rows sent to the sink (at most 4 in flight, the write path), next to the same command on 100 rows (the
 *   baseline: runtime and code). Target: under 150 MB.
 *
 * `deno bench` calls a bench function at least three times even with `n: 1, warmup: 0`, which would
 * triple a 100,000-row and a million-row import; so each import runs once, when the module loads, and
 * prints its figure as one line. GOVCAT_BENCH_QUICK=1 uses 20,000 rows for throughput and 100,000 for
 * memory (the full run takes about two minutes). GOVCAT_BULK_BENCH_ONLY=memory (or `throughput`,
 * `throttle`, comma-separated) runs only those parts, e.g. to measure memory alone:
 * `GOVCAT_BULK_BENCH_ONLY=memory deno task bench tests/e2e/bulk_import_bench.ts`.
 *
 * Run: `deno bench --allow-net=127.0.0.1 --allow-env --allow-read --allow-write --allow-run
 * tests/e2e/bulk_import_bench.ts` (`deno task bench` runs it with every other bench).
 */
import { CatalogClient, httpClientFromConfig } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { checkedRowBatches } from "../../lib/csv/check.ts";
import { templateNamed } from "../../lib/templates/template_choice.ts";
import { RUNTIME_FLAGS } from "../../tools/distribution/compile.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { entityFromRow } from "../../lib/imports/entity_csv_rows.ts";
import { LOOKUP_CHUNK } from "../../lib/imports/entity_catalog_io.ts";
import { catalogEnv, spawnBulkImport, summaryIn } from "../support/bulk_import_process.ts";
import { writeEntityCsv } from "../support/entity_csv.ts";
import { watchAnswers } from "../support/emulator_answers.ts";

const QUICK = Deno.env.get("GOVCAT_BENCH_QUICK") === "1";
/** Runs only the parts it names (`throughput`, `throttle`, `memory`, comma-separated); all when unset. */
const ONLY_ENV = "GOVCAT_BULK_BENCH_ONLY";
const THROUGHPUT_ROWS = QUICK ? 20_000 : 100_000;
const MEMORY_ROWS = QUICK ? 100_000 : 1_000_000;
/** Allowed rates of the throttled runs, each with its rows (about ten seconds' worth at R). */
const THROTTLES = [{ rps: 20, rows: 20_000 }, { rps: 100, rows: 50_000 }];
/** The adaptive import must reach this multiple of the sequential client's rate. */
const SEQUENTIAL_TARGET = 5;
/** Under a throttle: the share of R to sustain, and the most 429s per successful write. */
const THROTTLE_TARGET = 0.9;
const STORM_LIMIT = 0.25;
const BATCH = 100;
/** Requests of one batch on the default path: its lookups (LOOKUP_CHUNK names each), then the write. */
const DEFAULT_REQUESTS_PER_BATCH = Math.ceil(BATCH / LOOKUP_CHUNK) + 1;
const LATENCY_MS = 20;
const MB = 1024 * 1024;

interface ImportRun {
  rows: number;
  /** The import's own time (file check and sending), from its summary. */
  seconds: number;
  rowsPerSecond: number;
  /** Peak resident memory in bytes, when measured. */
  peakBytes?: number;
}

/** Runs the import of `file` against `endpoint` once; the run must finish cleanly. */
async function runImport(
  file: string,
  endpoint: string,
  options: {
    /** Most batches in flight; the command's default when absent. */
    concurrency?: number;
    env?: Record<string, string>;
    measureMemory?: boolean;
    denoFlags?: string[];
    /**
     * Writes every row with `--if-exists=update --confirm`: the write path alone. By default the import
     * first looks up each batch's entities (one GET a batch) to leave existing ones alone.
     */
    overwrite?: boolean;
  },
): Promise<ImportRun> {
  const args = ["--csv-file", file, "--batch-size", String(BATCH)];
  if (options.overwrite) args.push("--if-exists=update", "--confirm");
  if (options.concurrency !== undefined) args.push("--concurrency", String(options.concurrency));
  const env = catalogEnv(endpoint, { CATALOG_MAX_RETRIES: "3", ...options.env });
  const timeFile = options.measureMemory && await hasGnuTime() ? await Deno.makeTempFile() : undefined;
  const run = spawnBulkImport(args, env, {
    timeoutMs: 600_000,
    prefix: timeFile ? ["/usr/bin/time", "-f", "%M", "-o", timeFile] : undefined,
    denoFlags: options.denoFlags,
  });
  const polled = options.measureMemory && !timeFile ? pollPeakResident(run.pid, run.result) : undefined;
  const { code, stdout, stderr } = await run.result;
  const summary = summaryIn(stdout);
  if (code !== 0 || !summary || summary.pending !== 0) {
    throw new Error(`the import failed (exit ${code}):\n${stdout.slice(0, 2000)}\n${stderr.slice(0, 2000)}`);
  }
  let peakBytes = await polled;
  if (timeFile) {
    // GNU time reports the maximum resident set size in KiB.
    peakBytes = Number((await Deno.readTextFile(timeFile)).trim().split("\n").at(-1)) * 1024;
    await Deno.remove(timeFile);
  }
  return {
    rows: summary.rows,
    seconds: summary.elapsedMs / 1000,
    rowsPerSecond: summary.rows / (summary.elapsedMs / 1000),
    peakBytes,
  };
}

async function hasGnuTime(): Promise<boolean> {
  try {
    const { code } = await new Deno.Command("/usr/bin/time", { args: ["-f", "%M", "true"], stderr: "null" })
      .output();
    return code === 0;
  } catch {
    return false;
  }
}

/** The high-water mark of resident memory (VmHWM) of `pid`, read every 20 ms until `done` settles. */
async function pollPeakResident(pid: number, done: Promise<unknown>): Promise<number> {
  let finished = false;
  done.finally(() => finished = true);
  let peak = 0;
  while (!finished) {
    try {
      const status = await Deno.readTextFile(`/proc/${pid}/status`);
      const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kib * 1024);
    } catch {
      // The process has just ended.
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return peak;
}

/**
 * A catalog that only takes bulk writes: each `POST …/entity/bulk` is answered, after `latencyMs`, with
 * the mutation result the service gives for new entities (a CREATE header and a guid assignment per
 * entity), so the importer works as against the service while nothing is stored.
 */
function startSink(latencyMs: number): { url: string; close: () => Promise<void> } {
  let next = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    if (request.method !== "POST" || !url.pathname.endsWith("/atlas/v2/entity/bulk")) {
      await request.body?.cancel();
      return Response.json({ errorCode: "ATLAS-404-00-005", errorMessage: "not in the sink" }, {
        status: 404,
      });
    }
    const { entities } = await request.json() as {
      entities: Array<{ guid?: string; typeName: string; attributes: { qualifiedName: string } }>;
    };
    const created = [];
    const guidAssignments: Record<string, string> = {};
    for (const entity of entities) {
      const guid = `00000000-0000-4000-8000-${(next++).toString(16).padStart(12, "0")}`;
      if (entity.guid) guidAssignments[entity.guid] = guid;
      created.push({
        typeName: entity.typeName,
        guid,
        status: "ACTIVE",
        attributes: { qualifiedName: entity.attributes.qualifiedName },
      });
    }
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    return Response.json({ mutatedEntities: { CREATE: created }, guidAssignments });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

async function againstSink(file: string, latencyMs: number, concurrency: number): Promise<ImportRun> {
  const sink = startSink(latencyMs);
  try {
    return await runImport(file, sink.url, { concurrency });
  } finally {
    await sink.close();
  }
}

async function againstEmulator(
  file: string,
  latencyMs: number,
  concurrency: number | undefined,
  env: Record<string, string> = {},
): Promise<ImportRun> {
  const emulator = await startEmulator({ seed: false, faults: { latencyMs } });
  try {
    return await runImport(file, emulator.url, { concurrency, env });
  } finally {
    await emulator.close();
  }
}

const rate = (n: number) => Math.round(n).toLocaleString("en-US");
const percent = (part: number, whole: number) => `${Math.round((part / whole) * 100)}%`;
const mb = (bytes: number | undefined) => bytes === undefined ? "?" : (bytes / MB).toFixed(1);

function throughputLine(label: string, run: ImportRun, concurrency: number, latencyMs: number): string {
  const head = `${label}: ${run.rows} rows in ${run.seconds.toFixed(1)} s = ${
    rate(run.rowsPerSecond)
  } rows/s`;
  if (latencyMs === 0) return head;
  const limit = (BATCH * concurrency) / (latencyMs / 1000);
  return `${head}, ${percent(run.rowsPerSecond, limit)} of the ${rate(limit)} rows/s limit ` +
    `(batch ${BATCH} × ${concurrency} in flight ÷ ${latencyMs} ms)`;
}

/**
 * The baseline of the adaptive window: the usual loop of existing tools, one batch posted after another
 * and each answer awaited, through the same HTTP client (`CatalogClient`, the same request as the
 * import's) to the same emulator with the same latency, reading the file with the same reader. It runs in
 * this process, beside the emulator; being sequential, the two never compete for the processor.
 */
async function sequentialClient(file: string, latencyMs: number): Promise<ImportRun> {
  const emulator = await startEmulator({ seed: false, faults: { latencyMs } });
  try {
    const config = loadConfig(catalogEnv(emulator.url));
    const catalog = new CatalogClient(httpClientFromConfig(config));
    const template = templateNamed("entity-bulk-import", ["entity-bulk-import"]);
    const started = performance.now();
    let rows = 0;
    let batch: ReturnType<typeof entityFromRow>["entity"][] = [];
    const post = async () => {
      const entities = batch.map((entity, i) => ({ ...entity, guid: `-${i + 1}` }));
      batch = [];
      await catalog.entity.createOrUpdateMany(entities, undefined, {
        businessAttributeUpdateBehavior: "merge",
        idempotent: false,
      });
    };
    for await (const checked of checkedRowBatches(file, template)) {
      for (const row of checked) {
        batch.push(entityFromRow(template.name, row).entity);
        rows++;
        if (batch.length === BATCH) await post();
      }
    }
    if (batch.length > 0) await post();
    const seconds = (performance.now() - started) / 1000;
    if (emulator.entityCount() !== rows) {
      throw new Error(`the sequential client stored ${emulator.entityCount()} of ${rows} rows`);
    }
    return { rows, seconds, rowsPerSecond: rows / seconds };
  } finally {
    await emulator.close();
  }
}

/**
 * Imports rows, with the command's defaults, into an emulator admitting `rps` requests a second (429 with
 * retry-after-ms beyond): the requests it sustains (see {@link watchAnswers}) against R, the 429s the
 * import drew, and the rows in the store at the end.
 */
async function underThrottle(file: string, rps: number, overwrite: boolean): Promise<string> {
  const emulator = await startEmulator({ seed: false, faults: { requestsPerSecond: rps } });
  const watch = watchAnswers(emulator.faults);
  try {
    const run = await runImport(file, emulator.url, { overwrite });
    const { firstSecond, total, sustained: steady } = watch.stop();
    const stored = emulator.entityCount();
    // A storm is 429s that go on: the opening costs at most the window in flight when the service first
    // refuses (nothing is learnt yet), so 429s are judged after the first second.
    const writes = total.writes - firstSecond.writes;
    const laterRefused = total.refused - firstSecond.refused;
    const laterShare = laterRefused / Math.max(1, writes);
    const met = steady >= THROTTLE_TARGET * rps && stored === run.rows && laterShare <= STORM_LIMIT;
    // Each batch of the default path costs its lookups and its write, so R is shared between them.
    const perWrite = total.admitted / total.writes;
    const path = overwrite
      ? "the write path, --if-exists=update"
      : `the defaults: each batch looks its rows up before its write, ${perWrite.toFixed(1)} requests a ` +
        `batch, so ${(steady / perWrite).toFixed(1)} writes/s = ${
          percent(steady / perWrite, rps / perWrite)
        } ` +
        `of the R ÷ ${perWrite.toFixed(1)} available to writes`;
    return `under a ${rps} req/s throttle: ${steady.toFixed(1)} req/s = ${percent(steady, rps)} of R ` +
      `(${path}; after the first second, which took ${firstSecond.writes} writes and ${firstSecond.refused} ` +
      `429s; then ${writes} writes and ${laterRefused} 429s, ${(laterShare * 100).toFixed(1)}% of them; ` +
      `${run.rows} rows in ${run.seconds.toFixed(1)} s, ${stored} in the store); target ≥ ` +
      `${THROTTLE_TARGET * 100}% of R, every row stored, 429s after the first second ≤ ` +
      `${STORM_LIMIT * 100}% of the writes: ${met ? "met" : "not met"}`;
  } finally {
    watch.cancel();
    await emulator.close();
  }
}

/** The V8 settings the compiled binaries carry (tools/distribution/compile.ts), which cap the young generation. */
const BOUNDED_HEAP = RUNTIME_FLAGS;

async function memoryRun(path: string, denoFlags?: string[]): Promise<ImportRun> {
  const sink = startSink(0);
  try {
    return await runImport(path, sink.url, {
      concurrency: 4,
      measureMemory: true,
      denoFlags,
      overwrite: true,
    });
  } finally {
    await sink.close();
  }
}

/** Throughput against the sink and the emulator, the sequential client, and the old rate limit. */
async function throughputFigures(dir: string): Promise<void> {
  const file = await writeEntityCsv(`${dir}/throughput.csv`, THROUGHPUT_ROWS);
  const sink = await againstSink(file.path, LATENCY_MS, 4);
  console.log(throughputLine("bulk import, loopback sink (baseline)", sink, 4, LATENCY_MS));
  const emulator = await againstEmulator(file.path, LATENCY_MS, 4);
  console.log(
    `${throughputLine("bulk import", emulator, 4, LATENCY_MS)}; ` +
      `${percent(emulator.rowsPerSecond, sink.rowsPerSecond)} of the sink baseline`,
  );
  const sequential = await sequentialClient(file.path, LATENCY_MS);
  const adaptive = await againstEmulator(file.path, LATENCY_MS, undefined);
  const times = adaptive.rowsPerSecond / sequential.rowsPerSecond;
  console.log(
    `adaptive window against a sequential client: ${adaptive.rows} rows in ${
      adaptive.seconds.toFixed(1)
    } s ` +
      `= ${rate(adaptive.rowsPerSecond)} rows/s, ${times.toFixed(2)}× the sequential client ` +
      `(${rate(sequential.rowsPerSecond)} rows/s: one batch of ${BATCH} after another through the same ` +
      `HTTP client, same emulator, ${LATENCY_MS} ms latency, ${sequential.seconds.toFixed(1)} s); ` +
      `target ≥ ${SEQUENTIAL_TARGET}×: ${times >= SEQUENTIAL_TARGET ? "met" : "not met"}`,
  );
  const wide = await againstEmulator(file.path, LATENCY_MS, 8);
  console.log(throughputLine("bulk import, 8 in flight", wide, 8, LATENCY_MS));
  const bareSink = await againstSink(file.path, 0, 4);
  const bare = await againstEmulator(file.path, 0, 4);
  console.log(
    `${throughputLine("bulk import without added latency", bare, 4, 0)}; the sink takes ` +
      `${rate(bareSink.rowsPerSecond)} rows/s, so the emulator itself costs ` +
      `${(1_000_000 / bare.rowsPerSecond - 1_000_000 / bareSink.rowsPerSecond).toFixed(1)} µs a row`,
  );
  const limited = await againstEmulator(file.path, LATENCY_MS, 4, { CATALOG_RATE_LIMIT: "50" });
  console.log(
    `${
      throughputLine("bulk import with CATALOG_RATE_LIMIT=50 (the old default)", limited, 4, LATENCY_MS)
    }; ` +
      `${percent(limited.rowsPerSecond, sink.rowsPerSecond)} of the sink baseline (that limit allows ` +
      `${
        rate((50 / DEFAULT_REQUESTS_PER_BATCH) * BATCH)
      } rows/s: 50 requests/s, ${DEFAULT_REQUESTS_PER_BATCH} ` +
      `a batch with its lookups)`,
  );
}

async function throttleFigures(dir: string): Promise<void> {
  for (const { rps, rows } of THROTTLES) {
    console.log(
      await underThrottle((await writeEntityCsv(`${dir}/throttle-${rps}.csv`, rows)).path, rps, true),
    );
  }
  // The safe default spends requests on lookups, so only part of R goes to writes.
  const { rps, rows } = THROTTLES[0];
  console.log(
    await underThrottle((await writeEntityCsv(`${dir}/throttle-default.csv`, rows)).path, rps, false),
  );
}

async function memoryFigures(dir: string): Promise<void> {
  const baseline = await memoryRun((await writeEntityCsv(`${dir}/tiny.csv`, 100)).path);
  const memoryFile = (await writeEntityCsv(`${dir}/memory.csv`, MEMORY_ROWS)).path;
  const peak = await memoryRun(memoryFile);
  const bounded = await memoryRun(memoryFile, BOUNDED_HEAP);
  console.log(
    `peak resident memory for ${MEMORY_ROWS.toLocaleString("en-US")} rows: ${mb(peak.peakBytes)} MB ` +
      `(target < 150 MB); ${mb(baseline.peakBytes)} MB for 100 rows (baseline), ` +
      `${(peak.peakBytes! / baseline.peakBytes!).toFixed(2)}× the baseline; ` +
      `${rate(peak.rowsPerSecond)} rows/s to the sink without latency`,
  );
  console.log(
    `peak resident memory for ${MEMORY_ROWS.toLocaleString("en-US")} rows with ${BOUNDED_HEAP.join(" ")} ` +
      "(as the compiled binaries run): " +
      `${mb(bounded.peakBytes)} MB (target < 150 MB), ${
        (bounded.peakBytes! / baseline.peakBytes!).toFixed(2)
      }× ` +
      `the baseline; ${rate(bounded.rowsPerSecond)} rows/s (${
        percent(bounded.rowsPerSecond, peak.rowsPerSecond)
      } ` +
      `of the default run)\n`,
  );
}

const PARTS: Record<string, (dir: string) => Promise<void>> = {
  throughput: throughputFigures,
  throttle: throttleFigures,
  memory: memoryFigures,
};
const only = Deno.env.get(ONLY_ENV)?.split(",").map((part) => part.trim()).filter(Boolean);
const unknown = only?.filter((part) => !(part in PARTS)) ?? [];
if (unknown.length > 0) {
  throw new Error(
    `${ONLY_ENV}=${Deno.env.get(ONLY_ENV)}: no part named ${unknown.join(", ")}; the parts are ` +
      `${Object.keys(PARTS).join(", ")} (comma-separated).`,
  );
}
const dir = await Deno.makeTempDir({ prefix: "govcat-bulk-bench-" });
try {
  console.log("");
  for (const [name, part] of Object.entries(PARTS)) {
    if (!only || only.includes(name)) await part(dir);
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
