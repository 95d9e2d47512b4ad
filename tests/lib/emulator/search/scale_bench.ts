/**
 * The emulator on a large data file (100,000 and 1,000,000 entities, see `tests/support/large_catalog.ts`),
 * as `govcat emulator --data=FILE` subprocesses:
 *
 * - `emulator.search.first-after-restart.<n>`: from spawning the emulator on a file it has served before
 *   until its first search (two keywords, `POST /search/query`) answers; the baseline is the same start's
 *   first `GET /_emulator/health` answer (start-up with no search work). Median of a few restarts.
 * - `emulator.rss.<n>`: the emulator's resident memory (`VmRSS` of `/proc/<pid>/status`) after a mix of
 *   requests: searches (keywords, a prefix, a filter with facets, `*` over one type with facets), suggest,
 *   autocomplete, browse (roots, a path, a type), lineage both ways at depth 3 and entity reads; the
 *   baseline is the same process's resident memory right after start. The peak (`VmHWM`) is in the note.
 *
 * Each file is a copy of the generated one kept beside it (`search-scale-*.db`), so the emulator's own tables
 * (an index it persists, say) stay out of the file other benches share. Before the measured restarts, one
 * start searches once, so whatever the emulator prepares on a file's first search is done.
 *
 * Run: `deno task bench tests/lib/emulator/search/scale_bench.ts` (`GOVCAT_BENCH_QUICK=1`: one restart).
 */
import { dirname, join } from "node:path";
import { startEmulatorProcess } from "../../../support/emulator_process.ts";
import { type LargeCatalog, largeCatalogFile } from "../../../support/large_catalog.ts";
import { median, QUICK, reportFigure } from "../../../support/bench_figures.ts";

const SIZES = [100_000, 1_000_000];
const RESTARTS = QUICK ? 1 : 3;
const DATAMAP = "/datamap/api";
const CATALOG = "/catalog/api";
const VERSION = "api-version=2023-09-01";
const FIRST_SEARCH = { keywords: "customer history", limit: 25 };
const GOAL_FIRST_SEARCH_MS = 2_000;
const GOAL_RSS_MB = 1_024;

async function request(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text === "" ? undefined : JSON.parse(text);
}

/** `VmRSS` and `VmHWM` of a process, in MB. */
async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  // Read by `cat`: Deno lets only --allow-all read another process's /proc files, and benches run without.
  const output = await new Deno.Command("cat", { args: [`/proc/${pid}/status`], stdout: "piped" }).output();
  const status = new TextDecoder().decode(output.stdout);
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** The bench's own copy of the generated file (made once, then reused like the file it copies). */
async function benchCopy(catalog: LargeCatalog): Promise<string> {
  const copy = join(dirname(catalog.path), `search-scale-${catalog.path.split("/").pop()}`);
  try {
    await Deno.stat(copy);
  } catch {
    const partial = `${copy}.${Deno.pid}.partial`;
    await Deno.copyFile(catalog.path, partial);
    await Deno.rename(partial, copy);
  }
  return copy;
}

/** One start: ms until health answers, ms until the first search answers. */
async function timedStart(dataFile: string): Promise<{ health: number; search: number; hits: number }> {
  const started = performance.now();
  const emulator = await startEmulatorProcess({ port: 0, dataFile });
  try {
    await request(emulator.url, "GET", "/_emulator/health");
    const health = performance.now() - started;
    const result = await request(
      emulator.url,
      "POST",
      `${DATAMAP}/search/query?${VERSION}`,
      FIRST_SEARCH,
    ) as {
      "@search.count": number;
    };
    return { health, search: performance.now() - started, hits: result["@search.count"] };
  } finally {
    await emulator.kill("SIGTERM");
  }
}

/** The requests a user of a large catalog makes, once each, as name and request. */
function queryMix(catalog: LargeCatalog): Array<[string, (url: string) => Promise<unknown>]> {
  const post = (path: string, body: unknown) => (url: string) => request(url, "POST", path, body);
  const get = (path: string) => (url: string) => request(url, "GET", path);
  const search = (body: unknown) => post(`${DATAMAP}/search/query?${VERSION}`, body);
  const browse = (body: unknown) => post(`${CATALOG}/browse?api-version=2023-02-01-preview`, body);
  return [
    ["two keywords", search(FIRST_SEARCH)],
    ["a prefix", search({ keywords: "invo", limit: 25 })],
    [
      "keyword, filter, 3 facets",
      search({
        keywords: "email",
        filter: { and: [{ entityType: "azure_sql_column" }, { classification: "MICROSOFT.PERSONAL.EMAIL" }] },
        facets: [{ facet: "classification" }, { facet: "entityType" }, { facet: "collectionId" }],
        limit: 25,
      }),
    ],
    [
      "* of one type, 2 facets",
      search({
        keywords: "*",
        filter: { entityType: "azure_sql_table" },
        facets: [{ facet: "label" }, { facet: "collectionId" }],
        limit: 25,
      }),
    ],
    ["suggest", post(`${DATAMAP}/search/suggest?${VERSION}`, { keywords: "cust", limit: 10 })],
    ["autocomplete", post(`${DATAMAP}/search/autocomplete?${VERSION}`, { keywords: "inv", limit: 10 })],
    ["browse roots", browse({ limit: 10 })],
    ["browse a type", browse({ entityType: "azure_sql_schema", limit: 10 })],
    [
      "lineage",
      get(`${DATAMAP}/atlas/v2/lineage/${catalog.sampleTableGuid}?direction=BOTH&depth=3&${VERSION}`),
    ],
    ["entity reads", async (url) => {
      for (const guid of [catalog.sampleTableGuid, catalog.sampleProcessGuid]) {
        await request(url, "GET", `${DATAMAP}/atlas/v2/entity/guid/${guid}?${VERSION}`);
      }
    }],
  ];
}

for (const size of SIZES) {
  const label = size === 1_000_000 ? "1m" : `${size / 1000}k`;
  const catalog = await largeCatalogFile(size);
  const dataFile = await benchCopy(catalog);

  // The file's first search, outside the samples: whatever the emulator prepares on it is done here.
  const prepared = performance.now();
  const first = await timedStart(dataFile);
  const prepareMs = performance.now() - prepared;

  const health: number[] = [];
  const search: number[] = [];
  for (let round = 0; round < RESTARTS; round++) {
    const start = await timedStart(dataFile);
    health.push(start.health);
    search.push(start.search);
  }
  const value = median(search);
  reportFigure({
    id: `emulator.search.first-after-restart.${label}`,
    section: "emulator",
    name: `first search after a restart, ${size.toLocaleString("en-US")} entities`,
    value,
    unit: "ms",
    baseline: { name: "the same start until its first health answer", value: median(health) },
    target: "≤ 2 s at 1M",
    met: value <= GOAL_FIRST_SEARCH_MS,
    detail: size !== 1_000_000,
    note: `median of ${RESTARTS} restarts (max ${Math.max(...search).toFixed(0)} ms); two keywords ` +
      `(${first.hits} hits); the file's first start with a search took ${(prepareMs / 1000).toFixed(1)} s`,
  });

  const emulator = await startEmulatorProcess({ port: 0, dataFile });
  try {
    await request(emulator.url, "GET", "/_emulator/health");
    const atStart = await memoryOf(emulator.pid);
    // Memory after each step, so a process that dies on the way still shows where it stood.
    const steps: string[] = [];
    let last = atStart;
    let failure = "";
    for (const [name, send] of queryMix(catalog)) {
      const started = performance.now();
      try {
        await send(emulator.url);
      } catch (error) {
        failure = `${name} failed (${String(error).split("\n")[0].slice(0, 120)})`;
        break;
      }
      last = await memoryOf(emulator.pid);
      steps.push(`${name} ${(performance.now() - started).toFixed(0)} ms → ${Math.round(last.rss)} MB`);
    }
    reportFigure({
      id: `emulator.rss.${label}`,
      section: "emulator",
      name: `emulator resident memory after queries, ${size.toLocaleString("en-US")} entities`,
      value: Math.round(last.rss),
      unit: "MB",
      baseline: { name: "the same process right after start", value: Math.round(atStart.rss) },
      target: "≤ 1 GB at 1M",
      met: failure === "" && last.rss <= GOAL_RSS_MB,
      detail: size !== 1_000_000,
      note: `VmRSS after each request: ${steps.join("; ")}; peak VmHWM ${Math.round(last.peak)} MB` +
        (failure ? `; then ${failure}: the emulator ended, the value is the last reading` : ""),
    });
  } finally {
    await emulator.kill("SIGTERM");
  }
}
