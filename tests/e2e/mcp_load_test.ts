/**
 * Load on the tool server: 500 MCP sessions over streamable HTTP at once, each initialized by a real SDK
 * client, calling search_entities and get_entity for a bounded time, then ending with DELETE. The server
 * runs in its own process (tests/support/mcp_load_server.ts, the app `govcat serve --transport=http`
 * builds) so its memory is measured apart from the clients; the emulator runs in this process.
 * Asserted: no failed call or connection, all 500 sessions open at once, none left after they end, and
 * the server's heap (after a full GC) back near its baseline.
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { type LoadServer, type LoadServerStats, startLoadServer } from "../support/mcp_load_server.ts";

const SESSIONS = 500;
/** How long every session keeps calling tools once all are open. */
const LOAD_MS = 4_000;
/** Sessions of the warm-up round, so code loading and JIT are in the baseline, not in the difference. */
const WARM_UP_SESSIONS = 20;
const MB = 1024 * 1024;
/**
 * Heap the server may keep above its baseline once every session has ended (measured: about 2 MB, from
 * caches that grow with use). 500 open sessions cost about 15 MB, so a leak of even half of them would
 * exceed this; the test checks that they do cost more than this, so the bound keeps meaning something.
 */
const HEAP_TOLERANCE = 8 * MB;

type Sdk = Awaited<ReturnType<typeof loadMcpClientSdk>>;
type Client = InstanceType<Sdk["Client"]>;
type Transport = InstanceType<Sdk["StreamableHTTPClientTransport"]>;

interface Session {
  client: Client;
  transport: Transport;
}

interface Tally {
  calls: number;
  errors: string[];
}

async function openSession(sdk: Sdk, url: string, tally: Tally): Promise<Session | undefined> {
  const client = new sdk.Client({ name: "govcat-load", version: "1.0.0" });
  const transport = new sdk.StreamableHTTPClientTransport(new URL(url));
  try {
    await client.connect(transport, { timeout: 30_000 });
    assert.ok(transport.sessionId, "the server assigned a session id");
    return { client, transport };
  } catch (error) {
    tally.errors.push(`connect: ${error}`);
    await client.close().catch(() => {});
    return undefined;
  }
}

/** Calls search_entities then get_entity on a hit, until `until` (at least once). */
async function callTools(session: Session, until: number, tally: Tally): Promise<void> {
  do {
    try {
      const found = await session.client.callTool(
        { name: "search_entities", arguments: { query: "customers", limit: 3 } },
        undefined,
        { timeout: 30_000 },
      );
      tally.calls++;
      if (found.isError) {
        tally.errors.push(`search_entities: ${JSON.stringify(found.content)}`);
        continue;
      }
      const hits = (found.structuredContent as { results: Array<{ guid: string }> }).results;
      if (hits.length === 0) {
        tally.errors.push("search_entities found nothing in the seeded catalog");
        continue;
      }
      const entity = await session.client.callTool(
        { name: "get_entity", arguments: { guid: hits[0].guid, min_ext_info: true } },
        undefined,
        { timeout: 30_000 },
      );
      tally.calls++;
      if (entity.isError) tally.errors.push(`get_entity: ${JSON.stringify(entity.content)}`);
    } catch (error) {
      tally.errors.push(`call: ${error}`);
    }
  } while (Date.now() < until);
}

/** Ends a session the way a client should: DELETE, then close. */
async function endSession(session: Session, tally: Tally): Promise<void> {
  try {
    await session.transport.terminateSession();
    assert.equal(session.transport.sessionId, undefined, "the client forgot the ended session");
  } catch (error) {
    tally.errors.push(`terminate: ${error}`);
  }
  await session.client.close();
}

/** Opens `count` sessions at once, runs `whileOpen` with them, then ends them all. */
async function sessionsRound(
  sdk: Sdk,
  server: LoadServer,
  count: number,
  loadMs: number,
  tally: Tally,
  whileOpen: (open: number) => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  const opened = await Promise.all(Array.from({ length: count }, () => openSession(sdk, server.url, tally)));
  const sessions = opened.filter((s): s is Session => s !== undefined);
  try {
    await whileOpen(sessions.length);
    const until = Date.now() + loadMs;
    await Promise.all(sessions.map((session) => callTools(session, until, tally)));
  } finally {
    await Promise.all(sessions.map((session) => endSession(session, tally)));
  }
}

/** Stats once the server has no session left (ending is asynchronous on its side), or after 10 s. */
async function statsWhenIdle(server: LoadServer): Promise<LoadServerStats> {
  const deadline = Date.now() + 10_000;
  while ((await server.stats({ gc: false })).sessions > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return await server.stats();
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

Deno.test("500 concurrent MCP sessions over streamable HTTP: no error, no leaked session, memory returns", async () => {
  const sdk = await loadMcpClientSdk();
  const emulator = await startEmulator({ seed: true });
  const server = await startLoadServer({
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: emulator.url,
    CATALOG_UNIFIED_ENDPOINT: emulator.url,
    // The client-side limit (50 per second by default) would make this a test of the limiter.
    CATALOG_RATE_LIMIT: "0",
  });
  const started = performance.now();
  try {
    const warmUp: Tally = { calls: 0, errors: [] };
    await sessionsRound(sdk, server, WARM_UP_SESSIONS, 500, warmUp);
    assert.deepEqual(warmUp.errors, [], "the warm-up round ran cleanly");
    const baseline = await statsWhenIdle(server);
    assert.equal(baseline.sessions, 0);
    assert.equal(baseline.collected, true, "the server measures after a full GC");

    const tally: Tally = { calls: 0, errors: [] };
    let atPeak: LoadServerStats | undefined;
    let underLoad: Promise<LoadServerStats> | undefined;
    await sessionsRound(sdk, server, SESSIONS, LOAD_MS, tally, async (open) => {
      assert.equal(open, SESSIONS, `every session opened: ${tally.errors.slice(0, 5).join("\n")}`);
      atPeak = await server.stats();
      // Sampled once the calls are under way, without a GC: what the sessions cost while busy.
      underLoad = new Promise((resolve, reject) =>
        setTimeout(() => server.stats({ gc: false }).then(resolve, reject), LOAD_MS / 2)
      );
    });
    const busy = await underLoad!;
    const after = await statsWhenIdle(server);
    const elapsed = Math.round(performance.now() - started);

    console.log(
      `${SESSIONS} sessions, ${tally.calls} tool calls in ${elapsed} ms; server heap: baseline ` +
        `${mb(baseline.heapUsed)}, ${SESSIONS} sessions open ${
          mb(atPeak!.heapUsed)
        } (after GC), under load ` +
        `${mb(busy.heapUsed)}, after ${mb(after.heapUsed)} (after GC); rss ${mb(baseline.rss)} -> ` +
        `${mb(busy.rss)} -> ${mb(after.rss)}`,
    );
    assert.deepEqual(tally.errors.slice(0, 10), [], `${tally.errors.length} calls or connections failed`);
    assert.equal(atPeak!.sessions, SESSIONS, "the server held every session at once");
    assert.ok(tally.calls >= SESSIONS * 2, `every session called both tools (${tally.calls} calls)`);
    assert.equal(after.sessions, 0, "no session is left once the clients ended theirs");
    assert.ok(
      atPeak!.heapUsed - baseline.heapUsed > HEAP_TOLERANCE,
      `${SESSIONS} open sessions cost more than the tolerance, so leaking them would show ` +
        `(${mb(atPeak!.heapUsed - baseline.heapUsed)})`,
    );
    assert.ok(
      after.heapUsed < baseline.heapUsed + HEAP_TOLERANCE,
      `the heap returns near its baseline: ${mb(after.heapUsed)} vs ${mb(baseline.heapUsed)} ` +
        `(at peak ${mb(atPeak!.heapUsed)})`,
    );
  } finally {
    const stopped = await server.stop();
    await emulator.close();
    assert.equal(stopped.code, 0, `the server stopped cleanly:\n${stopped.stderr}`);
  }
});
