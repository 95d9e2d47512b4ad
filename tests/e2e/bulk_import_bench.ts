/**
 * Bulk CSV import figures, each next to a baseline measured in the same run:
 *
 * - **Throughput**: `govcat entity bulk-import` (a real process) of 100,000 rows, batch 100, 4 in flight,
 *   against the emulator with 20 ms added latency, as rows/s and as a share of the theoretical limit
 *   (batch × concurrency ÷ latency = 20,000 rows/s), next to the same import against a bare loopback sink
 *   with the same latency (the baseline: what the client reaches when the service costs nothing). Then 8
 *   in flight; both without latency (what the emulator itself costs a row); and with the client-side rate
 *   limit as shipped (CATALOG_RATE_LIMIT=50 requests/s; the other runs turn it off). Rows/s cover the
 *   whole import, the file check included.
 * - **Under throttling**: the emulator admitting R requests/s (429 with retry-after-ms beyond): successful
 *   bulk writes per second, after the opening burst, as a share of R.
 * - **Peak memory**: the import process's resident high-water mark (GNU time, else VmHWM polled) for
 *   1,000,000 rows sent to the sink, next to the same command on 100 rows (the baseline: runtime and
 *   code). Target: under 150 MB.
 *
 * `deno bench` calls a bench function at least three times even with `n: 1, warmup: 0`, which would
 * triple a 100,000-row and a million-row import; so each import runs once, when the module loads, and
 * prints its figure as one line. GOVCAT_BENCH_QUICK=1 uses 20,000 rows for throughput and 100,000 for
 * memory (the full run takes about two minutes).
 *
 * Run: `deno bench --allow-net=127.0.0.1 --allow-env --allow-read --allow-write --allow-run
 * tests/e2e/bulk_import_bench.ts` (`deno task bench` runs it with every other bench).
 */
import { RUNTIME_FLAGS } from "../../lib/distribution/compile.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { catalogEnv, spawnBulkImport, summaryIn } from "../support/bulk_import_process.ts";
import { writeEntityCsv } from "../support/entity_csv.ts";

const QUICK = Deno.env.get("GOVCAT_BENCH_QUICK") === "1";
const THROUGHPUT_ROWS = QUICK ? 20_000 : 100_000;
const MEMORY_ROWS = QUICK ? 100_000 : 1_000_000;
const THROTTLE_ROWS = 20_000;
const THROTTLE_RPS = 20;
const BATCH = 100;
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
    concurrency: number;
    env?: Record<string, string>;
    measureMemory?: boolean;
    denoFlags?: string[];
  },
): Promise<ImportRun> {
  const args = [
    "--csv-file",
    file,
    "--batch-size",
    String(BATCH),
    "--concurrency",
    String(options.concurrency),
  ];
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
  concurrency: number,
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

/** Imports rows into an emulator admitting `rps` requests a second; successful writes a second against R. */
async function underThrottle(file: string, rps: number): Promise<string> {
  const emulator = await startEmulator({ seed: false, faults: { requestsPerSecond: rps } });
  // The emulator's log has no times: count its successful writes every 25 ms to time the first and last.
  const writes = () =>
    emulator.faults.stats().log.filter((e) => e.method === "POST" && e.status === 200).length;
  let first: number | undefined, last = 0, seen = 0;
  const timer = setInterval(() => {
    const count = writes();
    if (count > 0) first ??= performance.now();
    if (count > seen) [seen, last] = [count, performance.now()];
  }, 25);
  try {
    const run = await runImport(file, emulator.url, { concurrency: 4, env: { CATALOG_RATE_LIMIT: "50" } });
    clearInterval(timer);
    const log = emulator.faults.stats().log.filter((entry) => entry.method === "POST");
    const succeeded = log.filter((entry) => entry.status === 200).length;
    const refused = log.filter((entry) => entry.status === 429).length;
    // The emulator's one-second window starts empty, so the first R writes go at once; after them it admits
    // R a second, which is what the import can reach.
    const steady = (succeeded - rps) / ((last - first!) / 1000);
    return `under a ${rps} req/s throttle: ${steady.toFixed(1)} req/s = ${percent(steady, rps)} of R ` +
      `(after the opening burst of ${rps}; ${succeeded} bulk writes and ${refused} 429s for ${run.rows} rows ` +
      `in ${run.seconds.toFixed(1)} s)`;
  } finally {
    clearInterval(timer);
    await emulator.close();
  }
}

/** The V8 settings the compiled binaries carry (lib/distribution/compile.ts), which cap the young generation. */
const BOUNDED_HEAP = RUNTIME_FLAGS;

async function memoryRun(path: string, denoFlags?: string[]): Promise<ImportRun> {
  const sink = startSink(0);
  try {
    return await runImport(path, sink.url, { concurrency: 4, measureMemory: true, denoFlags });
  } finally {
    await sink.close();
  }
}

const dir = await Deno.makeTempDir({ prefix: "govcat-bulk-bench-" });
try {
  console.log("");
  const file = await writeEntityCsv(`${dir}/throughput.csv`, THROUGHPUT_ROWS);
  const sink = await againstSink(file.path, LATENCY_MS, 4);
  console.log(throughputLine("bulk import, loopback sink (baseline)", sink, 4, LATENCY_MS));
  const emulator = await againstEmulator(file.path, LATENCY_MS, 4);
  console.log(
    `${throughputLine("bulk import", emulator, 4, LATENCY_MS)}; ` +
      `${percent(emulator.rowsPerSecond, sink.rowsPerSecond)} of the sink baseline`,
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
    `${throughputLine("bulk import with the default CATALOG_RATE_LIMIT=50", limited, 4, LATENCY_MS)}; ` +
      `${percent(limited.rowsPerSecond, sink.rowsPerSecond)} of the sink baseline (that limit allows ` +
      `${rate(50 * BATCH)} rows/s)`,
  );

  console.log(
    await underThrottle((await writeEntityCsv(`${dir}/throttle.csv`, THROTTLE_ROWS)).path, THROTTLE_RPS),
  );

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
} finally {
  await Deno.remove(dir, { recursive: true });
}
