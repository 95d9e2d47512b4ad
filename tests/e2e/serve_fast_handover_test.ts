/**
 * The hand-over from the stdio fast start (lib/mcp/fast_start.ts) to the full server, as a real SDK client
 * over a real `govcat serve` subprocess sees it: requests sent while the full server loads are each
 * answered with their own answer; behind a `resources/list` (which only the full server answers, and which
 * changes nothing) the fast start goes on answering; behind a request whose effect counts
 * (`logging/setLevel`) later requests wait, and are answered after it. No timings are asserted.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import { baseEnv, govcatArgs } from "../support/govcat_process.ts";

type Sdk = Awaited<ReturnType<typeof loadMcpClientSdk>>;
type Client = InstanceType<Sdk["Client"]>;

const ACCOUNT = { name: "get_account_properties" };
const SEARCH = { name: "search_entities", arguments: { query: "customers", limit: 2 } };
/** Requests sent through the load at most, one every few ms: the load ends long before. */
const MAX_REQUESTS = 400;

interface Session {
  client: Client;
  /** Resolves when the full server has said it is serving (its `-v` log line). */
  loaded: Promise<void>;
  isLoaded(): boolean;
  close(): Promise<void>;
}

async function connect(emulator: RunningEmulator, log: string[] = []): Promise<Session> {
  const { Client, StdioClientTransport } = await loadMcpClientSdk();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: govcatArgs(["serve", "-v"]),
    env: { ...baseEnv(), CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url },
    stderr: "pipe",
  });
  let loadedNow = false;
  const stderr = transport.stderr as unknown as AsyncIterable<Uint8Array>;
  const loaded = watchStderr(tee(stderr, log)).then(() => {
    loadedNow = true;
  });
  const client = new Client({ name: "handover-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    loaded,
    isLoaded: () => loadedNow,
    close: async () => {
      await client.close();
      await loaded.catch(() => undefined);
    },
  };
}

/** `stderr` as it comes, its text also kept in `into`. */
async function* tee(stderr: AsyncIterable<Uint8Array>, into: string[]): AsyncIterable<Uint8Array> {
  const decoder = new TextDecoder();
  for await (const chunk of stderr) {
    into.push(decoder.decode(chunk, { stream: true }));
    yield chunk;
  }
}

/** Resolves once the full server's start line is on stderr (and keeps reading, so the pipe never fills). */
function watchStderr(stderr: AsyncIterable<Uint8Array>): Promise<void> {
  return new Promise((resolve, reject) => {
    (async () => {
      const decoder = new TextDecoder();
      let text = "";
      for await (const chunk of stderr) {
        text += decoder.decode(chunk, { stream: true });
        if (text.includes("waiting for a client")) resolve();
      }
      reject(new Error(`the server ended without loading the full server:\n${text}`));
    })().catch(reject);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Checks a call's answer is the answer to that call. */
function assertOwnAnswer(call: typeof ACCOUNT | typeof SEARCH, result: Record<string, unknown>): void {
  assert.ok(!result.isError, JSON.stringify(result));
  const content = result.structuredContent as Record<string, unknown>;
  if (call === ACCOUNT) assert.equal((content.account as { name: string }).name, "emulator");
  else assert.ok(Array.isArray(content.results), JSON.stringify(content));
}

Deno.test("calls sent through the hand-over each get their own answer; behind a resources/list the fast start answers on", async () => {
  const emulator = await startEmulator({ seed: true });
  const session = await connect(emulator);
  try {
    const { client } = session;
    await client.listTools();
    assertOwnAnswer(ACCOUNT, await client.callTool(ACCOUNT));
    const answered: string[] = [];
    // Only the full server answers this: it starts loading now.
    const resources = client.listResources().then((result) => {
      answered.push("resources/list");
      return result;
    });
    const calls: Promise<void>[] = [];
    let afterLoad = 0;
    for (let i = 0; i < MAX_REQUESTS && afterLoad < 5; i++) {
      if (session.isLoaded()) afterLoad++;
      const call = i % 2 === 0 ? ACCOUNT : SEARCH;
      calls.push(
        client.callTool(call).then((result) => {
          assertOwnAnswer(call, result);
          answered.push(`call ${i}`);
        }),
      );
      await pause(5);
    }
    await Promise.all(calls);
    assert.ok((await resources).resources.length > 0);
    assert.equal(afterLoad, 5, "the full server loaded while the calls went on");
    assert.ok(
      answered.indexOf("resources/list") > 0,
      `calls sent after the resources/list were answered before it (the fast start answered them): ${
        answered.slice(0, 5).join(", ")
      }…`,
    );
  } finally {
    await session.close();
    await emulator.close();
  }
});

Deno.test("behind a logging/setLevel sent during the start, a call waits for the full server and is answered after it", async () => {
  const emulator = await startEmulator({ seed: true });
  const session = await connect(emulator);
  try {
    const { client } = session;
    await client.listTools();
    const answered: string[] = [];
    const level = client.setLoggingLevel("debug").then(() => void answered.push("logging/setLevel"));
    const call = client.callTool(ACCOUNT).then((result) => {
      assertOwnAnswer(ACCOUNT, result);
      answered.push("tools/call");
    });
    const ping = client.ping().then(() => void answered.push("ping"));
    await Promise.all([level, call, ping]);
    assert.equal(answered[0], "logging/setLevel", answered.join(", "));
    assert.ok(session.isLoaded() || await session.loaded.then(() => true));
  } finally {
    await session.close();
    await emulator.close();
  }
});

Deno.test("a call the SDK client sends as soon as tools/list is answered runs before the full server loads", async () => {
  const emulator = await startEmulator({ seed: true });
  const log: string[] = [];
  const session = await connect(emulator, log);
  try {
    const { client } = session;
    await client.listTools();
    assertOwnAnswer(ACCOUNT, await client.callTool(ACCOUNT));
    // The full server loads once the client is quiet; the call's log line came before its start line.
    await session.loaded;
    const text = log.join("");
    const done = text.search(/tool get_account_properties ok/);
    assert.ok(done >= 0 && done < text.search(/waiting for a client/), text);
  } finally {
    await session.close();
    await emulator.close();
  }
});
