/**
 * The bulk import's own client cost, with the goal that govcat's own work keeps it at 0.8× or more the
 * throughput of a bare-`fetch` client: `govcat entity bulk-import` (a real process)
 * of 100,000 rows (20,000 with GOVCAT_BENCH_QUICK=1), batch 100, `--concurrency 32`, against the emulator,
 * as rows/s, divided by the rows/s of a bare-`fetch` client sending the same requests with 32 in flight to
 * a fresh emulator of the same kind.
 *
 * "The same requests" are exact: the import is run once through a loopback recording proxy
 * (tests/support/request_recording.ts) and the bare client replays what it recorded (method, path and
 * query, headers, body; lookups and writes alike), so the floor follows whatever the import sends. Both
 * clients run as their own processes; the emulator runs in this one. Each round times the import, then the
 * replay, each against a fresh emulator; the figure is the median of the rounds.
 *
 * - `bulk.vs-bare-fetch`: the default path (each batch is looked up first, nothing is overwritten), no
 *   added latency. `bulk.vs-bare-fetch.latency20`: the same with 20 ms added to every answer.
 * - Details: the write path (`--if-exists=update --confirm`, no lookups) at both latencies, and each
 *   client's CPU per row: user + system CPU of the whole process (GNU time), less that of the same client
 *   on a file of 100 rows (start-up, the file check's fixed cost), ÷ the rows between the two.
 *
 * The import's rows/s cover its own time (file check and sending, from its summary); the bare client's,
 * the time from its first request to its last answer (the recording is loaded before).
 *
 * Run: `deno bench --allow-net=127.0.0.1 --allow-env --allow-read --allow-write --allow-run
 * tests/e2e/bulk_client_cpu_bench.ts` (or `deno task bench tests/e2e/bulk_client_cpu_bench.ts`).
 * GOVCAT_CLIENT_CPU_ROUNDS sets the rounds (default 3, 1 when quick).
 */
import { startEmulator } from "../../lib/emulator/mod.ts";
import { median, QUICK, reportFigure } from "../support/bench_figures.ts";
import { catalogEnv, spawnBulkImport, summaryIn } from "../support/bulk_import_process.ts";
import { writeEntityCsv } from "../support/entity_csv.ts";
import { baseEnv } from "../support/govcat_process.ts";
import { type ReplayResult, startRecordingProxy } from "../support/request_recording.ts";

const ROWS = QUICK ? 20_000 : 100_000;
/** Rows of the run whose CPU is taken off each client's: start-up and fixed costs. */
const TINY_ROWS = 100;
const ROUNDS = Number(Deno.env.get("GOVCAT_CLIENT_CPU_ROUNDS") ?? (QUICK ? 1 : 3));
const BATCH = 100;
const IN_FLIGHT = 32;
const LATENCY_MS = 20;
const TARGET = 0.8;
const REPLAY_SCRIPT = new URL("../support/request_recording.ts", import.meta.url).pathname;
const TIME = "/usr/bin/time";

type Path = "default" | "update";

interface ClientRun {
  rowsPerSecond: number;
  /** User + system CPU of the whole process in seconds, when GNU time is there. */
  cpuSeconds?: number;
}

function importArgs(file: string, path: Path): string[] {
  const args = ["--csv-file", file, "--batch-size", String(BATCH), "--concurrency", String(IN_FLIGHT)];
  if (path === "update") args.push("--if-exists=update", "--confirm");
  return args;
}

async function hasGnuTime(): Promise<boolean> {
  try {
    const { code } = await new Deno.Command(TIME, { args: ["-f", "%U", "true"], stderr: "null" }).output();
    return code === 0;
  } catch {
    return false;
  }
}
const gnuTime = await hasGnuTime();

/** `/usr/bin/time` writing user and system seconds to a fresh file, or nothing without GNU time. */
async function timePrefix(): Promise<{ prefix?: string[]; read: () => Promise<number | undefined> }> {
  if (!gnuTime) return { read: () => Promise.resolve(undefined) };
  const file = await Deno.makeTempFile();
  return {
    prefix: [TIME, "-f", "%U %S", "-o", file],
    read: async () => {
      const last = (await Deno.readTextFile(file)).trim().split("\n").at(-1) ?? "";
      await Deno.remove(file);
      const [user, system] = last.split(" ").map(Number);
      return user + system;
    },
  };
}

/** Imports `file` into `endpoint`; the run must finish with every row accounted for. */
async function runImport(file: string, endpoint: string, path: Path, rows = ROWS): Promise<ClientRun> {
  const time = await timePrefix();
  const run = spawnBulkImport(importArgs(file, path), catalogEnv(endpoint, { CATALOG_MAX_RETRIES: "3" }), {
    timeoutMs: 900_000,
    prefix: time.prefix,
  });
  const { code, stdout, stderr } = await run.result;
  const summary = summaryIn(stdout);
  if (code !== 0 || !summary || summary.pending !== 0 || summary.created !== rows) {
    throw new Error(`the import failed (exit ${code}):\n${stdout.slice(0, 2000)}\n${stderr.slice(0, 2000)}`);
  }
  return { rowsPerSecond: summary.rows / (summary.elapsedMs / 1000), cpuSeconds: await time.read() };
}

/** The import of `file` on `path` through a recording proxy to a fresh emulator: what it sends. */
async function record(file: string, path: Path, recording: string, rows = ROWS): Promise<number> {
  const emulator = await startEmulator({ seed: false });
  const proxy = startRecordingProxy(emulator.url, recording);
  try {
    await runImport(file, proxy.url, path, rows);
    return proxy.count();
  } finally {
    await proxy.close();
    await emulator.close();
  }
}

async function timedImport(file: string, path: Path, latencyMs: number, rows = ROWS): Promise<ClientRun> {
  const emulator = await startEmulator({ seed: false, faults: { latencyMs } });
  try {
    return await runImport(file, emulator.url, path, rows);
  } finally {
    await emulator.close();
  }
}

/** The bare client's replay of `recording` against a fresh emulator; every request must succeed. */
async function timedReplay(recording: string, latencyMs: number, rows = ROWS): Promise<ClientRun> {
  const emulator = await startEmulator({ seed: false, faults: { latencyMs } });
  try {
    const time = await timePrefix();
    const deno = [
      Deno.execPath(),
      "run",
      "--allow-net=127.0.0.1",
      `--allow-read=${recording}`,
      REPLAY_SCRIPT,
      recording,
      emulator.url,
      String(IN_FLIGHT),
    ];
    const [program, ...args] = [...(time.prefix ?? []), ...deno];
    const { code, stdout, stderr } = await new Deno.Command(program, {
      args,
      env: baseEnv(),
      clearEnv: true,
      stdin: "null",
    }).output();
    const text = new TextDecoder().decode(stdout);
    if (code !== 0) throw new Error(`the replay failed (exit ${code}):\n${new TextDecoder().decode(stderr)}`);
    const result: ReplayResult = JSON.parse(text.trim().split("\n").at(-1)!);
    if (result.failures > 0 || emulator.entityCount() !== rows) {
      throw new Error(
        `the replay stored ${emulator.entityCount()} of ${rows} rows, ${result.failures} requests failed: ` +
          `${result.firstFailure}`,
      );
    }
    return { rowsPerSecond: rows / (result.elapsedMs / 1000), cpuSeconds: await time.read() };
  } finally {
    await emulator.close();
  }
}

const rate = (n: number) => Math.round(n).toLocaleString("en-US");

/** CPU seconds of each client on {@link TINY_ROWS} rows, taken off the full runs' CPU. */
interface FixedCost {
  importSeconds: number;
  replaySeconds: number;
}

interface Measured {
  imports: ClientRun[];
  replays: ClientRun[];
  fixed: FixedCost;
}

/** µs of CPU a row beyond the fixed cost; NaN without GNU time. */
const perRow = (run: ClientRun, fixedSeconds: number) =>
  run.cpuSeconds === undefined ? NaN : ((run.cpuSeconds - fixedSeconds) * 1e6) / (ROWS - TINY_ROWS);

/** The fixed CPU cost of each client: the median of three runs on a file of {@link TINY_ROWS} rows. */
async function fixedCost(dir: string, path: Path): Promise<FixedCost> {
  const file = (await writeEntityCsv(`${dir}/tiny-${path}.csv`, TINY_ROWS)).path;
  const recording = `${dir}/tiny-${path}.jsonl`;
  await record(file, path, recording, TINY_ROWS);
  const imports: number[] = [], replays: number[] = [];
  for (let i = 0; i < 3; i++) {
    imports.push((await timedImport(file, path, 0, TINY_ROWS)).cpuSeconds ?? NaN);
    replays.push((await timedReplay(recording, 0, TINY_ROWS)).cpuSeconds ?? NaN);
  }
  return { importSeconds: median(imports), replaySeconds: median(replays) };
}

/** Rounds of the import and the replay, interleaved, each against a fresh emulator. */
async function measure(
  file: string,
  recording: string,
  path: Path,
  latencyMs: number,
  fixed: FixedCost,
): Promise<Measured> {
  const imports: ClientRun[] = [];
  const replays: ClientRun[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    imports.push(await timedImport(file, path, latencyMs));
    replays.push(await timedReplay(recording, latencyMs));
    console.log(
      `  ${path}, ${latencyMs} ms, round ${round + 1}: import ${
        rate(imports.at(-1)!.rowsPerSecond)
      } rows/s ` +
        `(${perRow(imports.at(-1)!, fixed.importSeconds).toFixed(1)} µs CPU a row), bare fetch ${
          rate(replays.at(-1)!.rowsPerSecond)
        } rows/s (${perRow(replays.at(-1)!, fixed.replaySeconds).toFixed(1)} µs)`,
    );
  }
  return { imports, replays, fixed };
}

function report(path: Path, latencyMs: number, requests: number, measured: Measured): void {
  const importRate = median(measured.imports.map((run) => run.rowsPerSecond));
  const bareRate = median(measured.replays.map((run) => run.rowsPerSecond));
  const ratio = median(
    measured.imports.map((run, i) => run.rowsPerSecond / measured.replays[i].rowsPerSecond),
  );
  const id = `bulk.vs-bare-fetch${path === "update" ? ".update" : ""}${
    latencyMs ? `.latency${latencyMs}` : ""
  }`;
  const how = path === "default"
    ? "the default path (lookups before each write, never overwriting)"
    : "the write path (--if-exists=update, no lookups)";
  reportFigure({
    id,
    section: "bulk",
    name: `bulk import ${latencyMs ? `at ${latencyMs} ms latency` : "without added latency"}, ${how}, ` +
      "÷ a bare-fetch client sending the same requests",
    value: importRate,
    unit: "rows/s",
    baseline: { name: `bare fetch, ${IN_FLIGHT} in flight`, value: bareRate },
    ratio,
    ratioLabel: "× the bare-fetch client",
    target: `≥ ${TARGET}× the bare-fetch client`,
    met: ratio >= TARGET,
    detail: path !== "default",
    note: `${ROWS.toLocaleString("en-US")} rows, batch ${BATCH}, --concurrency ${IN_FLIGHT}; ${requests} ` +
      `requests recorded from the import and replayed with bare fetch; median ratio of ${ROUNDS} ` +
      "interleaved round(s), a fresh emulator each",
  });
  if (latencyMs === 0 && gnuTime) {
    const importCpu = median(measured.imports.map((run) => perRow(run, measured.fixed.importSeconds)));
    const bareCpu = median(measured.replays.map((run) => perRow(run, measured.fixed.replaySeconds)));
    reportFigure({
      id: `bulk.client-cpu-per-row${path === "update" ? ".update" : ""}`,
      section: "bulk",
      name: `bulk import client CPU per row, ${how}`,
      value: importCpu,
      unit: "µs",
      baseline: { name: "the bare-fetch client's", value: bareCpu },
      detail: true,
      note: `user + system CPU of the process (GNU time) less that of a ${TINY_ROWS}-row run (start-up: ` +
        `${measured.fixed.importSeconds.toFixed(2)} s for the import, ${
          measured.fixed.replaySeconds.toFixed(2)
        } s for the bare client), ÷ the rows between; median of ${ROUNDS} round(s), ` +
        `${ROWS.toLocaleString("en-US")} rows`,
    });
  }
}

const dir = await Deno.makeTempDir({ prefix: "govcat-client-cpu-bench-" });
try {
  console.log("");
  const file = (await writeEntityCsv(`${dir}/rows.csv`, ROWS)).path;
  for (const path of ["default", "update"] as const) {
    const recording = `${dir}/${path}.jsonl`;
    const requests = await record(file, path, recording);
    const fixed = await fixedCost(dir, path);
    for (const latencyMs of [0, LATENCY_MS]) {
      report(path, latencyMs, requests, await measure(file, recording, path, latencyMs, fixed));
    }
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
