/**
 * What a hostile network peer can do to `govcat serve --transport=http`, run as a real subprocess on
 * loopback: half-open connections beyond the process's descriptor limit (`ulimit -n 256`) must not end it
 * and it must answer again (and during the flood) once they go; a request head that never completes is
 * closed within CATALOG_MCP_HEADER_TIMEOUT_MS; requests beyond CATALOG_MCP_MAX_INFLIGHT get 503 with
 * Retry-After; a Host header that is not a host answers 400 without a stack trace in the log.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  govcatArgs,
  type ListeningProcess,
  spawnPiped,
  waitForListening,
} from "../support/govcat_process.ts";

const encoder = new TextEncoder();
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "security", version: "1" } },
});

interface Served extends ListeningProcess {
  port: number;
  /** Settles when the process ends, with its exit code. */
  exited: Promise<number>;
}

/** `govcat serve --transport=http --emulator` (or `mode`) on port 0, under `ulimit -n` when given. */
async function serve(
  env: Record<string, string>,
  descriptorLimit?: number,
  mode = "--transport=http",
): Promise<Served> {
  const args = govcatArgs(["serve", mode, "--port=0", "--emulator"]);
  const child = descriptorLimit === undefined
    ? spawnPiped(args, { env })
    : spawnPiped(["-c", `ulimit -n ${descriptorLimit} && exec "$0" "$@"`, Deno.execPath(), ...args], {
      program: "sh",
      env,
    });
  const exited = child.status.then((status) => status.code);
  const server = await waitForListening(child, "serve", {
    listening: / on (http:\/\/\S+)\n[\s\S]*Press Ctrl\+C/,
  });
  return { ...server, port: Number(new URL(server.url).port), exited };
}

/** POSTs initialize on a new connection; the status, or 0 when the connection failed. */
async function initialize(url: string): Promise<number> {
  // A pooled connection would pass a server that can no longer accept one.
  using client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  try {
    const response = await fetch(url, {
      client,
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: INITIALIZE,
      signal: AbortSignal.timeout(5_000),
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
}

/** Opens a connection and sends `bytes` (a partial request), leaving it open. */
async function halfOpen(
  port: number,
  bytes = "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow",
): Promise<Deno.Conn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(encoder.encode(bytes));
  return conn;
}

/** Reads until the peer closes or `ms` pass; what arrived, whether it closed, and when. */
async function readUntilClosed(conn: Deno.Conn, ms: number): Promise<{ text: string; closed: boolean }> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(4096);
  let text = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => timer = setTimeout(() => resolve("timeout"), ms));
  try {
    for (;;) {
      const read = await Promise.race([conn.read(buffer).catch(() => null), timeout]);
      if (read === "timeout") return { text, closed: false };
      if (read === null) return { text, closed: true };
      text += decoder.decode(buffer.subarray(0, read));
    }
  } finally {
    clearTimeout(timer);
  }
}

function closeAll(conns: Deno.Conn[]): void {
  for (const conn of conns) {
    try {
      conn.close();
    } catch {
      // Closed by the server.
    }
  }
}

Deno.test("300 half-open connections against ulimit -n 256: the server lives, answers during and after", async () => {
  const server = await serve({}, 256);
  const conns: Deno.Conn[] = [];
  try {
    assert.equal(await initialize(server.url), 200);
    for (let i = 0; i < 300; i++) {
      try {
        conns.push(await halfOpen(server.port));
      } catch {
        break; // Refused: only possible once the server has gone.
      }
    }
    // During the flood: the oldest half-open connections make room for a complete request.
    assert.equal(await initialize(server.url), 200, "answered during the flood");
    closeAll(conns);
    assert.equal(await initialize(server.url), 200, "answered after the flood");
    const alive = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r("alive"), 200))]);
    assert.equal(alive, "alive", "the server process is still running");
  } finally {
    closeAll(conns);
    const { stderr } = await server.kill("SIGTERM");
    assert.doesNotMatch(stderr, /Uncaught|panicked/);
  }
});

Deno.test("a request head that never completes is closed (408) within the header timeout, in every mode", async () => {
  for (const mode of ["--transport=http", "--transport=sse", "--hosted"]) {
    const server = await serve({ CATALOG_MCP_HEADER_TIMEOUT_MS: "400" }, undefined, mode);
    try {
      const started = Date.now();
      const conn = await halfOpen(server.port);
      const { text, closed } = await readUntilClosed(conn, 4_000);
      const elapsed = Date.now() - started;
      closeAll([conn]);
      assert.ok(closed, `${mode}: the server closed the connection`);
      assert.match(text, /^HTTP\/1\.1 408 /);
      assert.ok(elapsed >= 350 && elapsed < 2_500, `${mode}: closed after ${elapsed} ms`);
      if (mode === "--transport=http") {
        // A complete request on another connection is unaffected.
        assert.equal(await initialize(server.url), 200);
      }
    } finally {
      await server.kill("SIGTERM");
    }
  }
});

Deno.test("requests beyond CATALOG_MCP_MAX_INFLIGHT get 503 with Retry-After; a bad Host gets 400", async () => {
  const server = await serve({ CATALOG_MCP_MAX_INFLIGHT: "2" });
  const held: Deno.Conn[] = [];
  try {
    // Two requests in flight: their heads are complete, their bodies are not.
    for (let i = 0; i < 2; i++) {
      held.push(
        await halfOpen(
          server.port,
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\ncontent-type: application/json\r\n` +
            `accept: application/json, text/event-stream\r\ncontent-length: ${INITIALIZE.length}\r\n\r\n{`,
        ),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const busy = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: INITIALIZE,
    });
    assert.equal(busy.status, 503);
    assert.equal(busy.headers.get("retry-after"), "1");
    assert.match((await busy.json()).error.message, /busy/);
    closeAll(held);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(await initialize(server.url), 200, "served again once the slots are free");

    const conn = await halfOpen(server.port, "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:22000 evil\r\n\r\n");
    const { text } = await readUntilClosed(conn, 2_000);
    closeAll([conn]);
    assert.match(text, /^HTTP\/1\.1 400 /);
    assert.match(text, /Host header/);
  } finally {
    closeAll(held);
    const { stderr } = await server.kill("SIGTERM");
    assert.doesNotMatch(stderr, /TypeError|\n\s+at /, "no stack trace in the log");
  }
});
