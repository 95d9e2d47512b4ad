/**
 * Memory a peer can make the HTTP transports hold: streamable-HTTP sessions opened and never closed are
 * capped (the least recently used goes first, and its next request is told why), idle ones expire, and an
 * SSE client that does not read has its stream cut off once its backlog passes the bound.
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config/config.ts";
import { createLogger } from "../../../lib/core/log.ts";
import { McpHttpApp } from "../../../lib/mcp/http_app.ts";
import { SESSION_IDLE_MS } from "../../../lib/mcp/streamable_sessions.ts";
import { createToolServices } from "../../../lib/mcp/server.ts";
import { SseServerTransport } from "../../../lib/mcp/sse_transport.ts";

const URL_MCP = "http://127.0.0.1:8000/mcp";
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "sessions", version: "1" } },
});
const MB = 1024 * 1024;

function app(options: { maxSessions?: number; sessionIdleMs?: number; mode?: "sse" } = {}): McpHttpApp {
  // No catalog call is made: initialize and tools/list need none.
  const config = loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:9" });
  const services = createToolServices({ config, logger: createLogger("error", { write: () => {} }) });
  return new McpHttpApp({
    mode: options.mode ?? "streamable-http",
    services,
    host: "127.0.0.1",
    port: 8000,
    ...options,
  });
}

function post(body: string, sessionId?: string): Request {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    host: "127.0.0.1:8000",
  };
  if (sessionId) {
    Object.assign(headers, { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" });
  }
  return new Request(URL_MCP, { method: "POST", headers, body });
}

/** Opens a session and returns its id (the answer's body is read, so nothing stays buffered). */
async function open(server: McpHttpApp): Promise<string> {
  const response = await server.handle(post(INITIALIZE));
  assert.equal(response.status, 200);
  await response.text();
  return response.headers.get("mcp-session-id")!;
}

Deno.test("3,000 sessions never closed: at most the cap are kept and memory stays flat (heap after GC)", async () => {
  const probe = new URL("../../support/session_memory_probe.ts", import.meta.url).pathname;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--v8-flags=--expose-gc", "--allow-env", "--allow-read", probe, "3000", "50"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const { sessions, heapGrowth } = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.equal(sessions, 50);
  // A session holds about 24 KB of heap: 3,000 kept would be about 70 MB, 50 about 1.2 MB.
  assert.ok(heapGrowth < 8 * MB, `heap grew by ${Math.round(heapGrowth / MB)} MB`);
});

Deno.test("past the cap, the evicted session's next request is told why (404, -32001)", async () => {
  const server = app({ maxSessions: 50 });
  try {
    const first = await open(server);
    for (let i = 0; i < 60; i++) await open(server);
    assert.equal(server.sessionCount, 50);
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const evicted = await server.handle(post(list, first));
    assert.equal(evicted.status, 404);
    const { error } = await evicted.json();
    assert.equal(error.code, -32001);
    assert.match(error.message, /at most 50 sessions \(CATALOG_MCP_MAX_SESSIONS\).*least recently used/);
    assert.match(error.message, /Initialize a new session/);
  } finally {
    await server.close();
  }
});

Deno.test("the least recently used session is evicted first, not the oldest one in use", async () => {
  const server = app({ maxSessions: 3 });
  try {
    const [a, b, c] = [await open(server), await open(server), await open(server)];
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const used = await server.handle(post(list, a));
    assert.equal(used.status, 200);
    await used.text();
    await open(server); // b is now the least recently used.
    for (const [id, status] of [[a, 200], [b, 404], [c, 200]] as const) {
      const response = await server.handle(post(list, id));
      assert.equal(response.status, status, id);
      await response.text();
    }
  } finally {
    await server.close();
  }
});

Deno.test("an idle session expires after its timeout; the default timeout is short", async () => {
  assert.ok(SESSION_IDLE_MS <= 10 * 60 * 1000);
  const server = app({ sessionIdleMs: 300 });
  try {
    const id = await open(server);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    assert.equal(server.sessionCount, 0);
    const response = await server.handle(
      post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }), id),
    );
    assert.equal(response.status, 404);
    assert.match((await response.json()).error.message, /idle/);
  } finally {
    await server.close();
  }
});

Deno.test("an SSE client that never reads: its stream is closed once the backlog passes the bound", async () => {
  const transport = new SseServerTransport({
    messagesPath: "/messages",
    keepAliveMs: 0,
    maxBufferedBytes: 256 * 1024,
  });
  const errors: string[] = [];
  transport.onerror = (error) => errors.push(error.message);
  await transport.start();
  transport.response(); // Never read, as by a client that stopped reading.
  const reply = { jsonrpc: "2.0" as const, id: 1, result: { text: "x".repeat(75 * 1024) } };
  let sent = 0;
  for (let i = 0; i < 200; i++) {
    try {
      await transport.send(reply);
      sent++;
    } catch {
      break;
    }
  }
  // 256 KB of backlog is about four 75 KB replies; the next one finds it full.
  assert.ok(sent >= 3 && sent <= 5, `sent ${sent} replies before the cut`);
  await transport.closed;
  assert.match(
    transport.closeReason ?? "",
    /fell behind .* 262144 bytes \(CATALOG_MCP_STREAM_BUFFER_BYTES\)/,
  );
  assert.equal(errors.length, 1);
});

Deno.test("SSE sessions: capped like streamable ones, and a POST to an evicted session says why", async () => {
  const server = app({ mode: "sse", maxSessions: 2 });
  const streams: ReadableStreamDefaultReader<Uint8Array>[] = [];
  try {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await server.handle(
        new Request("http://127.0.0.1:8000/sse", { headers: { host: "127.0.0.1:8000" } }),
      );
      const reader = response.body!.getReader();
      streams.push(reader);
      const first = new TextDecoder().decode((await reader.read()).value);
      ids.push(/sessionId=([\w-]+)/.exec(first)![1]);
    }
    assert.equal(server.sessionCount, 2);
    const response = await server.handle(
      new Request(`http://127.0.0.1:8000/messages?sessionId=${ids[0]}`, {
        method: "POST",
        headers: { host: "127.0.0.1:8000", "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    assert.equal(response.status, 404);
    assert.match(await response.text(), /at most 2 sessions \(CATALOG_MCP_MAX_SESSIONS\)/);
  } finally {
    for (const reader of streams) await reader.cancel().catch(() => {});
    await server.close();
  }
});
