/**
 * BENCHMARKS.md is the generator's output and complete (no bench runs here: the file is read as it is),
 * and the generator's parts work on known input: the bulk bench's lines become figures, a report names
 * what is missing and what is not met.
 */
import assert from "node:assert/strict";
import { bulkFigures, bulkLines } from "./bench_bulk_lines.ts";
import { BENCH_SECTIONS, type BenchFigure, figureLine, percentile } from "./bench_figures.ts";
import {
  type BenchRun,
  FIGURE_IDS_PREFIX,
  type Machine,
  renderReport,
  REPORT_MARKER,
  REQUIRED_FIGURES,
} from "./bench_report.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("BENCHMARKS.md was written by `deno task bench` and holds a figure for every benchmark", async () => {
  const text = await Deno.readTextFile(`${ROOT}BENCHMARKS.md`);
  const lines = text.split("\n");
  assert.equal(lines[0], "# Benchmarks");
  assert.equal(lines[2], REPORT_MARKER, "the generator's marker is the line under the title");
  assert.match(text, /run on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/, "says when it ran");
  for (const row of ["CPU", "Memory", "OS", "Deno", "Load average", "Commit"]) {
    assert.match(text, new RegExp(`^\\| ${row} +\\| \\S`, "m"), `the machine table has its ${row}`);
  }
  const ids = lines.findLast((line) => line.startsWith(FIGURE_IDS_PREFIX));
  assert.ok(ids, "the last line lists the figure ids");
  const present = new Set(ids.slice(FIGURE_IDS_PREFIX.length).replace(/ -->$/, "").split(" "));
  const missing = REQUIRED_FIGURES.filter((id) => !present.has(id));
  assert.deepEqual(missing, [], "every required benchmark has its figures; run `deno task bench`");
  assert.doesNotMatch(text, /Incomplete run/);
  for (const title of Object.values(BENCH_SECTIONS).slice(0, 4)) {
    assert.match(
      text,
      new RegExp(`^\\| ${title.replace(".", "\\.")} +\\| [^|]+ \\| [\\d.,]+ [^|]+ \\|`, "m"),
      `the summary has a figure of ${title}`,
    );
  }
  assert.match(text, /^\| `(GOVCAT_BENCH_QUICK=1 )?deno bench --allow-net=127\.0\.0\.1 /m, "the commands");
});

// The bulk bench's lines, in the format tests/e2e/bulk_import_bench.ts prints.
const BULK_OUTPUT = `
figure  not a bulk line
bulk import, loopback sink (baseline): 100000 rows in 6.1 s = 16,393 rows/s, 82% of the 20,000 rows/s limit (batch 100 × 4 in flight ÷ 20 ms)
bulk import: 100000 rows in 6.4 s = 15,625 rows/s, 78% of the 20,000 rows/s limit (batch 100 × 4 in flight ÷ 20 ms); 95% of the sink baseline
bulk import without added latency: 100000 rows in 3.0 s = 33,333 rows/s; the sink takes 50,000 rows/s, so the emulator itself costs 10.0 µs a row
under a 20 req/s throttle: 19.5 req/s = 98% of R (after the opening burst of 20; 220 bulk writes and 35 429s for 20000 rows in 11.2 s)
peak resident memory for 1,000,000 rows: 120.5 MB (target < 150 MB); 80.2 MB for 100 rows (baseline), 1.50× the baseline; 20,000 rows/s to the sink without latency
peak resident memory for 1,000,000 rows with --v8-flags=--max-old-space-size=96: 107.7 MB (target < 150 MB), 1.32× the baseline; 43,687 rows/s (86% of the unbounded run)
`;

Deno.test("the bulk bench's lines become throughput, throttle and memory figures", () => {
  const lines = bulkLines(BULK_OUTPUT);
  assert.equal(lines.length, 6, "only the figure lines are kept");
  const figures = new Map(bulkFigures(lines).map((figure) => [figure.id, figure]));
  const throughput = figures.get("bulk.throughput")!;
  assert.equal(throughput.value, 15_625);
  assert.equal(throughput.baseline?.value, 20_000);
  assert.equal(throughput.detail, false);
  assert.match(throughput.note!, /95% of the sink baseline/);
  assert.equal(figures.get("bulk.throughput.loopback-sink-baseline")?.detail, true);
  assert.equal(figures.get("bulk.throughput.without-added-latency")?.baseline, undefined);
  const throttle = figures.get("bulk.throttle")!;
  assert.deepEqual([throttle.value, throttle.baseline?.value], [19.5, 20]);
  const memory = figures.get("bulk.memory")!;
  assert.deepEqual([memory.value, memory.baseline?.value, memory.met], [120.5, 80.2, true]);
  const bounded = figures.get("bulk.memory.bounded")!;
  assert.deepEqual([bounded.value, bounded.met, bounded.detail], [107.7, true, false], "in the summary");
  assert.match(bounded.name, /with --v8-flags=--max-old-space-size=96$/);
  assert.match(
    figureLine(memory),
    /121 MB; baseline the same command on 100 rows 80\.2 MB; 1\.50× the baseline/,
  );
});

const ADAPTIVE_OUTPUT = `
adaptive window against a sequential client: 100000 rows in 3.1 s = 32,258 rows/s, 7.41× the sequential client (4,353 rows/s: one batch of 100 after another through the same HTTP client, same emulator, 20 ms latency, 23.0 s); target ≥ 5×: met
under a 20 req/s throttle: 19.6 req/s = 98% of R (after the opening burst of 20; the first second took 28 writes and 12 429s; then 172 writes and 30 429s, 17.4% of them; 20000 rows in 9.2 s, 20000 in the store); target ≥ 90% of R, every row stored, 429s after the first second ≤ 25% of the writes: met
under a 100 req/s throttle: 85.0 req/s = 85% of R (after the opening burst of 100; the first second took 100 writes and 60 429s; then 400 writes and 35 429s, 8.8% of them; 50000 rows in 5.1 s, 50000 in the store); target ≥ 90% of R, every row stored, 429s after the first second ≤ 25% of the writes: not met
`;

Deno.test("the adaptive window's figures: against the sequential client, and under each throttle with its target", () => {
  const lines = bulkLines(ADAPTIVE_OUTPUT);
  assert.equal(lines.length, 3);
  const figures = new Map(bulkFigures(lines).map((figure) => [figure.id, figure]));
  const sequential = figures.get("bulk.vs-sequential")!;
  assert.deepEqual(
    [sequential.value, sequential.baseline?.value, sequential.target, sequential.met],
    [32_258, 4_353, "≥ 5× the sequential client", true],
  );
  assert.match(sequential.baseline!.name, /^sequential client \(one batch of 100 after another/);
  const slow = figures.get("bulk.throttle")!;
  assert.deepEqual([slow.value, slow.baseline?.value, slow.met], [19.6, 20, true]);
  assert.match(slow.target!, /≥ 90% of R, every row stored/);
  const fast = figures.get("bulk.throttle.r100")!;
  assert.deepEqual([fast.value, fast.baseline?.value, fast.met], [85, 100, false]);
});

Deno.test("the default path's throttle figure is a request rate with its own target", () => {
  const line =
    "under a 20 req/s throttle: 18.9 req/s = 95% of R (the defaults: each batch looks its rows up " +
    "before its write, 3.0 requests a batch, so 6.3 writes/s = 95% of the R ÷ 3.0 available to writes; after " +
    "the first second, which took 4 writes and 6 429s; then 196 writes and 9 429s, 4.6% of them; 20000 rows " +
    "in 31.9 s, 20000 in the store); target ≥ 90% of R, every row stored, 429s after the first second ≤ 25% " +
    "of the writes: met";
  const [figure] = bulkFigures(bulkLines(`\n${line}\n`));
  assert.equal(figure.id, "bulk.throttle.defaults.r20");
  assert.deepEqual([figure.value, figure.baseline?.value, figure.met], [18.9, 20, true]);
  assert.match(figure.name, /with its defaults .* sustained request rate \(lookups and writes\)$/);
  assert.match(figure.target!, /^≥ 90% of R/);
  assert.match(figure.note!, /6\.3 writes\/s/);
});

const MACHINE: Machine = {
  cpu: "Test CPU",
  cores: 2,
  memoryGiB: 8,
  os: "linux x86_64",
  deno: "2.9.6",
  load: "0.10 at the start, 0.20 at the end",
  commit: "abc1234",
};

function run(file: string, figures: BenchFigure[], ok = true): BenchRun {
  return { file, command: `deno bench ${file}`, seconds: 1.2, ok, figures, lines: [] };
}

Deno.test("a report shows ratios and targets, and says which figures are missing", () => {
  const startup: BenchFigure = {
    id: "startup.stdio",
    section: "startup",
    name: "serve to tools/list",
    value: 240,
    unit: "ms",
    baseline: { name: "empty script", value: 20 },
    target: "≤ 2× the floor",
    met: false,
  };
  const detail: BenchFigure = {
    id: "startup.breakdown.1",
    section: "startup",
    name: "zod",
    value: 21,
    unit: "ms",
    detail: true,
  };
  const text = renderReport(
    [run("a_bench.ts", [startup, detail]), run("b_bench.ts", [], false)],
    MACHINE,
    new Date(0),
    true,
  );
  assert.equal(text.split("\n")[2], REPORT_MARKER);
  assert.match(text, /quick mode/);
  assert.match(
    text,
    /\| 1\. Start-up \| serve to tools\/list \| 240 ms \| empty script: 20 ms \| 12× the floor \| ≤ 2× the floor \| \*\*not met\*\* \|/,
  );
  assert.doesNotMatch(
    text.slice(0, text.indexOf("## 1. Start-up")),
    /\| zod \|/,
    "details stay out of the summary",
  );
  assert.match(text, /\| zod \| 21 ms \|/);
  assert.match(text, /Failed: `b_bench\.ts`/);
  assert.match(text, /Missing figures: .*`tool-call\.p50`/);
  assert.ok(text.trimEnd().endsWith(`${FIGURE_IDS_PREFIX}startup.stdio startup.breakdown.1 -->`));
});

Deno.test("percentiles are nearest-rank", () => {
  const samples = [5, 1, 4, 2, 3];
  assert.equal(percentile(samples, 0.5), 3);
  assert.equal(percentile(samples, 0.99), 5);
  assert.equal(percentile(samples, 0), 1);
  assert.ok(Number.isNaN(percentile([], 0.5)));
});
