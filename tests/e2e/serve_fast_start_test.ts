/**
 * The stdio fast start (lib/mcp/fast_start.ts, cli/serve_fast.ts) against the ordinary path
 * (GOVCAT_NO_FAST_START=1): real `govcat serve` subprocesses over stdio, a real SDK client and raw JSON-RPC,
 * against an emulator in this process. Clients must see the same answers, in the same order, and
 * configuration errors must end start-up the same way.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import { baseEnv, govcatArgs } from "../support/govcat_process.ts";

type Env = Record<string, string>;
type Message = { id?: unknown; result?: unknown; error?: unknown; [key: string]: unknown };

const byId = (answers: Message[]) => [...answers].sort((a, b) => String(a.id).localeCompare(String(b.id)));

const SLOW: Env = { GOVCAT_NO_FAST_START: "1" };

function catalogEnv(emulator: RunningEmulator, more: Env = {}): Env {
  return { ...baseEnv(), CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url, ...more };
}

function initialize(id: unknown, protocolVersion = "2025-06-18", params: Record<string, unknown> = {}) {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" }, ...params },
  };
}
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };
const SEARCH = { name: "search_entities", arguments: { query: "customers", limit: 3 } };

/**
 * Writes `messages` in one write, reads answers until every id in `ids` has one, then closes stdin.
 * Returns the answers in the order they came, the exit code and stderr.
 */
async function rawSession(
  args: string[],
  env: Env,
  messages: unknown[],
  ids: unknown[],
  beforeServe: string[] = [],
): Promise<{ answers: Message[]; code: number; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: govcatArgs([...beforeServe, "serve", ...args]),
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(messages.map((m) => JSON.stringify(m) + "\n").join("")));
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const answers: Message[] = [];
    while (!ids.every((id) => answers.some((a) => a.id === id))) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      const lines = text.split("\n");
      text = lines.pop()!;
      answers.push(...lines.map((line) => JSON.parse(line)));
    }
    await writer.close();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    answers.push(...text.split("\n").filter(Boolean).map((line) => JSON.parse(line)));
    const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
    return { answers, code: status.code, stderr };
  } finally {
    clearTimeout(killer);
  }
}

/** What an SDK client sees of a session: the initialize result, the tool list and a tool call. */
async function clientView(args: string[], env: Env) {
  const { Client, StdioClientTransport } = await loadMcpClientSdk();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: govcatArgs(["serve", ...args]),
    env,
    stderr: "pipe",
  });
  const client = new Client({ name: "fast-start-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    // Called at once: the real server is still loading when the request is sent.
    const call = await client.callTool(SEARCH);
    const { tools } = await client.listTools();
    return {
      server: client.getServerVersion(),
      capabilities: client.getServerCapabilities(),
      instructions: client.getInstructions(),
      tools,
      call,
    };
  } finally {
    await client.close();
  }
}

const CASES: Array<[label: string, args: string[], env: Env]> = [
  ["default", [], {}],
  ["--read-only", ["--read-only", "--transport=stdio"], {}],
  ["CATALOG_MCP_READ_ONLY", [], { CATALOG_MCP_READ_ONLY: "true" }],
  ["CATALOG_MCP_TOOLS", [], { CATALOG_MCP_TOOLS: "search_entities,get_entity,invoke_operation" }],
  ["CATALOG_MCP_TOOLS deny, read-only", ["--read-only"], { CATALOG_MCP_TOOLS: "-get_entity" }],
];

Deno.test("an SDK client sees the same session with and without the fast start", async () => {
  const emulator = await startEmulator({ seed: true });
  try {
    for (const [label, args, more] of CASES) {
      const [fast, slow] = await Promise.all([
        clientView(args, catalogEnv(emulator, more)),
        clientView(args, catalogEnv(emulator, { ...more, ...SLOW })),
      ]);
      assert.ok(fast.tools.some((tool) => tool.name === "search_entities"), label);
      assert.ok(!fast.call.isError, `${label}: ${JSON.stringify(fast.call.content)}`);
      const hits = (fast.call.structuredContent as { results: Array<{ name: string }> }).results;
      assert.ok(hits.some((hit) => hit.name === "Customers"), `${label}: the call reached the catalog`);
      assert.deepEqual(fast, slow, label);
    }
  } finally {
    await emulator.close();
  }
});

Deno.test("raw JSON-RPC: the same answers; requests sent early wait for the real server", async () => {
  const emulator = await startEmulator({ seed: true });
  try {
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: SEARCH });
    const list = (id: unknown) => ({ jsonrpc: "2.0", id, method: "tools/list" });
    const ping = (id: unknown) => ({ jsonrpc: "2.0", id, method: "ping" });
    const sessions: Array<[label: string, messages: unknown[], ids: unknown[]]> = [
      ["handshake", [initialize(1), INITIALIZED, list(2), ping("p")], [1, 2, "p"]],
      // A call before the tools/list: the fast calls run it, and the list and ping behind it are answered
      // at once, so the call answers last.
      ["call first", [initialize(0), INITIALIZED, call(1), list(2), ping(3)], [0, 1, 2, 3]],
      ["older protocol", [initialize("i", "2024-11-05"), list("l")], ["i", "l"]],
      [
        "unknown protocol",
        [initialize(1, "1999-01-01", { capabilities: { roots: { listChanged: true } } })],
        [
          1,
        ],
      ],
      // Shapes the fast start leaves to the SDK: its answers (errors here) are the reference.
      ["odd initialize", [initialize(1, "2025-06-18", { clientInfo: { name: "x" } }), list(2)], [1, 2]],
      ["bad roots", [initialize(1, "2025-06-18", { capabilities: { roots: { listChanged: "yes" } } })], [1]],
      ["twice", [initialize(1), initialize(2, "2024-11-05"), list(3)], [1, 2, 3]],
      ["unknown method, then list", [initialize(1), { jsonrpc: "2.0", id: 2, method: "nope" }, list(3)], [
        1,
        2,
        3,
      ]],
    ];
    for (const [label, messages, ids] of sessions) {
      const [fast, slow] = await Promise.all([
        rawSession([], catalogEnv(emulator), messages, ids),
        rawSession([], catalogEnv(emulator, SLOW), messages, ids),
      ]);
      assert.equal(fast.code, 0, `${label}: ${fast.stderr}`);
      assert.equal(slow.code, 0, `${label}: ${slow.stderr}`);
      assert.deepEqual(
        fast.answers.map((a) => a.id).sort(),
        [...ids].sort(),
        `${label}: every request answered`,
      );
      // By id: the SDK itself answers out of request order (an unknown method at once, a handler a tick
      // later, a slow tool call after quicker requests sent behind it); clients match answers by id.
      assert.deepEqual(byId(fast.answers), byId(slow.answers), label);
      if (label === "handshake") assert.deepEqual(fast.answers.map((a) => a.id), ids, "in request order");
      if (label === "call first") assert.equal(fast.answers.at(-1)?.id, 1, "the tool call answers last");
    }
  } finally {
    await emulator.close();
  }
});

Deno.test("the fast start answers the handshake without loading the real server", async () => {
  const env = { ...baseEnv(), CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:9" };
  const messages = [initialize(1), INITIALIZED, { jsonrpc: "2.0", id: 2, method: "ping" }];
  const fast = await rawSession(["-v"], env, messages, [1, 2]);
  const slow = await rawSession(["-v"], { ...env, ...SLOW }, messages, [1, 2]);
  assert.deepEqual(fast.answers, slow.answers);
  assert.equal(fast.code, 0);
  // The real server logs when it is up; the input ended before anything needed it.
  assert.match(slow.stderr, /waiting for a client/);
  assert.doesNotMatch(fast.stderr, /waiting for a client/);
});

Deno.test("a first tool call runs before the real server loads, which then takes over its services", async () => {
  const emulator = await startEmulator({ seed: true });
  try {
    const account = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "get_account_properties" },
    };
    const alone = await rawSession(["-v"], catalogEnv(emulator), [initialize(1), INITIALIZED, account], [
      1,
      2,
    ]);
    assert.equal(alone.code, 0, alone.stderr);
    const answer = alone.answers.find((a) => a.id === 2)?.result as {
      structuredContent: { account: unknown };
    };
    assert.equal((answer.structuredContent.account as { name: string }).name, "emulator");
    // The call was done before the real server loaded, if it loaded at all (it may, once the session has
    // been idle for a moment, before the input's end arrives).
    const done = alone.stderr.search(/tool get_account_properties ok/);
    const loaded = alone.stderr.search(/waiting for a client/);
    assert.ok(done >= 0 && (loaded < 0 || done < loaded), alone.stderr);

    const resources = { jsonrpc: "2.0", id: 3, method: "resources/list" };
    const both = await rawSession(["-v"], catalogEnv(emulator), [
      initialize(1),
      INITIALIZED,
      account,
      resources,
    ], [
      1,
      2,
      3,
    ]);
    assert.equal(both.code, 0, both.stderr);
    assert.ok(both.answers.some((a) => a.id === 3 && a.result), "the real server answered resources/list");
    assert.match(both.stderr, /waiting for a client/);
    // One set of services for the process: built once, by the first call, and handed to the real server.
    assert.equal(both.stderr.match(/file root: /g)?.length, 1, both.stderr);
    assert.equal(both.stderr.match(/account emulator via /g)?.length, 1, both.stderr);
  } finally {
    await emulator.close();
  }
});

Deno.test("global options written before serve keep the fast start", async () => {
  const env = { ...baseEnv(), CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:9" };
  const messages = [initialize(1), INITIALIZED, { jsonrpc: "2.0", id: 2, method: "ping" }];
  const fast = await rawSession([], env, messages, [1, 2], ["-v"]);
  const slow = await rawSession([], { ...env, ...SLOW }, messages, [1, 2], ["-v"]);
  assert.deepEqual(fast.answers, slow.answers);
  assert.match(slow.stderr, /waiting for a client/, "-v reached serve as its --verbose");
  assert.doesNotMatch(fast.stderr, /waiting for a client/);
  // A profile named before serve is applied (and an unknown one refused) as after it.
  const config = { ...env, GOVCAT_CONFIG_DIR: "/nonexistent/govcat-config" };
  const [before, after] = await Promise.all([
    rawSession([], config, [initialize(1)], [], ["--profile", "nope"]),
    rawSession(["--profile=nope"], config, [initialize(1)], []),
  ]);
  assert.notEqual(before.code, 0);
  assert.deepEqual([before.code, before.stderr], [after.code, after.stderr]);
});

Deno.test("configuration errors end start-up as the ordinary path does", async () => {
  const base = { ...baseEnv(), CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:9" };
  const { CATALOG_ACCOUNT_NAME: _, ...noAccount } = base;
  const cases: Array<[label: string, args: string[], env: Env]> = [
    ["no account", [], noAccount],
    ["bad account", [], { ...base, CATALOG_ACCOUNT_NAME: "x" }],
    ["bad read-only value", [], { ...base, CATALOG_MCP_READ_ONLY: "maybe" }],
    ["unknown tool", [], { ...base, CATALOG_MCP_TOOLS: "get_entty" }],
    ["missing file root", [], { ...base, CATALOG_MCP_FILE_ROOT: "/nonexistent/govcat-root" }],
    ["bad transport flag", ["--transport=websocket"], base],
    ["unknown profile", ["--profile=nope"], { ...base, GOVCAT_CONFIG_DIR: "/nonexistent/govcat-config" }],
  ];
  for (const [label, args, env] of cases) {
    const [fast, slow] = await Promise.all([
      rawSession(args, env, [initialize(1)], []),
      rawSession(args, { ...env, ...SLOW }, [initialize(1)], []),
    ]);
    assert.notEqual(fast.code, 0, label);
    assert.deepEqual(fast.answers, [], `${label}: nothing answered`);
    assert.deepEqual([fast.code, fast.stderr], [slow.code, slow.stderr], label);
  }
});

Deno.test("--toolsets keeps the fast start, which lists what the ordinary path lists; dynamic mode skips it", async () => {
  const env = { ...baseEnv(), CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:9" };
  const ping = [initialize(1), INITIALIZED, { jsonrpc: "2.0", id: 2, method: "ping" }];
  const fast = await rawSession(["-v", "--toolsets=glossary,types"], env, ping, [1, 2]);
  assert.doesNotMatch(fast.stderr, /waiting for a client/, "answered by the fast start");
  const list = [initialize(1), INITIALIZED, { jsonrpc: "2.0", id: 2, method: "tools/list" }];
  const [listedFast, listedSlow] = await Promise.all([
    rawSession(["--toolsets=glossary,types"], env, list, [1, 2]),
    rawSession(["--toolsets=glossary,types"], { ...env, ...SLOW }, list, [1, 2]),
  ]);
  assert.deepEqual(listedFast.answers, listedSlow.answers);
  const tools =
    (listedFast.answers.find((a) => a.id === 2)?.result as { tools: Array<{ name: string }> }).tools;
  assert.deepEqual(tools.map((tool) => tool.name), [
    "get_glossary_terms",
    "create_glossary_term",
    "assign_term_to_entities",
    "get_typedef",
    "list_typedefs",
  ]);
  const dynamic = await rawSession(["-v"], { ...env, CATALOG_MCP_DYNAMIC_TOOLSETS: "true" }, ping, [1, 2]);
  assert.match(dynamic.stderr, /waiting for a client/, "the real server answered the dynamic mode");
  assert.equal(
    (dynamic.answers.find((a) => a.id === 1)?.result as { capabilities: { tools: { listChanged: boolean } } })
      .capabilities.tools.listChanged,
    true,
  );
});
