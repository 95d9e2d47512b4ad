import assert from "node:assert/strict";
import {
  FAST_START_DATA,
  fastToolListing,
  type RealServer,
  REPLAY_ID,
  serveFastStart,
} from "../../../lib/mcp/fast_start.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Client input: chunks handed out one read at a time, each once `gate` (if any) resolves; then the end. */
function input(chunks: Array<string | Promise<string>>) {
  let index = 0;
  let pending = new Uint8Array(0);
  return {
    async read(buffer: Uint8Array): Promise<number | null> {
      if (pending.length === 0) {
        if (index >= chunks.length) return null;
        pending = encoder.encode(await chunks[index++]);
      }
      const count = Math.min(buffer.length, pending.length);
      buffer.set(pending.subarray(0, count));
      pending = pending.subarray(count);
      return count;
    },
  };
}

/** A stand-in real server recording what it is fed, in order. */
function recordingServer() {
  const fed: string[] = [];
  let loads = 0;
  let ended = false;
  const server: RealServer = {
    push: (bytes) => fed.push(decoder.decode(bytes)),
    end: () => {
      ended = true;
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
  return {
    raw: () => fed.join(""),
    fed: () => fed.join("").split("\n").filter(Boolean).map((line) => JSON.parse(line)),
    loads: () => loads,
    ended: () => ended,
    load: () => {
      loads++;
      return Promise.resolve(server);
    },
  };
}

const line = (message: unknown) => JSON.stringify(message) + "\n";
const init = (id: unknown, protocolVersion: string) =>
  line({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: { sampling: {} }, clientInfo: { name: "t", version: "1" } },
  });
const initialized = line({ jsonrpc: "2.0", method: "notifications/initialized" });
const request = (id: unknown, method: string, params?: unknown) =>
  line({ jsonrpc: "2.0", id, method, params });

async function session(
  chunks: Array<string | Promise<string>>,
  tools = fastToolListing({ readOnly: false }),
) {
  const written: string[] = [];
  const real = recordingServer();
  await serveFastStart({
    input: input(chunks),
    write: (text) => written.push(text),
    tools,
    loadServer: real.load,
  });
  return { answers: written.map((text) => JSON.parse(text)), real };
}

Deno.test("initialize and ping are answered from the data, without loading the real server", async () => {
  const { answers, real } = await session([init(1, "2024-11-05") + initialized, request(2, "ping")]);
  assert.equal(real.loads(), 0);
  assert.deepEqual(answers, [
    { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2024-11-05", ...FAST_START_DATA.initialize } },
    { jsonrpc: "2.0", id: 2, result: {} },
  ]);
});

Deno.test("an unsupported protocol version gets the SDK's latest", async () => {
  const { answers } = await session([init(1, "1999-01-01")]);
  assert.equal(answers[0].result.protocolVersion, FAST_START_DATA.latestProtocolVersion);
  assert.ok(FAST_START_DATA.supportedProtocolVersions.includes(FAST_START_DATA.latestProtocolVersion));
});

Deno.test("tools/list answers the selected tools, then the real server gets the replayed session", async () => {
  const tools = fastToolListing({ readOnly: true });
  // A message split across reads, and a request after the handshake.
  const listing = request("l", "tools/list");
  const { answers, real } = await session([
    init(7, "2025-06-18") + initialized + listing.slice(0, 10),
    listing.slice(10),
    request(8, "tools/call", { name: "get_entity", arguments: { guid: "g" } }),
  ], tools);
  assert.deepEqual(answers.map((a) => a.id), [7, "l"]);
  assert.deepEqual(answers[1].result.tools, tools);
  assert.ok(!tools.some((tool) => tool.name === "delete_entity"), "read-only mode hides writes");
  assert.equal(real.loads(), 1);
  const fed = real.fed();
  assert.deepEqual(fed.map((m) => [m.id, m.method]), [
    [REPLAY_ID, "initialize"],
    [undefined, "notifications/initialized"],
    [8, "tools/call"],
  ]);
  assert.deepEqual(fed[0].params, JSON.parse(init(7, "2025-06-18")).params, "the client's own parameters");
  assert.ok(real.ended(), "the end of input reaches the real server");
});

Deno.test("requests behind one that waits for the real server wait too, in order", async () => {
  const { answers, real } = await session([
    init(1, "2025-06-18") + request(2, "logging/setLevel", { level: "debug" }) + request(3, "ping") +
    request(4, "tools/list"),
  ]);
  assert.deepEqual(answers.map((a) => a.id), [1]);
  assert.deepEqual(real.fed().map((m) => m.id), [REPLAY_ID, 2, 3, 4]);
});

Deno.test("behind a waiting list of resources or prompts, which changes nothing, the fast start answers on", async () => {
  const { answers, real } = await session([
    init(1, "2025-06-18") + request(2, "resources/list") + request(3, "ping") + request(4, "prompts/list") +
    request(5, "resources/templates/list") + request(6, "tools/list") + request(7, "completion/complete") +
    request(8, "ping"),
  ]);
  assert.deepEqual(answers.map((a) => a.id), [1, 3, 6], "answered here; completion/complete binds the rest");
  assert.deepEqual(real.fed().map((m) => m.id), [REPLAY_ID, 2, 4, 5, 7, 8]);
});

Deno.test("an initialize the SDK might refuse, and a second one, go to the real server", async () => {
  const odd = line({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18" },
  });
  const first = await session([odd]);
  assert.deepEqual(first.answers, []);
  assert.deepEqual(first.real.fed().map((m) => m.id), [1], "no replay: the real server answers it");

  const second = await session([init(1, "2025-06-18") + init(2, "2025-06-18")]);
  assert.deepEqual(second.answers.map((a) => a.id), [1]);
  assert.deepEqual(second.real.fed().map((m) => m.id), [REPLAY_ID, 2]);
});

Deno.test("malformed lines are left to the real server, which reports them as it always does", async () => {
  const { answers, real } = await session(["not json\n" + request(1, "ping")]);
  assert.deepEqual(answers, []);
  assert.equal(real.loads(), 1);
  assert.equal(real.raw(), "not json\n" + request(1, "ping"), "the bytes as they came");
});

Deno.test("the load's steps wait while a fast call runs, and go on once it has answered", async () => {
  const events: string[] = [];
  let finishCall = () => {};
  const callRunning = new Promise<void>((resolve) => (finishCall = resolve));
  let endInput = (_: string) => {};
  const inputEnds = new Promise<string>((resolve) => (endInput = resolve));
  const real = recordingServer();
  const served = serveFastStart({
    input: input([
      init(1, "2025-06-18") + request(2, "tools/call", { name: "get_entity", arguments: { guid: "g" } }) +
      request(3, "resources/list"),
      inputEnds,
    ]),
    write: (text) => events.push(`answer ${JSON.parse(text).id}`),
    tools: fastToolListing({ readOnly: false }),
    calmMaxMs: 60_000,
    loadServer: async (calm) => {
      events.push("load");
      await calm();
      events.push("step");
      return await real.load();
    },
    loadCalls: () => {
      let running = 0;
      return Promise.resolve({
        get running() {
          return running;
        },
        call: async (message) => {
          running++;
          events.push(`call ${message.id}`);
          await callRunning;
          events.push(`answer ${message.id}`);
          running--;
        },
        take: () => false,
        stop: () => Promise.resolve(),
      });
    },
  });
  // The resources/list starts the load at once; its step waits for the call.
  while (!events.includes("call 2")) await new Promise((resolve) => setTimeout(resolve, 1));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(events, ["answer 1", "load", "call 2"]);
  finishCall();
  endInput("");
  await served;
  assert.deepEqual(events, ["answer 1", "load", "call 2", "answer 2", "step"]);
  assert.deepEqual(real.fed().map((m) => m.id), [REPLAY_ID, 3]);
});
