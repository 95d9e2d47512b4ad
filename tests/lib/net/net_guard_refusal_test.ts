/**
 * Connections beyond a guarded listener's limit, over real HTTP on loopback: every refused request gets the
 * 503 with `Retry-After` and a JSON body naming the limit, never a reset ("fetch failed"); a refused
 * connection that sends nothing is closed unanswered; the default limit leaves room for hundreds of
 * sessions.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  DEFAULT_LISTEN_LIMITS,
  EVICTABLE_AFTER_MS,
  type GuardedServer,
  serveGuarded,
} from "../../../lib/net/net_guard.ts";
import { REFUSAL_HEAD_MS } from "../../../lib/net/net_guard_refusal.ts";

const LIMIT = 4;

/** A server of `LIMIT` connections whose `/hold` requests wait for `release`. */
function heldServer() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  const server = serveGuarded(
    {
      hostname: "127.0.0.1",
      port: 0,
      limits: { maxConnections: LIMIT },
      refusedBody: (limit) =>
        JSON.stringify({ error: `at the connection limit (${limit}); raise SOME_VARIABLE` }),
    },
    async (request) => {
      await request.arrayBuffer();
      if (new URL(request.url).pathname === "/hold") await held;
      return new Response("ok");
    },
  );
  return { server, release, base: `http://127.0.0.1:${server.addr.port}` };
}

/** Fills every connection of `server` with a held request; resolves once they are all in flight. */
async function fill(server: GuardedServer, base: string): Promise<Promise<Response>[]> {
  const holding = Array.from({ length: LIMIT }, () => fetch(`${base}/hold`, { method: "POST", body: "x" }));
  const until = Date.now() + 5_000;
  while (server.stats().inflight < LIMIT) {
    assert.ok(Date.now() < until, `held requests in flight: ${JSON.stringify(server.stats())}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return holding;
}

Deno.test("beyond the connection limit, every request gets 503 + Retry-After + a JSON reason, never a reset", async () => {
  const { server, release, base } = heldServer();
  const body = "y".repeat(64 * 1024);
  try {
    const holding = await fill(server, base);
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, async () => {
        try {
          const response = await fetch(`${base}/more`, { method: "POST", body });
          return {
            status: response.status,
            retryAfter: response.headers.get("retry-after"),
            ...await response.json(),
          };
        } catch (error) {
          return { failed: String(error) };
        }
      }),
    );
    const failed = outcomes.filter((outcome) => "failed" in outcome);
    assert.deepEqual(failed, [], `${failed.length} of 60 refused requests failed without an answer`);
    for (const outcome of outcomes) {
      assert.deepEqual(outcome, {
        status: 503,
        retryAfter: "1",
        error: `at the connection limit (${LIMIT}); raise SOME_VARIABLE`,
      });
    }
    release();
    for (const response of await Promise.all(holding)) assert.equal(await response.text(), "ok");
    // Once the held requests are done, new ones are served again.
    assert.equal(await (await fetch(`${base}/more`)).text(), "ok");
  } finally {
    release();
    await server.shutdown();
  }
});

Deno.test("a refused raw connection reads the whole 503 and then the server's close, with no reset", async () => {
  const { server, release, base } = heldServer();
  try {
    const holding = await fill(server, base);
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    const unsent = "z".repeat(200 * 1024);
    const request = `POST /more HTTP/1.1\r\nHost: x\r\ncontent-length: ${unsent.length}\r\n\r\n`;
    await conn.write(new TextEncoder().encode(request));
    // The body follows while the answer is on its way: the server reads and drops it rather than reset.
    const sending = conn.write(new TextEncoder().encode(unsent)).catch((error) => error);
    const received = await new Response(conn.readable).text();
    assert.match(received, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
    assert.match(received, /\r\nretry-after: 1\r\n/);
    assert.match(received, /\r\n\r\n\{"error":"at the connection limit \(4\); raise SOME_VARIABLE"\}$/);
    await sending;
    release();
    await Promise.all((await Promise.all(holding)).map((response) => response.text()));
  } finally {
    release();
    await server.shutdown();
  }
});

Deno.test("a refused connection that sends nothing is closed unanswered (a spare pooled connection)", async () => {
  const { server, release, base } = heldServer();
  try {
    const holding = await fill(server, base);
    const quiet = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    const started = Date.now();
    const received = await new Response(quiet.readable).text();
    assert.equal(received, "");
    assert.ok(Date.now() - started < REFUSAL_HEAD_MS + 1_000, `closed after ${Date.now() - started} ms`);
    release();
    await Promise.all((await Promise.all(holding)).map((response) => response.text()));
  } finally {
    release();
    await server.shutdown();
  }
});

Deno.test("the default connection limit leaves room for 200 sessions of several connections each", () => {
  assert.ok(DEFAULT_LISTEN_LIMITS.maxConnections >= 200 * 4, String(DEFAULT_LISTEN_LIMITS.maxConnections));
});

Deno.test("at the limit, a kept-alive connection used within EVICTABLE_AFTER_MS is kept; the newcomer gets 503", async () => {
  const { server, release, base } = heldServer();
  const pooled: Deno.Conn[] = [];
  try {
    // A client's pool: connections that have just answered a request, kept alive for the next.
    for (let i = 0; i < LIMIT; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
      await conn.write(new TextEncoder().encode("GET /more HTTP/1.1\r\nHost: x\r\n\r\n"));
      const buffer = new Uint8Array(1024);
      let text = "";
      while (!text.endsWith("ok")) {
        text += new TextDecoder().decode(buffer.subarray(0, (await conn.read(buffer))!));
      }
      pooled.push(conn);
    }
    const refused = await fetch(`${base}/more`);
    assert.equal(refused.status, 503);
    await refused.body?.cancel();
    assert.equal(server.stats().connections, LIMIT, "none of the pooled connections was closed");
    await new Promise((resolve) => setTimeout(resolve, EVICTABLE_AFTER_MS + 50));
    assert.equal(await (await fetch(`${base}/more`)).text(), "ok", "a second later, the oldest makes room");
  } finally {
    pooled.forEach((conn) => conn.close());
    release();
    await server.shutdown();
  }
});
