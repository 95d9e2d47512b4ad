/**
 * Tool-call overhead: `search_entities` through streamable HTTP, against the same search sent directly to
 * the emulator with `fetch` in the same run. The figure is the milliseconds govcat adds at p50 and p99.
 * Target: under 2 ms added at p50, and 200 concurrent calls held with no error.
 *
 * Setup: the emulator in this process (the seed plus 5,000 DataSet entities, its search index built by a
 * warm-up query), and `govcat serve --transport=http` as a real subprocess pointed at it, so the server
 * has its own process and event loop as it has in use. The client is a thin JSON-RPC client on `fetch`
 * (initialize, then `tools/call` with the session header, reading the SSE answer), as thin as the baseline,
 * so the difference is what govcat costs: the MCP transport and protocol, argument and result validation,
 * the catalog client's HTTP core, and the extra hop. The client-side rate limit is off
 * (CATALOG_RATE_LIMIT=0): at its default of 50 requests a second it would pace the calls, which is not
 * overhead. The direct search and the tool call alternate, sample by sample, over the same keywords.
 *
 * Then 200 `tools/call` at once on the session (Promise.all), next to 200 direct searches at once; every
 * call must succeed with the direct answer's count. And the hosted mode (`serve --hosted`, stateless: one
 * server per request) the same way, as a supporting figure.
 *
 * GOVCAT_BENCH_QUICK=1 takes 300 samples instead of 1,500.
 *
 * Run: `deno task bench tests/e2e/tool_call_bench.ts`
 */
import { startEmulator } from "../../lib/emulator/mod.ts";
import { median, percentile, QUICK, reportFigure } from "../support/bench_figures.ts";
import { postJson } from "../support/bench_http.ts";
import { startServe } from "../support/serve_process.ts";

const SAMPLES = QUICK ? 300 : 1_500;
const WARM_UP = 50;
const CONCURRENT = 200;
const ENTITIES = 5_000;
const TARGET_ADDED_P50_MS = 2;
const KEYWORDS = ["customer", "orders", "sales ledger", "invoice", "region 7", "*"];
const PROTOCOL_VERSION = "2025-06-18";

/** A minimal MCP client over streamable HTTP: one session, requests answered as JSON or as an SSE stream. */
class McpSession {
  #url: string;
  #sessionId?: string;
  #nextId = 1;

  constructor(url: string) {
    this.#url = url;
  }

  async initialize(): Promise<void> {
    await this.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "govcat-bench", version: "1" },
    });
    const response = await this.#post({ jsonrpc: "2.0", method: "notifications/initialized" });
    await response.body?.cancel();
    if (response.status !== 202) throw new Error(`notifications/initialized: HTTP ${response.status}`);
  }

  /** Sends one request and returns its JSON-RPC result; throws on an HTTP or JSON-RPC error. */
  async request(method: string, params: unknown): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const response = await this.#post({ jsonrpc: "2.0", id, method, params });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method}: HTTP ${response.status} ${text.slice(0, 300)}`);
    this.#sessionId ??= response.headers.get("mcp-session-id") ?? undefined;
    const messages = response.headers.get("content-type")?.startsWith("text/event-stream")
      ? text.split("\n").filter((line) => line.startsWith("data:")).map((line) => JSON.parse(line.slice(5)))
      : [JSON.parse(text)];
    const answer = messages.find((message) => message.id === id);
    if (!answer) throw new Error(`${method}: no answer in ${text.slice(0, 300)}`);
    if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result;
  }

  /** Calls search_entities; returns the result's `count`, throwing on an error result. */
  async search(keywords: string): Promise<number> {
    const result = await this.request("tools/call", {
      name: "search_entities",
      arguments: { query: keywords, limit: 25 },
    });
    if (result.isError) throw new Error(`search_entities failed: ${JSON.stringify(result.content)}`);
    return (result.structuredContent as { count: number }).count;
  }

  #post(message: unknown): Promise<Response> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL_VERSION,
    };
    if (this.#sessionId) headers["mcp-session-id"] = this.#sessionId;
    return fetch(this.#url, { method: "POST", headers, body: JSON.stringify(message) });
  }
}

const emulator = await startEmulator({ seed: true });
const search = `${emulator.url}/datamap/api/search/query?api-version=2023-09-01`;

/** The baseline: the request the tool's catalog client sends, sent with fetch. */
async function directSearch(keywords: string): Promise<number> {
  const page = JSON.parse(await postJson(search, { keywords, limit: 25 }));
  return page["@search.count"] as number;
}

const SUBJECTS = ["Customer", "Orders", "Sales ledger", "Invoice", "Shipment", "Product", "Supplier"];
for (let start = 0; start < ENTITIES; start += 1_000) {
  const entities = Array.from({ length: Math.min(1_000, ENTITIES - start) }, (_, k) => {
    const i = start + k;
    const subject = SUBJECTS[i % SUBJECTS.length];
    return {
      typeName: "DataSet",
      attributes: {
        qualifiedName: `ds://bench/${i}`,
        name: `${subject} ${i}`,
        description: `${subject} data for region ${i % 10}`,
      },
    };
  });
  await postJson(`${emulator.url}/datamap/api/atlas/v2/entity/bulk?api-version=2023-09-01`, { entities });
}
await directSearch("warm-up");

/** Alternates direct searches and tool calls; returns both sets of round-trip times. */
async function sequential(session: McpSession, samples: number) {
  const direct: number[] = [];
  const tool: number[] = [];
  for (let i = 0; i < WARM_UP + samples; i++) {
    const keywords = KEYWORDS[i % KEYWORDS.length];
    let started = performance.now();
    const expected = await directSearch(keywords);
    const directMs = performance.now() - started;
    started = performance.now();
    const count = await session.search(keywords);
    const toolMs = performance.now() - started;
    if (count !== expected) {
      throw new Error(`search_entities "${keywords}" counted ${count}, not ${expected}`);
    }
    if (i >= WARM_UP) {
      direct.push(directMs);
      tool.push(toolMs);
    }
  }
  return { direct, tool };
}

/** `n` calls at once; returns the wall time and the number that failed or counted wrong. */
async function concurrent(n: number, call: (keywords: string) => Promise<number>) {
  const expected = new Map<string, number>();
  for (const keywords of KEYWORDS) expected.set(keywords, await directSearch(keywords));
  const started = performance.now();
  const outcomes = await Promise.allSettled(
    Array.from({ length: n }, async (_, i) => {
      const keywords = KEYWORDS[i % KEYWORDS.length];
      const count = await call(keywords);
      if (count !== expected.get(keywords)) throw new Error(`"${keywords}" counted ${count}`);
    }),
  );
  const ms = performance.now() - started;
  const failed = outcomes.filter((outcome) => outcome.status === "rejected") as PromiseRejectedResult[];
  return { ms, failed: failed.length, firstError: failed[0]?.reason };
}

const env = {
  CATALOG_ACCOUNT_NAME: "emulator",
  CATALOG_ENDPOINT: emulator.url,
  CATALOG_UNIFIED_ENDPOINT: emulator.url,
  CATALOG_RATE_LIMIT: "0",
};
const server = await startServe(["--transport=http", "--port=0"], env);
const hosted = await startServe(["--hosted", "--port=0"], env);
try {
  const session = new McpSession(server.url);
  await session.initialize();
  const { direct, tool } = await sequential(session, SAMPLES);
  const added = (p: number) => percentile(tool, p) - percentile(direct, p);
  console.log("");
  reportFigure({
    id: "tool-call.p50",
    section: "tool-call",
    name: "search_entities over streamable HTTP, added at p50",
    value: added(0.5),
    unit: "ms",
    baseline: { name: "direct fetch to the emulator, p50", value: median(direct) },
    ratio: median(tool) / median(direct),
    ratioLabel: "× the direct round trip",
    target: `< ${TARGET_ADDED_P50_MS} ms added at p50`,
    met: added(0.5) < TARGET_ADDED_P50_MS,
    note: `${SAMPLES} calls, alternating with the direct search; tool call p50 ${median(tool).toFixed(3)} ms`,
  });
  reportFigure({
    id: "tool-call.p99",
    section: "tool-call",
    name: "search_entities over streamable HTTP, added at p99",
    value: added(0.99),
    unit: "ms",
    baseline: { name: "direct fetch to the emulator, p99", value: percentile(direct, 0.99) },
    ratio: percentile(tool, 0.99) / percentile(direct, 0.99),
    ratioLabel: "× the direct round trip",
    note: `tool call p99 ${percentile(tool, 0.99).toFixed(3)} ms`,
  });

  const directAtOnce = await concurrent(CONCURRENT, directSearch);
  const toolsAtOnce = await concurrent(CONCURRENT, (keywords) => session.search(keywords));
  reportFigure({
    id: "tool-call.concurrent",
    section: "tool-call",
    name: `${CONCURRENT} concurrent search_entities calls on one session, failed`,
    value: toolsAtOnce.failed,
    unit: `of ${CONCURRENT}`,
    baseline: { name: `${CONCURRENT} concurrent direct searches, failed`, value: directAtOnce.failed },
    ratio: toolsAtOnce.ms / directAtOnce.ms,
    ratioLabel: "× the direct searches' wall time",
    target: "0 failed",
    met: toolsAtOnce.failed === 0 && directAtOnce.failed === 0,
    note: `all ${CONCURRENT} in ${toolsAtOnce.ms.toFixed(0)} ms; the direct searches in ` +
      `${directAtOnce.ms.toFixed(0)} ms` +
      (toolsAtOnce.firstError ? `; first error: ${toolsAtOnce.firstError}` : ""),
  });

  // Hosted: no session; each request builds its own server.
  const stateless = new McpSession(hosted.url);
  await stateless.request("initialize", {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: "govcat-bench", version: "1" },
  });
  const hostedRun = await sequential(stateless, Math.round(SAMPLES / 3));
  const hostedAdded = percentile(hostedRun.tool, 0.5) - percentile(hostedRun.direct, 0.5);
  reportFigure({
    id: "tool-call.hosted.p50",
    section: "tool-call",
    name: "search_entities in hosted mode (stateless, a server per request), added at p50",
    value: hostedAdded,
    unit: "ms",
    baseline: { name: "direct fetch to the emulator, p50", value: median(hostedRun.direct) },
    ratio: median(hostedRun.tool) / median(hostedRun.direct),
    ratioLabel: "× the direct round trip",
    note: `${Math.round(SAMPLES / 3)} calls; added at p99 ` +
      `${(percentile(hostedRun.tool, 0.99) - percentile(hostedRun.direct, 0.99)).toFixed(3)} ms`,
    detail: true,
  });
} finally {
  await server.stop();
  await hosted.stop();
  await emulator.close();
}
