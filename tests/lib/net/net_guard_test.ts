/**
 * The guarded listener in process: what the handler sees (the peer's address, its Host header), the head
 * timeout on a kept-alive connection's next request, the connection cap evicting idle connections, and
 * event streams not holding in-flight slots.
 *
 * @module
 */
import assert from "node:assert/strict";
import { serveGuarded } from "../../../lib/net/net_guard.ts";

const encoder = new TextEncoder();

/** Reads until `pattern` matches what arrived, the peer closes, or `ms` pass. */
async function readUntil(
  conn: Deno.Conn,
  pattern: RegExp,
  ms = 3_000,
): Promise<{ text: string; closed: boolean }> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(4096);
  let text = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => timer = setTimeout(() => resolve("timeout"), ms));
  try {
    while (!pattern.test(text)) {
      const read = await Promise.race([conn.read(buffer).catch(() => null), timeout]);
      if (read === "timeout") return { text, closed: false };
      if (read === null) return { text, closed: true };
      text += decoder.decode(buffer.subarray(0, read));
    }
    return { text, closed: false };
  } finally {
    clearTimeout(timer);
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Closed by the server.
  }
}

Deno.test("the handler sees the peer's address and Host; a kept-alive connection's slow next head is closed", async () => {
  const server = serveGuarded(
    { hostname: "127.0.0.1", port: 0, limits: { headerTimeoutMs: 300 } },
    (request, info) => Response.json({ port: info.remoteAddr.port, host: request.headers.get("host") }),
  );
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  try {
    await conn.write(encoder.encode("GET / HTTP/1.1\r\nHost: example.test:1234\r\n\r\n"));
    const { text } = await readUntil(conn, /\}$/);
    const body = JSON.parse(text.slice(text.indexOf("{")));
    assert.deepEqual(body, { port: (conn.localAddr as Deno.NetAddr).port, host: "example.test:1234" });

    const started = Date.now();
    await conn.write(encoder.encode("GET / HTTP/1.1\r\nHost: x"));
    const late = await readUntil(conn, /(?!)/, 3_000);
    assert.ok(late.closed, "closed");
    assert.ok(Date.now() - started < 2_000, `closed after ${Date.now() - started} ms`);
  } finally {
    closeQuietly(conn);
    await server.shutdown();
  }
});

Deno.test("at the connection cap, the idle connection goes so a new one is served", async () => {
  const server = serveGuarded(
    { hostname: "127.0.0.1", port: 0, limits: { maxConnections: 3 } },
    () => new Response("ok"),
  );
  const idle: Deno.Conn[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
      await conn.write(encoder.encode("GET / HTTP/1.1\r\nHo"));
      idle.push(conn);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(server.stats().connections, 3);
    const response = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(await response.text(), "ok");
    assert.ok(server.stats().connections <= 3);
    // The oldest idle one was closed.
    assert.ok((await readUntil(idle[0], /(?!)/, 2_000)).closed);
  } finally {
    idle.forEach(closeQuietly);
    await server.shutdown();
  }
});

Deno.test("at the connection cap, a connection that has sent nothing is closed without a 408 (it would take it for an answer)", async () => {
  const server = serveGuarded(
    { hostname: "127.0.0.1", port: 0, limits: { maxConnections: 2 } },
    () => new Response("ok"),
  );
  const quiet: Deno.Conn[] = [];
  try {
    // Connections opened and not yet written to, as a client's pool holds them.
    for (let i = 0; i < 2; i++) {
      quiet.push(await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port }));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const response = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(await response.text(), "ok");
    const evicted = await readUntil(quiet[0], /(?!)/, 2_000);
    assert.ok(evicted.closed, "the oldest quiet connection was closed");
    assert.equal(evicted.text, "", "with no response written to it");
  } finally {
    quiet.forEach(closeQuietly);
    await server.shutdown();
  }
});

Deno.test("in-flight cap: the next request gets 503 + Retry-After; open event streams hold no slot", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  const streams: ReadableStreamDefaultController[] = [];
  const server = serveGuarded(
    {
      hostname: "127.0.0.1",
      port: 0,
      limits: { maxInflight: 1 },
      busyResponse: () => Response.json({ busy: true }),
    },
    async (request) => {
      if (new URL(request.url).pathname === "/events") {
        const body = new ReadableStream({ start: (controller) => void streams.push(controller) });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      }
      if (new URL(request.url).pathname === "/slow") await held;
      return new Response("done");
    },
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const events = await fetch(`${base}/events`);
    assert.equal(events.status, 200);
    const slow = fetch(`${base}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const busy = await fetch(`${base}/fast`);
    assert.equal(busy.status, 503);
    assert.equal(busy.headers.get("retry-after"), "1");
    assert.deepEqual(await busy.json(), { busy: true });
    release();
    assert.equal(await (await slow).text(), "done");
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await (await fetch(`${base}/fast`)).text(), "done");
    streams.forEach((controller) => controller.close());
    await events.body?.cancel();
  } finally {
    release();
    await server.shutdown();
  }
});

Deno.test("a peer that stops reading a response is cut off after the write stall time, and the body is cancelled", async () => {
  let cancelled!: () => void;
  const bodyCancelled = new Promise<void>((resolve) => cancelled = resolve);
  const chunk = new Uint8Array(64 * 1024);
  const server = serveGuarded(
    { hostname: "127.0.0.1", port: 0, writeStallMs: 300 },
    () =>
      new Response(
        // Endless: only a peer that reads, or the guard, ends it.
        new ReadableStream({ pull: (controller) => controller.enqueue(chunk), cancel: () => cancelled() }),
      ),
  );
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  try {
    await conn.write(encoder.encode("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    // Never read: the socket buffers fill, then the relay's write to this peer stalls.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      bodyCancelled.then(() => "cancelled"),
      new Promise((resolve) => timer = setTimeout(() => resolve("still streaming"), 5_000)),
    ]);
    clearTimeout(timer);
    assert.equal(outcome, "cancelled");
    assert.equal(server.stats().connections, 0);
  } finally {
    closeQuietly(conn);
    await server.shutdown();
  }
});

Deno.test("shutdown: a request whose body trickles in is cut off after the grace, so it cannot hold the stop", async () => {
  const server = serveGuarded(
    { hostname: "127.0.0.1", port: 0, shutdownGraceMs: 200 },
    async (request) => new Response(`read ${(await request.text()).length} bytes`),
  );
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  try {
    await conn.write(encoder.encode(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1:${server.addr.port}\r\nContent-Length: 1000\r\n\r\nabc`,
    ));
    // The handler has the request and waits for the rest of its body.
    while (server.stats().inflight === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = performance.now();
    const stopped = await Promise.race([
      server.shutdown().then(() => "stopped"),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 3_000)),
    ]);
    assert.equal(stopped, "stopped");
    assert.ok(performance.now() - started >= 150, "the request had its grace first");
    assert.equal((await readUntil(conn, /(?!)/, 1_000)).closed, true);
  } finally {
    closeQuietly(conn);
  }
});
